// The build step (go generate in clients/go): assembles core's Lua scripts into lua/, which the library embeds.
// Run from the package folder; core's scripts are read from the checkout (or DELAYQ_CORE_LUA).
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
	old, _ := filepath.Glob(filepath.Join("lua", "*.lua"))
	for _, f := range old {
		if err := os.Remove(f); err != nil {
			return err
		}
	}
	for name, text := range scripts {
		if err := os.WriteFile(filepath.Join("lua", name+".lua"), []byte(text), 0o644); err != nil {
			return err
		}
	}
	return nil
}
