-- switchyard:no-transaction
-- No query reads it: the failed sign-ins panel counts a window of them through audit_events_action_idx.
DROP INDEX CONCURRENTLY IF EXISTS "audit_events_failed_sign_in_address_idx";
