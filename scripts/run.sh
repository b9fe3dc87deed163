#!/usr/bin/env bash
# Build warpostd and run it in the foreground, with a private PostgreSQL
# cluster under ./var/pg unless DATABASE_URL points at a database already.
#
# Usage: ./scripts/run.sh
#
# Environment (besides warpostd's own variables, see README.md):
#   DATABASE_URL   use this database; no private cluster is started
#   PORT           HTTP port (default 8080)
#   WP_BUILD_DIR   CMake build directory (default ./build)
#   WP_PG_DIR      private cluster directory (default ./var/pg)
#   WP_CORE_DIR    where a crashed warpostd's core dump is kept (default
#                  ./var/cores: warpostd runs there with no core size
#                  limit; README "Crashes")
#   WP_SKIP_DEPS   set to 1 to skip the Debian package check
#   WEB_ROOT       the board served (default $WP_BUILD_DIR/web, the bundle
#                  built from web/; WEB_ROOT=web serves web/ unbundled)
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD_DIR=${WP_BUILD_DIR:-$ROOT/build}
PG_DIR=${WP_PG_DIR:-$ROOT/var/pg}
CORE_DIR=${WP_CORE_DIR:-$ROOT/var/cores}

# Set once the cluster or the server is started, so cleanup knows what to undo.
CLUSTER_STARTED=0
WP_PID=""

log() {
    echo "run.sh: $*" >&2
}

install_deps() {
    if [[ "${WP_SKIP_DEPS:-0}" == "1" ]]; then
        return 0
    fi
    if [[ -n "${DATABASE_URL:-}" ]]; then
        bash "$ROOT/scripts/deps.sh" build web
    else
        bash "$ROOT/scripts/deps.sh" run
    fi
}

build() {
    # Configuring every time is cheap and picks up CMakeLists changes; the
    # build itself is incremental. An existing cache keeps its other options
    # (test.sh turns on WP_WERROR in the same directory).
    # Ninja for a new build directory where there is one (as test.sh).
    local gen=${CMAKE_GENERATOR:-}
    [[ -z $gen ]] && command -v ninja >/dev/null && gen=Ninja
    CMAKE_GENERATOR=$gen cmake -S "$ROOT" -B "$BUILD_DIR" --log-level=WARNING \
        -DCMAKE_BUILD_TYPE=RelWithDebInfo
    # Only the server: the tests and fuzzers are test.sh's business.
    cmake --build "$BUILD_DIR" -j "$(nproc)" --target warpostd
    build_web
}

# The board bundled and minified into $BUILD_DIR/web (issue 32; the CMake
# target "web", esbuild from scripts/webbuild/package-lock.json), which is
# what this script serves unless WEB_ROOT says otherwise (WEB_ROOT=web for
# the unbundled modules while developing the board).
build_web() {
    local dir=$ROOT/scripts/webbuild
    if [[ ! -d "$dir/node_modules" || "$dir/package-lock.json" -nt "$dir/node_modules" ]]; then
        log "npm ci in scripts/webbuild"
        npm ci --prefix "$dir" --no-audit --no-fund >&2
    fi
    cmake --build "$BUILD_DIR" --target web
}

start_cluster() {
    mkdir -p "$(dirname "$PG_DIR")"
    log "starting private PostgreSQL cluster in $PG_DIR"
    # Mark it started before the call: if pgcluster.sh fails half-way the
    # stop in cleanup is still the right thing to try.
    CLUSTER_STARTED=1
    DATABASE_URL=$(bash "$ROOT/scripts/pgcluster.sh" start "$PG_DIR")
    if [[ -z "$DATABASE_URL" ]]; then
        log "pgcluster.sh printed no DATABASE_URL"
        return 1
    fi
    export DATABASE_URL
}

stop_cluster() {
    if (( CLUSTER_STARTED )); then
        CLUSTER_STARTED=0
        log "stopping private PostgreSQL cluster"
        bash "$ROOT/scripts/pgcluster.sh" stop "$PG_DIR" >&2 || log "pgcluster.sh stop failed"
    fi
}

server_running() {
    [[ -n "$WP_PID" ]] && kill -0 "$WP_PID" 2>/dev/null
}

# Runs on every exit path: normal end, error under set -e, or a signal.
cleanup() {
    if server_running; then
        kill -TERM "$WP_PID" 2>/dev/null || true
        wait "$WP_PID" 2>/dev/null || true
    fi
    stop_cluster
}

# Ctrl-C, SIGTERM and SIGHUP all mean "shut down cleanly". warpostd is sent
# SIGTERM rather than the signal we got: as a background job of a
# non-interactive shell it starts with SIGINT ignored, and SIGTERM is what
# its graceful shutdown is documented for. run_server then collects its exit
# status as usual. Before the server runs there is nothing to wait for, so
# exit at once (the EXIT trap stops the cluster if it was started).
on_signal() {
    local signum=$1
    if server_running; then
        log "stopping warpostd"
        kill -TERM "$WP_PID" 2>/dev/null || true
    else
        exit $((128 + signum))
    fi
}

# Print where to reach the server once it accepts connections, so the URL is
# the last thing on screen before the request log starts.
announce_when_ready() {
    local host=${BIND_ADDR:-0.0.0.0}
    if [[ -n "${FCGI_SOCKET:-}" ]]; then
        log "warpostd serves FastCGI on $FCGI_SOCKET (put nginx in front, see README.md)"
        return 0
    fi
    if [[ "$host" == "0.0.0.0" || "$host" == "::" ]]; then
        host=127.0.0.1
    fi
    local url="http://$host:$PORT/"
    if [[ "$host" == *:* ]]; then
        url="http://[$host]:$PORT/"
    fi

    # Migrations run before warpostd listens; give them time, but stop
    # waiting as soon as the server is gone.
    local tries=0
    while server_running && (( tries < 300 )); do
        if (exec 3<>"/dev/tcp/$host/$PORT") 2>/dev/null; then
            log "Warpost is running: open $url (Ctrl-C to stop)"
            return 0
        fi
        sleep 0.1
        tries=$((tries + 1))
    done
    if server_running; then
        log "warpostd has not opened port $PORT yet; it should answer at $url"
    fi
}

run_server() {
    local status=0
    # Started in the background so that this shell stays free to act on
    # signals: bash runs traps only between commands, never while a
    # foreground child is running.
    # In the core directory, with no limit on a core's size: where the
    # kernel's core_pattern is a file name (Debian's default "core"), a
    # crash leaves its core there; its backtrace is in the log either way.
    mkdir -p "$CORE_DIR"
    (cd "$CORE_DIR" && ulimit -c unlimited 2>/dev/null; exec "$BUILD_DIR/srv/warpostd") &
    WP_PID=$!
    announce_when_ready

    # A trapped signal makes wait return early; keep waiting until the
    # server itself is gone. Bash remembers the exit status of a finished
    # background job, so the last wait reports warpostd's own status even
    # when an earlier one was cut short.
    while server_running; do
        wait "$WP_PID" || true
    done
    wait "$WP_PID" || status=$?
    WP_PID=""
    return "$status"
}

main() {
    cd "$ROOT"
    install_deps
    build

    export PORT=${PORT:-8080}
    export WEB_ROOT=${WEB_ROOT:-$BUILD_DIR/web}
    export MIGRATIONS_DIR=${MIGRATIONS_DIR:-$ROOT/sql}

    trap cleanup EXIT
    trap 'on_signal 2' INT
    trap 'on_signal 15' TERM
    trap 'on_signal 1' HUP

    if [[ -n "${DATABASE_URL:-}" ]]; then
        log "using DATABASE_URL from the environment; no private cluster"
    else
        start_cluster
    fi

    local status=0
    run_server || status=$?
    log "warpostd exited with status $status"
    cleanup
    return "$status"
}

main "$@"
