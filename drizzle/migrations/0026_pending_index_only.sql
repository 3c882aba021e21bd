-- switchyard:no-transaction
-- Pending swaps read from their indexes alone: the late filter's page sorts its swaps by creation from the late
-- index (created_at added, so no heap row is fetched for a late swap the page skips), and the pending list's
-- "not late" filter and count read late_at and status from an index of the pending swaps in creation order.
CREATE INDEX CONCURRENTLY IF NOT EXISTS "transactions_late_created_idx" ON "transactions" USING btree ("late_at","id","created_at") WHERE "status" = 'PENDING' AND "late_at" IS NOT NULL;
--> statement-breakpoint
DROP INDEX CONCURRENTLY IF EXISTS "transactions_late_idx";
--> statement-breakpoint
CREATE INDEX CONCURRENTLY IF NOT EXISTS "transactions_pending_created_idx" ON "transactions" USING btree ("created_at","id","late_at","status") WHERE "status" = 'PENDING';
