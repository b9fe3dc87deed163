#!/usr/bin/env bash
# restore.sh - restore a dump made by scripts/backup.sh into a database.
#
#   scripts/restore.sh FILE             database: $DATABASE_URL
#   scripts/restore.sh FILE URL
#
# The target should be an empty database (createdb, or a fresh compose
# volume); with WP_RESTORE_CLEAN=1 the objects the dump holds are dropped
# first (--clean --if-exists), for restoring over a broken copy. Stop every
# warpostd that uses the target first, and start them after: they then
# apply only migrations newer than the dump. The restore is one transaction:
# it either completes or changes nothing.
# With Docker Compose:
#   docker compose stop app1 app2
#   docker compose exec -T db pg_restore -U warpost -d warpost --clean \
#       --if-exists --no-owner --single-transaction < FILE
#   docker compose start app1 app2
set -euo pipefail

die() { echo "restore.sh: $*" >&2; exit 1; }
(($# >= 1 && $# <= 2)) || die "usage: restore.sh FILE [DATABASE_URL]"
file=$1
url=${2:-${DATABASE_URL:-}}
[[ -n $url ]] || die "no database: give a URL or set DATABASE_URL"
[[ -r $file ]] || die "cannot read $file"

bindir=${PG_BINDIR:-$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)}
pg_restore=${bindir:+$bindir/}pg_restore

args=(--no-owner --no-privileges --single-transaction --exit-on-error)
if [[ ${WP_RESTORE_CLEAN:-0} == 1 ]]; then
    args+=(--clean --if-exists)
fi
"$pg_restore" "${args[@]}" --dbname="$url" "$file"
echo "restore.sh: restored $file" >&2
