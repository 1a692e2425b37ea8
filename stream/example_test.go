package stream_test

import (
	"bytes"
	"fmt"
	"io"
	"log"

	"github.com/gdvar/gdvar/frame"
	"github.com/gdvar/gdvar/gdtext"
	"github.com/gdvar/gdvar/stream"
	"github.com/gdvar/gdvar/variant"
)

// A save file written with several store_var calls, read back value by
// value.
func Example_saveFile() {
	opts := stream.Options{Kind: frame.Store}

	var file bytes.Buffer // an *os.File in real code
	enc := stream.NewEncoder(&file, opts)
	enc.WriteValue(variant.Int(3))                    // f.store_var(3)
	enc.WriteValue(variant.String("Ada"))             // f.store_var("Ada")
	enc.WriteValue(variant.Vector2{X: 12.5, Y: -4})   // f.store_var(Vector2(12.5, -4))
	enc.WriteValue(variant.PackedInt32Array{1, 2, 3}) // f.store_var(PackedInt32Array([1, 2, 3]))
	fmt.Printf("%d bytes\n", file.Len())

	dec := stream.NewDecoder(&file, opts)
	for {
		v, err := dec.ReadValue() // f.get_var()
		if err == io.EOF {
			break
		}
		if err != nil {
			log.Fatal(err)
		}
		text, _ := gdtext.Format(v, gdtext.Options{})
		fmt.Println(text)
	}
	// Output:
	// 68 bytes
	// 3
	// "Ada"
	// Vector2(12.5, -4)
	// PackedInt32Array(1, 2, 3)
}

// Go structs in a save file that a Godot 3 game reads with File.get_var:
// each struct is a Dictionary keyed by the gdvar tags, encoded for
// Godot 3.
func Example_structs() {
	type Save struct {
		Level int             `gdvar:"level"`
		Name  string          `gdvar:"name"`
		Pos   variant.Vector2 `gdvar:"pos"`
	}
	opts := stream.Options{Kind: frame.Store, Godot: variant.Godot3}

	var file bytes.Buffer // an *os.File in real code
	enc := stream.NewEncoder(&file, opts)
	for _, s := range []Save{{1, "Ada", variant.Vector2{X: 3, Y: 4}}, {2, "Grace", variant.Vector2{}}} {
		if err := enc.Encode(s); err != nil { // f.store_var({"level": 1, …})
			log.Fatal(err)
		}
	}

	dec := stream.NewDecoder(&file, opts)
	for {
		var s Save
		err := dec.Decode(&s) // f.get_var()
		if err == io.EOF {
			break
		}
		if err != nil {
			log.Fatal(err)
		}
		fmt.Printf("%+v\n", s)
	}
	// Output:
	// {Level:1 Name:Ada Pos:Vector2(3, 4)}
	// {Level:2 Name:Grace Pos:Vector2(0, 0)}
}

// A frame whose payload does not decode reports the frame's offset in the
// stream and the place inside the value; the next frame can still be read.
func ExampleDecoder_ReadValue_error() {
	stream3 := []byte{
		8, 0, 0, 0, 2, 0, 0, 0, 1, 0, 0, 0, // put_var(1)
		8, 0, 0, 0, 5, 0, 0, 0, 0, 0, 0x80, 0x3f, // a Vector2 cut short
	}
	dec := stream.NewDecoder(bytes.NewReader(stream3), stream.Options{})
	for {
		v, err := dec.ReadValue()
		if err == io.EOF {
			break
		}
		fmt.Println(v, err)
	}
	// Output:
	// 1 <nil>
	// <nil> frame at byte 12 (8 bytes): decode: byte 0 (Vector2): data truncated: need 8 bytes, have 4
}
