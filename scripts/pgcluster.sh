#!/usr/bin/env bash
# pgcluster.sh - manage a private PostgreSQL cluster in a directory.
#
#   pgcluster.sh start DIR [PORT]   init (if needed) and start; prints the libpq URL
#   pgcluster.sh stop DIR           stop it (fast) if running
#   pgcluster.sh url DIR            print the libpq URL
#   pgcluster.sh destroy DIR        stop and delete DIR
#
# The URL printed is   postgresql:///warpost?host=DIR&port=P&user=postgres
# (P = PORT, or 5432 when no PORT is given: then the cluster listens only on
# the unix socket DIR/.s.PGSQL.5432 and no TCP port is used at all).
#
# Environment:
#   PG_BINDIR   directory holding initdb/pg_ctl/psql (default: the highest
#               /usr/lib/postgresql/*/bin)
#   PG_FAST=1   durability off (fsync, synchronous_commit, full_page_writes):
#               for throw-away test clusters only. Such a cluster is a copy
#               of one initdb made once per PostgreSQL version, locale and
#               user (under PG_INITDB_CACHE, default /tmp): a test run
#               starts dozens, and initdb is 2 s of CPU each
#
# initdb and postgres refuse to run as root: when run as root, the cluster
# belongs to the `postgres` system user and its commands run through runuser.
# All commands are idempotent. Nothing is printed except the URL, and
# messages on stderr when something fails.
set -euo pipefail

PROG=${0##*/}
DB_NAME=warpost
DEFAULT_PORT=5432
SOCK_MAX=107   # sun_path is 108 bytes including the terminating NUL

die() { printf '%s: error: %s\n' "$PROG" "$*" >&2; exit 1; }

usage() {
    cat >&2 <<EOF
usage: $PROG start DIR [PORT]
       $PROG stop DIR
       $PROG url DIR
       $PROG destroy DIR
EOF
    exit 2
}

find_bindir() {
    if [[ -n ${PG_BINDIR:-} ]]; then
        [[ -x $PG_BINDIR/pg_ctl ]] || die "PG_BINDIR=$PG_BINDIR has no pg_ctl"
        printf '%s\n' "$PG_BINDIR"
        return
    fi
    local d best=
    best=$(for d in /usr/lib/postgresql/*/bin; do
               [[ -x $d/pg_ctl && -x $d/initdb && -x $d/postgres ]] && printf '%s\n' "$d"
           done | sort -V | tail -n 1)
    [[ -n $best ]] || die "no PostgreSQL server found under /usr/lib/postgresql/*/bin (install postgresql, or set PG_BINDIR)"
    printf '%s\n' "$best"
}

# Run a command as the cluster owner. fd 9 (our lock) is not passed on: the
# postmaster would inherit it and hold the lock for its whole life.
as_pg() {
    if [[ $EUID -eq 0 ]]; then
        runuser -u postgres -- "$@" 9<&-
    else
        "$@" 9<&-
    fi
}

# Percent-encode a value for a URI query parameter (keeps / . _ ~ - and alnum).
urlenc() {
    local LC_ALL=C s=$1 out='' c i
    for ((i = 0; i < ${#s}; i++)); do
        c=${s:i:1}
        case $c in
            [A-Za-z0-9/._~-]) out+=$c ;;
            *) out+=$(printf '%%%02X' "'$c") ;;
        esac
    done
    printf '%s' "$out"
}

abspath() {
    local p=$1
    [[ $p == /* ]] || p=$PWD/$p
    # normalise: drop //, /./ and trailing /; resolve .. lexically
    local IFS=/ part out=()
    for part in $p; do
        case $part in
            ''|.) ;;
            ..) ((${#out[@]})) && unset 'out[${#out[@]}-1]' ;;
            *) out+=("$part") ;;
        esac
    done
    local r
    r=$(printf '/%s' "${out[@]}")
    printf '%s\n' "${r:-/}"
}

has_cluster() { [[ -f $DIR/PG_VERSION ]]; }

# State letter (R, S, Z...) of the postmaster named in postmaster.pid, if any.
postmaster_state() {
    local pid
    pid=$(sed -n '1p' "$DIR/postmaster.pid" 2>/dev/null) || return 0
    [[ $pid =~ ^[0-9]+$ ]] || return 0
    sed -n 's/^State:[[:space:]]*\([A-Z]\).*/\1/p' "/proc/$pid/status" 2>/dev/null || true
}

# A killed postmaster not yet reaped (a zombie) still looks alive to pg_ctl
# and to a new postmaster: give its parent a moment to reap it.
wait_zombie() {
    local i state
    for ((i = 0; i < 100; i++)); do
        state=$(postmaster_state)
        [[ $state == Z || $state == X ]] || return 0
        sleep 0.1
    done
}

is_running() {
    has_cluster || return 1
    wait_zombie
    as_pg "$BIN/pg_ctl" status -D "$DIR" >/dev/null 2>&1
}

# Port of the cluster: from postmaster.pid when running, else from our config.
cluster_port() {
    local p=
    if is_running && [[ -r $DIR/postmaster.pid ]]; then
        p=$(sed -n '4p' "$DIR/postmaster.pid" 2>/dev/null || true)
    fi
    if [[ -z $p && -r $DIR/warpost.conf ]]; then
        p=$(sed -n 's/^port = \([0-9]*\)$/\1/p' "$DIR/warpost.conf")
    fi
    printf '%s\n' "${p:-$DEFAULT_PORT}"
}

print_url() {
    printf 'postgresql:///%s?host=%s&port=%s&user=postgres\n' "$DB_NAME" "$(urlenc "$DIR")" "$1"
}

lock_dir() {
    # Serialise concurrent invocations on the same cluster: lock DIR itself
    # (an flock on the directory; initdb accepts an existing empty DIR).
    exec 9<"$DIR"
    flock -w 300 9 || die "timed out waiting for the lock on $DIR"
}

check_socket_len() {
    local sock="$DIR/.s.PGSQL.$1" n
    n=$(printf '%s' "$sock" | LC_ALL=C wc -c)
    if ((n > SOCK_MAX)); then
        die "unix socket path '$sock' is $n bytes, longer than the $SOCK_MAX allowed; use a shorter DIR"
    fi
}

write_config() {
    local port=$1 listen=$2 conf=$DIR/warpost.conf q
    q=${DIR//\'/\'\'}
    {
        echo "# written by $PROG on every start: do not edit"
        echo "listen_addresses = '$listen'"
        echo "port = $port"
        echo "unix_socket_directories = '$q'"
        # Room for several instances of DB_POOL_SIZE (32, opened as needed) + 4
        # each, and the test suite's servers side by side.
        echo "max_connections = 200"
        if [[ ${PG_FAST:-} == 1 ]]; then
            echo "fsync = off"
            echo "synchronous_commit = off"
            echo "full_page_writes = off"
        fi
    } >"$conf.tmp"
    mv -f "$conf.tmp" "$conf"
    if ! grep -qx "include_if_exists = 'warpost.conf'" "$DIR/postgresql.conf"; then
        printf "\ninclude_if_exists = 'warpost.conf'\n" >>"$DIR/postgresql.conf"
    fi
    if [[ $EUID -eq 0 ]]; then chown postgres: "$conf" "$DIR/postgresql.conf"; fi
}

run_quiet() {
    # Run a command; show its output on stderr only if it fails.
    local out rc=0
    out=$("$@" 2>&1) || rc=$?
    if ((rc != 0)); then
        printf '%s\n' "$out" >&2
        return "$rc"
    fi
}

psql_admin() {
    as_pg "$BIN/psql" -X -q -v ON_ERROR_STOP=1 -At -h "$DIR" -p "$1" -U postgres -d postgres -c "$2"
}

# Usage: init_from_cache LOCALE: DIR becomes a copy of a fresh initdb
# (--no-sync) kept under PG_INITDB_CACHE, made there first when missing
# (in a directory of its own, renamed into place when whole, under a lock:
# tests start clusters side by side).
init_from_cache() {
    local locale=$1 key cache tmp
    key=$({ "$BIN/postgres" --version; echo "$locale $EUID"; } | md5sum | cut -c1-16)
    cache=${PG_INITDB_CACHE:-/tmp}/warpost-initdb-$key
    if [[ ! -f $cache/PG_VERSION ]]; then
        mkdir -p "${cache%/*}"
        (
            flock -w 300 8 || die "timed out waiting for the lock on $cache.lock"
            if [[ ! -f $cache/PG_VERSION ]]; then
                tmp=$(mktemp -d "$cache.XXXXXX")
                chmod 0700 "$tmp"
                if [[ $EUID -eq 0 ]]; then chown postgres: "$tmp"; fi
                run_quiet as_pg "$BIN/initdb" -D "$tmp" -U postgres --auth=trust -E UTF8 \
                    --locale="$locale" --no-sync 8<&- || { rm -rf "$tmp"; die "initdb failed for $tmp"; }
                mv "$tmp" "$cache"
            fi
        ) 8>"$cache.lock"
    fi
    cp -a "$cache/." "$DIR/" || die "cannot copy $cache into $DIR"
}

cmd_start() {
    local port=${1:-} listen='127.0.0.1'
    if [[ -n $port ]]; then
        if ! [[ $port =~ ^[1-9][0-9]{0,4}$ ]] || ((port > 65535)); then
            die "invalid PORT '$port'"
        fi
    else
        port=$DEFAULT_PORT
        listen=''
    fi
    check_socket_len "$port"

    if [[ $EUID -eq 0 ]]; then
        id postgres >/dev/null 2>&1 || die "running as root needs the 'postgres' system user"
    fi
    (umask 022 && mkdir -p "$PARENT") || die "cannot create $PARENT"
    mkdir -p "$DIR" || die "cannot create $DIR"
    lock_dir

    if is_running; then
        local cur
        cur=$(cluster_port)
        if [[ -n ${1:-} && $cur != "$port" ]]; then
            die "cluster in $DIR is already running on port $cur, not $port (stop it first)"
        fi
        print_url "$cur"
        return
    fi

    if ! has_cluster; then
        [[ -z $(ls -A "$DIR") ]] || die "$DIR exists, is not empty and holds no cluster"
    fi
    if [[ $EUID -eq 0 && $(stat -c %U "$DIR") != postgres ]]; then
        chown -R postgres: "$DIR"
    fi
    chmod 0700 "$DIR"
    if ! as_pg test -w "$DIR"; then
        die "the postgres user cannot reach $DIR: a parent directory is not searchable by it (chmod o+x it, or use another DIR)"
    fi

    if ! has_cluster; then
        local locale=C
        if locale -a 2>/dev/null | grep -qiE '^c\.utf-?8$'; then locale=C.UTF-8; fi
        if [[ ${PG_FAST:-} == 1 ]]; then
            init_from_cache "$locale"
        else
            run_quiet as_pg "$BIN/initdb" -D "$DIR" -U postgres --auth=trust -E UTF8 \
                --locale="$locale" || die "initdb failed for $DIR"
        fi
    fi

    write_config "$port" "$listen"
    # a stale pid file from a crash is handled by pg_ctl/postgres itself
    if ! run_quiet as_pg "$BIN/pg_ctl" start -w -t 60 -s -D "$DIR" -l "$DIR/log"; then
        if [[ -r $DIR/log ]]; then
            echo "--- last lines of $DIR/log ---" >&2
            tail -n 20 "$DIR/log" >&2 || true
        fi
        die "could not start the cluster in $DIR"
    fi

    local exists
    exists=$(psql_admin "$port" "SELECT 1 FROM pg_database WHERE datname = '$DB_NAME'") \
        || die "cannot connect to the cluster in $DIR"
    if [[ $exists != 1 ]]; then
        # From PostgreSQL 15 on, a new database is WAL-logged block by
        # block unless asked otherwise; copying the template's files (what
        # 14 and before always did) costs a fifth of the CPU here.
        local strategy=''
        if (($(as_pg "$BIN/postgres" --version | sed -E 's/[^0-9]*([0-9]+).*/\1/') >= 15)); then
            strategy=' STRATEGY FILE_COPY'
        fi
        psql_admin "$port" "CREATE DATABASE $DB_NAME$strategy" >/dev/null || die "cannot create database $DB_NAME"
    fi
    print_url "$port"
}

cmd_stop() {
    has_cluster || return 0
    if is_running; then
        run_quiet as_pg "$BIN/pg_ctl" stop -w -t 60 -s -m fast -D "$DIR" \
            || die "could not stop the cluster in $DIR"
    fi
}

cmd_url() {
    has_cluster || die "no cluster in $DIR"
    print_url "$(cluster_port)"
}

cmd_destroy() {
    [[ -e $DIR ]] || return 0
    lock_dir
    if has_cluster && is_running; then
        if ! run_quiet as_pg "$BIN/pg_ctl" stop -w -t 60 -s -m fast -D "$DIR"; then
            run_quiet as_pg "$BIN/pg_ctl" stop -w -t 30 -s -m immediate -D "$DIR" \
                || die "could not stop the cluster in $DIR"
        fi
    fi
    if [[ -e $DIR && ! -f $DIR/PG_VERSION && -n $(ls -A "$DIR" 2>/dev/null) ]]; then
        die "refusing to delete $DIR: it holds no PostgreSQL cluster"
    fi
    rm -rf -- "$DIR"
}

(($# >= 2)) || usage
CMD=$1
DIR=$(abspath "$2")
[[ $DIR != / ]] || die "DIR must not be /"
PARENT=${DIR%/*}
PARENT=${PARENT:-/}
shift 2
BIN=$(find_bindir)
# the postgres user may not be able to read the caller's working directory
cd /

case $CMD in
    start)   (($# <= 1)) || usage; cmd_start "$@" ;;
    stop)    (($# == 0)) || usage; cmd_stop ;;
    url)     (($# == 0)) || usage; cmd_url ;;
    destroy) (($# == 0)) || usage; cmd_destroy ;;
    *) usage ;;
esac
