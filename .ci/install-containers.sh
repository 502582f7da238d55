#!/usr/bin/env bash
# Container tooling for the image tests (images/): Debian's podman with runc and slirp4netns (each
# test container gets its own network, the host's loopback at 10.0.2.2), and a JRE base image
# made from Debian packages, because no image registry is reachable from CI here.
#
# Idempotent and fast when done: packages are installed only when missing, the base image is built
# once and cached under $DELAYQ_IMAGE_CACHE (default /var/cache/delayq-images) as
#   jre17-base.tar   a docker-archive Jib reads as its base (tar://...), and
#   jre17-base.id    the image id it was made with (podman loads it again when missing).
# Prints `NAME=value` lines for .ci/run to export:
#   DELAYQ_IMAGE_BASE=tar:///var/cache/delayq-images/jre17-base.tar
set -euo pipefail

cache=${DELAYQ_IMAGE_CACHE:-/var/cache/delayq-images}
suite=bookworm
mirror=${DELAYQ_DEBIAN_MIRROR:-http://deb.debian.org/debian}
base_tag=localhost/delayq-test-jre:17
base_tar=$cache/jre17-base.tar

log() { echo "install-containers: $*" >&2; }

# Only the installing and the base-image build need root; the fast path (all done) does not.
need_root() {
  if [ "$(id -u)" -ne 0 ]; then
    log "must run as root to $1 (apt-get / debootstrap); run it with sudo, or as root in CI"
    exit 1
  fi
}

need=()
for pkg in podman runc slirp4netns debootstrap; do
  dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'install ok installed' || need+=("$pkg")
done
if [ ${#need[@]} -gt 0 ]; then
  need_root "install ${need[*]}"
  log "installing ${need[*]}"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
fi

mkdir -p "$cache"
if [ ! -s "$base_tar" ]; then
  need_root "build the JRE base image"
  log "building the JRE base image from Debian $suite (once; cached in $cache)"
  root=$(mktemp -d "$cache/rootfs.XXXXXX")
  trap 'rm -rf "$root"' EXIT
  debootstrap --variant=minbase --include=openjdk-17-jre-headless,ca-certificates \
    "$suite" "$root" "$mirror" >"$cache/debootstrap.log" 2>&1 \
    || { tail -20 "$cache/debootstrap.log" >&2; exit 1; }
  # What a runtime image does not need: package caches, docs, man pages.
  rm -rf "$root"/var/cache/apt/* "$root"/var/lib/apt/lists/* "$root"/usr/share/doc/* \
         "$root"/usr/share/man/* "$root"/usr/share/info/* "$root"/var/log/*
  # The JRE's folder is named after the architecture (java-17-openjdk-amd64, -arm64): ask the rootfs.
  java_bin=$(chroot "$root" readlink -f /usr/bin/java)
  java_home=${java_bin%/bin/java}
  [ -x "$root$java_bin" ] || { log "no java in the base rootfs (readlink -f /usr/bin/java gave '$java_bin')"; exit 1; }
  # Fixed timestamps, owners and order: the same packages give the same layer.
  tar -C "$root" --sort=name --mtime='2026-01-01 00:00:00Z' --numeric-owner -c . \
    | podman import \
        --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
        --change "ENV JAVA_HOME=$java_home" \
        --change 'ENV LANG=C.UTF-8' \
        --quiet - "$base_tag" >/dev/null
  podman save --quiet --format docker-archive -o "$base_tar.part" "$base_tag"
  mv "$base_tar.part" "$base_tar"
  rm -rf "$root"; trap - EXIT
elif ! podman image exists "$base_tag"; then
  podman load --quiet -i "$base_tar" >/dev/null
fi
log "base image $base_tag ($(du -h "$base_tar" | cut -f1) archive)"
echo "DELAYQ_IMAGE_BASE=tar://$base_tar"
