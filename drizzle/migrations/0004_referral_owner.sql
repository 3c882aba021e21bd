ALTER TABLE "locks" ADD COLUMN "referral_owner_id" text;--> statement-breakpoint
ALTER TABLE "transactions" ADD COLUMN "referral_owner_id" text;