#!/usr/bin/env bash
# The Go producer library (clients/go): Debian's Go and Debian's redigo package (its sources under
# /usr/share/gocode, which clients/go/go.mod points at), so nothing is fetched (GOPROXY=off). Assembles core's
# current Lua scripts into the library (go generate), builds it, and builds the interop driver that the interop
# tests (clients/interop) run: clients/go/bin/delayq-interop. Idempotent.
set -euo pipefail
cd "$(dirname "$0")/.."

need=()
command -v go >/dev/null || need+=(golang-go)
[ -f /usr/share/gocode/src/github.com/gomodule/redigo/go.mod ] || need+=(golang-github-gomodule-redigo-dev)
if [ ${#need[@]} -gt 0 ]; then
  echo "installing: ${need[*]}"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
fi

export GOPROXY=off GOSUMDB=off GOFLAGS=-mod=mod GOTOOLCHAIN=local
cd clients/go
go generate ./...
go vet ./...
go build -o bin/delayq-interop ./cmd/delayq-interop
echo "go client: $(go version | cut -d' ' -f3), $(ls lua/*.lua | wc -l) scripts, driver bin/delayq-interop"
