-- switchyard:no-transaction
-- The soak's second deploy: an index built without blocking the catalog's reads and writes.
CREATE INDEX CONCURRENTLY IF NOT EXISTS "soak_deploy_assets_name_idx" ON "assets" USING btree ("name");
