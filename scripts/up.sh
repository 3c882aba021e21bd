#!/usr/bin/env bash
# One command from a fresh clone to a running product: services, dependencies, database, build, processes.
set -euo pipefail
cd "$(dirname "$0")/.."
# A stable signing secret per checkout, made once, unless the operator provides one.
mkdir -p .run
[ -s .run/auth-secret ] || node -e "console.log(require('crypto').randomBytes(32).toString('hex'))" > .run/auth-secret
export AUTH_SECRET="${AUTH_SECRET:-$(cat .run/auth-secret)}"
export NODE_ENV=production
bash scripts/services.sh
bash scripts/deps.sh
npx tsx drizzle/migrate.ts
npx tsx drizzle/seed/run.ts
npx next build
exec npx tsx scripts/run-all.ts
