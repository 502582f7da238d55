#!/usr/bin/env bash
# The Go producer library (clients/go): Debian's Go and Debian's redigo and redisc packages (their sources under
# /usr/share/gocode, which clients/go/go.mod points at), so nothing is fetched (GOPROXY=off). Debian ships redisc
# without a go.mod, which a module replace needs: its sources are copied to clients/go/.deps/redisc (git-ignored)
# beside a minimal go.mod, and clients/go/go.mod replaces redisc with that folder. Assembles core's
# current Lua scripts (protocol 2's and protocol 3's) into the library (go generate), builds it, and builds the
# interop driver that the interop tests (clients/interop) run: clients/go/bin/delayq-interop. Idempotent.
set -euo pipefail
cd "$(dirname "$0")/.."

need=()
command -v go >/dev/null || need+=(golang-go)
[ -f /usr/share/gocode/src/github.com/gomodule/redigo/go.mod ] || need+=(golang-github-gomodule-redigo-dev)
redisc_src=/usr/share/gocode/src/github.com/mna/redisc
[ -f "$redisc_src/cluster.go" ] || need+=(golang-github-mna-redisc-dev)
if [ ${#need[@]} -gt 0 ]; then
  echo "installing: ${need[*]}"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
fi

# redisc as a module: the package's non-test sources (its tests want a mock-server package this build does not
# need) and a go.mod requiring the redigo that clients/go/go.mod replaces. Written afresh on every run.
redisc_mod=clients/go/.deps/redisc
rm -rf "$redisc_mod"
mkdir -p "$redisc_mod"
for f in "$redisc_src"/*.go; do
  case "$f" in *_test.go) ;; *) cp "$f" "$redisc_mod/" ;; esac
done
if [ -f /usr/share/doc/golang-github-mna-redisc-dev/copyright ]; then
  cp /usr/share/doc/golang-github-mna-redisc-dev/copyright "$redisc_mod/LICENSE"
fi
printf 'module github.com/mna/redisc\n\ngo 1.19\n\nrequire github.com/gomodule/redigo v1.8.3\n' > "$redisc_mod/go.mod"

export GOPROXY=off GOSUMDB=off GOFLAGS=-mod=mod GOTOOLCHAIN=local
cd clients/go
go generate ./...
go vet ./...
go build -o bin/delayq-interop ./cmd/delayq-interop
echo "go client: $(go version | cut -d' ' -f3), $(ls lua/*.lua | wc -l) scripts of protocol 2 and $(ls lua/p3/*.lua | wc -l) of protocol 3, driver bin/delayq-interop"
