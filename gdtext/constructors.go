package gdtext

// The constructors of the text form (Vector2(…), PackedByteArray(…),
// NodePath(…), Object(…), typed containers, resource references), by
// family, and the parsing of their arguments.

import (
	"encoding/base64"
	"strconv"
	"strings"

	"github.com/gdvar/gdvar/variant"
)

type num struct {
	pos  int
	kind tokKind // tInt, tFloat, or tIdent for inf, -inf, inf_neg, nan
	text string
}

// args parses "(n, n, …)" of numbers. want is the exact count, or -1 for
// any count that is a multiple of mult.
func (p *parser) args(name string, t token, want, mult int) ([]num, error) {
	if _, err := p.expect(tLParen, "'(' after "+name); err != nil {
		return nil, err
	}
	return p.argList(name, t, want, mult)
}

// argList is args after the '('.
func (p *parser) argList(name string, t token, want, mult int) ([]num, error) {
	var out []num
	for {
		a, err := p.next()
		if err != nil {
			return nil, err
		}
		if a.kind == tRParen && len(out) == 0 {
			break
		}
		switch a.kind {
		case tInt, tFloat:
		case tIdent:
			if _, ok := special(a.text); !ok {
				return nil, p.errAt(a.pos, "expected a number in "+name+", found "+a.describe())
			}
		default:
			return nil, p.errAt(a.pos, "expected a number in "+name+", found "+a.describe())
		}
		out = append(out, num{a.pos, a.kind, a.text})
		a, err = p.next()
		if err != nil {
			return nil, err
		}
		if a.kind == tRParen {
			break
		}
		if a.kind != tComma {
			return nil, p.errAt(a.pos, "expected ',' or ')' in "+name+", found "+a.describe())
		}
	}
	if want >= 0 && len(out) != want {
		return nil, p.errAt(t.pos, name+" takes "+strconv.Itoa(want)+" numbers, found "+strconv.Itoa(len(out)))
	}
	if want < 0 && len(out)%mult != 0 {
		return nil, p.errAt(t.pos, name+" takes a multiple of "+strconv.Itoa(mult)+" numbers, found "+strconv.Itoa(len(out)))
	}
	return out, nil
}

// real converts a constructor argument to a double.
func (p *parser) real(n num) (float64, error) {
	switch n.kind {
	case tIdent:
		f, _ := special(n.text)
		return f, nil
	case tInt:
		if _, err := strconv.ParseInt(n.text, 10, 64); err != nil {
			return 0, p.errAt(n.pos, "integer "+n.text+" out of the 64-bit range")
		}
	}
	return parseFloat64(n.text), nil
}

// float32 converts a constructor argument to a float, rounding the text
// once.
func (p *parser) float32(n num) (float32, error) {
	switch n.kind {
	case tIdent:
		f, _ := special(n.text)
		if f != f {
			return nan32, nil
		}
		return float32(f), nil
	case tInt:
		if _, err := strconv.ParseInt(n.text, 10, 64); err != nil {
			return 0, p.errAt(n.pos, "integer "+n.text+" out of the 64-bit range")
		}
	}
	f, _ := strconv.ParseFloat(n.text, 32)
	return float32(f), nil
}

// integer converts a constructor argument to an integer of bits bits.
func (p *parser) integer(n num, bits int) (int64, error) {
	if n.kind != tInt {
		return 0, p.errAt(n.pos, "expected an integer, found "+n.text)
	}
	v, err := strconv.ParseInt(n.text, 10, bits)
	if err != nil {
		return 0, p.errAt(n.pos, "integer "+n.text+" out of the "+strconv.Itoa(bits)+"-bit range")
	}
	return v, nil
}

// reals parses a constructor of want real_t arguments.
func (p *parser) reals(name string, t token, want int) ([]float64, error) {
	ns, err := p.args(name, t, want, 1)
	if err != nil {
		return nil, err
	}
	out := make([]float64, len(ns))
	for i, n := range ns {
		if out[i], err = p.real(n); err != nil {
			return nil, err
		}
	}
	return out, nil
}

func (p *parser) int32s(name string, t token, want, mult int) ([]int32, error) {
	ns, err := p.args(name, t, want, mult)
	if err != nil {
		return nil, err
	}
	out := make([]int32, len(ns))
	for i, n := range ns {
		v, err := p.integer(n, 32)
		if err != nil {
			return nil, err
		}
		out[i] = int32(v)
	}
	return out, nil
}

func (p *parser) float32s(name string, t token, want, mult int) ([]float32, error) {
	ns, err := p.args(name, t, want, mult)
	if err != nil {
		return nil, err
	}
	out := make([]float32, len(ns))
	for i, n := range ns {
		if out[i], err = p.float32(n); err != nil {
			return nil, err
		}
	}
	return out, nil
}

type ctor func(p *parser, t token, depth int) (variant.Value, error)

var ctors4, ctors3 map[string]ctor

func init() {
	bytes := func(p *parser, t token, _ int) (variant.Value, error) { return p.byteArray(t) }
	int32s := func(p *parser, t token, _ int) (variant.Value, error) {
		a, err := p.int32s(t.text, t, -1, 1)
		if err != nil {
			return nil, err
		}
		return variant.PackedInt32Array(a), nil
	}
	float32s := func(p *parser, t token, _ int) (variant.Value, error) {
		a, err := p.float32s(t.text, t, -1, 1)
		if err != nil {
			return nil, err
		}
		return variant.PackedFloat32Array(a), nil
	}
	strs := func(p *parser, t token, _ int) (variant.Value, error) { return p.stringArray(t) }
	vec2s := func(p *parser, t token, _ int) (variant.Value, error) {
		ns, err := p.args(t.text, t, -1, 2)
		if err != nil {
			return nil, err
		}
		out := make(variant.PackedVector2Array, len(ns)/2)
		for i := range out {
			if out[i].X, err = p.real(ns[2*i]); err != nil {
				return nil, err
			}
			if out[i].Y, err = p.real(ns[2*i+1]); err != nil {
				return nil, err
			}
		}
		return out, nil
	}
	vec3s := func(p *parser, t token, _ int) (variant.Value, error) {
		a, err := p.reals(t.text, t, -1)
		if err != nil {
			return nil, err
		}
		if len(a)%3 != 0 {
			return nil, p.errAt(t.pos, t.text+" takes a multiple of 3 numbers, found "+strconv.Itoa(len(a)))
		}
		out := make(variant.PackedVector3Array, len(a)/3)
		for i := range out {
			out[i] = variant.Vector3{X: a[3*i], Y: a[3*i+1], Z: a[3*i+2]}
		}
		return out, nil
	}
	colors := func(p *parser, t token, _ int) (variant.Value, error) {
		a, err := p.float32s(t.text, t, -1, 4)
		if err != nil {
			return nil, err
		}
		out := make(variant.PackedColorArray, len(a)/4)
		for i := range out {
			out[i] = variant.Color{R: a[4*i], G: a[4*i+1], B: a[4*i+2], A: a[4*i+3]}
		}
		return out, nil
	}

	common := map[string]ctor{
		"NodePath": (*parser).nodePath, "RID": (*parser).rid, "Object": (*parser).object,
		"PoolByteArray": bytes, "ByteArray": bytes,
		"PoolIntArray": int32s, "IntArray": int32s,
		"PoolRealArray": float32s, "FloatArray": float32s,
		"PoolStringArray": strs, "StringArray": strs,
		"PoolVector2Array": vec2s, "Vector2Array": vec2s,
		"PoolVector3Array": vec3s, "Vector3Array": vec3s,
		"PoolColorArray": colors, "ColorArray": colors,
	}
	ctors3 = common
	ctors4 = map[string]ctor{
		"Signal":     (*parser).signal,
		"Callable":   (*parser).callable,
		"Array":      (*parser).typedArray,
		"Dictionary": (*parser).typedDictionary,

		"PackedByteArray":  bytes,
		"PackedInt32Array": int32s, "PackedIntArray": int32s,
		"PackedInt64Array": func(p *parser, t token, _ int) (variant.Value, error) {
			ns, err := p.args(t.text, t, -1, 1)
			if err != nil {
				return nil, err
			}
			out := make(variant.PackedInt64Array, len(ns))
			for i, n := range ns {
				if out[i], err = p.integer(n, 64); err != nil {
					return nil, err
				}
			}
			return out, nil
		},
		"PackedFloat32Array": float32s, "PackedRealArray": float32s,
		"PackedFloat64Array": func(p *parser, t token, _ int) (variant.Value, error) {
			a, err := p.reals(t.text, t, -1)
			if err != nil {
				return nil, err
			}
			return variant.PackedFloat64Array(a), nil
		},
		"PackedStringArray":  strs,
		"PackedVector2Array": vec2s,
		"PackedVector3Array": vec3s,
		"PackedVector4Array": func(p *parser, t token, _ int) (variant.Value, error) {
			a, err := p.reals(t.text, t, -1)
			if err != nil {
				return nil, err
			}
			if len(a)%4 != 0 {
				return nil, p.errAt(t.pos, t.text+" takes a multiple of 4 numbers, found "+strconv.Itoa(len(a)))
			}
			out := make(variant.PackedVector4Array, len(a)/4)
			for i := range out {
				out[i] = variant.Vector4{X: a[4*i], Y: a[4*i+1], Z: a[4*i+2], W: a[4*i+3]}
			}
			return out, nil
		},
		"PackedColorArray": colors,
	}
	ctors4["PoolVector4Array"] = ctors4["PackedVector4Array"]
	ctors4["Vector4Array"] = ctors4["PackedVector4Array"]
	// The fixed-size math types: each by its name in Godot 3 (where it
	// exists) and in Godot 4, and by the older names both parsers keep.
	for typ := range variant.TypeCount {
		if variant.Facts(typ).Components() == 0 {
			continue
		}
		c := mathCtor(typ)
		if _, ok := typ.ID(variant.Godot3); ok {
			common[variant.Godot3.Name(typ)] = c
		}
		ctors4[typ.String()] = c
	}
	for old, typ := range mathAliases {
		common[old] = mathCtor(typ)
	}
	for k, v := range common {
		ctors4[k] = v
	}
}

// mathAliases are the Godot 2 names of math types that both engines' text
// parsers still accept.
var mathAliases = map[string]variant.Type{
	"Matrix32": variant.TypeTransform2D,
	"Rect3":    variant.TypeAABB,
	"Matrix3":  variant.TypeBasis,
}

// mathCtor parses the constructor of a fixed-size math type: its
// components in wire order (a Basis row by row), reals, int32s or (Color)
// float32s.
func mathCtor(typ variant.Type) ctor {
	f := variant.Facts(typ)
	return func(p *parser, t token, _ int) (variant.Value, error) {
		var c []float64
		switch {
		case f.Reals > 0:
			a, err := p.reals(t.text, t, f.Reals)
			if err != nil {
				return nil, err
			}
			c = a
		case f.Ints > 0:
			a, err := p.int32s(t.text, t, f.Ints, 1)
			if err != nil {
				return nil, err
			}
			for _, x := range a {
				c = append(c, float64(x))
			}
		default:
			a, err := p.float32s(t.text, t, f.Floats, 1)
			if err != nil {
				return nil, err
			}
			for _, x := range a {
				c = append(c, float64(x))
			}
		}
		return variant.MathValue(typ, c), nil
	}
}

// byteArray parses PackedByteArray(…) as a list of bytes or, in Godot 4, a
// base64 string.
func (p *parser) byteArray(t token) (variant.Value, error) {
	if !p.g3 {
		if _, err := p.expect(tLParen, "'(' after "+t.text); err != nil {
			return nil, err
		}
		a, err := p.peek()
		if err != nil {
			return nil, err
		}
		if a.kind == tString {
			p.next()
			b, err := base64.StdEncoding.DecodeString(a.text)
			if err != nil {
				return nil, p.errAt(a.pos, "invalid base64 in "+t.text)
			}
			if _, err := p.expect(tRParen, "')' after the base64 string"); err != nil {
				return nil, err
			}
			return variant.PackedByteArray(b), nil
		}
	} else if _, err := p.expect(tLParen, "'(' after "+t.text); err != nil {
		return nil, err
	}
	ns, err := p.argList(t.text, t, -1, 1)
	if err != nil {
		return nil, err
	}
	out := make(variant.PackedByteArray, len(ns))
	for i, n := range ns {
		v, err := p.integer(n, 64)
		if err != nil {
			return nil, err
		}
		if v < 0 || v > 255 {
			return nil, p.errAt(n.pos, "byte "+n.text+" out of the range 0..255")
		}
		out[i] = byte(v)
	}
	return out, nil
}

// stringList parses "s, s, …" up to close; the opening bracket is read.
func (p *parser) stringList(close tokKind, what string) ([]string, error) {
	out := []string{}
	for {
		t, err := p.next()
		if err != nil {
			return nil, err
		}
		if t.kind == close && len(out) == 0 {
			return out, nil
		}
		if t.kind != tString {
			return nil, p.errAt(t.pos, "expected a string in "+what+", found "+t.describe())
		}
		out = append(out, t.text)
		t, err = p.next()
		if err != nil {
			return nil, err
		}
		if t.kind == close {
			return out, nil
		}
		if t.kind != tComma {
			return nil, p.errAt(t.pos, "expected ',' in "+what+", found "+t.describe())
		}
	}
}

func (p *parser) stringArray(t token) (variant.Value, error) {
	if _, err := p.expect(tLParen, "'(' after "+t.text); err != nil {
		return nil, err
	}
	s, err := p.stringList(tRParen, t.text)
	if err != nil {
		return nil, err
	}
	return variant.PackedStringArray(s), nil
}

// nodePath parses NodePath("text") or this package's
// NodePath(["names"…], ["subnames"…], absolute).
func (p *parser) nodePath(t token, _ int) (variant.Value, error) {
	if _, err := p.expect(tLParen, "'(' after NodePath"); err != nil {
		return nil, err
	}
	a, err := p.next()
	if err != nil {
		return nil, err
	}
	switch a.kind {
	case tString:
		np, ok := variant.ParseNodePath(a.text)
		if !ok {
			return nil, p.errAt(a.pos, "invalid node path (empty subname)")
		}
		if _, err := p.expect(tRParen, "')' after the node path"); err != nil {
			return nil, err
		}
		return np, nil
	case tLBracket:
		var np variant.NodePath
		if np.Names, err = p.stringList(tRBracket, "NodePath names"); err != nil {
			return nil, err
		}
		if _, err := p.expect(tComma, "','"); err != nil {
			return nil, err
		}
		if _, err := p.expect(tLBracket, "'[' before NodePath subnames"); err != nil {
			return nil, err
		}
		if np.Subnames, err = p.stringList(tRBracket, "NodePath subnames"); err != nil {
			return nil, err
		}
		if _, err := p.expect(tComma, "','"); err != nil {
			return nil, err
		}
		b, err := p.expect(tIdent, "true or false")
		if err != nil {
			return nil, err
		}
		switch b.text {
		case "true":
			np.Absolute = true
		case "false":
		default:
			return nil, p.errAt(b.pos, "expected true or false, found "+b.describe())
		}
		if _, err := p.expect(tRParen, "')'"); err != nil {
			return nil, err
		}
		if len(np.Names) == 0 {
			np.Names = nil
		}
		if len(np.Subnames) == 0 {
			np.Subnames = nil
		}
		return np, nil
	}
	return nil, p.errAt(a.pos, "expected a string in NodePath, found "+a.describe())
}

// rid parses RID() or RID(id); the id is written as a signed 64-bit
// integer, as the engine writes it.
func (p *parser) rid(t token, _ int) (variant.Value, error) {
	ns, err := p.args("RID", t, -1, 1)
	if err != nil {
		return nil, err
	}
	switch len(ns) {
	case 0:
		return variant.RID(0), nil
	case 1:
		v, err := p.integer(ns[0], 64)
		if err != nil {
			return nil, err
		}
		return variant.RID(uint64(v)), nil
	}
	return nil, p.errAt(t.pos, "RID takes at most one number")
}

// signal parses Signal() or this package's Signal(&"name", object_id).
func (p *parser) signal(t token, _ int) (variant.Value, error) {
	if _, err := p.expect(tLParen, "'(' after Signal"); err != nil {
		return nil, err
	}
	a, err := p.next()
	if err != nil {
		return nil, err
	}
	if a.kind == tRParen {
		return variant.Signal{}, nil
	}
	if a.kind != tString && a.kind != tStringName {
		return nil, p.errAt(a.pos, "expected the signal name, found "+a.describe())
	}
	if _, err := p.expect(tComma, "',' after the signal name"); err != nil {
		return nil, err
	}
	n, err := p.expect(tInt, "the object ID")
	if err != nil {
		return nil, err
	}
	id, err := p.integer(num{n.pos, n.kind, n.text}, 64)
	if err != nil {
		return nil, err
	}
	if _, err := p.expect(tRParen, "')'"); err != nil {
		return nil, err
	}
	return variant.Signal{Name: a.text, Object: uint64(id)}, nil
}

func (p *parser) callable(t token, _ int) (variant.Value, error) {
	if _, err := p.expect(tLParen, "'(' after Callable"); err != nil {
		return nil, err
	}
	if _, err := p.expect(tRParen, "')' after 'Callable('"); err != nil {
		return nil, err
	}
	return variant.Callable{}, nil
}

// object parses Object(Class,"name":value,…). An EncodedObjectAsID with
// only its object_id (and a null script) is an ObjectID.
func (p *parser) object(t token, depth int) (variant.Value, error) {
	if _, err := p.expect(tLParen, "'(' after Object"); err != nil {
		return nil, err
	}
	c, err := p.expect(tIdent, "the object's class name")
	if err != nil {
		return nil, err
	}
	o := &variant.Object{Class: c.text}
	a, err := p.next()
	if err != nil {
		return nil, err
	}
	for a.kind != tRParen {
		if a.kind != tComma {
			return nil, p.errAt(a.pos, "expected ',' or ')' in Object, found "+a.describe())
		}
		if a, err = p.next(); err != nil {
			return nil, err
		}
		if a.kind == tRParen {
			break
		}
		if a.kind != tString {
			return nil, p.errAt(a.pos, "expected a property name string in Object, found "+a.describe())
		}
		if _, err := p.expect(tColon, "':' after the property name"); err != nil {
			return nil, err
		}
		vt, err := p.next()
		if err != nil {
			return nil, err
		}
		v, err := p.value(vt, depth+1)
		if err != nil {
			return nil, err
		}
		o.Properties = append(o.Properties, variant.Property{Name: a.text, Value: v})
		if a, err = p.next(); err != nil {
			return nil, err
		}
	}
	if id, ok := objectID(o); ok {
		return id, nil
	}
	return o, nil
}

func objectID(o *variant.Object) (variant.ObjectID, bool) {
	if o.Class != "EncodedObjectAsID" {
		return 0, false
	}
	var id variant.ObjectID
	seen := false
	for _, pr := range o.Properties {
		switch {
		case pr.Name == "object_id" && !seen:
			n, ok := pr.Value.(variant.Int)
			if !ok {
				return 0, false
			}
			id, seen = variant.ObjectID(n), true
		case pr.Name == "script" && pr.Value == nil:
		default:
			return 0, false
		}
	}
	return id, seen
}

// elemType parses the element, key or value type of a typed container:
// a builtin type name, Variant (untyped), a class name, or a script as
// Resource("res://…").
func (p *parser) elemType() (variant.ContainerType, error) {
	t, err := p.expect(tIdent, "a type name")
	if err != nil {
		return variant.ContainerType{}, err
	}
	switch t.text {
	case "Variant", "Nil":
		return variant.ContainerType{}, nil
	case "Resource", "ExtResource", "SubResource":
		if p.refs && t.text == "ExtResource" {
			r, err := p.resourceRef(t)
			if err != nil {
				return variant.ContainerType{}, err
			}
			return variant.ContainerType{Kind: variant.Script, Builtin: variant.TypeObject, Name: r.(variant.ResourceRef).ID}, nil
		}
		if n, err := p.peek(); err == nil && n.kind == tLParen {
			p.next()
			paths, err := p.stringList(tRParen, t.text)
			if err != nil {
				return variant.ContainerType{}, err
			}
			for _, s := range paths {
				if s != "" && !strings.HasPrefix(s, "uid://") {
					return variant.ContainerType{Kind: variant.Script, Builtin: variant.TypeObject, Name: s}, nil
				}
			}
			return variant.ContainerType{}, p.errAt(t.pos, "expected a res:// path in "+t.text)
		}
	}
	for ty := variant.TypeBool; ty < variant.TypeCount; ty++ {
		if ty.String() == t.text {
			return variant.Typed(ty), nil
		}
	}
	return variant.ContainerType{Kind: variant.ClassName, Builtin: variant.TypeObject, Name: t.text}, nil
}

// typedArray parses Array[Type]([…]).
func (p *parser) typedArray(t token, depth int) (variant.Value, error) {
	if _, err := p.expect(tLBracket, "'[' after Array"); err != nil {
		return nil, err
	}
	et, err := p.elemType()
	if err != nil {
		return nil, err
	}
	if _, err := p.expect(tRBracket, "']' after the element type"); err != nil {
		return nil, err
	}
	if _, err := p.expect(tLParen, "'('"); err != nil {
		return nil, err
	}
	if _, err := p.expect(tLBracket, "'['"); err != nil {
		return nil, err
	}
	a := &variant.Array{Elem: et}
	if err := p.arrayBody(a, depth); err != nil {
		return nil, err
	}
	if _, err := p.expect(tRParen, "')'"); err != nil {
		return nil, err
	}
	return a, nil
}

// typedDictionary parses Dictionary[Key, Value]({…}).
func (p *parser) typedDictionary(t token, depth int) (variant.Value, error) {
	if _, err := p.expect(tLBracket, "'[' after Dictionary"); err != nil {
		return nil, err
	}
	kt, err := p.elemType()
	if err != nil {
		return nil, err
	}
	if _, err := p.expect(tComma, "',' after the key type"); err != nil {
		return nil, err
	}
	vt, err := p.elemType()
	if err != nil {
		return nil, err
	}
	if _, err := p.expect(tRBracket, "']' after the value type"); err != nil {
		return nil, err
	}
	if _, err := p.expect(tLParen, "'('"); err != nil {
		return nil, err
	}
	if _, err := p.expect(tLBrace, "'{'"); err != nil {
		return nil, err
	}
	d := variant.NewTypedDictionary(kt, vt, 0)
	if err := p.dictBody(d, depth); err != nil {
		return nil, err
	}
	if _, err := p.expect(tRParen, "')'"); err != nil {
		return nil, err
	}
	return d, nil
}

// resourceRef parses the argument of SubResource(…), ExtResource(…) or
// Resource(…): a string, or in Godot 3 text a number.
func (p *parser) resourceRef(t token) (variant.Value, error) {
	if _, err := p.expect(tLParen, "'(' after "+t.text); err != nil {
		return nil, err
	}
	a, err := p.next()
	if err != nil {
		return nil, err
	}
	if a.kind != tString && a.kind != tInt {
		return nil, p.errAt(a.pos, "expected an id in "+t.text+", found "+a.describe())
	}
	r := variant.ResourceRef{ID: a.text}
	switch t.text {
	case "SubResource":
		r.Kind = variant.RefSub
	case "ExtResource":
		r.Kind = variant.RefExt
	default:
		r = variant.ResourceRef{Kind: variant.RefPath, Path: a.text}
	}
	if _, err := p.expect(tRParen, "')' after the id"); err != nil {
		return nil, err
	}
	return r, nil
}
