#!/usr/bin/env bash
# hacluster.sh - a private pg_auto_failover formation in a directory: a
# monitor and two PostgreSQL nodes (a primary and its synchronous
# secondary), each a cluster of its own on 127.0.0.1, each run by its own
# `pg_autoctl run` in the background. For tests (tests/ops/test_failover.py)
# and for trying failover on one machine; docs/operations.md "High
# availability" says how to run the same on three machines.
#
#   hacluster.sh start DIR PORT    create (if needed) and run the monitor on
#                                  PORT and the nodes on PORT+1, PORT+2;
#                                  waits for primary + secondary and prints
#                                  the multi-host libpq URL for DATABASE_URL
#   hacluster.sh url DIR           print that URL again
#   hacluster.sh state DIR         pg_autoctl show state
#   hacluster.sh primary DIR       the name of the node that is primary now
#   hacluster.sh kill DIR NODE     SIGKILL the node's pg_autoctl and its
#                                  postgres (NODE: node1 or node2), all at
#                                  once: the loss of a machine; fails if a
#                                  process of it is left or its port answers
#   hacluster.sh run DIR NODE      run the node again (it rejoins, as the
#                                  secondary when the other was promoted)
#   hacluster.sh wait DIR          wait until one node is primary and the
#                                  other secondary (up to HA_WAIT s, 300)
#   hacluster.sh failover DIR      pg_autoctl perform failover (switchover)
#   hacluster.sh stop DIR          stop every node and the monitor
#
# Environment: PG_BINDIR as scripts/pgcluster.sh; HA_WAIT (seconds).
# The nodes' database is `warpost`, user postgres, --auth trust and
# --no-ssl: loopback only, never on a network (see docs/operations.md for
# --ssl-self-signed and real authentication). The monitor is tuned to fail
# over within seconds (pgautofailover.* timeouts), not tens of seconds.
# Run as root, the clusters belong to the `postgres` system user.
set -euo pipefail

PROG=${0##*/}
DB_NAME=warpost
NODES=(node1 node2)

die() { printf '%s: error: %s\n' "$PROG" "$*" >&2; exit 1; }

usage() {
    sed -n '/^#   hacluster/,/^#$/p' "$0" | sed 's/^# \{0,1\}//' >&2
    exit 2
}

bindir() {
    if [[ -n ${PG_BINDIR:-} ]]; then
        printf '%s\n' "$PG_BINDIR"
        return
    fi
    local d
    for d in /usr/lib/postgresql/*/bin; do
        [[ -x $d/pg_ctl ]] && printf '%s\n' "$d"
    done | sort -V | tail -n 1
}

command -v pg_autoctl >/dev/null ||
    die "pg_autoctl not found (Debian: apt-get install postgresql-15-auto-failover; scripts/deps.sh ha)"

as_pg() {
    if [[ $EUID -eq 0 ]]; then
        runuser -u postgres -- env "XDG_CONFIG_HOME=$XDG_CONFIG_HOME" \
            "XDG_DATA_HOME=$XDG_DATA_HOME" "PATH=$PATH" "$@"
    else
        "$@"
    fi
}

# pg_autoctl keeps its configuration and state under XDG_*_HOME: in DIR,
# so that formations in different directories never meet.
setup_env() {
    DIR=$1
    [[ -d $DIR ]] || mkdir -p "$DIR"
    DIR=$(cd "$DIR" && pwd)
    export XDG_CONFIG_HOME=$DIR/config XDG_DATA_HOME=$DIR/share
    BIN=$(bindir)
    [[ -x $BIN/pg_ctl ]] || die "no PostgreSQL server found (set PG_BINDIR)"
    export PATH=$BIN:$PATH
    mkdir -p "$XDG_CONFIG_HOME" "$XDG_DATA_HOME"
    if [[ $EUID -eq 0 ]]; then chown postgres: "$DIR" "$XDG_CONFIG_HOME" "$XDG_DATA_HOME"; fi
}

port_of() { cat "$DIR/port"; }

monitor_url() { printf 'postgres://autoctl_node@127.0.0.1:%s/pg_auto_failover?sslmode=disable' "$(port_of)"; }

# A pg_autoctl run in the background, its own session (kill DIR NODE
# kills the group), its log in DIR/NAME.log.
run_bg() {
    local name=$1
    if [[ -f $DIR/$name.pid ]] && kill -0 "$(cat "$DIR/$name.pid")" 2>/dev/null; then
        return
    fi
    if [[ $EUID -eq 0 ]]; then
        setsid runuser -u postgres -- env "XDG_CONFIG_HOME=$XDG_CONFIG_HOME" \
            "XDG_DATA_HOME=$XDG_DATA_HOME" "PATH=$PATH" \
            pg_autoctl run --pgdata "$DIR/$name" </dev/null >>"$DIR/$name.log" 2>&1 &
    else
        setsid pg_autoctl run --pgdata "$DIR/$name" </dev/null >>"$DIR/$name.log" 2>&1 &
    fi
    echo $! >"$DIR/$name.pid"
}

create_monitor() {
    local port=$1
    [[ -f $DIR/monitor/PG_VERSION ]] && return
    as_pg pg_autoctl create monitor --pgdata "$DIR/monitor" --pgport "$port" \
        --hostname 127.0.0.1 --auth trust --no-ssl >>"$DIR/monitor.log" 2>&1 ||
        die "cannot create the monitor (see $DIR/monitor.log)"
    # Fail over in seconds: the monitor's checks every second, a node
    # unhealthy after 3 s without a word, and a primary that does not
    # answer is taken as demoted after 5 s (the defaults are 5 s, 20 s and
    # 30 s: a production setting, docs/operations.md).
    cat >>"$DIR/monitor/postgresql.auto.conf" <<EOF
pgautofailover.health_check_period = 1000
pgautofailover.health_check_timeout = 1000
pgautofailover.health_check_max_retries = 1
pgautofailover.health_check_retry_delay = 500
pgautofailover.node_considered_unhealthy_timeout = 3000
pgautofailover.primary_demote_timeout = 5000
EOF
}

create_node() {
    local name=$1 port=$2
    [[ -f $DIR/$name/PG_VERSION ]] && return
    as_pg pg_autoctl create postgres --pgdata "$DIR/$name" --pgport "$port" \
        --hostname 127.0.0.1 --listen 127.0.0.1 --name "$name" --dbname "$DB_NAME" \
        --username postgres --auth trust --no-ssl --monitor "$(monitor_url)" \
        >>"$DIR/$name.log" 2>&1 || die "cannot create $name (see $DIR/$name.log)"
}

show_state() { as_pg pg_autoctl show state --pgdata "$DIR/monitor"; }

# "name state" for each data node, from the monitor.
states() {
    as_pg "$BIN/psql" -XAtq -h 127.0.0.1 -p "$(port_of)" -U autoctl_node pg_auto_failover \
        -F ' ' -c "SELECT nodename, reportedstate, goalstate FROM pgautofailover.node
                   WHERE formationid = 'default' ORDER BY nodename" 2>/dev/null
}

# One node primary (reported and goal), the other secondary.
settled() {
    local s
    s=$(states) || return 1
    [[ $(grep -c ' primary primary$' <<<"$s") == 1 &&
       $(grep -c ' secondary secondary$' <<<"$s") == 1 ]]
}

wait_settled() {
    local deadline=$((SECONDS + ${HA_WAIT:-300}))
    until settled; do
        ((SECONDS < deadline)) || { show_state >&2 || true; die "the formation did not settle in ${HA_WAIT:-300} s"; }
        sleep 0.5
    done
}

url() {
    local p
    p=$(port_of)
    printf 'host=127.0.0.1,127.0.0.1 port=%s,%s dbname=%s user=postgres target_session_attrs=read-write connect_timeout=2\n' \
        "$((p + 1))" "$((p + 2))" "$DB_NAME"
}

# The processes of node NAME alive now: the keeper's session (pg_autoctl
# run and its services), every process whose command line names the data
# directory (the postmaster: `postgres -D DIR/NAME`; a keeper that left the
# session), and the postmaster's children (backends, walsenders: each in
# its own session).
node_pids() {
    local name=$1 pid sid pm
    if [[ -f $DIR/$name.pid ]]; then
        pid=$(cat "$DIR/$name.pid")
        sid=$(ps -o sid= -p "$pid" 2>/dev/null | tr -d ' ') || true
        [[ -n $sid ]] && { ps -o pid= -s "$sid" 2>/dev/null || true; }
    fi
    pgrep -f -- "$DIR/$name( |\$)" 2>/dev/null || true
    if [[ -f $DIR/$name/postmaster.pid ]]; then
        pm=$(head -n 1 "$DIR/$name/postmaster.pid" 2>/dev/null) || true
        # only while that pid is still this node's postmaster (not reused)
        if [[ $pm =~ ^[0-9]+$ ]] && tr '\0' ' ' <"/proc/$pm/cmdline" 2>/dev/null |
            grep -q -- "$DIR/$name"; then
            echo "$pm"
            ps -o pid= --ppid "$pm" 2>/dev/null || true
        fi
    fi
}

# Of the pids on standard input, those alive (not zombies: a killed
# process stays listed until it is reaped), one a line.
alive() {
    local pids
    # ps pads its pids with spaces, which ps -p does not take back
    pids=$(awk '{for (i = 1; i <= NF; i++) print $i}' | sort -un | paste -s -d ,)
    [[ -n $pids ]] || return 0
    ps -o pid=,stat= -p "$pids" 2>/dev/null | awk '$2 !~ /^Z/ {print $1}' || true
}

# The port of node1, node2 (the monitor's + 1, + 2) or the monitor.
node_port() {
    case $1 in
        node[0-9]) echo $(($(port_of) + ${1#node})) ;;
        *) port_of ;;
    esac
}

# SIGKILL to the whole node at once, the loss of its machine: first every
# process of it stopped (SIGSTOP: none forks or restarts another while the
# list is made), then all killed; again until none is left. Fails unless
# its port then refuses connections.
kill_node() {
    local name=$1 pids i
    [[ -f $DIR/$name.pid ]] || die "$name was never run here"
    for ((i = 0; i < 100; i++)); do
        pids=$(node_pids "$name" | alive | tr '\n' ' ')
        [[ -n ${pids// /} ]] || break
        # shellcheck disable=SC2086  # a list of pids
        kill -STOP $pids 2>/dev/null || true
        pids=$(node_pids "$name" | alive | tr '\n' ' ')
        # shellcheck disable=SC2086
        kill -KILL $pids 2>/dev/null || true
        sleep 0.1
    done
    pids=$(node_pids "$name" | alive | tr '\n' ' ')
    [[ -z ${pids// /} ]] || die "$name: processes left after SIGKILL: $pids"
    rm -f "$DIR/$name.pid"
    if as_pg "$BIN/pg_isready" -q -h 127.0.0.1 -p "$(node_port "$name")" -t 2; then
        die "$name: its port $(node_port "$name") still answers after SIGKILL"
    fi
}

stop_all() {
    local name
    for name in "${NODES[@]}" monitor; do
        if [[ -f $DIR/$name.pid ]]; then
            as_pg pg_autoctl stop --pgdata "$DIR/$name" >/dev/null 2>&1 || true
            local pid i
            pid=$(cat "$DIR/$name.pid")
            for ((i = 0; i < 100; i++)); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
            # in a subshell: its failure (die) must not leave the others running
            if kill -0 "$pid" 2>/dev/null; then (kill_node "$name") || true; fi
            rm -f "$DIR/$name.pid"
        fi
        if [[ -f $DIR/$name/postmaster.pid ]]; then
            as_pg "$BIN/pg_ctl" -D "$DIR/$name" -m fast -w stop >/dev/null 2>&1 || true
        fi
    done
}

[[ $# -ge 2 ]] || usage
cmd=$1
setup_env "$2"
case $cmd in
    start)
        [[ $# -ge 3 || -f $DIR/port ]] || usage
        [[ $# -ge 3 ]] && echo "$3" >"$DIR/port"
        port=$(port_of)
        create_monitor "$port"
        run_bg monitor
        for ((i = 0; i < 600; i++)); do
            as_pg "$BIN/pg_isready" -q -h 127.0.0.1 -p "$port" && break
            sleep 0.1
        done
        # the first node becomes the primary before the second is made
        create_node node1 $((port + 1))
        run_bg node1
        create_node node2 $((port + 2))
        run_bg node2
        wait_settled
        url
        ;;
    url) url ;;
    state) show_state ;;
    primary) states | awk '$2 == "primary" && $3 == "primary" {print $1}' ;;
    kill) [[ $# -eq 3 ]] || usage; kill_node "$3" ;;
    run) [[ $# -eq 3 ]] || usage; run_bg "$3" ;;
    wait) wait_settled ;;
    failover)
        as_pg pg_autoctl perform failover --pgdata "$DIR/monitor" --wait 300 >>"$DIR/failover.log" 2>&1 ||
            die "pg_autoctl perform failover failed (see $DIR/failover.log)"
        wait_settled
        ;;
    stop) stop_all ;;
    *) usage ;;
esac
