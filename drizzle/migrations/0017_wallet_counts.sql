CREATE TABLE "wallet_counts" (
	"wallet_key" text NOT NULL,
	"status" "transaction_status" NOT NULL,
	"swaps" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "wallet_counts_wallet_key_status_pk" PRIMARY KEY("wallet_key","status")
);
--> statement-breakpoint
DROP INDEX "wallet_pair_counts_recipient_idx";--> statement-breakpoint
-- A fold in flight finishes first, so the counts start from the same swaps as the pair counts; the
-- deltas not folded yet go into both at their fold.
LOCK TABLE "wallet_pair_counts" IN SHARE MODE;--> statement-breakpoint
INSERT INTO "wallet_counts" ("wallet_key", "status", "swaps")
SELECT "side"."wallet_key", "p"."status", sum("p"."swaps")
FROM "wallet_pair_counts" "p"
CROSS JOIN LATERAL (VALUES ("p"."wallet_key"), (nullif("p"."recipient_wallet_key", "p"."wallet_key"))) "side"("wallet_key")
WHERE "side"."wallet_key" IS NOT NULL
GROUP BY 1, 2;
