#!/usr/bin/env bash
# docker/base.sh — builds the Debian 12 base image the Dockerfile starts from.
# No image registry is reachable from the project's machines, so the base is
# made here: `debootstrap --variant=minbase bookworm` into a folder, then
# `docker import`. Cached: nothing is done when the image exists (FORCE=1
# rebuilds). About 35 s on a quiet machine; needs root and Debian's mirror.
#
#   docker/base.sh [IMAGE]       default IMAGE: catalyzer-base:bookworm
# Environment: MIRROR (default: the first deb.debian.org-style URI of this
# machine's apt sources, else http://deb.debian.org/debian), FORCE=1.
set -euo pipefail
IMAGE=${1:-catalyzer-base:bookworm}

if [ -z "${FORCE:-}" ] && docker image inspect "$IMAGE" >/dev/null 2>&1; then
    echo "base.sh: $IMAGE exists (FORCE=1 rebuilds)" >&2
    exit 0
fi
command -v debootstrap >/dev/null || { echo "base.sh: debootstrap is not installed (scripts/install-deps.sh)" >&2; exit 2; }
[ "$(id -u)" = 0 ] || { echo "base.sh: debootstrap needs root" >&2; exit 2; }

if [ -z "${MIRROR:-}" ]; then
    MIRROR=$(sed -n 's/^URIs: *\(http[^ ]*\/debian\)$/\1/p' /etc/apt/sources.list.d/*.sources 2>/dev/null | head -1)
    [ -n "$MIRROR" ] || MIRROR=$(sed -n 's/^deb \(http[^ ]*\/debian\) .*/\1/p' /etc/apt/sources.list 2>/dev/null | head -1)
    MIRROR=${MIRROR:-http://deb.debian.org/debian}
fi

ROOTFS=$(mktemp -d /tmp/catalyzer-base.XXXXXX)
trap 'rm -rf "$ROOTFS"' EXIT
echo "base.sh: debootstrap --variant=minbase bookworm from $MIRROR" >&2
debootstrap --variant=minbase bookworm "$ROOTFS" "$MIRROR" >"$ROOTFS.log" 2>&1 || {
    tail -20 "$ROOTFS.log" >&2
    exit 1
}
rm -f "$ROOTFS.log"
# What an image wants and a bootstrap leaves: no package caches, apt without
# recommends, a security suite beside the main one.
rm -rf "$ROOTFS"/var/cache/apt/archives/*.deb "$ROOTFS"/var/lib/apt/lists/*
cat >"$ROOTFS/etc/apt/apt.conf.d/90catalyzer" <<'EOF'
APT::Install-Recommends "false";
APT::Install-Suggests "false";
Acquire::Retries "3";
EOF
cat >"$ROOTFS/etc/apt/sources.list" <<EOF
deb $MIRROR bookworm main
deb $MIRROR bookworm-updates main
deb ${MIRROR%/debian}/debian-security bookworm-security main
EOF
tar -C "$ROOTFS" --numeric-owner -c . |
    docker import --change 'ENV LANG=C.UTF-8' --change 'CMD ["/bin/bash"]' - "$IMAGE" >/dev/null
echo "base.sh: built $IMAGE ($(docker image inspect -f '{{.Size}}' "$IMAGE") bytes)" >&2
