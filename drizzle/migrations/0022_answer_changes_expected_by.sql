-- The status answer carries `expectedBy` (#48): a change of expected_by (moved when the deposit is seen) must
-- drop the web processes' kept answers like any other column of the answer (0012; a test checks the list).
CREATE OR REPLACE TRIGGER "transactions_answer_changed" AFTER UPDATE ON "transactions" FOR EACH ROW
WHEN ((
  OLD."provider", OLD."status", OLD."substatus", OLD."hash", OLD."inbound_hash", OLD."outbound_hash",
  OLD."src_chain", OLD."dst_chain", OLD."src_asset", OLD."dst_asset", OLD."src_amount", OLD."dst_amount",
  OLD."wallet_address", OLD."recipient_wallet_address", OLD."quoted_fee_usd", OLD."fee_amount",
  OLD."fee_currency", OLD."fee_amount_usd", OLD."fee_usd", OLD."fee_details", OLD."tracking_context",
  OLD."created_at", OLD."updated_at", OLD."finalized_at", OLD."expected_by",
  OLD."hash_key", OLD."inbound_hash_key", OLD."outbound_hash_key", OLD."hash_verified_at"
) IS DISTINCT FROM (
  NEW."provider", NEW."status", NEW."substatus", NEW."hash", NEW."inbound_hash", NEW."outbound_hash",
  NEW."src_chain", NEW."dst_chain", NEW."src_asset", NEW."dst_asset", NEW."src_amount", NEW."dst_amount",
  NEW."wallet_address", NEW."recipient_wallet_address", NEW."quoted_fee_usd", NEW."fee_amount",
  NEW."fee_currency", NEW."fee_amount_usd", NEW."fee_usd", NEW."fee_details", NEW."tracking_context",
  NEW."created_at", NEW."updated_at", NEW."finalized_at", NEW."expected_by",
  NEW."hash_key", NEW."inbound_hash_key", NEW."outbound_hash_key", NEW."hash_verified_at"
))
EXECUTE FUNCTION "announce_transaction_answer_change"();
