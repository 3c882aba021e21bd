-- The soak's first deploy: an expand step on the busiest table (a nullable column, no default: a catalog change, no rewrite).
ALTER TABLE "transactions" ADD COLUMN IF NOT EXISTS "soak_deploy_note" text;
