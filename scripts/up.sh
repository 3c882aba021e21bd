#!/usr/bin/env bash
# One command from a fresh clone to a running product: services, dependencies, database, build, processes.
# `npm run up -- --no-build` reuses the last `next build` (.next/); the server code is always recompiled.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/auth-secret.sh
export NODE_ENV=production
export NEXT_TELEMETRY_DISABLED=1

# Each step runs in a process group of its own, so a SIGTERM or SIGINT during it stops all of it.
set -m
step() { "$@" & step_pid=$!; wait "$step_pid"; }
stop_step() { [ -z "${step_pid:-}" ] || kill -TERM -- "-$step_pid" 2>/dev/null || true; exit "$1"; }
trap 'stop_step 143' TERM
trap 'stop_step 130' INT

step bash scripts/services.sh
step bash scripts/deps.sh
step node scripts/build-server.mjs
step node dist/scripts/run-all.js --check-ports
step node dist/drizzle/migrate.js
step node dist/drizzle/seed/run.js
[ "${1:-}" = "--no-build" ] || step node_modules/.bin/next build
exec node dist/scripts/run-all.js
