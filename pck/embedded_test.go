package pck

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// A pack in the "pck" section of an ELF executable, as Godot 4's exporter
// embeds it on Linux, is found from the section header (objcopy puts it
// before the section headers, so there is no trailer to find it by).
func TestELFSection(t *testing.T) {
	objcopy, err := exec.LookPath("objcopy")
	if err != nil {
		t.Skip("objcopy not installed:", err)
	}
	exe, err := os.Executable() // an ELF file on Linux
	if err != nil {
		t.Skip(err)
	}
	if b, _ := os.ReadFile(exe); len(b) < 4 || string(b[:4]) != "\x7fELF" {
		t.Skip("the test binary is not ELF")
	}
	dir := t.TempDir()
	pack := filepath.Join(dir, "game.pck")
	os.WriteFile(pack, build(t, WriterOptions{Key: testKey, EncryptDirectory: true}, testFiles), 0o644)
	out := filepath.Join(dir, "game")
	if msg, err := exec.Command(objcopy, "--add-section", "pck="+pack, exe, out).CombinedOutput(); err != nil {
		t.Skipf("objcopy: %v %s", err, msg)
	}
	if b, _ := os.ReadFile(out); string(b[len(b)-4:]) == "GDPC" {
		t.Fatal("the pack is at the end: the section lookup is not tested")
	}
	r, err := Open(out, &Options{Key: testKey})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if r.Start == 0 {
		t.Fatal("found at 0")
	}
	fi, _ := os.Stat(out)
	if r.Start+int64(len(testFiles)) > fi.Size() {
		t.Fatalf("start %d", r.Start)
	}
	for name, content := range testFiles {
		if b, err := r.ReadFile(name); err != nil || string(b) != content {
			t.Errorf("%s: %q %v", name, b, err)
		}
	}
}
