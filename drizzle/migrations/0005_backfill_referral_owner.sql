-- Existing swaps keep their attribution only where the code was registered before the swap was locked;
-- the code as sent stays in the transaction's 'created' event.
UPDATE "locks" l SET "referral_owner_id" = rc."owner_id", "referral_code" = rc."code"
FROM "referral_codes" rc
WHERE lower(rc."code") = lower(l."referral_code") AND rc."created_at" <= l."created_at";--> statement-breakpoint
UPDATE "locks" SET "referral_code" = NULL WHERE "referral_owner_id" IS NULL AND "referral_code" IS NOT NULL;--> statement-breakpoint
UPDATE "transactions" t SET "referral_owner_id" = l."referral_owner_id", "referral_code" = l."referral_code"
FROM "locks" l
WHERE l."id" = t."lock_id" AND t."referral_code" IS NOT NULL AND lower(t."referral_code") = lower(l."referral_code");--> statement-breakpoint
UPDATE "transactions" t SET "referral_owner_id" = rc."owner_id", "referral_code" = rc."code"
FROM "referral_codes" rc, "locks" l
WHERE l."id" = t."lock_id" AND t."referral_owner_id" IS NULL AND lower(rc."code") = lower(t."referral_code")
  AND rc."created_at" <= l."created_at";--> statement-breakpoint
UPDATE "transactions" SET "referral_code" = NULL WHERE "referral_owner_id" IS NULL AND "referral_code" IS NOT NULL;
