#!/usr/bin/env bash
# ctest ops_compose_schema: installs tests/ops's npm packages from the lock
# file when they are missing or stale (as scripts/test.sh does for the other
# tool directories), then runs compose_check.mjs.
#   compose_schema.sh docker-compose.yml .env.example
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
if [[ ! -d $here/node_modules || $here/package-lock.json -nt $here/node_modules ]]; then
    echo "compose_schema.sh: npm ci in tests/ops" >&2
    npm ci --prefix "$here" --no-audit --no-fund >&2
fi
exec node "$here/compose_check.mjs" "$@"
