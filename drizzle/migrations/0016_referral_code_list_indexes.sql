DROP INDEX "referral_codes_owner_idx";--> statement-breakpoint
CREATE INDEX "referral_codes_created_idx" ON "referral_codes" USING btree ("created_at","code");--> statement-breakpoint
CREATE INDEX "referral_codes_owner_created_idx" ON "referral_codes" USING btree ("owner_id","created_at","code");