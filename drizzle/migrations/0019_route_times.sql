-- Observed route times (#48). Every swap that succeeds leaves one insert-only delta, in the writer's
-- transaction: how long it took from execute and from the deposit being seen, and the p50/p90 it was
-- shown at lock. The maintenance job folds them into per-day histograms (server/rollups/route-times.ts).
CREATE TABLE "route_time_deltas" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"day" timestamp with time zone NOT NULL,
	"provider" text NOT NULL,
	"src_chain" text NOT NULL,
	"dst_chain" text NOT NULL,
	"src_asset_id" integer NOT NULL,
	"dst_asset_id" integer NOT NULL,
	"execute_seconds" double precision NOT NULL,
	"deposit_seconds" double precision,
	"shown_p50_seconds" double precision,
	"shown_p90_seconds" double precision
);--> statement-breakpoint
CREATE TABLE "route_time_daily" (
	"day" timestamp with time zone NOT NULL,
	"provider" text NOT NULL,
	"src_chain" text NOT NULL,
	"dst_chain" text NOT NULL,
	"src_asset_id" integer NOT NULL,
	"dst_asset_id" integer NOT NULL,
	"swaps" bigint DEFAULT 0 NOT NULL,
	"execute_to_final" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"deposit_to_final" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"promised" bigint DEFAULT 0 NOT NULL,
	"kept" bigint DEFAULT 0 NOT NULL,
	"p50_error" jsonb DEFAULT '{}'::jsonb NOT NULL,
	CONSTRAINT "route_time_daily_day_provider_src_chain_dst_chain_src_asset_id_dst_asset_id_pk" PRIMARY KEY("day","provider","src_chain","dst_chain","src_asset_id","dst_asset_id")
);--> statement-breakpoint
CREATE FUNCTION "histogram_add"(a jsonb, b jsonb) RETURNS jsonb LANGUAGE sql IMMUTABLE AS $$
  SELECT coalesce(jsonb_object_agg(key, n), '{}'::jsonb)
  FROM (SELECT key, sum(value::bigint) AS n FROM (
    SELECT * FROM jsonb_each_text(coalesce(a, '{}'::jsonb)) UNION ALL SELECT * FROM jsonb_each_text(coalesce(b, '{}'::jsonb))
  ) e GROUP BY key) s
$$;--> statement-breakpoint
CREATE FUNCTION "record_route_time_delta"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "route_time_deltas" ("day", "provider", "src_chain", "dst_chain", "src_asset_id", "dst_asset_id",
    "execute_seconds", "deposit_seconds", "shown_p50_seconds", "shown_p90_seconds")
  VALUES (date_trunc('day', NEW."finalized_at", 'UTC'), NEW."provider", NEW."src_chain", NEW."dst_chain",
    coalesce(NEW."src_asset_id", 0), coalesce(NEW."dst_asset_id", 0),
    greatest(extract(epoch FROM NEW."finalized_at" - NEW."created_at"), 0),
    greatest(extract(epoch FROM NEW."finalized_at" - (NEW."tracking_context"->>'depositSeenAt')::timestamptz), 0),
    (NEW."quote"->'observedTime'->>'p50Seconds')::double precision,
    (NEW."quote"->'observedTime'->>'p90Seconds')::double precision);
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "transactions_route_time" AFTER UPDATE ON "transactions" FOR EACH ROW
WHEN (NEW."status" = 'SUCCESS' AND OLD."status" IS DISTINCT FROM 'SUCCESS' AND NEW."finalized_at" IS NOT NULL)
EXECUTE FUNCTION "record_route_time_delta"();--> statement-breakpoint
-- When the swap is usually done (its start plus the route's p90) and when it counts as late (p90 × LATE_FACTOR):
-- set at execute, moved when the deposit is seen; null when the route has no times.
ALTER TABLE "transactions" ADD COLUMN "expected_by" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "transactions" ADD COLUMN "late_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "webhook_endpoints" ADD COLUMN "late_events" boolean DEFAULT false NOT NULL;
