-- switchyard:no-transaction
-- Pending swaps by when they turn late: the late filter and sort, and the late sweep, read only these.
CREATE INDEX CONCURRENTLY IF NOT EXISTS "transactions_late_idx" ON "transactions" USING btree ("late_at","id") WHERE "status" = 'PENDING' AND "late_at" IS NOT NULL;
