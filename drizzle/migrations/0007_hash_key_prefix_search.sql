DROP INDEX "transactions_hash_key_idx";--> statement-breakpoint
DROP INDEX "transactions_inbound_hash_key_idx";--> statement-breakpoint
DROP INDEX "transactions_outbound_hash_key_idx";--> statement-breakpoint
CREATE INDEX "transactions_hash_key_idx" ON "transactions" USING btree ("hash_key" text_pattern_ops);--> statement-breakpoint
CREATE INDEX "transactions_inbound_hash_key_idx" ON "transactions" USING btree ("inbound_hash_key" text_pattern_ops);--> statement-breakpoint
CREATE INDEX "transactions_outbound_hash_key_idx" ON "transactions" USING btree ("outbound_hash_key" text_pattern_ops);