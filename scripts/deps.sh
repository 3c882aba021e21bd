#!/usr/bin/env bash
# Installs npm dependencies at the lockfile's versions when node_modules is missing or older than
# the lockfile. `npm install` rather than `npm ci`: npm 11 omits other platforms' optional packages
# from the lockfile and `npm ci` then refuses it as out of sync, though nothing is missing here.
set -euo pipefail
if [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  echo "deps: npm install (lockfile versions)"
  npm install --no-audit --no-fund --loglevel=error
fi
