package migrate_test

import (
	"fmt"

	"github.com/gdvar/gdvar/gdfile"
	"github.com/gdvar/gdvar/migrate"
	"github.com/gdvar/gdvar/variant"
)

// A Godot 3 save file, compressed, becomes the Godot 4 file that
// FileAccess.get_var reads as the same data.
func ExampleFile() {
	old := &gdfile.File{
		Container: gdfile.Container{Format: gdfile.Compressed, Compression: gdfile.Gzip},
		Godot:     variant.Godot3,
		Values:    []variant.Value{variant.PackedInt32Array{1, 2}, variant.Quaternion{W: 1}},
	}
	data3, _ := old.Encode(gdfile.Options{})

	f, _ := gdfile.Read(data3, gdfile.Options{Godot: variant.Godot3})
	g, warnings, err := migrate.File(f, migrate.Options{To: variant.Godot4})
	if err != nil {
		panic(err)
	}
	data4, _ := g.Encode(gdfile.Options{})
	fmt.Println(len(warnings), g.Container)

	// The first value's type byte, after its length prefix.
	plain3, _, _ := gdfile.Unwrap(data3, gdfile.Options{})
	plain4, _, _ := gdfile.Unwrap(data4, gdfile.Options{})
	fmt.Printf("Godot 3 PoolIntArray: type %d; Godot 4 PackedInt32Array: type %d\n", plain3[4], plain4[4])
	// Output:
	// 0 compressed (gzip, 4096-byte blocks)
	// Godot 3 PoolIntArray: type 21; Godot 4 PackedInt32Array: type 30
}

// Going back to Godot 3 is refused where something would be lost, with
// the place in the value.
func ExampleValue() {
	d := variant.NewDictionary(1)
	d.Set(variant.String("cell"), variant.Vector2i{X: 1, Y: 2})
	_, _, err := migrate.Value(variant.NewArray(d), migrate.Options{To: variant.Godot3})
	fmt.Println(err)
	// Output: [0]["cell"] (Vector2i): no equivalent in Godot 3: Godot 3 has no Vector2i
}
