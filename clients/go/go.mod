module delayq.io/go/delayq

go 1.19

require github.com/gomodule/redigo v1.8.3

// Debian's packaged sources (golang-github-gomodule-redigo-dev): the module builds offline, with GOPROXY=off.
// Outside Debian, drop this line and let the Go toolchain fetch redigo v1.8.3.
replace github.com/gomodule/redigo => /usr/share/gocode/src/github.com/gomodule/redigo
