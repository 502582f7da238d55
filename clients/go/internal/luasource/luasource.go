// Package luasource assembles core's Lua scripts the way core's io.delayq.script.LuaScript does: one file per
// operation in src/main/resources/delayq/lua, with the helpers of its include/ folder pasted where a line reads
// `--@include name.lua`. The generator (go generate) writes the result into the package's lua/ folder, which the
// library embeds; a test assembles them again and fails on a stale copy.
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

// CoreDir is core's script folder: DELAYQ_CORE_LUA, else src/main/resources/delayq/lua of the checkout that holds
// clientDir (clients/go).
func CoreDir(clientDir string) string {
	if dir := os.Getenv("DELAYQ_CORE_LUA"); dir != "" {
		return dir
	}
	return filepath.Join(clientDir, "..", "..", "src", "main", "resources", "delayq", "lua")
}

// Assemble answers every *.lua file of dir (not include/), by name without ".lua", with its includes resolved.
func Assemble(dir string) (map[string]string, error) {
	files, err := filepath.Glob(filepath.Join(dir, "*.lua"))
	if err != nil {
		return nil, err
	}
	sort.Strings(files)
	scripts := make(map[string]string, len(files))
	for _, file := range files {
		raw, err := os.ReadFile(file)
		if err != nil {
			return nil, err
		}
		var missing error
		text := include.ReplaceAllStringFunc(string(raw), func(line string) string {
			name := include.FindStringSubmatch(line)[1]
			helper, err := os.ReadFile(filepath.Join(dir, "include", name))
			if err != nil && missing == nil {
				missing = fmt.Errorf("%s includes %s: %w", filepath.Base(file), name, err)
			}
			return string(helper)
		})
		if missing != nil {
			return nil, missing
		}
		scripts[strings.TrimSuffix(filepath.Base(file), ".lua")] = text
	}
	if len(scripts) == 0 {
		return nil, fmt.Errorf("no Lua scripts in %s", dir)
	}
	return scripts, nil
}
