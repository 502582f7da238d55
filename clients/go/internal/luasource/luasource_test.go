package luasource

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func write(t *testing.T, path, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// Core's BucketScript resolves protocol 3's includes in p3/include first, then include/; protocol 2's see include/ only.
func TestProtocol3sIncludesComeFromP3IncludeFirstThenInclude(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, "enqueue.lua"), "--@include dead.lua\nreturn 2\n")
	write(t, filepath.Join(dir, "include", "dead.lua"), "-- protocol 2's dead\n")
	write(t, filepath.Join(dir, "include", "crc32.lua"), "-- shared crc32\n")
	write(t, filepath.Join(dir, "p3", "enqueue.lua"), "--@include dead.lua\n--@include crc32.lua\nreturn 3\n")
	write(t, filepath.Join(dir, "p3", "include", "dead.lua"), "-- protocol 3's dead\n")

	scripts, err := Assemble(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(scripts) != 2 {
		t.Errorf("assembled %v, want enqueue and p3/enqueue", scripts)
	}
	if got := scripts["enqueue"]; got != "-- protocol 2's dead\n\nreturn 2\n" {
		t.Errorf("enqueue: %q", got)
	}
	if got := scripts["p3/enqueue"]; got != "-- protocol 3's dead\n\n-- shared crc32\n\nreturn 3\n" {
		t.Errorf("p3/enqueue: %q", got)
	}
}

func TestAnIncludeInNoFolderNamesTheScriptAndTheHelper(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, "enqueue.lua"), "return 2\n")
	write(t, filepath.Join(dir, "p3", "cancel.lua"), "--@include missing.lua\n")
	_, err := Assemble(dir)
	if err == nil || !strings.Contains(err.Error(), "cancel.lua includes missing.lua") {
		t.Errorf("%v", err)
	}
}
