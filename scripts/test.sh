#!/usr/bin/env bash
# The whole test suite: lint, types, the production build, unit and integration tests on real
# Postgres and Redis (the supervision tests run the built processes), the hot-path bench gate (each
# ratio at least half its target), then the built app end to end in Debian's Chromium, on the e2e
# seed and then on a slice of the demo dataset.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/auth-secret.sh
export NEXT_TELEMETRY_DISABLED=1
bash scripts/services.sh --with-chromium --with-promtool --with-pgbouncer
bash scripts/deps.sh
echo "== lint";       npx biome check .
echo "== cycles";     bash scripts/check-cycles.sh
echo "== client imports"; node scripts/check-client-imports.mjs
echo "== typecheck";  npx tsc --noEmit
echo "== openapi";    npm run lint:openapi
echo "== alert rules"; promtool check rules ops/prometheus/switchyard-rules.yml && promtool test rules ops/prometheus/switchyard-rules.test.yml
echo "== build";      npm run build
echo "== unit + integration"; npx vitest run
echo "== faults";     npm run test:faults
echo "== bench gate"; npm run bench:gate
echo "== e2e";        npx playwright test
echo "== e2e on the demo dataset"; npx playwright test -c playwright.demo.config.ts
