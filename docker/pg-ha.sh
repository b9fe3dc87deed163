#!/bin/sh
# The entry point of Dockerfile.pg (docker-compose.yml, profile ha):
#   pg-ha monitor       the pg_auto_failover monitor
#   pg-ha node NAME     a PostgreSQL node named NAME (its host name on the
#                       Compose network); the first one made becomes the
#                       primary, the next its synchronous secondary
# Creates the node on its first start (PGDATA empty), runs it after.
# --auth trust on the Compose network (nothing of it is published) and
# --ssl-self-signed: a starting point; docs/operations.md "High
# availability" says what a hardened set-up adds.
set -eu
role=${1:-monitor}
name=${2:-$(hostname)}
monitor_url="postgres://autoctl_node@${MONITOR_HOST:-pg-monitor}:5432/pg_auto_failover?sslmode=require"
mkdir -p "$XDG_CONFIG_HOME" "$XDG_DATA_HOME"

if [ -f "$PGDATA/PG_VERSION" ]; then
    # made already: run it (a node that was primary and lost its place
    # rejoins as the secondary)
    [ "$role" = node ] && sh "$0" warpost-role "$name" &
    exec pg_autoctl run
fi

case $role in
monitor)
    exec pg_autoctl create monitor --pgport 5432 --hostname "$name" \
        --auth trust --ssl-self-signed --run
    ;;
node)
    sh "$0" warpost-role "$name" &
    exec pg_autoctl create postgres --pgport 5432 --hostname "$name" --name "$name" \
        --dbname warpost --auth trust --pg-hba-lan --ssl-self-signed \
        --monitor "$monitor_url" --run
    ;;
warpost-role)
    # Warpost's role, once this node is the primary (it replicates from
    # there); WARPOST_DB_PASSWORD as for the plain db service.
    while :; do
        if [ "$(psql -XAtq -h "$name" -d warpost -c 'SELECT NOT pg_is_in_recovery()' 2>/dev/null)" = t ]; then
            psql -Xq -h "$name" -d warpost -v ON_ERROR_STOP=1 -v pw="${WARPOST_DB_PASSWORD:-}" <<'SQL' && exit 0
SELECT 'CREATE ROLE warpost LOGIN' WHERE NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'warpost') \gexec
ALTER ROLE warpost PASSWORD :'pw';
ALTER DATABASE warpost OWNER TO warpost;
ALTER SCHEMA public OWNER TO warpost;
SQL
        fi
        # a secondary: nothing to do (the primary's role replicates here)
        [ "$(psql -XAtq -h "$name" -d warpost -c 'SELECT pg_is_in_recovery()' 2>/dev/null)" = t ] && exit 0
        sleep 2
    done
    ;;
*)
    echo "pg-ha: usage: pg-ha monitor | pg-ha node NAME" >&2
    exit 2
    ;;
esac
