#!/usr/bin/env bash
# Entry point of the Warpost image.
#
#   warpostd [ARGS...]   run the server; FastCGI when FCGI_SOCKET is set
#   nginx                render nginx/*.conf.in (warpost-nginx-render) and run
#                        nginx in the foreground, in front of FCGI_SOCKET or
#                        balancing over FCGI_UPSTREAMS
#   COMMAND [ARGS...]    run anything else, e.g. `warpost verify FILE`, bash
#
# The role is recorded in $WARPOST_STATE_DIR/role (default /tmp) for the
# health check (docker/healthcheck.sh).
set -euo pipefail

RENDER=${WARPOST_NGINX_RENDER:-/usr/local/bin/warpost-nginx-render}
STATE=${WARPOST_STATE_DIR:-/tmp}

run_nginx() {
    local prefix=${NGINX_PREFIX:-/tmp/nginx}
    "$RENDER" "$prefix"
    # Container logs belong on stdout/stderr, where `docker logs` finds them.
    ln -sf /dev/stdout "$prefix/access.log"
    ln -sf /dev/stderr "$prefix/error.log"
    echo nginx > "$STATE/role"
    # -e stderr: errors before the config is read must not go to
    # /var/log/nginx, which this user cannot write.
    exec nginx -p "$prefix" -c "$prefix/nginx.conf" -e stderr -g 'daemon off;'
}

main() {
    local role=${1:-warpostd}
    case "$role" in
        warpostd)
            shift || true
            # The socket's folder (a shared volume) may be new and root's.
            if [[ -n ${FCGI_SOCKET:-} && ! -d ${FCGI_SOCKET%/*} ]]; then
                mkdir -p "${FCGI_SOCKET%/*}"
            fi
            echo warpostd > "$STATE/role"
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
