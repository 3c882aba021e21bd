#!/usr/bin/env bash
# The product as Playwright drives it: a fresh database of its own, the built app, on its own port.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/auth-secret.sh
export NEXT_TELEMETRY_DISABLED=1
export DATABASE_URL="${E2E_DATABASE_URL:-postgres://postgres:postgres@127.0.0.1:5432/switchyard_e2e}"
# E2E_PORT, E2E_DATABASE_URL, E2E_REDIS_PREFIX, SIMULATOR_BASE_PORT and E2E_WORKER_HEALTH_PORT move a second
# run (another checkout) out of this one's way; the specs read the same variables.
export REDIS_PREFIX="${E2E_REDIS_PREFIX:-e2e}" PORT="${E2E_PORT:-3210}" NODE_ENV=production LOG_LEVEL=warn
export SIMULATOR_BASE_PORT="${SIMULATOR_BASE_PORT:-4810}" WORKER_HEALTH_PORT="${E2E_WORKER_HEALTH_PORT:-3310}"
export TRACKING_TIME_SCALE=0.05 TRACKING_MIN_INTERVAL_MS=100
# The Rate limits page reads 429s once rolled up: a few seconds after they happen, not a minute.
export RATE_LIMIT_ROLLUP_INTERVAL_MS=2000
# The route-times spec writes route_time_daily rows: read again within a second, not a minute.
export ROUTE_TIME_CACHE_MS=1000
# The webhook test's receiver listens on loopback.
export WEBHOOK_ALLOW_PRIVATE_TARGETS=true
node scripts/build-server.mjs
node dist/drizzle/migrate.js --reset
node dist/drizzle/seed/run.js
# E2E_DEMO_SWAPS: the demo dataset (a year of generated swaps, drizzle/seed/demo.ts) before any user exists,
# for the specs that read pages on data no test wrote (playwright.demo.config.ts). The loader refuses
# NODE_ENV=production, which guards real deployments; this database is the e2e run's own.
if [ -n "${E2E_DEMO_SWAPS:-}" ]; then NODE_ENV=development npx tsx drizzle/seed/demo.ts --swaps "$E2E_DEMO_SWAPS"; fi
node dist/scripts/create-admin.js --email admin@e2e.switchyard.test --password 'e2e-admin-password-not-secret' --name 'E2E Admin'
exec node dist/scripts/run-all.js
