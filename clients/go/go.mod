module delayq.io/go/delayq

go 1.19

require (
	github.com/gomodule/redigo v1.8.3
	github.com/mna/redisc v1.1.7
)

// Debian's packaged sources (golang-github-gomodule-redigo-dev, golang-github-mna-redisc-dev): the module builds
// offline, with GOPROXY=off. Debian's redisc has no go.mod: .ci/install-go-client.sh copies it to .deps/redisc
// with one. Outside Debian, drop these lines and let the Go toolchain fetch redigo v1.8.3 and redisc v1.1.7.
replace github.com/gomodule/redigo => /usr/share/gocode/src/github.com/gomodule/redigo

replace github.com/mna/redisc => ./.deps/redisc
