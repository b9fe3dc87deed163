#!/usr/bin/env bash
# topology.sh - the docker-compose.yml topology without containers, on
# loopback: one PostgreSQL, two warpostd (FastCGI), nginx balancing over both.
#
#   scripts/topology.sh start DIR [PORT]   start everything; prints the URL
#   scripts/topology.sh stop DIR [a|b]     stop one instance, or everything
#   scripts/topology.sh status DIR         what runs
#
# DIR holds it all: pg/ (a private cluster, scripts/pgcluster.sh; unless
# DATABASE_URL is set), run/ (the sockets and pid files), nginx/ (rendered
# by docker/nginx-render.sh, as the image's nginx role does), logs in
# *.log. PORT defaults to 8080; nginx listens on 127.0.0.1 only.
# Builds nothing: WARPOSTD (default build/srv/warpostd) must exist.
# Environment: WARPOSTD, DATABASE_URL, THREADS (default 8), DB_POOL_SIZE.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
WARPOSTD=${WARPOSTD:-$ROOT/build/srv/warpostd}
die() { echo "topology.sh: $*" >&2; exit 1; }

(($# >= 2)) || die "usage: topology.sh start DIR [PORT] | stop DIR [a|b] | status DIR"
cmd=$1
mkdir -p "$2"
DIR=$(cd "$2" && pwd)
RUN=$DIR/run

alive() { [[ -f $RUN/$1.pid ]] && kill -0 "$(cat "$RUN/$1.pid")" 2>/dev/null; }

wait_for() {   # wait_for SECONDS COMMAND...
    local t=$1; shift
    local i
    for ((i = 0; i < t * 20; i++)); do
        if "$@"; then return 0; fi
        sleep 0.05
    done
    return 1
}

socket_up() { [[ -S $RUN/$1.sock ]]; }

start_instance() {
    local name=$1 url=$2
    alive "$name" && return 0
    FCGI_SOCKET=$RUN/$name.sock DATABASE_URL=$url \
        WEB_ROOT=$ROOT/web MIGRATIONS_DIR=$ROOT/sql THREADS=${THREADS:-8} \
        setsid "$WARPOSTD" >>"$DIR/$name.log" 2>&1 </dev/null &
    echo $! >"$RUN/$name.pid"
    wait_for 20 socket_up "$name" || die "warpostd $name did not start; see $DIR/$name.log"
}

stop_pid() {
    local name=$1 sig=${2:-TERM}
    if alive "$name"; then
        local pid
        pid=$(cat "$RUN/$name.pid")
        kill "-$sig" "$pid"
        wait_for 70 eval "! kill -0 $pid 2>/dev/null" || kill -KILL "$pid" 2>/dev/null || true
    fi
    rm -f "$RUN/$name.pid"
}

case $cmd in
start)
    port=${3:-8080}
    [[ -x $WARPOSTD ]] || die "no warpostd at $WARPOSTD (build it, or set WARPOSTD)"
    mkdir -p "$RUN"
    chmod 0755 "$DIR" "$RUN"
    url=${DATABASE_URL:-}
    if [[ -z $url ]]; then
        url=$(bash "$ROOT/scripts/pgcluster.sh" start "$DIR/pg")
        echo "$url" >"$RUN/pg_url"
    fi
    start_instance a "$url"
    start_instance b "$url"
    if ! alive nginx; then
        web=$ROOT/web
        if ((EUID == 0)); then
            # nginx's workers run as nobody: give them a copy they can read
            rm -rf "$DIR/web" && cp -r "$ROOT/web" "$DIR/web" && chmod -R a+rX "$DIR/web"
            web=$DIR/web
        fi
        PORT=$port WEB_ROOT=$web NGINX_LISTEN=127.0.0.1 \
            FCGI_UPSTREAMS="$RUN/a.sock $RUN/b.sock" \
            bash "$ROOT/docker/nginx-render.sh" "$DIR/nginx"
        setsid nginx -p "$DIR/nginx/" -c "$DIR/nginx/nginx.conf" -e stderr -g 'daemon off;' \
            >>"$DIR/nginx.log" 2>&1 </dev/null &
        echo $! >"$RUN/nginx.pid"
        up() { (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; }
        wait_for 10 up || die "nginx did not start; see $DIR/nginx.log"
    fi
    echo "http://127.0.0.1:$port/"
    ;;
stop)
    case ${3:-all} in
        a|b) stop_pid "$3" ;;
        all)
            if alive nginx; then stop_pid nginx QUIT; fi
            stop_pid a
            stop_pid b
            if [[ -f $RUN/pg_url ]]; then
                bash "$ROOT/scripts/pgcluster.sh" stop "$DIR/pg"
                rm -f "$RUN/pg_url"
            fi
            ;;
        *) die "stop DIR [a|b]" ;;
    esac
    ;;
status)
    for name in nginx a b; do
        if alive "$name"; then echo "$name running (pid $(cat "$RUN/$name.pid"))"
        else echo "$name stopped"; fi
    done
    ;;
*)
    die "usage: topology.sh start DIR [PORT] | stop DIR [a|b] | status DIR"
    ;;
esac
