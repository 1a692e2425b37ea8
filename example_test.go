package gdvar_test

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/gdvar/gdvar"
	"github.com/gdvar/gdvar/variant"
)

func Example() {
	// A struct becomes a Dictionary with its keys in field order: exactly
	// the bytes Godot 4.6's var_to_bytes writes for
	// {"id": 7, "name": "Ada", "pos": Vector2(1, 2)}.
	type Player struct {
		ID   int             `gdvar:"id"`
		Name string          `gdvar:"name"`
		Pos  variant.Vector2 `gdvar:"pos"`
		HP   float64         `gdvar:"hp,omitempty"`
	}
	data, err := gdvar.Marshal(&Player{ID: 7, Name: "Ada", Pos: variant.Vector2{X: 1, Y: 2}})
	if err != nil {
		panic(err)
	}
	fmt.Printf("%x\n", data)

	// And back, as bytes_to_var would read it.
	var p Player
	if err := gdvar.Unmarshal(data, &p); err != nil {
		panic(err)
	}
	fmt.Printf("%+v\n", p)
	// Output:
	// 1b00000003000000040000000200000069640000020000000700000004000000040000006e616d650400000003000000416461000400000003000000706f7300050000000000803f00000040
	// {ID:7 Name:Ada Pos:Vector2(1, 2) HP:0}
}

func Example_any() {
	// A value from a Godot game whose shape is not known in advance:
	// {"name": "Ada", "level": 12, "pos": Vector2(1, 2), "items": ["sword", 2.5, null]}
	d := variant.NewDictionary(4)
	d.Set(variant.String("name"), variant.String("Ada"))
	d.Set(variant.String("level"), variant.Int(12))
	d.Set(variant.String("pos"), variant.Vector2{X: 1, Y: 2})
	d.Set(variant.String("items"), variant.NewArray(variant.String("sword"), variant.Float(2.5), nil))
	data, _ := variant.Encode(d)

	// Into an `any` it arrives as plain Go values where there are such,
	// and as the model types otherwise.
	var v any
	if err := gdvar.Unmarshal(data, &v); err != nil {
		panic(err)
	}
	walk(v, "")
	// Output:
	// {
	//   items: [
	//     string "sword"
	//     float64 2.5
	//     nil
	//   ]
	//   level: int64 12
	//   name: string "Ada"
	//   pos: variant.Vector2 Vector2(1, 2)
	// }
}

// walk prints a decoded value, one item a line.
func walk(v any, indent string) {
	switch v := v.(type) {
	case map[string]any:
		fmt.Println("{")
		for _, k := range slices.Sorted(mapsKeys(v)) {
			fmt.Printf("%s  %s: ", indent, k)
			walk(v[k], indent+"  ")
		}
		fmt.Println(indent + "}")
	case []any:
		fmt.Println("[")
		for _, e := range v {
			fmt.Print(indent + "  ")
			walk(e, indent+"  ")
		}
		fmt.Println(indent + "]")
	case nil:
		fmt.Println("nil")
	case string:
		fmt.Printf("string %q\n", v)
	default:
		fmt.Printf("%T %v\n", v, v)
	}
}

func mapsKeys(m map[string]any) func(func(string) bool) {
	return func(yield func(string) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
}

func ExampleEncOptions_EncMode() {
	type Scores struct {
		Best  []int          `gdvar:"best,typed"` // Array[int]
		Names map[string]int `gdvar:"names"`      // plain Dictionary, keys sorted
	}
	v := &Scores{Best: []int{3, 2}, Names: map[string]int{"b": 2, "a": 1}}

	// For Godot 4.6 (the default) and for a Godot 3 peer, which has no
	// typed Arrays.
	godot4, _ := gdvar.EncOptions{}.EncMode()
	godot3, _ := gdvar.EncOptions{Family: variant.Godot3}.EncMode()
	b4, err := godot4.Marshal(v)
	fmt.Println(len(b4), err)
	_, err = godot3.Marshal(v)
	fmt.Println(err)
	// Output:
	// 112 <nil>
	// marshal: byte 20, best (Array): not supported by the target: typed Array cannot be read before Godot 4.3
}

func ExampleDecOptions_DecMode() {
	type Login struct {
		User string `gdvar:"user"`
	}
	d := variant.NewDictionary(2)
	d.Set(variant.String("user"), variant.String("ada"))
	d.Set(variant.String("admin"), variant.Bool(true))
	data, _ := variant.Encode(d)

	// By default keys that name no field are skipped; a server can refuse
	// them instead.
	var l Login
	fmt.Println(gdvar.Unmarshal(data, &l), l.User)
	strict, _ := gdvar.DecOptions{RejectUnknownFields: true}.DecMode()
	fmt.Println(strict.Unmarshal(data, &l))
	// Output:
	// <nil> ada
	// unmarshal: byte 32: unknown field "admin" for gdvar_test.Login
}

func ExampleError() {
	type Player struct {
		Inventory []string `gdvar:"inventory"`
	}
	type World struct {
		Player Player `gdvar:"player"`
	}
	inv := variant.NewArray(variant.String("sword"), variant.String("shield"), variant.Vector2{X: 1, Y: 2})
	p := variant.NewDictionary(1)
	p.Set(variant.String("inventory"), inv)
	w := variant.NewDictionary(1)
	w.Set(variant.String("player"), p)
	data, _ := variant.Encode(w)

	var world World
	err := gdvar.Unmarshal(data, &world)
	fmt.Println(err)
	var e *gdvar.Error
	if errors.As(err, &e) {
		fmt.Println(e.Path, e.Type, e.GoType, errors.Is(err, gdvar.ErrTypeMismatch))
	}
	// The same error is also a *variant.Error, with both paths: code that
	// handles package variant's errors handles this package's too.
	var ve *variant.Error
	if errors.As(err, &ve) {
		fmt.Println(ve.Offset, ve.Path, ve.GoPath)
	}

	// Malformed bytes give package variant's error, whatever the target.
	err = gdvar.Unmarshal(data[:len(data)-4], &world)
	fmt.Println(strings.Contains(err.Error(), "data truncated"), errors.Is(err, variant.ErrTruncated))
	// Output:
	// unmarshal: byte 92, player.inventory[2]: cannot unmarshal Vector2 into string
	// player.inventory[2] Vector2 string true
	// 92 ["player"]["inventory"][2] player.inventory[2]
	// true true
}

// Temperature marshals itself as a float in Celsius.
type Temperature struct{ Kelvin float64 }

func (t Temperature) MarshalVariant() (variant.Value, error) {
	return variant.Float(t.Kelvin - 273.15), nil
}

func (t *Temperature) UnmarshalVariant(v variant.Value) error {
	c, ok := v.(variant.Float)
	if !ok {
		return fmt.Errorf("a temperature is a float, not %v", variant.TypeOf(v))
	}
	t.Kelvin = float64(c) + 273.15
	return nil
}

func ExampleMarshaler() {
	data, _ := gdvar.Marshal(map[string]Temperature{"outside": {Kelvin: 293.65}})
	var back map[string]any
	_ = gdvar.Unmarshal(data, &back)
	fmt.Println(back)

	var t map[string]Temperature
	fmt.Println(gdvar.Unmarshal(data, &t), t["outside"].Kelvin)
	// Output:
	// map[outside:20.5]
	// <nil> 293.65
}

// A message read as a Value first, to look at its "type", then stored into
// the struct of that type, as Unmarshal would store it from the bytes.
func ExampleUnmarshalValue() {
	type Move struct {
		To    variant.Vector2 `gdvar:"to"`
		Speed float32         `gdvar:"speed"`
	}
	// What the game sent: put_var({"type": "move", "to": Vector2(3, 4), "speed": 2.5})
	msg := variant.NewDictionary(3)
	msg.Set(variant.String("type"), variant.String("move"))
	msg.Set(variant.String("to"), variant.Vector2{X: 3, Y: 4})
	msg.Set(variant.String("speed"), variant.Float(2.5))

	if kind, _ := msg.Get(variant.String("type")); kind == variant.String("move") {
		var m Move // the "type" key has no field and is ignored
		if err := gdvar.UnmarshalValue(msg, &m); err != nil {
			fmt.Println(err)
			return
		}
		fmt.Printf("%+v\n", m)
	}
	// Output: {To:Vector2(3, 4) Speed:2.5}
}
