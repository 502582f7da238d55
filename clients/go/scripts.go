package delayq

import (
	"crypto/sha1"
	"embed"
	"encoding/hex"
	"path"
	"strings"
)

//go:generate go run ./internal/cmd/assemble-lua

// Core's Lua scripts as the build step assembled them from src/main/resources/delayq/lua (go generate; a build
// without them fails here with "pattern lua/*.lua: no matching files found").
//
//go:embed lua/*.lua
var luaFiles embed.FS

// Script is one of core's Lua scripts: its name (the file's, without .lua), its text and the SHA-1 EVALSHA takes.
type Script struct {
	Name   string
	Source string
	SHA    string
}

var scripts = loadScripts()

func loadScripts() map[string]Script {
	entries, err := luaFiles.ReadDir("lua")
	if err != nil {
		panic(err)
	}
	all := make(map[string]Script, len(entries))
	for _, e := range entries {
		text, err := luaFiles.ReadFile(path.Join("lua", e.Name()))
		if err != nil {
			panic(err)
		}
		sum := sha1.Sum(text)
		name := strings.TrimSuffix(e.Name(), ".lua")
		all[name] = Script{Name: name, Source: string(text), SHA: hex.EncodeToString(sum[:])}
	}
	return all
}

// Scripts answers core's scripts this library runs, by name.
func Scripts() map[string]Script {
	copied := make(map[string]Script, len(scripts))
	for k, v := range scripts {
		copied[k] = v
	}
	return copied
}
