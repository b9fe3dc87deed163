#!/usr/bin/env bash
# ctest fixture for the api tests: ONE PostgreSQL cluster shared by all of
# them (each test module makes its own database in it).
#
#   pg_fixture.sh start BASE    start the cluster, write BASE/admin_url
#   pg_fixture.sh stop BASE     stop it, remove BASE/admin_url
#
# The cluster lives in /dev/shm/wp-test-pg-<hash of BASE>/db when /dev/shm
# is a tmpfs with room (see shm_dir), else in BASE/db, or, when that path
# would make the unix socket path too long, in /tmp/wp-test-pg-<hash of
# BASE>/db. The choice is recorded in BASE/db_dir; the cluster is kept
# between runs (initdb only once, or once after a reboot empties /dev/shm).
# It listens on its unix socket and on 127.0.0.1:PORT, PORT being
# WP_TEST_PG_PORT when set and not 0, else a free port picked now.
# BASE/admin_url holds a libpq URL for the database "postgres", which the
# harness (tests/lib/warpost.py) reads through WP_TEST_PG_URL_FILE.
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
PGCLUSTER=$HERE/../../scripts/pgcluster.sh
die() { echo "pg_fixture.sh: $*" >&2; exit 1; }

(($# == 2)) || die "usage: pg_fixture.sh start|stop BASE"
CMD=$1
BASE=$2
mkdir -p "$BASE"
BASE=$(cd "$BASE" && pwd)
URL_FILE=$BASE/admin_url

# A tmpfs with room (4 GiB free), where the cluster is best kept: every test
# module creates a database of its own (a copy of about 1,000 files) and
# drops it, and on ext4 creating inodes where many were just deleted costs
# the kernel more than the copy (a tenth of the api tests' CPU, measured
# with perf). WP_TEST_PG_TMPFS=0 keeps the cluster under BASE.
shm_dir() {
    local shm=/dev/shm
    [[ ${WP_TEST_PG_TMPFS:-1} != 0 && -d $shm && -w $shm ]] || return 1
    [[ $(stat -f -c %T "$shm" 2>/dev/null) == tmpfs ]] || return 1
    (($(df --output=avail -k "$shm" | tail -n 1) > 4 * 1024 * 1024)) || return 1
    printf '%s/wp-test-pg-%s/db\n' "$shm" "$(printf '%s' "$BASE" | md5sum | cut -c1-12)"
}

cluster_dir() {
    local d
    if [[ -f $BASE/db_dir ]]; then
        cat "$BASE/db_dir"
        return
    fi
    if d=$(shm_dir); then
        printf '%s\n' "$d" >"$BASE/db_dir"
        printf '%s\n' "$d"
        return
    fi
    d=$BASE/db
    # too long a socket path, or (as root) a BASE the postgres user cannot
    # reach, e.g. under a 0700 home: keep the cluster under /tmp instead
    if (($(printf '%s/.s.PGSQL.65535' "$d" | LC_ALL=C wc -c) > 107)) ||
        { [[ $EUID -eq 0 ]] && ! runuser -u postgres -- test -x "$BASE"; }; then
        d=/tmp/wp-test-pg-$(printf '%s' "$BASE" | md5sum | cut -c1-12)/db
        printf '%s\n' "$d" >"$BASE/db_dir"
    fi
    printf '%s\n' "$d"
}

find_psql() {
    if [[ -n ${PG_BINDIR:-} ]]; then
        printf '%s\n' "$PG_BINDIR/psql"
        return
    fi
    local p
    p=$(printf '%s\n' /usr/lib/postgresql/*/bin/psql | grep -v '\*' | sort -V | tail -n 1)
    printf '%s\n' "${p:-psql}"
}
PSQL=$(find_psql)

pick_port() {
    python3 -c 'import socket
s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

DIR=$(cluster_dir)

case $CMD in
start)
    rm -f "$URL_FILE"
    # Clusters in /dev/shm whose build directory is gone (a removed clone)
    # hold memory until a reboot: destroy them.
    for owner in /dev/shm/wp-test-pg-*/owner; do
        [[ -f $owner ]] || continue
        if [[ ! -d $(cat "$owner") ]]; then
            bash "$PGCLUSTER" destroy "${owner%/owner}/db" >/dev/null 2>&1 &&
                rm -rf -- "${owner%/owner}"
        fi
    done
    if [[ $DIR == /dev/shm/* ]]; then
        mkdir -p "${DIR%/db}"
        printf '%s\n' "$BASE" >"${DIR%/db}/owner"
    fi
    # a cluster left running by an interrupted run: restart it cleanly
    bash "$PGCLUSTER" stop "$DIR"
    url=
    for try in 1 2 3; do
        port=${WP_TEST_PG_PORT:-0}
        [[ $port != 0 ]] || port=$(pick_port)
        if url=$(PG_FAST=1 bash "$PGCLUSTER" start "$DIR" "$port"); then
            break
        fi
        [[ ${WP_TEST_PG_PORT:-0} == 0 ]] || die "cannot start the cluster on port $port"
        echo "pg_fixture.sh: start on port $port failed (try $try), retrying" >&2
        url=
    done
    [[ -n $url ]] || die "cannot start the test cluster in $DIR"
    admin=${url/\/warpost\?//postgres?}
    # databases left behind by killed test runs
    stale=$("$PSQL" -X -At -d "$admin" -c "SELECT datname FROM pg_database WHERE datname LIKE 't\_%'")
    for db in $stale; do
        "$PSQL" -X -q -d "$admin" -c "DROP DATABASE IF EXISTS \"$db\" WITH (FORCE)" >/dev/null
    done
    printf '%s\n' "$admin" >"$URL_FILE.tmp"
    mv -f "$URL_FILE.tmp" "$URL_FILE"
    echo "pg_fixture.sh: test cluster up: $admin"
    ;;
stop)
    rm -f "$URL_FILE"
    bash "$PGCLUSTER" stop "$DIR"
    echo "pg_fixture.sh: test cluster stopped"
    ;;
*)
    die "usage: pg_fixture.sh start|stop BASE"
    ;;
esac
