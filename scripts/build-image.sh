#!/usr/bin/env bash
# build-image.sh - build the Warpost container image from this checkout.
#
#   scripts/build-image.sh [TAG]        default tag: warpost:latest
#
# Uses podman when present (Debian's podman: no daemon needed), else docker.
# With podman on a machine that cannot pull, the Debian 12 base image is made
# first from the machine's apt mirror (scripts/container-base.sh, as root).
# Layers are cached: a rebuild after a source change recompiles only; a
# rebuild without changes takes seconds. Prints the build time and the
# image's size on stderr.
#
# Environment:
#   WP_IMAGE_TOOL   podman or docker (default: podman if installed)
#   BUILD_JOBS      compile jobs inside the build (default 2)
#   WP_IMAGE_CA     a CA bundle for npm inside the build (the Dockerfile's
#                   secret "ca"; default: NODE_EXTRA_CA_CERTS or npm's
#                   cafile here, when set), for a TLS-intercepting proxy
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
TAG=${1:-warpost:latest}
die() { echo "build-image.sh: $*" >&2; exit 1; }

tool=${WP_IMAGE_TOOL:-}
if [[ -z $tool ]]; then
    if command -v podman >/dev/null 2>&1; then tool=podman
    elif command -v docker >/dev/null 2>&1; then tool=docker
    else die "neither podman nor docker found (scripts/deps.sh image installs podman)"
    fi
fi

args=(build -t "$TAG" --build-arg "BUILD_JOBS=${BUILD_JOBS:-2}" -f "$ROOT/Dockerfile")
if [[ $tool == podman ]]; then
    if ! podman image exists docker.io/library/debian:12-slim &&
        ! podman pull -q docker.io/library/debian:12-slim >/dev/null 2>&1; then
        (( EUID == 0 )) || die "no debian:12-slim image and it cannot be pulled: run scripts/container-base.sh as root"
        bash "$ROOT/scripts/container-base.sh" >&2
    fi
    # chroot isolation and the host's network: what works inside the
    # unprivileged containers the development machines are. --format docker
    # keeps HEALTHCHECK, which the OCI image format has no field for.
    args+=(--isolation=chroot --network=host --format docker)
fi

# The CA bundle npm trusts here, lent to the build's npm ci (the bundle
# stage): needed where a proxy re-signs the registry's certificate.
ca=${WP_IMAGE_CA:-${NODE_EXTRA_CA_CERTS:-}}
if [[ -z $ca ]] && command -v npm >/dev/null 2>&1; then
    ca=$(npm config get cafile 2>/dev/null || true)
    [[ $ca == null || $ca == undefined ]] && ca=
fi
[[ -n $ca && -r $ca ]] && args+=(--secret "id=ca,src=$ca")

start=$(date +%s.%N)
"$tool" "${args[@]}" "$ROOT"
end=$(date +%s.%N)
size=$("$tool" image inspect --format '{{.Size}}' "$TAG")
awk -v s="$start" -v e="$end" -v b="$size" -v t="$TAG" 'BEGIN {
    printf "build-image.sh: %s built in %.1f s, %.0f MB\n", t, e - s, b / 1e6 > "/dev/stderr" }'
