# First draft; not yet built in CI. The development machines have the Docker
# client but no engine, so this file has never been built or run.
#
# One image, three roles (see docker-compose.yml and docker/entrypoint.sh):
#   warpostd   the server (HTTP, or FastCGI when FCGI_SOCKET is set)
#   nginx      nginx serving web/ and passing /api/ to warpostd's socket
#   anything   run as a command, e.g. `docker run --rm IMAGE bash`
#
# Debian packages only, from the same release as the development machines.

ARG DEBIAN_IMAGE=debian:12-slim

# --- build stage -------------------------------------------------------------
FROM ${DEBIAN_IMAGE} AS build

# The package list lives in one place, scripts/deps.sh; the build group is
# the compiler, CMake and the -dev libraries.
COPY scripts/deps.sh /usr/local/sbin/warpost-deps
RUN bash /usr/local/sbin/warpost-deps build \
    && rm -rf /var/lib/apt/lists/*

WORKDIR /src
# The whole tree (minus .dockerignore): the top-level CMakeLists.txt adds
# rules/, srv/ and tests/, so all of them must be present to configure.
COPY . .
# No -DWP_WERROR here: a self-hoster's build should not fail over a warning.
# Only the server is built, not the tests.
RUN cmake -S . -B /build -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    && cmake --build /build -j "$(nproc)" --target warpostd

# --- runtime stage -----------------------------------------------------------
FROM ${DEBIAN_IMAGE}

# Runtime halves of the build group's -dev packages, plus nginx for the "web"
# role. On Debian 12 nginx-light is only nginx plus the echo module, which
# the Warpost config does not use, so plain nginx is installed.
RUN apt-get update \
    && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
        libmicrohttpd12 \
        libjson-c5 \
        libfcgi0ldbl \
        libpq5 \
        libsodium23 \
        nginx \
    && rm -rf /var/lib/apt/lists/*

# Both roles run as this user. Same uid in both containers, so nginx can
# connect to the socket warpostd creates in the shared volume.
RUN groupadd --system --gid 10001 warpost \
    && useradd --system --uid 10001 --gid warpost --no-create-home \
        --home-dir /nonexistent --shell /usr/sbin/nologin warpost \
    && install -d -o warpost -g warpost -m 0750 /run/warpost

COPY --from=build /build/srv/warpostd /usr/local/bin/warpostd
COPY web/ /opt/warpost/web/
COPY sql/ /opt/warpost/sql/
COPY nginx/ /opt/warpost/nginx/
COPY docker/entrypoint.sh /usr/local/bin/warpost-entrypoint
RUN chmod 0755 /usr/local/bin/warpost-entrypoint

ENV WEB_ROOT=/opt/warpost/web \
    MIGRATIONS_DIR=/opt/warpost/sql \
    PORT=8080 \
    BIND_ADDR=0.0.0.0

USER warpost
WORKDIR /opt/warpost
EXPOSE 8080
# warpostd and nginx both shut down gracefully on SIGTERM (nginx: fast
# shutdown; it finishes no long-polls, which clients retry anyway).
STOPSIGNAL SIGTERM
ENTRYPOINT ["/usr/local/bin/warpost-entrypoint"]
CMD ["warpostd"]
