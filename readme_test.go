package gdvar_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// printComment matches a fmt.Println call with what it prints in a comment:
// fmt.Println(p.Name) // Ada
var printComment = regexp.MustCompile(`^\s*fmt\.Println\(.*\) // (.*)$`)

// TestReadmePrograms builds and runs every whole program in README.md (a
// go code block that starts with "package main") and checks that it prints
// what its comments say, line by line.
func TestReadmePrograms(t *testing.T) {
	if testing.Short() {
		t.Skip("builds programs")
	}
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command")
	}
	readme, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	var programs []string
	for _, block := range strings.Split(string(readme), "```go\n")[1:] {
		code, _, ok := strings.Cut(block, "\n```")
		if ok && strings.HasPrefix(code, "package main\n") {
			programs = append(programs, code+"\n")
		}
	}
	if len(programs) == 0 {
		t.Fatal("README.md has no whole program")
	}
	for i, code := range programs {
		var want []string
		for _, line := range strings.Split(code, "\n") {
			if m := printComment.FindStringSubmatch(line); m != nil {
				want = append(want, m[1])
			}
		}
		file := filepath.Join(t.TempDir(), "main.go")
		if err := os.WriteFile(file, []byte(code), 0o644); err != nil {
			t.Fatal(err)
		}
		out, err := exec.Command(goBin, "run", file).CombinedOutput()
		if err != nil {
			t.Fatalf("program %d: go run: %v\n%s", i+1, err, out)
		}
		got := strings.Split(strings.TrimSuffix(string(out), "\n"), "\n")
		if strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Errorf("program %d printed\n%s\nwant (from its comments)\n%s", i+1, strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
	}
}
