// The build step (go generate in clients/go): assembles core's Lua scripts into lua/ (protocol 3's into lua/p3/),
// which the library embeds. Run from the package folder; core's scripts are read from the checkout (or
// DELAYQ_CORE_LUA).
package main

import (
	"fmt"
	"os"
	"path/filepath"

	"delayq.io/go/delayq/internal/luasource"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "delayq:", err)
		os.Exit(1)
	}
}

func run() error {
	core := luasource.CoreDir(".")
	if _, err := os.Stat(core); err != nil {
		return fmt.Errorf("core's Lua scripts not found at %s; generate from a delayq checkout (go generate in clients/go) or set DELAYQ_CORE_LUA", core)
	}
	scripts, err := luasource.Assemble(core)
	if err != nil {
		return err
	}
	if err := removeGenerated(); err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Join("lua", "p3"), 0o755); err != nil {
		return err
	}
	for name, text := range scripts {
		// a name is a path under lua/ ("enqueue", "p3/enqueue")
		if err := os.WriteFile(filepath.Join("lua", filepath.FromSlash(name)+".lua"), []byte(text), 0o644); err != nil {
			return err
		}
	}
	return nil
}

// removeGenerated deletes the scripts an earlier run wrote, so that a script core no longer has is not embedded.
func removeGenerated() error {
	for _, pattern := range []string{filepath.Join("lua", "*.lua"), filepath.Join("lua", "p3", "*.lua")} {
		old, _ := filepath.Glob(pattern)
		for _, f := range old {
			if err := os.Remove(f); err != nil {
				return err
			}
		}
	}
	return nil
}
