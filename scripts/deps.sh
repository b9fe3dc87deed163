#!/usr/bin/env bash
# Install the Debian packages Warpost needs, and only those that are missing.
#
# Usage: scripts/deps.sh [GROUP...]
#   build  compiler, CMake and the -dev libraries warpostd links against
#   db     the PostgreSQL server, for the private cluster (scripts/pgcluster.sh)
#   run    build + db, and Node.js/npm for the board's bundle: what
#          scripts/run.sh needs
#   test   what the test suite needs on top of build: db, nginx, curl, python3,
#          clang, Node.js and npm, and the ops group
#   web    Node.js and npm, for the board's bundle (scripts/webbuild)
#   bench  the benchmarks (tests/bench/run.py): wrk; pgbench comes with db
#   e2e    browser end-to-end tests (tests/e2e): Node.js, npm and Chromium
#   ops    the operations tests (tests/ops, label ops): PgBouncer, promtool
#          (prometheus), Node.js and npm for the Compose schema check
#   image  building and inspecting the container image without a Docker
#          engine: podman, buildah, debootstrap (scripts/container-base.sh;
#          scripts/test.sh --slow installs it)
#   ha     pg_auto_failover (pg_autoctl) for the failover test and
#          scripts/hacluster.sh (label image: scripts/test.sh --slow
#          installs it; docs/operations.md "High availability")
#   all    every group above (the default)
#
# Prints nothing and exits 0 when everything is already installed, so the
# other scripts can call it unconditionally on every run.
set -euo pipefail

# Keep the lists in sync with the README ("Quick start") and the Dockerfile
# build stage, which calls this script with the "build" group.
BUILD_PKGS=(
    build-essential
    cmake
    ninja-build
    pkg-config
    libmicrohttpd-dev
    libjson-c-dev
    libfcgi-dev
    libpq-dev
    libsodium-dev
    libcurl4-openssl-dev
    zlib1g-dev
    libjemalloc-dev
    librsvg2-dev
    fonts-dejavu-core
)

# nodejs and npm: the board's bundle (scripts/webbuild, esbuild from npm),
# which scripts/run.sh builds and serves (README "Performance", issue 32).
WEB_PKGS=(
    nodejs
    npm
)

# The server binaries (initdb, pg_ctl, postgres) come from postgresql-15;
# the metapackage keeps us on Debian's supported major version.
DB_PKGS=(
    postgresql
)

# On Debian 12 nginx-light is only a metapackage around nginx plus the echo
# module; plain nginx has everything the FastCGI front needs.
# python3 is Debian's interpreter; the harness uses only its stdlib.
# clang and its runtime: the sanitizer build links the fuzz targets with
# libFuzzer, which ships in libclang-rt-14-dev.
# nodejs and npm: the openapi_lint test runs Redocly's CLI, installed from
# tests/openapi/package-lock.json by scripts/test.sh (npm ci).
# python3-aiosmtpd: the real SMTP server the digest test sends to.
# procps: ps and pgrep (scripts/test.sh ends a test's children with them).
TEST_PKGS=(
    nginx
    curl
    python3
    clang
    libclang-rt-14-dev
    nodejs
    npm
    python3-aiosmtpd
    procps
)

# nodejs and npm: the boardgame.io baseline (tests/bench, npm ci there).
BENCH_PKGS=(
    wrk
    nodejs
    npm
)

# The browser tests (tests/e2e) drive Debian's chromium with playwright-core
# from npm (`npm ci` in scripts/test.sh); no browser is downloaded. Keep this
# group for packages only the browser tests need.
E2E_PKGS=(
    nodejs
    npm
    chromium
)

# tests/ops (label ops, run by scripts/test.sh through the test group):
# pgbouncer for the scale-out measurement, prometheus for `promtool check
# metrics` on /metrics (the package is about 100 MB installed, acceptable
# for a test machine), nodejs/npm for the Compose specification's JSON
# schema and Ajv (tests/ops/package-lock.json).
OPS_PKGS=(
    pgbouncer
    prometheus
    nodejs
    npm
)

# Building the image with podman where no Docker engine runs, and making its
# Debian base image from the machine's own mirror (scripts/container-base.sh).
IMAGE_PKGS=(
    podman
    buildah
    debootstrap
)

# pg_auto_failover: a monitor, a primary and a synchronous secondary
# (tests/ops/test_failover.py, scripts/hacluster.sh). Built for Debian 12's
# PostgreSQL 15, the one DB_PKGS brings. procps: hacluster.sh finds a
# node's processes with ps and pgrep.
HA_PKGS=(
    postgresql-15-auto-failover
    procps
)

usage() {
    echo "usage: $0 [build|db|run|web|test|bench|e2e|ops|image|ha|all]..." >&2
}

# Print the packages of one group, one per line.
group_packages() {
    local group=$1
    case "$group" in
        build) printf '%s\n' "${BUILD_PKGS[@]}" ;;
        db)    printf '%s\n' "${DB_PKGS[@]}" ;;
        run)   group_packages build; group_packages db
               printf '%s\n' "${WEB_PKGS[@]}" ;;
        test)  group_packages build; group_packages db
               printf '%s\n' "${TEST_PKGS[@]}"; group_packages ops ;;
        ops)   printf '%s\n' "${OPS_PKGS[@]}" ;;
        web)   printf '%s\n' "${WEB_PKGS[@]}" ;;
        image) printf '%s\n' "${IMAGE_PKGS[@]}" ;;
        ha)    group_packages db; printf '%s\n' "${HA_PKGS[@]}" ;;
        # An empty array expands to nothing; the guard keeps older bash happy.
        bench) group_packages db; printf '%s\n' "${BENCH_PKGS[@]}" ;;
        e2e)   if (( ${#E2E_PKGS[@]} > 0 )); then printf '%s\n' "${E2E_PKGS[@]}"; fi ;;
        all)   group_packages run; group_packages test; group_packages bench
               group_packages image; group_packages ha
               group_packages e2e ;;
        *)     echo "$0: unknown group '$group'" >&2; usage; return 2 ;;
    esac
}

# True when dpkg records the package as fully installed. A package that was
# removed but left its configuration behind reports "config-files", which
# does not count.
is_installed() {
    local status
    status=$(dpkg-query -W -f='${db:Status-Status}' "$1" 2>/dev/null) || return 1
    [[ "$status" == "installed" ]]
}

# Run a command as root: directly when we are root, through sudo otherwise.
# Returns 1 without running anything when neither is possible.
as_root() {
    if (( EUID == 0 )); then
        "$@"
    elif command -v sudo >/dev/null 2>&1; then
        sudo "$@"
    else
        return 1
    fi
}

# True when an installed package provides the name as a virtual package:
# NodeSource's nodejs provides npm (and conflicts with Debian's npm), so
# asking apt for npm there would fail although npm is present.
is_provided() {
    dpkg-query -W -f='${db:Status-Status} ${Provides}\n' 2>/dev/null |
        awk -v want="$1" '$1 == "installed" {
            for (i = 2; i <= NF; i++) { p = $i; sub(/,$/, "", p); if (p == want) found = 1 }
        } END { exit !found }'
}

install_packages() {
    local -a pkgs=("$@")
    if (( EUID != 0 )) && ! command -v sudo >/dev/null 2>&1; then
        echo "deps.sh: missing Debian packages; as root, run:" >&2
        echo "  apt-get update && apt-get install -y --no-install-recommends ${pkgs[*]}" >&2
        return 1
    fi
    echo "deps.sh: installing ${pkgs[*]}" >&2
    # CI has no standard input and no terminal: never let apt or debconf ask.
    as_root env DEBIAN_FRONTEND=noninteractive apt-get update -q
    as_root env DEBIAN_FRONTEND=noninteractive \
        apt-get install -y -q --no-install-recommends "${pkgs[@]}"
}

main() {
    local -a groups=("$@")
    if (( ${#groups[@]} == 0 )); then
        groups=(all)
    fi
    case "${groups[0]}" in
        -h|--help) usage; return 0 ;;
    esac

    if ! command -v dpkg-query >/dev/null 2>&1; then
        echo "deps.sh: dpkg-query not found; this script supports Debian only." >&2
        echo "Install the packages listed in scripts/deps.sh by hand, then set WP_SKIP_DEPS=1." >&2
        return 1
    fi

    local -a wanted=() missing=()
    local group pkg
    for group in "${groups[@]}"; do
        local list
        list=$(group_packages "$group") || return 2
        while IFS= read -r pkg; do
            if [[ -n "$pkg" ]]; then
                wanted+=("$pkg")
            fi
        done <<< "$list"
    done

    # Groups overlap (run and test both pull in build); ask dpkg once per name.
    local -A seen=()
    if (( ${#wanted[@]} > 0 )); then
        for pkg in "${wanted[@]}"; do
            if [[ -n "${seen[$pkg]:-}" ]]; then
                continue
            fi
            seen[$pkg]=1
            if ! is_installed "$pkg" && ! is_provided "$pkg"; then
                missing+=("$pkg")
            fi
        done
    fi

    if (( ${#missing[@]} == 0 )); then
        return 0
    fi
    install_packages "${missing[@]}"
}

main "$@"
