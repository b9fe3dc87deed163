#!/usr/bin/env bash
# Health check of the Warpost image (HEALTHCHECK in the Dockerfile): exit 0
# when GET /api/health answers 200, 1 otherwise.
#   role warpostd, FCGI_SOCKET set   asks the socket itself (cgi-fcgi)
#   role warpostd, HTTP              asks 127.0.0.1:$PORT
#   role nginx                       asks nginx on 127.0.0.1:$PORT, so it
#                                    fails when no warpostd behind it answers
# /api/health is 503 when warpostd cannot reach PostgreSQL.
set -uo pipefail

STATE=${WARPOST_STATE_DIR:-/tmp}
role=$(cat "$STATE/role" 2>/dev/null || echo warpostd)
port=${PORT:-8080}

http_health() {
    local status
    exec 3<>"/dev/tcp/127.0.0.1/$port" || return 1
    printf 'GET /api/health HTTP/1.0\r\nHost: localhost\r\n\r\n' >&3
    IFS= read -r -t 4 status <&3 || return 1
    exec 3<&-
    [[ $status =~ ^HTTP/[0-9.]+\ 200 ]]
}

fcgi_health() {
    local out
    out=$(env -i GATEWAY_INTERFACE=CGI/1.1 REQUEST_METHOD=GET REQUEST_URI=/api/health \
              SCRIPT_NAME= PATH_INFO=/api/health QUERY_STRING= SERVER_PROTOCOL=HTTP/1.1 \
              REMOTE_ADDR=127.0.0.1 SERVER_NAME=localhost SERVER_PORT=0 \
              timeout 4 cgi-fcgi -bind -connect "$FCGI_SOCKET" </dev/null 2>/dev/null) || return 1
    # A CGI answer: a Status header, then the body; only a 200 says "ok"
    # (503 says "degraded").
    grep -qE '^Status: *200' <<< "$out" && grep -qE '"status": *"ok"' <<< "$out"
}

if [[ $role == warpostd && -n ${FCGI_SOCKET:-} ]]; then
    fcgi_health
else
    http_health
fi
