#!/usr/bin/env bash
# container-base.sh - a Debian 12 base image for podman, made without pulling.
#
#   sudo scripts/container-base.sh      # once per machine, about a minute
#
# Machines that cannot reach a container registry can still build the
# project's Dockerfile with podman: this script installs podman, buildah and
# debootstrap (Debian packages, through scripts/deps.sh's "image" group),
# bootstraps a minimal bookworm root file system from the Debian mirror this
# machine's apt already uses, imports it and tags it debian:12-slim,
# debian:12, debian:bookworm-slim and debian:bookworm (the Dockerfile's
# FROM). Where a registry is reachable, `podman pull debian:12-slim` does the
# same job and this script is not needed.
#
# On the development machines (containers without CAP_SYS_RESOURCE):
#   podman build --isolation=chroot --network=host ...   works
#   podman run ...   does not (crun cannot set rlimits); the image test
#                    (tests/ops/image_test.sh) runs the image's file system
#                    with podman create + podman mount + chroot instead.
#
# Idempotent: prints what it did, or that the image is there already.
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
die() { echo "container-base.sh: $*" >&2; exit 1; }

(( EUID == 0 )) || die "run as root (debootstrap and the import need it)"
bash "$HERE/deps.sh" image

if podman image exists docker.io/library/debian:12-slim; then
    echo "container-base.sh: debian:12-slim is present already"
    exit 0
fi

# The mirror apt uses: deb822 sources first (Debian 12's default), then the
# one-line format.
mirror=$(sed -n 's/^URIs: *\([^ ]*\/debian\/\{0,1\}\)$/\1/p' \
             /etc/apt/sources.list.d/*.sources 2>/dev/null | head -n 1 || true)
if [[ -z $mirror ]]; then
    mirror=$(awk '$1 == "deb" && $2 ~ /\/debian\/?$/ { print $2; exit }' \
                 /etc/apt/sources.list /etc/apt/sources.list.d/*.list 2>/dev/null || true)
fi
[[ -n $mirror ]] || die "no Debian mirror found in apt's sources"

root=$(mktemp -d /var/tmp/wp-debootstrap.XXXXXX)
trap 'rm -rf "$root"' EXIT
echo "container-base.sh: debootstrap bookworm from $mirror" >&2
debootstrap --variant=minbase bookworm "$root" "$mirror" >/dev/null

# The image's apt uses the same sources as this machine, so that RUN apt-get
# in the Dockerfile reaches the same mirror.
rm -f "$root/etc/apt/sources.list"
mkdir -p "$root/etc/apt/sources.list.d"
cp /etc/apt/sources.list.d/*.sources "$root/etc/apt/sources.list.d/" 2>/dev/null || true
if [[ -f /etc/apt/sources.list ]] && grep -q '^deb ' /etc/apt/sources.list; then
    cp /etc/apt/sources.list "$root/etc/apt/sources.list"
fi
# What the official slim image does: no apt cache kept inside images.
rm -rf "$root/var/cache/apt/archives/"*.deb "$root/var/lib/apt/lists/"*

tar -C "$root" -c . | podman import - localhost/debian-base:bookworm >/dev/null
for tag in 12-slim 12 bookworm-slim bookworm; do
    podman tag localhost/debian-base:bookworm "docker.io/library/debian:$tag"
done
echo "container-base.sh: tagged debian:12-slim, debian:12, debian:bookworm-slim, debian:bookworm"
