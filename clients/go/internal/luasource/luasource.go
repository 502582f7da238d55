// Package luasource assembles core's Lua scripts the way core does: protocol 2's as io.delayq.script.LuaScript does
// (one file per operation in src/main/resources/delayq/lua, helpers from its include/ folder), protocol 3's as
// io.delayq.bucket.BucketScript does (one file per operation in p3/, helpers from p3/include/, then include/). Each
// helper is pasted where a line reads `--@include name.lua`. The generator (go generate) writes the result into the
// package's lua/ folder, which the library embeds; a test assembles them again and fails on a stale copy.
package luasource

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
)

var include = regexp.MustCompile(`(?m)^--@include (\S+)$`)

// Protocol3Prefix starts the name of each of protocol 3's scripts: "p3/enqueue" is p3/enqueue.lua, as core's interop
// tests name BucketScript's scripts by their path under lua/.
const Protocol3Prefix = "p3/"

// CoreDir is core's script folder: DELAYQ_CORE_LUA, else src/main/resources/delayq/lua of the checkout that holds
// clientDir (clients/go).
func CoreDir(clientDir string) string {
	if dir := os.Getenv("DELAYQ_CORE_LUA"); dir != "" {
		return dir
	}
	return filepath.Join(clientDir, "..", "..", "src", "main", "resources", "delayq", "lua")
}

// Assemble answers every script of dir with its includes resolved, by name without ".lua": protocol 2's (dir/*.lua)
// by their file's name, protocol 3's (dir/p3/*.lua) as "p3/<name>".
func Assemble(dir string) (map[string]string, error) {
	protocol2, err := assembleFolder(dir, "", []string{filepath.Join(dir, "include")})
	if err != nil {
		return nil, err
	}
	p3 := filepath.Join(dir, "p3")
	protocol3, err := assembleFolder(p3, Protocol3Prefix, []string{filepath.Join(p3, "include"), filepath.Join(dir, "include")})
	if err != nil {
		return nil, err
	}
	for name, text := range protocol3 {
		protocol2[name] = text
	}
	return protocol2, nil
}

// assembleFolder answers every *.lua file of dir (not its subfolders), named prefix + the file's name without ".lua";
// each include is looked up in includeDirs in order, the first that holds it wins (core's LuaSource).
func assembleFolder(dir, prefix string, includeDirs []string) (map[string]string, error) {
	files, err := filepath.Glob(filepath.Join(dir, "*.lua"))
	if err != nil {
		return nil, err
	}
	sort.Strings(files)
	scripts := make(map[string]string, len(files))
	for _, file := range files {
		text, err := assembleFile(file, includeDirs)
		if err != nil {
			return nil, err
		}
		scripts[prefix+strings.TrimSuffix(filepath.Base(file), ".lua")] = text
	}
	if len(scripts) == 0 {
		return nil, fmt.Errorf("no Lua scripts in %s", dir)
	}
	return scripts, nil
}

// assembleFile is one script with each `--@include` line replaced by its helper's text (helpers are not expanded
// again, as in core).
func assembleFile(file string, includeDirs []string) (string, error) {
	raw, err := os.ReadFile(file)
	if err != nil {
		return "", err
	}
	var missing error
	text := include.ReplaceAllStringFunc(string(raw), func(line string) string {
		name := include.FindStringSubmatch(line)[1]
		helper, err := readHelper(name, includeDirs)
		if err != nil && missing == nil {
			missing = fmt.Errorf("%s includes %s: %w", filepath.Base(file), name, err)
		}
		return helper
	})
	return text, missing
}

func readHelper(name string, includeDirs []string) (string, error) {
	for _, dir := range includeDirs {
		text, err := os.ReadFile(filepath.Join(dir, name))
		if err == nil {
			return string(text), nil
		}
		if !os.IsNotExist(err) {
			return "", err
		}
	}
	return "", fmt.Errorf("in none of %s", strings.Join(includeDirs, ", "))
}
