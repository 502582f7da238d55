#!/usr/bin/env bash
# A real Kubernetes for the tests in kube/: kube-apiserver, kube-controller-manager, kube-scheduler and
# kubelet 1.20.2 built from Debian's `kubernetes` source package (the newest one that still carries the
# server sources with their vendor/ tree), Debian's etcd, and — for pods that run — Debian's containerd,
# runc and CNI plugins with a pause image built from the same source tree. No registry serves
# Kubernetes binaries here, so nothing is downloaded except Debian's packages.
#
# Idempotent and fast when done: the binaries are built once and cached under $DELAYQ_KUBE_CACHE
# (default /var/cache/delayq-kube), keyed by the source version:
#   1.20.2/bin/{kube-apiserver,kube-controller-manager,kube-scheduler,kubelet}
#   1.20.2/pause.tar   the sandbox image (docker archive) containerd imports
# Prints `NAME=value` lines for .ci/run to export:
#   DELAYQ_KUBE_BIN=/var/cache/delayq-kube/1.20.2/bin   (etcd is Debian's /usr/bin/etcd)
#   DELAYQ_KUBE_PAUSE_IMAGE=/var/cache/delayq-kube/1.20.2/pause.tar
set -euo pipefail

cache=${DELAYQ_KUBE_CACHE:-/var/cache/delayq-kube}
version=1.20.2
out=$cache/$version
bins=(kube-apiserver kube-controller-manager kube-scheduler kubelet)

log() { echo "install-kubernetes: $*" >&2; }

need_root() {
  if [ "$(id -u)" -ne 0 ]; then
    log "must run as root to $1; run it with sudo, or as root in CI"
    exit 1
  fi
}

# Runtime packages: etcd for the API server, openssl for its certificates; containerd, runc, CNI plugins,
# iptables and iproute2 (the test's own bridge) for pods;
# Debian's kubectl 1.20 is not needed (the tests speak to the API through Fabric8).
runtime_pkgs=(etcd-server containerd runc containernetworking-plugins iptables iproute2 openssl)
build_pkgs=(golang-go rsync golang-github-modern-go-reflect2-dev gcc libc6-dev dpkg-dev)

missing() {
  local pkg
  for pkg in "$@"; do
    dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'install ok installed' || echo "$pkg"
  done
}

apt_updated=
apt_install() {
  need_root "install $*"
  if [ -z "$apt_updated" ]; then apt-get update -qq; apt_updated=1; fi
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$@" >/dev/null
}

mapfile -t need < <(missing "${runtime_pkgs[@]}")
if [ ${#need[@]} -gt 0 ]; then
  log "installing ${need[*]}"
  apt_install "${need[@]}"
fi

built=1
for b in "${bins[@]}"; do [ -x "$out/bin/$b" ] || built=; done
[ -s "$out/pause.tar" ] || built=

if [ -z "$built" ]; then
  need_root "build Kubernetes $version"
  mapfile -t need < <(missing "${build_pkgs[@]}")
  if [ ${#need[@]} -gt 0 ]; then
    log "installing the build tools ${need[*]}"
    apt_install "${need[@]}"
  fi
  work=$cache/build
  mkdir -p "$work" "$out/bin"
  # The source package, from the same archive and suite apt uses for binaries.
  if ! ls "$work"/kubernetes_*.orig.tar.* >/dev/null 2>&1; then
    if ! grep -rqs '^Types:.*deb-src' /etc/apt/sources.list.d/ && ! grep -qs '^deb-src' /etc/apt/sources.list; then
      log "adding deb-src entries for the suites apt already uses"
      src=/etc/apt/sources.list.d/delayq-deb-src.sources
      for f in /etc/apt/sources.list.d/*.sources; do
        [ "$f" = "$src" ] && continue
        sed -n '/^Types:/,/^$/p' "$f" | sed 's/^Types:.*/Types: deb-src/'
        echo
      done >"$src"
      apt-get update -qq; apt_updated=1
    fi
    log "downloading the kubernetes source package"
    (cd "$work" && apt-get source --download-only -qq kubernetes >/dev/null)
  fi
  orig=$(ls "$work"/kubernetes_*.orig.tar.* | head -1)
  tree=$work/kubernetes-$version
  if [ ! -d "$tree/vendor" ]; then
    log "unpacking $(basename "$orig")"
    rm -rf "$tree"; mkdir -p "$tree"
    tar -C "$tree" --strip-components=1 -xf "$orig"
  fi
  # The vendored reflect2 1.0.1 faults under Go >= 1.18 (mapiterinit); Debian's 1.0.2 does not.
  r2=$tree/vendor/github.com/modern-go/reflect2
  if ! cmp -s /usr/share/gocode/src/github.com/modern-go/reflect2/reflect2.go "$r2/reflect2.go"; then
    log "replacing the vendored reflect2 with Debian's 1.0.2"
    rm -rf "$r2"; mkdir -p "$r2"
    cp /usr/share/gocode/src/github.com/modern-go/reflect2/*.go "$r2"/
    rm -f "$r2"/*_test.go
    [ -f /usr/share/gocode/src/github.com/modern-go/reflect2/go.mod ] && cp /usr/share/gocode/src/github.com/modern-go/reflect2/go.mod "$r2"/ || true
  fi
  # A GOPATH build, as Debian's packaging does it (the 1.20 tree does not build in module mode).
  mkdir -p "$work/.go/src/k8s.io" "$work/home"
  ln -sfn "$tree" "$work/.go/src/k8s.io/kubernetes"
  log "building ${bins[*]} (several minutes on 2 cores; cached afterwards)"
  (cd "$work/.go/src/k8s.io/kubernetes" \
    && GOPATH=$work/.go GOCACHE=$work/gocache CGO_ENABLED=0 HOME=$work/home GO111MODULE=off \
       make WHAT="cmd/kube-apiserver cmd/kube-controller-manager cmd/kube-scheduler cmd/kubelet" \
       GOFLAGS=-tags=providerless >"$work/make.log" 2>&1) \
    || { tail -30 "$work/make.log" >&2; exit 1; }
  for b in "${bins[@]}"; do
    cp "$tree/_output/local/bin/linux/$(dpkg --print-architecture)/$b" "$out/bin/$b.part" 2>/dev/null \
      || cp "$(find "$tree/_output" -type f -name "$b" | head -1)" "$out/bin/$b.part"
    mv "$out/bin/$b.part" "$out/bin/$b"
  done
  # The pod sandbox ("pause") image: no registry serves it, so it is built from the same tree as a
  # static binary in a one-file docker archive (containerd imports it; no podman needed).
  log "building the pause image"
  pw=$(mktemp -d)
  gcc -Os -static -o "$pw/pause" "$tree/build/pause/linux/pause.c" -DVERSION=3.2
  strip "$pw/pause"
  python3 "$(dirname "$0")/docker-archive.py" "$pw/pause" localhost/pause:3.2 "$out/pause.tar.part"
  mv "$out/pause.tar.part" "$out/pause.tar"
  rm -rf "$pw"
  # The build tree and Go cache are several GB; the binaries are all that is kept.
  rm -rf "$tree" "$work/gocache" "$work/.go"
fi

# kubectl of the same minor version (Debian's kubernetes-client), unpacked beside the server binaries rather than
# installed: another package may own /usr/bin/kubectl.
if [ ! -x "$out/bin/kubectl" ]; then
  need_root "fetch Debian's kubectl"
  [ -n "$apt_updated" ] || { apt-get update -qq; apt_updated=1; }
  kw=$(mktemp -d)
  (cd "$kw" && apt-get download -qq kubernetes-client >/dev/null 2>&1)
  dpkg-deb -x "$kw"/kubernetes-client_*.deb "$kw/root"
  cp "$kw/root/usr/bin/kubectl" "$out/bin/kubectl.part" && mv "$out/bin/kubectl.part" "$out/bin/kubectl"
  rm -rf "$kw"
fi

log "kubernetes $version binaries in $out/bin, etcd $(etcd --version 2>/dev/null | head -1 | awk '{print $3}')"
echo "DELAYQ_KUBE_BIN=$out/bin"
echo "DELAYQ_KUBE_PAUSE_IMAGE=$out/pause.tar"
