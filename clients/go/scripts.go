package delayq

import (
	"crypto/sha1"
	"embed"
	"encoding/hex"
	"io/fs"
	"strings"
)

//go:generate go run ./internal/cmd/assemble-lua

// Core's Lua scripts as the build step assembled them from src/main/resources/delayq/lua, protocol 3's in lua/p3 (go
// generate; a build without them fails here with "pattern lua/*.lua: no matching files found").
//
//go:embed lua/*.lua lua/p3/*.lua
var luaFiles embed.FS

// Script is one of core's Lua scripts: its name (its path under lua/ without .lua: "enqueue", or "p3/enqueue" for
// protocol 3's), its text and the SHA-1 EVALSHA takes.
type Script struct {
	Name   string
	Source string
	SHA    string
}

var scripts = loadScripts()

func loadScripts() map[string]Script {
	all := map[string]Script{}
	for _, pattern := range []string{"lua/*.lua", "lua/p3/*.lua"} {
		files, err := fs.Glob(luaFiles, pattern)
		if err != nil {
			panic(err)
		}
		for _, file := range files {
			text, err := luaFiles.ReadFile(file)
			if err != nil {
				panic(err)
			}
			sum := sha1.Sum(text)
			name := strings.TrimSuffix(strings.TrimPrefix(file, "lua/"), ".lua")
			all[name] = Script{Name: name, Source: string(text), SHA: hex.EncodeToString(sum[:])}
		}
	}
	return all
}

// Scripts answers core's scripts as this library embeds them, by name (protocol 3's as "p3/<name>").
func Scripts() map[string]Script {
	copied := make(map[string]Script, len(scripts))
	for k, v := range scripts {
		copied[k] = v
	}
	return copied
}
