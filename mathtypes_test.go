package gdvar_test

import (
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/gdvar/gdvar"
	"github.com/gdvar/gdvar/gdjson"
	"github.com/gdvar/gdvar/gdtext"
	"github.com/gdvar/gdvar/variant"
	"github.com/gdvar/gdvar/wire"
)

// TestMathTypesFromTheirRow checks that every fixed-size math type works
// in every layer from its row of the facts table alone: built from its
// components (MathValue) and read back (AppendComponents), encoded and
// decoded in both families and at double precision, written and parsed as
// text and as typed JSON, and marshalled from and into its Go type. The
// expectations are computed here from the row's component counts and the
// Go type's fields, not from the code under test: a type that is given a
// row and a Go type but is missed by some layer fails here.
func TestMathTypesFromTheirRow(t *testing.T) {
	seen := 0
	for typ := range variant.TypeCount {
		f := variant.Facts(typ)
		n := f.Components()
		if n == 0 {
			if f.Proto != nil {
				t.Errorf("%v: a Go type without components", typ)
			}
			continue
		}
		seen++
		t.Run(typ.String(), func(t *testing.T) { checkMathType(t, typ, f) })
	}
	if seen < 16 {
		t.Fatalf("only %d math types", seen)
	}
}

func checkMathType(t *testing.T, typ variant.Type, f variant.TypeFacts) {
	n := f.Components()
	// Distinct components in wire order, exact in every representation.
	c := make([]float64, n)
	for i := range c {
		switch {
		case f.Reals > 0:
			c[i] = 1.5 * float64(i+1)
		case f.Ints > 0:
			c[i] = -3 * float64(i+1)
		default:
			c[i] = 0.25 * float64(i+1)
		}
	}
	v := variant.MathValue(typ, c)
	if v == nil || v.Type() != typ || reflect.TypeOf(v) != reflect.TypeOf(f.Proto) {
		t.Fatalf("MathValue = %#v", v)
	}
	if got := variant.AppendComponents(nil, v); !slices.Equal(got, c) {
		t.Errorf("AppendComponents = %v, want %v", got, c)
	}
	if names := variant.ComponentNames(typ); len(names) != n || slices.Contains(names, "") {
		t.Errorf("ComponentNames = %q", names)
	}

	// The Go value's fields, flattened, are the components in the order
	// of the typed JSON form (a Basis column by column): a permutation of
	// c.
	var fields []float64
	leaves(reflect.ValueOf(v), &fields)
	if sorted := slices.Sorted(slices.Values(fields)); len(fields) != n || !slices.Equal(sorted, slices.Sorted(slices.Values(c))) {
		t.Fatalf("fields %v are not the components %v", fields, c)
	}

	// Binary: the header, then the components in wire order.
	want := func(fam variant.Family, double bool) []byte {
		id, _ := typ.ID(fam)
		h := uint32(id)
		if double {
			h |= wire.Flag64
		}
		b := wire.AppendU32(nil, h)
		for _, x := range c {
			switch {
			case double:
				b = wire.AppendF64(b, x)
			case f.Reals > 0 || f.Floats > 0:
				b = wire.AppendF32(b, float32(x))
			default:
				b = wire.AppendU32(b, uint32(int32(x)))
			}
		}
		return b
	}
	type form struct {
		fam    variant.Family
		double bool
	}
	forms := []form{{variant.Godot4, false}}
	if f.Reals > 0 {
		forms = append(forms, form{variant.Godot4, true})
	}
	if _, ok := typ.ID(variant.Godot3); ok {
		forms = append(forms, form{variant.Godot3, false})
	}
	for _, fm := range forms {
		eo := variant.EncOptions{Family: fm.fam}
		if fm.double {
			eo.Precision = variant.Double
		}
		em, err := eo.EncMode()
		if err != nil {
			t.Fatal(err)
		}
		b, err := em.Encode(v)
		if err != nil || string(b) != string(want(fm.fam, fm.double)) {
			t.Errorf("%v double=%v: Encode = %x, %v; want %x", fm.fam, fm.double, b, err, want(fm.fam, fm.double))
			continue
		}
		dm, err := variant.DecOptions{Family: fm.fam}.DecMode()
		if err != nil {
			t.Fatal(err)
		}
		if got, next, err := dm.Decode(b); err != nil || next != len(b) || got != v {
			t.Errorf("%v double=%v: Decode = %#v, %d, %v", fm.fam, fm.double, got, next, err)
		}
		// Many values, so that the decoder builds them in its arena too.
		arr := variant.NewArray()
		for range 100 {
			arr.Values = append(arr.Values, v)
		}
		ab, err := em.Encode(arr)
		if err != nil {
			t.Fatal(err)
		}
		if got, _, err := dm.Decode(ab); err != nil || !variant.Equal(got, arr) {
			t.Errorf("%v double=%v: an Array of them decodes as %v, %v", fm.fam, fm.double, got, err)
		}
	}

	// Text: the constructor with the components in wire order.
	for _, fam := range []variant.Family{variant.Godot4, variant.Godot3} {
		if _, ok := typ.ID(fam); !ok {
			continue
		}
		args := make([]string, n)
		for i, x := range c {
			args[i] = strconv.FormatFloat(x, 'g', -1, 64)
		}
		text := fam.Name(typ) + "(" + strings.Join(args, ", ") + ")"
		if got, err := gdtext.Parse(text, gdtext.ParseOptions{Family: fam}); err != nil || got != v {
			t.Errorf("%v: Parse(%q) = %#v, %v", fam, text, got, err)
		}
		s, err := gdtext.Format(v, gdtext.Options{Family: fam})
		if err != nil || !strings.HasPrefix(s, fam.Name(typ)+"(") {
			t.Errorf("%v: Format = %q, %v", fam, s, err)
		}
		if got, err := gdtext.Parse(s, gdtext.ParseOptions{Family: fam}); err != nil || got != v {
			t.Errorf("%v: Parse(Format) = %#v, %v", fam, got, err)
		}
	}

	// Typed JSON: the components in the order of the Go type's fields.
	args := make([]string, n)
	for i, x := range fields {
		args[i] = strconv.FormatFloat(x, 'f', -1, 64)
	}
	js := `{"type":"` + typ.String() + `","args":[` + strings.Join(args, ",") + `]}`
	if got, err := gdjson.Parse(js, gdjson.ParseOptions{Form: gdjson.Typed}); err != nil || got != v {
		t.Errorf("gdjson.Parse(%s) = %#v, %v", js, got, err)
	}
	if s, err := gdjson.Format(v, gdjson.Options{Form: gdjson.Typed}); err != nil {
		t.Errorf("gdjson.Format: %v", err)
	} else if got, err := gdjson.Parse(s, gdjson.ParseOptions{Form: gdjson.Typed}); err != nil || got != v {
		t.Errorf("gdjson.Parse(Format) of %s = %#v, %v", s, got, err)
	}

	// The Go mapping: the Go type, alone and as a struct field.
	b, err := gdvar.Marshal(v)
	if err != nil || string(b) != string(want(variant.Godot4, false)) {
		t.Errorf("Marshal = %x, %v", b, err)
	}
	p := reflect.New(reflect.TypeOf(f.Proto))
	if err := gdvar.Unmarshal(b, p.Interface()); err != nil || p.Elem().Interface() != v {
		t.Errorf("Unmarshal = %#v, %v", p.Elem().Interface(), err)
	}
	st := reflect.StructOf([]reflect.StructField{{Name: "F", Type: reflect.TypeOf(f.Proto), Tag: `gdvar:"f"`}})
	sv := reflect.New(st)
	sv.Elem().Field(0).Set(reflect.ValueOf(v))
	sb, err := gdvar.Marshal(sv.Interface())
	if err != nil {
		t.Fatalf("Marshal of a struct: %v", err)
	}
	dict, _, err := variant.Decode(sb)
	if d, ok := dict.(*variant.Dictionary); err != nil || !ok || d.Len() != 1 {
		t.Errorf("a struct marshals as %v, %v", dict, err)
	} else if got, _ := d.Get(variant.String("f")); got != v {
		t.Errorf("its field marshals as %#v", got)
	}
	out := reflect.New(st)
	if err := gdvar.Unmarshal(sb, out.Interface()); err != nil || out.Elem().Field(0).Interface() != v {
		t.Errorf("Unmarshal of a struct = %#v, %v", out.Elem().Interface(), err)
	}
}

// leaves appends the numeric fields of v, depth first.
func leaves(v reflect.Value, out *[]float64) {
	switch v.Kind() {
	case reflect.Struct:
		for i := range v.NumField() {
			leaves(v.Field(i), out)
		}
	case reflect.Float32, reflect.Float64:
		*out = append(*out, v.Float())
	case reflect.Int32:
		*out = append(*out, float64(v.Int()))
	default:
		*out = append(*out, math.NaN())
	}
}
