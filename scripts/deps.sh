#!/usr/bin/env bash
# Installs npm dependencies from the lockfile when node_modules is missing or older than the lockfile.
set -euo pipefail
if [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  echo "deps: npm ci"
  npm ci --no-audit --no-fund --loglevel=error
fi
