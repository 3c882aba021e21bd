-- Every change of a transaction that can change its status answer, or which transaction a hash finds,
-- is announced on the channel `transaction_answers` when it commits: the web processes keep status
-- answers in memory and drop the ones it names (server/transactions/answer-changes.ts). The payload
-- names the transaction and every hash key it had before or has after, so a hash that moved to another
-- swap is dropped too. Bookkeeping of tracking (poll counts, next poll time) announces nothing.
-- The columns listed must be the status answer's (STATUS_FIELDS) and the hash lookup's: a test checks.
CREATE FUNCTION "announce_transaction_answer_change"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('transaction_answers', json_build_object(
    'id', coalesce(NEW."id", OLD."id"),
    'hashKeys', array_remove(array[
      NEW."hash_key", NEW."inbound_hash_key", NEW."outbound_hash_key",
      OLD."hash_key", OLD."inbound_hash_key", OLD."outbound_hash_key"
    ], NULL)
  )::text);
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "transactions_answer_changed" AFTER UPDATE ON "transactions" FOR EACH ROW
WHEN ((
  OLD."provider", OLD."status", OLD."substatus", OLD."hash", OLD."inbound_hash", OLD."outbound_hash",
  OLD."src_chain", OLD."dst_chain", OLD."src_asset", OLD."dst_asset", OLD."src_amount", OLD."dst_amount",
  OLD."wallet_address", OLD."recipient_wallet_address", OLD."quoted_fee_usd", OLD."fee_amount",
  OLD."fee_currency", OLD."fee_amount_usd", OLD."fee_usd", OLD."fee_details", OLD."tracking_context",
  OLD."created_at", OLD."updated_at", OLD."finalized_at",
  OLD."hash_key", OLD."inbound_hash_key", OLD."outbound_hash_key", OLD."hash_verified_at"
) IS DISTINCT FROM (
  NEW."provider", NEW."status", NEW."substatus", NEW."hash", NEW."inbound_hash", NEW."outbound_hash",
  NEW."src_chain", NEW."dst_chain", NEW."src_asset", NEW."dst_asset", NEW."src_amount", NEW."dst_amount",
  NEW."wallet_address", NEW."recipient_wallet_address", NEW."quoted_fee_usd", NEW."fee_amount",
  NEW."fee_currency", NEW."fee_amount_usd", NEW."fee_usd", NEW."fee_details", NEW."tracking_context",
  NEW."created_at", NEW."updated_at", NEW."finalized_at",
  NEW."hash_key", NEW."inbound_hash_key", NEW."outbound_hash_key", NEW."hash_verified_at"
))
EXECUTE FUNCTION "announce_transaction_answer_change"();--> statement-breakpoint
-- A new swap can only take a hash lookup over when it arrives with a hash; a deleted one frees its hashes.
CREATE TRIGGER "transactions_answer_added" AFTER INSERT ON "transactions" FOR EACH ROW
WHEN (NEW."hash_key" IS NOT NULL OR NEW."inbound_hash_key" IS NOT NULL OR NEW."outbound_hash_key" IS NOT NULL)
EXECUTE FUNCTION "announce_transaction_answer_change"();--> statement-breakpoint
CREATE TRIGGER "transactions_answer_removed" AFTER DELETE ON "transactions" FOR EACH ROW
EXECUTE FUNCTION "announce_transaction_answer_change"();
