#!/usr/bin/env bash
# One command from a fresh clone to a running product: services, dependencies, database, build, processes.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/auth-secret.sh
export NODE_ENV=production
export NEXT_TELEMETRY_DISABLED=1
bash scripts/services.sh
bash scripts/deps.sh
npx tsx drizzle/migrate.ts
npx tsx drizzle/seed/run.ts
npx next build
exec npx tsx scripts/run-all.ts
