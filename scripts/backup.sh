#!/usr/bin/env bash
# backup.sh - dump the Warpost database to a file (pg_dump custom format).
#
#   scripts/backup.sh FILE              database: $DATABASE_URL
#   scripts/backup.sh FILE URL
#
# The dump is consistent (one snapshot) and taken while warpostd serves:
# nothing needs to stop. Restore it with scripts/restore.sh. The custom
# format is compressed and lets pg_restore pick or reorder objects.
# With Docker Compose, run pg_dump in the db container instead:
#   docker compose exec -T db pg_dump -U warpost -Fc warpost > FILE
#
# PG_BINDIR picks the PostgreSQL client (default: the highest installed);
# it must not be older than the server.
set -euo pipefail

die() { echo "backup.sh: $*" >&2; exit 1; }
(($# >= 1 && $# <= 2)) || die "usage: backup.sh FILE [DATABASE_URL]"
file=$1
url=${2:-${DATABASE_URL:-}}
[[ -n $url ]] || die "no database: give a URL or set DATABASE_URL"

bindir=${PG_BINDIR:-$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)}
pg_dump=${bindir:+$bindir/}pg_dump

# Write beside the target, then rename: a failed dump never leaves a
# truncated FILE that looks like a backup.
tmp="$file.partial.$$"
trap 'rm -f "$tmp"' EXIT
"$pg_dump" --format=custom --no-owner --no-privileges --file="$tmp" --dbname="$url"
mv -f "$tmp" "$file"
trap - EXIT
echo "backup.sh: wrote $file ($(stat -c %s "$file") bytes)" >&2
