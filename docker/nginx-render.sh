#!/usr/bin/env bash
# Render nginx/nginx.conf.in and nginx/warpost.conf.in into a prefix, for one
# warpostd or for several balanced ones. Used by the image's entrypoint (as
# /usr/local/bin/warpost-nginx-render) and by the topology tests, so both run
# the same configuration.
#
#   nginx-render.sh PREFIX
#
# Environment:
#   PORT             port nginx listens on (default 8080)
#   WEB_ROOT         the static files (default /opt/warpost/web)
#   FCGI_SOCKET      one warpostd FastCGI socket (absolute path), or
#   FCGI_UPSTREAMS   several, separated by spaces or commas: absolute paths
#                    of Unix sockets or host:port of TCP FastCGI listeners.
#                    nginx balances /api/ and /metrics over them (round
#                    robin) and sends a request to the next one when it
#                    cannot connect to one (it never resends a POST that a
#                    warpostd has received).
#   NGINX_LISTEN     address to listen on: unset or "*" for all addresses
#                    (what a container needs), 127.0.0.1 for loopback only
#   NGINX_TEMPLATES  directory of the *.conf.in (default: ../nginx beside
#                    this script when there is one, else /opt/warpost/nginx)
#
# Then: nginx -p PREFIX -c PREFIX/nginx.conf -e stderr -g 'daemon off;'
set -euo pipefail

die() { echo "nginx-render: $*" >&2; exit 1; }
(($# == 1)) || die "usage: nginx-render.sh PREFIX"
prefix=$1
[[ $prefix == /* ]] || die "PREFIX must be an absolute path: $prefix"

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
templates=${NGINX_TEMPLATES:-}
if [[ -z $templates ]]; then
    if [[ -f $here/../nginx/warpost.conf.in ]]; then
        templates=$here/../nginx
    else
        templates=/opt/warpost/nginx
    fi
fi
port=${PORT:-8080}
web_root=${WEB_ROOT:-/opt/warpost/web}
[[ $port =~ ^[0-9]+$ ]] || die "PORT must be a number: $port"

upstreams=()
if [[ -n ${FCGI_UPSTREAMS:-} ]]; then
    read -r -a upstreams <<< "${FCGI_UPSTREAMS//,/ }"
elif [[ -n ${FCGI_SOCKET:-} ]]; then
    upstreams=("$FCGI_SOCKET")
fi
((${#upstreams[@]} > 0)) || die "set FCGI_SOCKET (one warpostd) or FCGI_UPSTREAMS (several)"

# Paths and addresses come from the operator, never from requests, but a
# character sed or nginx treats specially would still break the output.
for value in "$prefix" "$web_root" "${upstreams[@]}"; do
    [[ $value != *[\|\;\{\}\ \'\"]* ]] || die "unsupported character in: $value"
done

mkdir -p "$prefix"
# nginx.conf.in includes @SERVER_CONF@; warpost.conf.in passes to
# unix:@FCGI_SOCKET@, which the balanced form replaces below.
first=${upstreams[0]}
render() {
    sed -e "s|@PREFIX@|$prefix|g" -e "s|@PORT@|$port|g" \
        -e "s|@FCGI_SOCKET@|$first|g" -e "s|@WEB_ROOT@|$web_root|g" \
        -e "s|@SERVER_CONF@|$prefix/warpost.conf|g" "$1"
}
render "$templates/nginx.conf.in" > "$prefix/nginx.conf.tmp"

server_conf=$(render "$templates/warpost.conf.in")
case ${NGINX_LISTEN:-*} in
    '*') server_conf=$(sed -e 's|listen 127\.0\.0\.1:|listen |' <<< "$server_conf") ;;
    127.0.0.1) ;;
    *) server_conf=$(sed -e "s|listen 127\\.0\\.0\\.1:|listen ${NGINX_LISTEN}:|" <<< "$server_conf") ;;
esac

{
    if ((${#upstreams[@]} > 1)) || [[ -n ${FCGI_UPSTREAMS:-} ]]; then
        echo "# Rendered by nginx-render.sh: /api/ and /metrics balanced over"
        echo "# every warpostd. A server that refuses connections is skipped for"
        echo "# fail_timeout; warpostd instances share no state but PostgreSQL,"
        echo "# so any of them can answer any request."
        echo "upstream warpost_api {"
        for u in "${upstreams[@]}"; do
            if [[ $u == /* ]]; then
                echo "    server unix:$u max_fails=1 fail_timeout=5s;"
            else
                echo "    server $u max_fails=1 fail_timeout=5s;"
            fi
        done
        echo "}"
        echo
        # Retry on another server only when this one could not be reached
        # or answered 502/503 before reading anything (warpostd stopping);
        # never "non_idempotent": a POST that reached a warpostd is not resent.
        sed -e "s|fastcgi_pass unix:$first;|fastcgi_pass warpost_api;\\n        fastcgi_next_upstream error timeout http_503;|" \
            <<< "$server_conf"
    else
        printf '%s\n' "$server_conf"
    fi
} > "$prefix/warpost.conf.tmp"

if grep -q '@[A-Z_]*@' "$prefix/nginx.conf.tmp" "$prefix/warpost.conf.tmp"; then
    die "placeholders left after rendering (templates in $templates)"
fi
mv -f "$prefix/nginx.conf.tmp" "$prefix/nginx.conf"
mv -f "$prefix/warpost.conf.tmp" "$prefix/warpost.conf"
