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
