#!/usr/bin/env bash
# Entry point of the Warpost Docker image (first draft; not yet built in CI).
#
#   warpostd [ARGS...]   run the server; FastCGI when FCGI_SOCKET is set
#   nginx                render nginx/*.conf.in and run nginx in the foreground
#   COMMAND [ARGS...]    run anything else, e.g. bash
set -euo pipefail

# Overridable only so the script can be tried outside the image.
TEMPLATES=${WARPOST_NGINX_TEMPLATES:-/opt/warpost/nginx}

die() {
    echo "warpost-entrypoint: $*" >&2
    exit 1
}

# Replace the templates' placeholders. Paths come from our own environment,
# never from requests, but a '|' in one would still break the sed program.
render() {
    local template=$1 out=$2 prefix=$3
    local value
    for value in "$prefix" "$PORT" "$FCGI_SOCKET" "$WEB_ROOT"; do
        if [[ "$value" == *"|"* ]]; then
            die "'|' is not allowed in nginx paths: $value"
        fi
    done
    sed -e "s|@PREFIX@|$prefix|g" \
        -e "s|@PORT@|$PORT|g" \
        -e "s|@FCGI_SOCKET@|$FCGI_SOCKET|g" \
        -e "s|@WEB_ROOT@|$WEB_ROOT|g" \
        -e "s|@SERVER_CONF@|$prefix/warpost.conf|g" \
        "$template" > "$out"
}

run_nginx() {
    : "${FCGI_SOCKET:?FCGI_SOCKET must be the path of the warpostd socket (shared volume)}"
    : "${PORT:=8080}"
    : "${WEB_ROOT:=/opt/warpost/web}"
    local prefix=${NGINX_PREFIX:-/tmp/nginx}

    mkdir -p "$prefix"
    render "$TEMPLATES/nginx.conf.in" "$prefix/nginx.conf" "$prefix"
    render "$TEMPLATES/warpost.conf.in" "$prefix/warpost.conf" "$prefix"
    # The template listens on loopback only; inside a container that would
    # be unreachable through the published port, so listen on all addresses.
    sed -i -e 's|listen 127\.0\.0\.1:|listen |' "$prefix/warpost.conf"

    # Container logs belong on stdout/stderr, where `docker logs` finds them.
    ln -sf /dev/stdout "$prefix/access.log"
    ln -sf /dev/stderr "$prefix/error.log"

    # -e stderr: errors before the config is read must not go to
    # /var/log/nginx, which this user cannot write.
    exec nginx -p "$prefix" -c "$prefix/nginx.conf" -e stderr -g 'daemon off;'
}

main() {
    local role=${1:-warpostd}
    case "$role" in
        warpostd)
            shift || true
            exec /usr/local/bin/warpostd "$@"
            ;;
        nginx)
            run_nginx
            ;;
        *)
            exec "$@"
            ;;
    esac
}

main "$@"
