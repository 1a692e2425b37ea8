package gdjson

import (
	"math"
	"strconv"
	"strings"

	"github.com/gdvar/gdvar/variant"
)

// native turns parsed JSON of the typed form into values, as
// JSON.to_native does.
type native struct {
	o    ParseOptions
	text string
}

func (t *native) fail(n *node, p *variant.Path, msg string) error {
	if n == nil {
		return &Error{Offset: -1, Path: p.String(), Msg: msg}
	}
	e := (&parser{s: t.text}).errAt(n.off, msg).(*Error)
	e.Path = p.String()
	return e
}

func (t *native) value(n *node, depth int, p *variant.Path) (variant.Value, error) {
	if depth > t.o.MaxDepth {
		return nil, t.fail(n, p, "nested more than "+strconv.Itoa(t.o.MaxDepth)+" levels")
	}
	switch n.kind {
	case 'n':
		return nil, nil
	case 't':
		return variant.Bool(true), nil
	case 'f':
		return variant.Bool(false), nil
	case '"':
		return t.prefixed(n, p)
	case '[':
		a := &variant.Array{Values: make([]variant.Value, len(n.elems))}
		for i, e := range n.elems {
			v, err := t.value(e, depth+1, p.Add(variant.IndexSeg(i)))
			if err != nil {
				return nil, err
			}
			a.Values[i] = v
		}
		return a, nil
	case '{':
		return t.object(n, depth, p)
	}
	return nil, t.fail(n, p, "a bare number has no type: write \"i:"+n.text+"\" or \"f:"+n.text+"\"")
}

// prefixed reads a typed string: "i:", "f:", "s:", "sn:" or "np:".
func (t *native) prefixed(n *node, p *variant.Path) (variant.Value, error) {
	s := n.text
	switch {
	case strings.HasPrefix(s, "i:"):
		i, err := strconv.ParseInt(s[2:], 10, 64)
		if err != nil {
			return nil, t.fail(n, p, "invalid int "+strconv.Quote(s[2:]))
		}
		return variant.Int(i), nil
	case strings.HasPrefix(s, "f:"):
		f, ok := parseTypedFloat(s[2:])
		if !ok {
			return nil, t.fail(n, p, "invalid float "+strconv.Quote(s[2:]))
		}
		return variant.Float(f), nil
	case strings.HasPrefix(s, "s:"):
		return variant.String(validUTF8(s[2:])), nil
	case strings.HasPrefix(s, "sn:"):
		return variant.StringName(validUTF8(s[3:])), nil
	case strings.HasPrefix(s, "np:"):
		np, _ := variant.ParseNodePath(validUTF8(s[3:]))
		return np, nil
	}
	return nil, t.fail(n, p, "a string needs a type prefix (i:, f:, s:, sn:, np:), got "+strconv.Quote(s))
}

// parseTypedFloat reads the float of an "f:" string, the engine's nan,
// inf and -inf included.
func parseTypedFloat(s string) (float64, bool) {
	switch s {
	case "nan":
		return nan, true
	case "inf":
		return math.Inf(1), true
	case "-inf":
		return math.Inf(-1), true
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil && !math.IsInf(f, 0) && f != 0 {
		return 0, false
	}
	if err != nil && !strings.ContainsAny(s, "0123456789") {
		return 0, false
	}
	if f != f {
		f = nan // one NaN, whatever the spelling
	}
	return f, true
}

// builtin returns the Godot 4 type named name, as Variant::get_type_by_name
// does ("Vector2", "int"; not Godot 3 names).
func builtin(name string) (variant.Type, bool) {
	t, ok := variant.TypeByName(name)
	if !ok || t.String() != name {
		return 0, false
	}
	return t, true
}

func (t *native) object(n *node, depth int, p *variant.Path) (variant.Value, error) {
	tn, ok := n.field("type")
	if !ok {
		return nil, t.fail(n, p, `an object of the typed form needs a "type"`)
	}
	if tn.kind != '"' {
		return nil, t.fail(tn, p.Add(".type"), `"type" must be a string`)
	}
	typ, isBuiltin := builtin(tn.text)
	if !isBuiltin || typ == variant.TypeObject {
		return t.fullObject(n, tn.text, depth, p)
	}
	switch typ {
	case variant.TypeNil, variant.TypeBool:
		return nil, t.fail(tn, p, "type "+tn.text+" is written as plain JSON")
	case variant.TypeInt, variant.TypeFloat, variant.TypeString, variant.TypeStringName, variant.TypeNodePath:
		return nil, t.fail(tn, p, "type "+tn.text+" is written as a prefixed string")
	case variant.TypeRID:
		return variant.RID(0), nil
	case variant.TypeCallable:
		return variant.Callable{}, nil
	case variant.TypeSignal:
		return variant.Signal{}, nil
	case variant.TypeArray:
		return t.array(n, depth, p)
	case variant.TypeDictionary:
		return t.dictionary(n, depth, p)
	}
	args, err := t.args(n, p)
	if err != nil {
		return nil, err
	}
	return t.builtinValue(typ, args, p.Add(".args"))
}

// args returns the "args" array of n.
func (t *native) args(n *node, p *variant.Path) ([]*node, error) {
	a, ok := n.field("args")
	if !ok {
		return nil, t.fail(n, p, `missing "args"`)
	}
	if a.kind != '[' {
		return nil, t.fail(a, p.Add(".args"), `"args" must be an array`)
	}
	return a.elems, nil
}

// real reads a real component: a number (1e99999 is infinity, null is
// NaN, which is how Format writes it), rounded to 32 bits unless bits is
// 64.
func (t *native) real(n *node, p *variant.Path, bits int) (float64, error) {
	switch n.kind {
	case 'n':
		return nan, nil
	case '0':
		f := parseFloat(n.text)
		if bits == 32 {
			f = float64(float32(f))
		}
		return f, nil
	}
	return 0, t.fail(n, p, "expected a number")
}

// integer reads an integer component; a number with a fraction is
// truncated, as the engine's conversion does.
func (t *native) integer(n *node, p *variant.Path) (int64, error) {
	if n.kind != '0' {
		return 0, t.fail(n, p, "expected a number")
	}
	if i, err := strconv.ParseInt(n.text, 10, 64); err == nil {
		return i, nil
	}
	f := parseFloat(n.text)
	if f != f || f >= 9223372036854775807 || f < -9223372036854775808 {
		return math.MinInt64, nil
	}
	return int64(f), nil
}

func (t *native) builtinValue(typ variant.Type, args []*node, p *variant.Path) (variant.Value, error) {
	rb := 32
	if t.o.Double {
		rb = 64
	}
	f := variant.Facts(typ)
	want, factor := f.Reals+f.Ints+f.Floats, f.Comps
	if want > 0 && len(args) != want {
		return nil, t.fail(nil, p, typ.String()+" takes "+strconv.Itoa(want)+" args, got "+strconv.Itoa(len(args)))
	}
	if factor > 0 && len(args)%factor != 0 {
		return nil, t.fail(nil, p, typ.String()+" takes a multiple of "+strconv.Itoa(factor)+" args, got "+strconv.Itoa(len(args)))
	}
	var err error
	reals := func(bits int) []float64 {
		fs := make([]float64, len(args))
		for i, a := range args {
			if err != nil {
				break
			}
			fs[i], err = t.real(a, p.Add(variant.IndexSeg(i)), bits)
		}
		return fs
	}
	int32s := func() []int32 {
		is := make([]int32, len(args))
		for i, a := range args {
			if err != nil {
				break
			}
			var x int64
			x, err = t.integer(a, p.Add(variant.IndexSeg(i)))
			is[i] = int32(x)
		}
		return is
	}
	var v variant.Value
	switch typ {
	case variant.TypePackedByteArray:
		c := int32s()
		b := make(variant.PackedByteArray, len(c))
		for i, x := range c {
			b[i] = byte(x)
		}
		v = b
	case variant.TypePackedInt32Array:
		v = variant.PackedInt32Array(int32s())
	case variant.TypePackedInt64Array:
		c := make(variant.PackedInt64Array, len(args))
		for i, a := range args {
			if c[i], err = t.integer(a, p.Add(variant.IndexSeg(i))); err != nil {
				break
			}
		}
		v = c
	case variant.TypePackedFloat32Array:
		c := reals(32)
		f := make(variant.PackedFloat32Array, len(c))
		for i, x := range c {
			f[i] = float32(x)
		}
		v = f
	case variant.TypePackedFloat64Array:
		v = variant.PackedFloat64Array(reals(64))
	case variant.TypePackedStringArray:
		s := make(variant.PackedStringArray, len(args))
		for i, a := range args {
			if a.kind != '"' {
				return nil, t.fail(a, p.Add(variant.IndexSeg(i)), "expected a string")
			}
			s[i] = validUTF8(a.text)
		}
		v = s
	case variant.TypePackedColorArray:
		c := reals(32)
		out := make(variant.PackedColorArray, len(c)/4)
		for i := range out {
			out[i] = variant.Color{R: float32(c[4*i]), G: float32(c[4*i+1]), B: float32(c[4*i+2]), A: float32(c[4*i+3])}
		}
		v = out
	case variant.TypePackedVector2Array:
		c := reals(rb)
		out := make(variant.PackedVector2Array, len(c)/2)
		for i := range out {
			out[i] = variant.Vector2{X: c[2*i], Y: c[2*i+1]}
		}
		v = out
	case variant.TypePackedVector3Array:
		c := reals(rb)
		out := make(variant.PackedVector3Array, len(c)/3)
		for i := range out {
			out[i] = variant.Vector3{X: c[3*i], Y: c[3*i+1], Z: c[3*i+2]}
		}
		v = out
	case variant.TypePackedVector4Array:
		c := reals(rb)
		out := make(variant.PackedVector4Array, len(c)/4)
		for i := range out {
			out[i] = variant.Vector4{X: c[4*i], Y: c[4*i+1], Z: c[4*i+2], W: c[4*i+3]}
		}
		v = out
	default: // a fixed-size math type
		var c []float64
		switch f := variant.Facts(typ); {
		case f.Ints > 0:
			for _, x := range int32s() {
				c = append(c, float64(x))
			}
		case f.Floats > 0:
			c = reals(32)
		default:
			c = reals(rb)
		}
		v = mathValue(typ, c)
	}
	if err != nil {
		return nil, err
	}
	return v, nil
}

// mathValue builds a math type from its typed-form arguments, in the order
// JSON.from_native writes them: the order of the fields of its Go type (a
// Basis column by column), see variant.TypeFacts.GoIndex.
func mathValue(typ variant.Type, c []float64) variant.Value {
	f := variant.Facts(typ)
	if len(c) < f.Components() {
		return nil
	}
	wire := make([]float64, f.Components())
	for i := range wire {
		wire[i] = c[f.GoIndex(i)]
	}
	return variant.MathValue(typ, wire)
}

// containerType reads "elem_type", "key_type" or "value_type".
func (t *native) containerType(n *node, name string, p *variant.Path) (variant.ContainerType, error) {
	f, ok := n.field(name)
	if !ok {
		return variant.ContainerType{}, nil
	}
	if f.kind != '"' {
		return variant.ContainerType{}, t.fail(f, p.Add("."+name), "expected a type name")
	}
	if typ, ok := builtin(f.text); ok && typ != variant.TypeObject {
		return variant.Typed(typ), nil
	}
	if !t.o.AllowObjects {
		return variant.ContainerType{}, t.fail(f, p.Add("."+name), "a container of objects ("+f.text+") needs AllowObjects")
	}
	if strings.HasPrefix(f.text, "res://") {
		return variant.ContainerType{Kind: variant.Script, Builtin: variant.TypeObject, Name: f.text}, nil
	}
	if !validClassName(f.text) {
		return variant.ContainerType{}, t.fail(f, p.Add("."+name), "invalid type "+strconv.Quote(f.text))
	}
	if f.text == "Object" {
		return variant.Typed(variant.TypeObject), nil
	}
	return variant.ContainerType{Kind: variant.ClassName, Builtin: variant.TypeObject, Name: f.text}, nil
}

// validClassName reports whether s can name an engine class: an
// identifier.
func validClassName(s string) bool {
	if s == "" {
		return false
	}
	for i, c := range s {
		if c != '_' && !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z') && !(i > 0 && c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}

func (t *native) array(n *node, depth int, p *variant.Path) (variant.Value, error) {
	args, err := t.args(n, p)
	if err != nil {
		return nil, err
	}
	elem, err := t.containerType(n, "elem_type", p)
	if err != nil {
		return nil, err
	}
	a := &variant.Array{Elem: elem, Values: make([]variant.Value, len(args))}
	for i, e := range args {
		v, err := t.value(e, depth+1, p.Add(variant.IndexSeg(i)))
		if err != nil {
			return nil, err
		}
		if elem.IsTyped() && !fits(v, elem) {
			return nil, t.fail(e, p.Add(variant.IndexSeg(i)), "a "+variant.TypeOf(v).String()+" in an Array["+typeName(elem)+"]")
		}
		a.Values[i] = v
	}
	return a, nil
}

func (t *native) dictionary(n *node, depth int, p *variant.Path) (variant.Value, error) {
	args, err := t.args(n, p)
	if err != nil {
		return nil, err
	}
	if len(args)%2 != 0 {
		return nil, t.fail(n, p.Add(".args"), "a Dictionary takes an even number of args, got "+strconv.Itoa(len(args)))
	}
	kt, err := t.containerType(n, "key_type", p)
	if err != nil {
		return nil, err
	}
	vt, err := t.containerType(n, "value_type", p)
	if err != nil {
		return nil, err
	}
	d := variant.NewTypedDictionary(kt, vt, len(args)/2)
	for i := 0; i < len(args); i += 2 {
		k, err := t.value(args[i], depth+1, p.Add("{key "+strconv.Itoa(i/2)+"}"))
		if err != nil {
			return nil, err
		}
		v, err := t.value(args[i+1], depth+1, p.Add(variant.KeySeg(k)))
		if err != nil {
			return nil, err
		}
		if d.KeyType().IsTyped() && !fits(k, d.KeyType()) {
			return nil, t.fail(args[i], p.Add("{key "+strconv.Itoa(i/2)+"}"), "a "+variant.TypeOf(k).String()+" key in a Dictionary["+typeName(d.KeyType())+", …]")
		}
		if d.ValueType().IsTyped() && !fits(v, d.ValueType()) {
			return nil, t.fail(args[i+1], p.Add(variant.KeySeg(k)), "a "+variant.TypeOf(v).String()+" value in a Dictionary[…, "+typeName(d.ValueType())+"]")
		}
		d.Set(k, v)
	}
	return d, nil
}

func typeName(ct variant.ContainerType) string {
	if ct.Kind == variant.Builtin {
		return ct.Builtin.String()
	}
	return ct.Name
}

// fits reports whether v may be an element of a container typed ct.
func fits(v variant.Value, ct variant.ContainerType) bool {
	if ct.Builtin == variant.TypeObject || ct.Kind == variant.ClassName || ct.Kind == variant.Script {
		switch v.(type) {
		case nil, *variant.Object, variant.ObjectID:
			return true
		}
		return false
	}
	return variant.TypeOf(v) == ct.Builtin
}

func (t *native) fullObject(n *node, class string, depth int, p *variant.Path) (variant.Value, error) {
	if !validClassName(class) {
		return nil, t.fail(n, p, "invalid type "+strconv.Quote(class))
	}
	if !t.o.AllowObjects {
		return nil, t.fail(n, p, "a full object ("+class+") needs AllowObjects")
	}
	props, ok := n.field("props")
	if !ok || props.kind != '[' {
		return nil, t.fail(n, p, `an object needs a "props" array`)
	}
	if len(props.elems)%2 != 0 {
		return nil, t.fail(props, p.Add(".props"), "an object takes an even number of props, got "+strconv.Itoa(len(props.elems)))
	}
	o := &variant.Object{Class: class, Properties: make([]variant.Property, 0, len(props.elems)/2)}
	for i := 0; i < len(props.elems); i += 2 {
		name := props.elems[i]
		if name.kind != '"' {
			return nil, t.fail(name, p.Add(".props"+variant.IndexSeg(i)), "a property name must be a string")
		}
		pp := p.Add("." + name.text)
		v, err := t.value(props.elems[i+1], depth+1, pp)
		if err != nil {
			return nil, err
		}
		if name.text == "script" && v != nil {
			if s, ok := v.(variant.String); !ok || !strings.HasPrefix(string(s), "res://") || len(s) == len("res://") {
				return nil, t.fail(props.elems[i+1], pp, "an object's script must be a res:// path")
			}
		}
		o.Properties = append(o.Properties, variant.Property{Name: validUTF8(name.text), Value: v})
	}
	return o, nil
}
