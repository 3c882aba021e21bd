CREATE TABLE "affiliate_daily" (
	"day" timestamp with time zone NOT NULL,
	"referral_code" text NOT NULL,
	"referral_owner_id" text NOT NULL,
	"swaps" bigint DEFAULT 0 NOT NULL,
	"succeeded" bigint DEFAULT 0 NOT NULL,
	"finished" bigint DEFAULT 0 NOT NULL,
	"volume_usd" numeric(38, 8) DEFAULT '0' NOT NULL,
	"fees_usd" numeric(38, 8) DEFAULT '0' NOT NULL,
	CONSTRAINT "affiliate_daily_day_referral_code_referral_owner_id_pk" PRIMARY KEY("day","referral_code","referral_owner_id")
);
--> statement-breakpoint
CREATE TABLE "affiliate_hourly" (
	"hour" timestamp with time zone NOT NULL,
	"referral_code" text NOT NULL,
	"referral_owner_id" text NOT NULL,
	"swaps" bigint DEFAULT 0 NOT NULL,
	"succeeded" bigint DEFAULT 0 NOT NULL,
	"finished" bigint DEFAULT 0 NOT NULL,
	"volume_usd" numeric(38, 8) DEFAULT '0' NOT NULL,
	"fees_usd" numeric(38, 8) DEFAULT '0' NOT NULL,
	CONSTRAINT "affiliate_hourly_hour_referral_code_referral_owner_id_pk" PRIMARY KEY("hour","referral_code","referral_owner_id")
);
--> statement-breakpoint
CREATE TABLE "lock_activity_daily" (
	"day" timestamp with time zone NOT NULL,
	"provider" text NOT NULL,
	"created" bigint DEFAULT 0 NOT NULL,
	"executed" bigint DEFAULT 0 NOT NULL,
	"expired" bigint DEFAULT 0 NOT NULL,
	"seconds_to_execute" jsonb DEFAULT '{}'::jsonb NOT NULL,
	CONSTRAINT "lock_activity_daily_day_provider_pk" PRIMARY KEY("day","provider")
);
--> statement-breakpoint
CREATE TABLE "lock_activity_hourly" (
	"hour" timestamp with time zone NOT NULL,
	"provider" text NOT NULL,
	"created" bigint DEFAULT 0 NOT NULL,
	"executed" bigint DEFAULT 0 NOT NULL,
	"expired" bigint DEFAULT 0 NOT NULL,
	"seconds_to_execute" jsonb DEFAULT '{}'::jsonb NOT NULL,
	CONSTRAINT "lock_activity_hourly_hour_provider_pk" PRIMARY KEY("hour","provider")
);
--> statement-breakpoint
CREATE TABLE "provider_call_daily" (
	"day" timestamp with time zone NOT NULL,
	"provider" text NOT NULL,
	"quote_calls" bigint DEFAULT 0 NOT NULL,
	"quote_errors" bigint DEFAULT 0 NOT NULL,
	"quote_latency_ms" jsonb DEFAULT '{}'::jsonb NOT NULL,
	CONSTRAINT "provider_call_daily_day_provider_pk" PRIMARY KEY("day","provider")
);
--> statement-breakpoint
CREATE TABLE "provider_call_hourly" (
	"hour" timestamp with time zone NOT NULL,
	"provider" text NOT NULL,
	"quote_calls" bigint DEFAULT 0 NOT NULL,
	"quote_errors" bigint DEFAULT 0 NOT NULL,
	"quote_latency_ms" jsonb DEFAULT '{}'::jsonb NOT NULL,
	CONSTRAINT "provider_call_hourly_hour_provider_pk" PRIMARY KEY("hour","provider")
);
--> statement-breakpoint
CREATE TABLE "referral_swap_counts" (
	"referral_code" text NOT NULL,
	"provider" text NOT NULL,
	"src_asset_id" integer NOT NULL,
	"dst_asset_id" integer NOT NULL,
	"status" "transaction_status" NOT NULL,
	"swaps" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "referral_swap_counts_referral_code_provider_src_asset_id_dst_asset_id_status_pk" PRIMARY KEY("referral_code","provider","src_asset_id","dst_asset_id","status")
);
--> statement-breakpoint
CREATE TABLE "rollup_watermarks" (
	"name" text PRIMARY KEY NOT NULL,
	"rolled_until" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "swap_counts" (
	"provider" text NOT NULL,
	"src_asset_id" integer NOT NULL,
	"dst_asset_id" integer NOT NULL,
	"status" "transaction_status" NOT NULL,
	"swaps" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "swap_counts_provider_src_asset_id_dst_asset_id_status_pk" PRIMARY KEY("provider","src_asset_id","dst_asset_id","status")
);
--> statement-breakpoint
CREATE TABLE "swap_hourly" (
	"hour" timestamp with time zone NOT NULL,
	"provider" text NOT NULL,
	"status" "transaction_status" NOT NULL,
	"swaps" bigint DEFAULT 0 NOT NULL,
	"volume_usd" numeric(38, 8) DEFAULT '0' NOT NULL,
	"fees_usd" numeric(38, 8) DEFAULT '0' NOT NULL,
	CONSTRAINT "swap_hourly_hour_provider_status_pk" PRIMARY KEY("hour","provider","status")
);
--> statement-breakpoint
CREATE TABLE "swap_rollup_deltas" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"hour" timestamp with time zone NOT NULL,
	"provider" text NOT NULL,
	"src_asset_id" integer NOT NULL,
	"dst_asset_id" integer NOT NULL,
	"status" "transaction_status" NOT NULL,
	"referral_code" text,
	"referral_owner_id" text,
	"wallet_key" text,
	"recipient_wallet_key" text,
	"swaps" integer NOT NULL,
	"volume_usd" numeric(38, 8) DEFAULT '0' NOT NULL,
	"fees_usd" numeric(38, 8) DEFAULT '0' NOT NULL
);
--> statement-breakpoint
CREATE TABLE "wallet_pair_counts" (
	"wallet_key" text NOT NULL,
	"recipient_wallet_key" text NOT NULL,
	"status" "transaction_status" NOT NULL,
	"swaps" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "wallet_pair_counts_wallet_key_recipient_wallet_key_status_pk" PRIMARY KEY("wallet_key","recipient_wallet_key","status")
);
--> statement-breakpoint
DROP INDEX "transactions_wallet_created_idx";--> statement-breakpoint
DROP INDEX "transactions_recipient_created_idx";--> statement-breakpoint
DROP INDEX "transactions_referral_created_idx";--> statement-breakpoint
DROP INDEX "transactions_status_created_idx";--> statement-breakpoint
ALTER TABLE "transactions" ADD COLUMN "src_asset_id" integer GENERATED ALWAYS AS ((src_asset->>'id')::integer) STORED;--> statement-breakpoint
ALTER TABLE "transactions" ADD COLUMN "dst_asset_id" integer GENERATED ALWAYS AS ((dst_asset->>'id')::integer) STORED;--> statement-breakpoint
CREATE INDEX "wallet_pair_counts_recipient_idx" ON "wallet_pair_counts" USING btree ("recipient_wallet_key");--> statement-breakpoint
CREATE INDEX "locks_unexecuted_created_idx" ON "locks" USING btree ("created_at") WHERE "locks"."state" = 'locked';--> statement-breakpoint
CREATE INDEX "transactions_provider_created_idx" ON "transactions" USING btree ("provider","created_at","id","status");--> statement-breakpoint
CREATE INDEX "transactions_src_asset_created_idx" ON "transactions" USING btree ("src_asset_id","created_at","id","status");--> statement-breakpoint
CREATE INDEX "transactions_dst_asset_created_idx" ON "transactions" USING btree ("dst_asset_id","created_at","id","status");--> statement-breakpoint
CREATE INDEX "transactions_referral_owner_created_idx" ON "transactions" USING btree ("referral_owner_id","created_at","id") WHERE "transactions"."referral_owner_id" is not null;--> statement-breakpoint
CREATE INDEX "transactions_amount_created_idx" ON "transactions" USING btree ("amount_usd" DESC NULLS LAST,"created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "transactions_stale_idx" ON "transactions" USING btree ("created_at","id") WHERE "transactions"."status" = 'PENDING' and "transactions"."stale";--> statement-breakpoint
CREATE INDEX "transactions_wallet_created_idx" ON "transactions" USING btree ("wallet_key","created_at","id","status");--> statement-breakpoint
CREATE INDEX "transactions_recipient_created_idx" ON "transactions" USING btree ("recipient_wallet_key","created_at","id","status");--> statement-breakpoint
CREATE INDEX "transactions_referral_created_idx" ON "transactions" USING btree ("referral_code","created_at","id","status");--> statement-breakpoint
CREATE INDEX "transactions_status_created_idx" ON "transactions" USING btree ("status","created_at","id");--> statement-breakpoint
-- Every change of a transaction that moves it between rollup cells is recorded as deltas: its old
-- cell −1 and its new cell +1, insert-only, in the writer's transaction, so the rollups are exact the
-- moment the change commits and no execute waits on another's counter row. The maintenance job folds
-- them (server/rollups/swaps.ts); readers add the ones not folded yet. Quiet polls change none of these
-- columns and record nothing.
CREATE FUNCTION "record_swap_rollup_delta"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'INSERT' THEN
    INSERT INTO "swap_rollup_deltas" ("hour", "provider", "src_asset_id", "dst_asset_id", "status", "referral_code",
      "referral_owner_id", "wallet_key", "recipient_wallet_key", "swaps", "volume_usd", "fees_usd")
    VALUES (date_trunc('hour', OLD."created_at", 'UTC'), OLD."provider", coalesce(OLD."src_asset_id", 0),
      coalesce(OLD."dst_asset_id", 0), OLD."status", OLD."referral_code", OLD."referral_owner_id", OLD."wallet_key",
      OLD."recipient_wallet_key", -1,
      CASE WHEN OLD."status" = 'SUCCESS' THEN -coalesce(OLD."amount_usd", 0) ELSE 0 END,
      CASE WHEN OLD."status" = 'SUCCESS' THEN -coalesce(OLD."fee_usd", 0) ELSE 0 END);
  END IF;
  IF TG_OP <> 'DELETE' THEN
    INSERT INTO "swap_rollup_deltas" ("hour", "provider", "src_asset_id", "dst_asset_id", "status", "referral_code",
      "referral_owner_id", "wallet_key", "recipient_wallet_key", "swaps", "volume_usd", "fees_usd")
    VALUES (date_trunc('hour', NEW."created_at", 'UTC'), NEW."provider", coalesce(NEW."src_asset_id", 0),
      coalesce(NEW."dst_asset_id", 0), NEW."status", NEW."referral_code", NEW."referral_owner_id", NEW."wallet_key",
      NEW."recipient_wallet_key", 1,
      CASE WHEN NEW."status" = 'SUCCESS' THEN coalesce(NEW."amount_usd", 0) ELSE 0 END,
      CASE WHEN NEW."status" = 'SUCCESS' THEN coalesce(NEW."fee_usd", 0) ELSE 0 END);
  END IF;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "transactions_rollup_added_or_removed" AFTER INSERT OR DELETE ON "transactions" FOR EACH ROW
EXECUTE FUNCTION "record_swap_rollup_delta"();--> statement-breakpoint
CREATE TRIGGER "transactions_rollup_changed" AFTER UPDATE ON "transactions" FOR EACH ROW
WHEN ((
  OLD."status", OLD."provider", OLD."created_at", OLD."src_asset_id", OLD."dst_asset_id", OLD."referral_code",
  OLD."referral_owner_id", OLD."amount_usd", OLD."fee_usd", OLD."wallet_key", OLD."recipient_wallet_key"
) IS DISTINCT FROM (
  NEW."status", NEW."provider", NEW."created_at", NEW."src_asset_id", NEW."dst_asset_id", NEW."referral_code",
  NEW."referral_owner_id", NEW."amount_usd", NEW."fee_usd", NEW."wallet_key", NEW."recipient_wallet_key"
))
EXECUTE FUNCTION "record_swap_rollup_delta"();--> statement-breakpoint
-- The swaps already there enter the rollups as one pre-aggregated delta per cell; the job folds them.
INSERT INTO "swap_rollup_deltas" ("hour", "provider", "src_asset_id", "dst_asset_id", "status", "referral_code",
  "referral_owner_id", "wallet_key", "recipient_wallet_key", "swaps", "volume_usd", "fees_usd")
SELECT date_trunc('hour', "created_at", 'UTC'), "provider", coalesce("src_asset_id", 0), coalesce("dst_asset_id", 0),
  "status", "referral_code", "referral_owner_id", "wallet_key", "recipient_wallet_key", count(*),
  coalesce(sum("amount_usd") FILTER (WHERE "status" = 'SUCCESS'), 0),
  coalesce(sum("fee_usd") FILTER (WHERE "status" = 'SUCCESS'), 0)
FROM "transactions"
GROUP BY 1, 2, 3, 4, 5, 6, 7, 8, 9;
