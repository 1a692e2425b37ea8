package gdproject_test

import (
	"fmt"
	"log"
	"strings"

	"github.com/gdvar/gdvar/gdproject"
	"github.com/gdvar/gdvar/variant"
)

// project.godot text into the project.binary an export carries, and back.
func Example() {
	text := `config_version=5

[application]

config/name="My Game"
config/features=PackedStringArray("4.6")

[display]

window/size/viewport_width=1280
`
	s, err := gdproject.ParseText(text, variant.Godot4)
	if err != nil {
		log.Fatal(err)
	}
	bin, err := s.EncodeBinary()
	if err != nil {
		log.Fatal(err)
	}
	back, err := gdproject.DecodeBinary(bin, 0)
	if err != nil {
		log.Fatal(err)
	}
	name, _ := back.Get("application/config/name")
	fmt.Printf("%s, %d settings, name %v\n", bin[:4], len(back.Settings), name)
	out, _ := back.Text()
	fmt.Print(out[strings.Index(out, "[display]"):])
	// Output:
	// ECFG, 4 settings, name "My Game"
	// [display]
	//
	// window/size/viewport_width=1280
}
