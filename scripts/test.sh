#!/usr/bin/env bash
# The whole test suite: lint, types, unit and integration tests on real Postgres and Redis,
# then the built app end to end in Debian's Chromium.
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p .run
[ -s .run/auth-secret ] || node -e "console.log(require('crypto').randomBytes(32).toString('hex'))" > .run/auth-secret
export AUTH_SECRET="${AUTH_SECRET:-$(cat .run/auth-secret)}"
bash scripts/services.sh --with-chromium
bash scripts/deps.sh
echo "== lint";       npx biome check .
echo "== typecheck";  npx tsc --noEmit
echo "== unit + integration"; npx vitest run
echo "== faults";     npm run test:faults
echo "== build";      npx next build
echo "== e2e";        npx playwright test
