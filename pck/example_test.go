package pck_test

import (
	"bytes"
	"fmt"
	"io"
	"io/fs"
	"log"

	"github.com/gdvar/gdvar/pck"
)

// A pack for Godot 4.2 (format 2), read back as a file system.
func Example() {
	var buf bytes.Buffer
	w, err := pck.NewWriter(&buf, pck.WriterOptions{Engine: pck.Version{Major: 4, Minor: 2}})
	if err != nil {
		log.Fatal(err)
	}
	for name, text := range map[string]string{"project.godot": "config_version=5\n", "levels/1.txt": "level one"} {
		f, _ := w.Create(name)
		io.WriteString(f, text)
	}
	if err := w.Close(); err != nil {
		log.Fatal(err)
	}

	r, err := pck.NewReader(bytes.NewReader(buf.Bytes()), int64(buf.Len()), nil)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("format", r.Format, "for Godot", r.Engine)
	fs.WalkDir(r, ".", func(p string, d fs.DirEntry, err error) error {
		if !d.IsDir() {
			b, _ := fs.ReadFile(r, p)
			fmt.Printf("%s: %q\n", p, b)
		}
		return nil
	})
	fmt.Println(r.Lookup("res://levels/1.txt").Path)
	// Output:
	// format 2 for Godot 4.2.0
	// levels/1.txt: "level one"
	// project.godot: "config_version=5\n"
	// res://levels/1.txt
}

func ExampleSplitPath() {
	fmt.Println(pck.SplitPath("game.pck:res://scenes/main.tscn"))
	fmt.Println(pck.SplitPath(`C:\games\game.exe:res://icon.png`))
	// Output:
	// game.pck res://scenes/main.tscn true
	// C:\games\game.exe res://icon.png true
}
