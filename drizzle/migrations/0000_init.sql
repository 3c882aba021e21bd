CREATE TYPE "public"."chain_type" AS ENUM('EVM', 'UTXO', 'COSMOS', 'OTHER');--> statement-breakpoint
CREATE TYPE "public"."source_type" AS ENUM('BRIDGE', 'EXCHANGE', 'SERVICE');--> statement-breakpoint
CREATE TYPE "public"."api_interface" AS ENUM('v1', 'legacy');--> statement-breakpoint
CREATE TYPE "public"."lock_state" AS ENUM('locked', 'executing', 'used');--> statement-breakpoint
CREATE TYPE "public"."transaction_status" AS ENUM('PENDING', 'SUCCESS', 'FAILED', 'REFUND');--> statement-breakpoint
CREATE TABLE "assets" (
	"id" serial PRIMARY KEY NOT NULL,
	"chain_key" text NOT NULL,
	"symbol" text NOT NULL,
	"name" text NOT NULL,
	"address" text NOT NULL,
	"address_key" text NOT NULL,
	"decimals" integer NOT NULL,
	"image" text NOT NULL,
	"is_native" boolean DEFAULT false NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"price_usd" numeric(38, 18),
	"price_source" text,
	"price_updated_at" timestamp with time zone,
	"sort_order" integer DEFAULT 0 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "chains" (
	"id" serial PRIMARY KEY NOT NULL,
	"key" text NOT NULL,
	"name" text NOT NULL,
	"shortname" text NOT NULL,
	"chain_id" bigint NOT NULL,
	"type" "chain_type" NOT NULL,
	"image" text NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"native_symbol" text NOT NULL,
	"native_decimals" integer NOT NULL,
	"explorer_tx_url" text NOT NULL,
	"explorer_address_url" text NOT NULL,
	"bech32_prefix" text,
	"provider_ids" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"sort_order" integer DEFAULT 0 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "chains_key_unique" UNIQUE("key")
);
--> statement-breakpoint
CREATE TABLE "sources" (
	"key" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"image" text NOT NULL,
	"type" "source_type" NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"sort_order" integer DEFAULT 0 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "locks" (
	"id" text PRIMARY KEY NOT NULL,
	"interface" "api_interface" DEFAULT 'v1' NOT NULL,
	"provider" text NOT NULL,
	"route_id" text NOT NULL,
	"src_chain" text NOT NULL,
	"src_asset_id" integer NOT NULL,
	"dst_chain" text NOT NULL,
	"dst_asset_id" integer NOT NULL,
	"amount" text NOT NULL,
	"amount_base" numeric(78, 0) NOT NULL,
	"slippage_bps" integer NOT NULL,
	"depositor" text NOT NULL,
	"recipient" text NOT NULL,
	"referral_code" text,
	"route" jsonb NOT NULL,
	"provider_quote" jsonb NOT NULL,
	"state" "lock_state" DEFAULT 'locked' NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"claimed_at" timestamp with time zone,
	"used_at" timestamp with time zone,
	"transaction_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "provider_calls" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"provider" text NOT NULL,
	"stage" text NOT NULL,
	"outcome" text NOT NULL,
	"latency_ms" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "rate_limit_hits" (
	"minute" timestamp with time zone NOT NULL,
	"route_class" text NOT NULL,
	"client_hash" text NOT NULL,
	"hits" integer NOT NULL,
	CONSTRAINT "rate_limit_hits_minute_route_class_client_hash_pk" PRIMARY KEY("minute","route_class","client_hash")
);
--> statement-breakpoint
CREATE TABLE "referral_codes" (
	"code" text PRIMARY KEY NOT NULL,
	"owner_id" text NOT NULL,
	"label" text,
	"active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "transaction_events" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"transaction_id" text NOT NULL,
	"type" text NOT NULL,
	"from_status" "transaction_status",
	"to_status" "transaction_status",
	"message" text NOT NULL,
	"data" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "transactions" (
	"id" text PRIMARY KEY NOT NULL,
	"lock_id" text NOT NULL,
	"provider" text NOT NULL,
	"status" "transaction_status" DEFAULT 'PENDING' NOT NULL,
	"hash" text DEFAULT '' NOT NULL,
	"inbound_hash" text DEFAULT '' NOT NULL,
	"outbound_hash" text,
	"hash_key" text,
	"inbound_hash_key" text,
	"outbound_hash_key" text,
	"src_chain" text NOT NULL,
	"dst_chain" text NOT NULL,
	"src_asset" jsonb NOT NULL,
	"dst_asset" jsonb NOT NULL,
	"src_amount" text NOT NULL,
	"dst_amount" text NOT NULL,
	"src_amount_base" numeric(78, 0) NOT NULL,
	"dst_amount_base" numeric(78, 0),
	"amount_usd" numeric(38, 8),
	"wallet_address" text NOT NULL,
	"recipient_wallet_address" text NOT NULL,
	"wallet_key" text NOT NULL,
	"recipient_wallet_key" text NOT NULL,
	"fee_amount" text,
	"fee_amount_usd" numeric(38, 8),
	"fee_currency" text,
	"fee_details" jsonb,
	"referral_code" text,
	"quote" jsonb NOT NULL,
	"provider_result" jsonb NOT NULL,
	"tracking_context" jsonb NOT NULL,
	"next_poll_at" timestamp with time zone,
	"last_polled_at" timestamp with time zone,
	"poll_attempts" integer DEFAULT 0 NOT NULL,
	"poll_errors" integer DEFAULT 0 NOT NULL,
	"last_poll_error" text,
	"last_upstream_state" text,
	"stale" boolean DEFAULT false NOT NULL,
	"finalized_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "transactions_lock_id_unique" UNIQUE("lock_id")
);
--> statement-breakpoint
ALTER TABLE "assets" ADD CONSTRAINT "assets_chain_key_chains_key_fk" FOREIGN KEY ("chain_key") REFERENCES "public"."chains"("key") ON DELETE no action ON UPDATE cascade;--> statement-breakpoint
ALTER TABLE "transaction_events" ADD CONSTRAINT "transaction_events_transaction_id_transactions_id_fk" FOREIGN KEY ("transaction_id") REFERENCES "public"."transactions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "transactions" ADD CONSTRAINT "transactions_lock_id_locks_id_fk" FOREIGN KEY ("lock_id") REFERENCES "public"."locks"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "assets_chain_address_key_idx" ON "assets" USING btree ("chain_key","address_key");--> statement-breakpoint
CREATE INDEX "assets_listing_idx" ON "assets" USING btree ("active","sort_order","id");--> statement-breakpoint
CREATE INDEX "assets_chain_listing_idx" ON "assets" USING btree ("chain_key","active","sort_order","id");--> statement-breakpoint
CREATE INDEX "assets_symbol_idx" ON "assets" USING btree (lower("symbol"));--> statement-breakpoint
CREATE INDEX "chains_listing_idx" ON "chains" USING btree ("active","sort_order","id");--> statement-breakpoint
CREATE INDEX "locks_created_idx" ON "locks" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "locks_provider_created_idx" ON "locks" USING btree ("provider","created_at");--> statement-breakpoint
CREATE INDEX "locks_executing_idx" ON "locks" USING btree ("claimed_at") WHERE "locks"."state" = 'executing';--> statement-breakpoint
CREATE INDEX "provider_calls_provider_created_idx" ON "provider_calls" USING btree ("provider","created_at");--> statement-breakpoint
CREATE INDEX "provider_calls_created_idx" ON "provider_calls" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "referral_codes_owner_idx" ON "referral_codes" USING btree ("owner_id");--> statement-breakpoint
CREATE INDEX "transaction_events_tx_idx" ON "transaction_events" USING btree ("transaction_id","id");--> statement-breakpoint
CREATE INDEX "transactions_hash_key_idx" ON "transactions" USING btree ("hash_key");--> statement-breakpoint
CREATE INDEX "transactions_inbound_hash_key_idx" ON "transactions" USING btree ("inbound_hash_key");--> statement-breakpoint
CREATE INDEX "transactions_outbound_hash_key_idx" ON "transactions" USING btree ("outbound_hash_key");--> statement-breakpoint
CREATE INDEX "transactions_wallet_created_idx" ON "transactions" USING btree ("wallet_key","created_at","id");--> statement-breakpoint
CREATE INDEX "transactions_recipient_created_idx" ON "transactions" USING btree ("recipient_wallet_key","created_at","id");--> statement-breakpoint
CREATE INDEX "transactions_referral_created_idx" ON "transactions" USING btree ("referral_code","created_at","id");--> statement-breakpoint
CREATE INDEX "transactions_created_idx" ON "transactions" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX "transactions_status_created_idx" ON "transactions" USING btree ("status","created_at");--> statement-breakpoint
CREATE INDEX "transactions_due_poll_idx" ON "transactions" USING btree ("next_poll_at") WHERE "transactions"."status" = 'PENDING';