#!/usr/bin/env bash
# Fails on any import cycle in the project's own code, type-only imports included: a cycle makes
# module initialisation order matter and hides which layer depends on which.
# Usage: check-cycles.sh [project root]   (defaults to this checkout)
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
cd "${1:-$here}"
dirs=()
for dir in app server workers scripts drizzle client; do [ -d "$dir" ] && dirs+=("$dir"); done
exec "$here/node_modules/.bin/madge" --circular --no-spinner --no-color --extensions ts,tsx --ts-config tsconfig.json "${dirs[@]}"
