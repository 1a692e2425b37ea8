package gdjson_test

import (
	"fmt"

	"github.com/gdvar/gdvar/gdjson"
	"github.com/gdvar/gdvar/variant"
)

func example() variant.Value {
	d := variant.NewDictionary(2)
	d.Set(variant.String("name"), variant.String("Ada"))
	d.Set(variant.String("pos"), variant.Vector2{X: 1, Y: 2.5})
	return d
}

// The plain form is what JSON.stringify writes: keys sorted, and a Vector2
// as its text.
func ExampleFormat() {
	s, _ := gdjson.Format(example(), gdjson.Options{})
	fmt.Println(s)
	// Output: {"name":"Ada","pos":"(1.0, 2.5)"}
}

// The typed form is what JSON.stringify(JSON.from_native(value)) writes, and
// it reads back as the same value.
func ExampleFormat_typed() {
	s, _ := gdjson.Format(example(), gdjson.Options{Form: gdjson.Typed})
	fmt.Println(s)
	v, _ := gdjson.Parse(s, gdjson.ParseOptions{Form: gdjson.Typed})
	fmt.Println(variant.Equal(v, example()))
	// Output:
	// {"args":["s:name","s:Ada","s:pos",{"args":[1.0,2.5],"type":"Vector2"}],"type":"Dictionary"}
	// true
}

// Plain JSON reads as JSON.parse_string reads it: every number is a float.
func ExampleParse() {
	v, _ := gdjson.Parse(`{"level": 12, "tags": ["a"]}`, gdjson.ParseOptions{})
	level, _ := v.(*variant.Dictionary).Get(variant.String("level"))
	fmt.Printf("%T %v\n", level, level)
	_, err := gdjson.Parse(`{"level": 12,`, gdjson.ParseOptions{})
	fmt.Println(err)
	// Output:
	// variant.Float 12.0
	// gdjson: line 1, column 14: expected '}'
}
