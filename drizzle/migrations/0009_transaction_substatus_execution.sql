ALTER TABLE "transactions" ADD COLUMN "substatus" text;--> statement-breakpoint
ALTER TABLE "transactions" ADD COLUMN "execution" jsonb;--> statement-breakpoint
UPDATE "transactions" SET "substatus" = CASE "status" WHEN 'SUCCESS' THEN 'COMPLETED' WHEN 'REFUND' THEN 'REFUNDED' WHEN 'FAILED' THEN 'FAILED' END WHERE "status" <> 'PENDING';
