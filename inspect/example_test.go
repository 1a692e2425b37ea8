package inspect_test

import (
	"encoding/hex"
	"os"

	"github.com/gdvar/gdvar/inspect"
)

// A packet that Godot refuses: an Array of two elements whose second, a
// Vector2, is cut short.
func ExampleValue() {
	b, _ := hex.DecodeString("1c000000" + "02000000" + "0200000001000000" + "050000000000803f")
	inspect.Value(b, inspect.Options{}).WriteTo(os.Stdout)
	// Output:
	// value: 24 bytes, Godot 4
	//
	//   offset  bytes                    field                              meaning
	//        0  1c 00 00 00              Array                              type 28
	//        4  02 00 00 00                count                            2 elements
	//        8  02 00 00 00                [0] int                          type 2
	//       12  01 00 00 00                  value                          1
	//       16  05 00 00 00                [1] Vector2                      type 5
	//
	// error: decode: byte 16, [1] (Vector2): data truncated: need 8 bytes, have 4
}

// A file dumped as it is read, row by row: memory stays the same however
// many values it holds.
func ExampleWriteFile() {
	// Two store_var values: the int 7 and null.
	b, _ := hex.DecodeString("08000000" + "0200000007000000" + "04000000" + "00000000")
	d, err := inspect.WriteFile(os.Stdout, b, inspect.Options{Godot: 4})
	if err != nil || d.Err != nil {
		return
	}
	// Output:
	// file: 20 bytes, plain, 2 store_var values, Godot 4
	//
	//   offset  bytes                    field                              meaning
	//        0  08 00 00 00              value 0                            length prefix: 8 bytes
	//        4  02 00 00 00                int                              type 2
	//        8  07 00 00 00                  value                          7
	//       12  04 00 00 00              value 1                            length prefix: 4 bytes
	//       16  00 00 00 00                Nil                              type 0
}
