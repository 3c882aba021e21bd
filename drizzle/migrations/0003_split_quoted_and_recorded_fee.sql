ALTER TABLE "transactions" ADD COLUMN "quoted_fee_usd" numeric(38, 8);--> statement-breakpoint
-- Execute used to write its quoted USD fee into the recorded columns, and a poll could replace it.
-- A row never polled still holds the execute-time figure; a polled one keeps the fee of its lock's quote.
UPDATE "transactions" SET "quoted_fee_usd" = CASE
  WHEN "last_polled_at" IS NULL AND "fee_currency" = 'USD' THEN "fee_amount_usd"
  WHEN "quote"->'fee'->>'usd' ~ '^[0-9]+(\.[0-9]+)?$' THEN ("quote"->'fee'->>'usd')::numeric
  WHEN "fee_currency" = 'USD' THEN "fee_amount_usd"
END;--> statement-breakpoint
-- Only a provider's status answer is a recorded fee.
UPDATE "transactions" SET "fee_amount" = NULL, "fee_currency" = NULL, "fee_amount_usd" = NULL
WHERE "last_polled_at" IS NULL OR "fee_amount" IS NULL;--> statement-breakpoint
ALTER TABLE "transactions" ADD COLUMN "fee_usd" numeric(38, 8) GENERATED ALWAYS AS (coalesce(fee_amount_usd, quoted_fee_usd)) STORED;
