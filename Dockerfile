# Warpost container image: one image, three roles (docker/entrypoint.sh):
#   warpostd   the server: HTTP on PORT, or FastCGI when FCGI_SOCKET is set
#   nginx      nginx serving the board (web/ bundled) and passing /api/ and /metrics to one
#              warpostd socket (FCGI_SOCKET) or balancing over several
#              (FCGI_UPSTREAMS)
#   anything   run as a command, e.g. `warpost verify export.json` or bash
#
# Built and checked by tests/ops (label ops) and scripts/test-image.sh with
# podman (`podman build --format docker`); docker build works the same way.
# Debian packages only, from the same release as the development machines.

ARG DEBIAN_IMAGE=debian:12-slim

# --- build stage -------------------------------------------------------------
FROM ${DEBIAN_IMAGE} AS build

# The package list lives in one place, scripts/deps.sh ("build" group: the
# compiler, CMake, the -dev libraries). Its own layer, first: source edits
# do not invalidate it, so a rebuild only recompiles.
COPY scripts/deps.sh /usr/local/sbin/warpost-deps
RUN bash /usr/local/sbin/warpost-deps build \
    && rm -rf /var/lib/apt/lists/*

WORKDIR /src
# Only what the product build reads: WP_BUILD_TESTS=OFF skips tests/.
COPY CMakeLists.txt ./
COPY rules/ rules/
COPY bot/ bot/
COPY srv/ srv/
# No -DWP_WERROR: a self-hoster's build should not fail over a warning.
# Two jobs: the machines this is built on are small and shared.
ARG BUILD_JOBS=2
RUN cmake -S . -B /build -DCMAKE_BUILD_TYPE=RelWithDebInfo -DWP_BUILD_TESTS=OFF \
    && cmake --build /build -j "${BUILD_JOBS}" --target warpostd warpost \
    && strip --strip-debug /build/srv/warpostd /build/srv/warpost

# --- board stage -------------------------------------------------------------
# web/ bundled and minified (issue 32: scripts/webbuild/build.mjs, esbuild
# from its package-lock.json, Debian's nodejs and npm: the "web" group of
# scripts/deps.sh). The image serves this, as scripts/run.sh does.
FROM ${DEBIAN_IMAGE} AS web
COPY scripts/deps.sh /usr/local/sbin/warpost-deps
RUN bash /usr/local/sbin/warpost-deps web \
    && rm -rf /var/lib/apt/lists/*
WORKDIR /src
COPY scripts/webbuild/package.json scripts/webbuild/package-lock.json scripts/webbuild/
# Behind a TLS-intercepting proxy, npm needs that proxy's CA: given as the
# build secret "ca" (scripts/build-image.sh passes the bundle npm trusts on
# the host, NODE_EXTRA_CA_CERTS or npm's cafile), used for this step only
# and kept in no layer. Without it npm uses the image's CA certificates.
RUN --mount=type=secret,id=ca \
    if [ -s /run/secrets/ca ]; then export NODE_EXTRA_CA_CERTS=/run/secrets/ca; fi; \
    npm ci --prefix scripts/webbuild --no-audit --no-fund
COPY scripts/webbuild/build.mjs scripts/webbuild/
COPY web/ web/
RUN node scripts/webbuild/build.mjs /web

# --- runtime stage -----------------------------------------------------------
FROM ${DEBIAN_IMAGE}

# Runtime halves of the build group's -dev packages (libcurl4 and the CA
# certificates for webhooks and the SMTP relay), nginx for the "nginx"
# role (on Debian 12 nginx-light is only nginx plus the echo module, which
# the Warpost config does not use), and libfcgi-bin for cgi-fcgi, with which
# the health check asks warpostd's FastCGI socket for /api/health; librsvg2-2
# and a font (fonts-dejavu-core) render board.png.
RUN apt-get update \
    && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
        libmicrohttpd12 \
        libjson-c5 \
        libfcgi0ldbl \
        libfcgi-bin \
        libpq5 \
        libsodium23 \
        libcurl4 \
        ca-certificates \
        zlib1g \
        libjemalloc2 \
        librsvg2-2 \
        fonts-dejavu-core \
        nginx \
    && rm -rf /var/lib/apt/lists/* /var/cache/apt/*.bin \
    && rm -f /etc/nginx/sites-enabled/default

# Both roles run as this user. Same uid in every container, so nginx can
# connect to the sockets warpostd creates in the shared volume.
RUN groupadd --system --gid 10001 warpost \
    && useradd --system --uid 10001 --gid warpost --no-create-home \
        --home-dir /nonexistent --shell /usr/sbin/nologin warpost \
    && install -d -o warpost -g warpost -m 0755 /run/warpost \
    && install -d -o warpost -g warpost -m 0700 /var/lib/warpost/cores

COPY --from=build /build/srv/warpostd /build/srv/warpost /usr/local/bin/
COPY --from=web /web/ /opt/warpost/web/
COPY sql/ /opt/warpost/sql/
COPY nginx/ /opt/warpost/nginx/
COPY docker/entrypoint.sh /usr/local/bin/warpost-entrypoint
COPY docker/healthcheck.sh /usr/local/bin/warpost-healthcheck
COPY docker/nginx-render.sh /usr/local/bin/warpost-nginx-render
RUN chmod 0755 /usr/local/bin/warpost-entrypoint /usr/local/bin/warpost-healthcheck \
        /usr/local/bin/warpost-nginx-render

ENV WEB_ROOT=/opt/warpost/web \
    MIGRATIONS_DIR=/opt/warpost/sql \
    PORT=8080 \
    BIND_ADDR=0.0.0.0

USER warpost
WORKDIR /opt/warpost
EXPOSE 8080
# warpostd: /api/health over its FastCGI socket (or HTTP port), which is 503
# when the database does not answer; nginx: /api/health through nginx, so
# the check fails when no warpostd behind it answers.
HEALTHCHECK --interval=15s --timeout=5s --start-period=20s --retries=3 \
    CMD ["/usr/local/bin/warpost-healthcheck"]
# warpostd and nginx both shut down gracefully on SIGTERM (nginx: fast
# shutdown; it finishes no long-polls, which clients retry anyway).
STOPSIGNAL SIGTERM
ENTRYPOINT ["/usr/local/bin/warpost-entrypoint"]
CMD ["warpostd"]
