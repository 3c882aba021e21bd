#!/usr/bin/env bash
# Installs npm dependencies at the lockfile's versions when node_modules is missing or older than
# the lockfile. `npm install` rather than `npm ci`: npm 11 omits other platforms' optional packages
# from the lockfile and `npm ci` then refuses it as out of sync, though nothing is missing here.
# `--include=dev` because `npm run up` runs this with NODE_ENV=production, under which npm would leave
# out (and remove) the dev dependencies that build the product (esbuild, typescript).
set -euo pipefail
if [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  echo "deps: npm install (lockfile versions)"
  npm install --include=dev --no-audit --no-fund --loglevel=error
  # npm may rewrite the lockfile after its record of node_modules: mark the install as the newer.
  touch node_modules/.package-lock.json
fi
