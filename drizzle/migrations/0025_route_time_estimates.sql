-- The promise kept (#48 item 4) counts only the p90s we showed from our own settled swaps. Below
-- ROUTE_TIME_MIN_SAMPLES a route shows the provider's estimate as both its p50 and its p90: a point estimate,
-- beaten about as often as not, which is the provider's promise rather than ours. Those swaps are counted
-- apart (estimates, estimates_kept), so the Operations page and the soak say how each kind of promise held.
-- Deltas recorded before this migration keep counting as before (their source was not recorded).
ALTER TABLE "route_time_deltas" ADD COLUMN "estimate_seconds" double precision;--> statement-breakpoint
ALTER TABLE "route_time_daily" ADD COLUMN "estimates" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "route_time_daily" ADD COLUMN "estimates_kept" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE OR REPLACE FUNCTION "record_route_time_delta"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  shown jsonb := NEW."quote"->'observedTime';
  ours boolean := shown->>'source' IS DISTINCT FROM 'provider';
BEGIN
  INSERT INTO "route_time_deltas" ("day", "provider", "src_chain", "dst_chain", "src_asset_id", "dst_asset_id",
    "execute_seconds", "deposit_seconds", "shown_p50_seconds", "shown_p90_seconds", "estimate_seconds")
  VALUES (date_trunc('day', NEW."finalized_at", 'UTC'), NEW."provider", NEW."src_chain", NEW."dst_chain",
    coalesce(NEW."src_asset_id", 0), coalesce(NEW."dst_asset_id", 0),
    greatest(extract(epoch FROM NEW."finalized_at" - NEW."created_at"), 0),
    greatest(extract(epoch FROM NEW."finalized_at" - (NEW."tracking_context"->>'depositSeenAt')::timestamptz), 0),
    CASE WHEN ours THEN (shown->>'p50Seconds')::double precision END,
    CASE WHEN ours THEN (shown->>'p90Seconds')::double precision END,
    CASE WHEN NOT ours THEN (shown->>'p90Seconds')::double precision END);
  RETURN NULL;
END
$$;
