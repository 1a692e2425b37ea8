// Package migrate converts Godot values and save files between the engine
// families: a Godot 3 store_var file into the Godot 4 file that
// FileAccess.get_var reads as the same data, and back where nothing is
// lost. Limits: an object's embedded Godot 3 script has no Godot 4 form and
// is an error; types and precision Godot 3 lacks are errors going back unless
// Options.Lossy; it never fills in what a renamed class would add.
//
// Most of the work is in the encoding, not in the values: package variant
// already models Godot 3 types with their Godot 4 successors (PoolIntArray
// is PackedInt32Array, REAL is float, Transform is Transform3D, Quat is
// Quaternion), so a value decoded from Godot 3 bytes encodes as Godot 4
// bytes with the new type numbers. What needs a decision is listed here.
//
// Godot 3 to Godot 4:
//
//   - Full objects keep their class name and properties. A class that
//     Godot 4 renamed (Spatial is Node3D, KinematicBody is
//     CharacterBody3D, …) or removed gets a Warning: Godot 4 refuses an
//     object of a class it does not know. Options.RenameClasses renames
//     them instead.
//   - An object's script, which Godot 3 stores whole (a nested object with
//     the source code), has no Godot 4 form: Godot 4 names scripts by
//     their res:// path. That is an error.
//   - Text that Godot 4 cannot hold: Godot 3 on Windows keeps strings as
//     UTF-16 and writes a character above U+FFFF as its two surrogates,
//     three bytes each (CESU-8), which Godot 4 refuses. A pair becomes
//     the character it stands for. An unpaired surrogate or a character
//     above U+10FFFF (Godot 3 holds both) is an error; Options.Lossy
//     makes it U+FFFD, with a Warning.
//
// Godot 4 to Godot 3, only where nothing is lost:
//
//   - Types Godot 3 does not have (Vector2i, StringName, Callable,
//     PackedInt64Array, typed Arrays, …) are errors naming the place in
//     the value; Options.Lossy converts the ones that keep their data
//     (StringName to String, typed containers to untyped ones, integer
//     vectors and 64-bit packed arrays whose elements fit).
//   - Real components that need double precision are errors: Godot 3
//     stores them as 32-bit floats.
//   - The NodePath "/" (absolute, with no names) is an error: Godot 3
//     reads it back as the empty path; Options.Lossy makes it that.
//
// Errors are *Error values carrying the path inside the value,
// `[3]["pos"]`, as package variant writes it.
package migrate

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"unicode/utf8"

	"github.com/gdvar/gdvar/variant"
)

// ErrNoEquivalent is the sentinel of every *Error: the value has no exact
// equivalent in the target family.
var ErrNoEquivalent = errors.New("no equivalent in the target family")

// Error reports a value that cannot be converted.
type Error struct {
	// Path locates the value: `[3]["pos"]`, `.script`; empty at the top.
	Path string
	// Type is the value's Variant type.
	Type variant.Type
	// To is the target family.
	To variant.Family
	// Reason says why, e.g. "Godot 3 has no Vector2i".
	Reason string
}

// Error formats the error on one line:
// `[0]["cell"] (Vector2i): no equivalent in Godot 3: Godot 3 has no Vector2i`,
// or without a path `Vector2i: no equivalent in …`.
func (e *Error) Error() string {
	s := e.Type.String()
	if e.Path != "" {
		s = e.Path + " (" + s + ")"
	}
	return s + ": no equivalent in " + e.To.String() + ": " + e.Reason
}

// Unwrap returns ErrNoEquivalent.
func (e *Error) Unwrap() error { return ErrNoEquivalent }

// Warning is something converted that may not behave the same in the
// target engine.
type Warning struct {
	Path    string
	Message string
}

// String returns "path: message".
func (w Warning) String() string {
	if w.Path == "" {
		return w.Message
	}
	return w.Path + ": " + w.Message
}

// Options configures a conversion.
type Options struct {
	// To is the target family: variant.Godot4 (the default) or
	// variant.Godot3. The source is the other one.
	To variant.Family
	// RenameClasses gives full objects of renamed classes their new
	// name, instead of only warning about them.
	RenameClasses bool
	// Lossy, towards Godot 3, converts what keeps its data but loses its
	// type: StringName becomes String, typed Arrays and Dictionaries
	// become untyped, Vector2i/Vector3i/Rect2i become their real
	// counterparts and PackedInt64Array/PackedFloat64Array become
	// PoolIntArray/PoolRealArray when every element fits; an object's
	// script path is dropped; the NodePath "/" becomes the empty path.
	// Towards Godot 4 it replaces the characters of a string that Godot 4
	// cannot hold (unpaired surrogates, characters above U+10FFFF) with
	// U+FFFD. Each conversion gives a Warning.
	Lossy bool
}

// Value converts v for the family o.To. It returns a new value (containers
// are copied, v is not changed) and the warnings met on the way.
func Value(v variant.Value, o Options) (variant.Value, []Warning, error) {
	c := converter{to: o.To, rename: o.RenameClasses, lossy: o.Lossy}
	if c.to == 0 {
		c.to = variant.Godot4
	}
	if c.to != variant.Godot3 && c.to != variant.Godot4 {
		return nil, nil, errors.New("migrate: Options.To is neither 3 nor 4")
	}
	out, err := c.value(v, nil, 0)
	return out, c.warnings, err
}

type converter struct {
	to       variant.Family
	rename   bool
	lossy    bool
	warnings []Warning
}

func (c *converter) warn(p *variant.Path, msg string) {
	c.warnings = append(c.warnings, Warning{Path: p.String(), Message: msg})
}

func (c *converter) fail(p *variant.Path, v variant.Value, reason string) error {
	return &Error{Path: p.String(), Type: variant.TypeOf(v), To: c.to, Reason: reason}
}

// maxDepth bounds the walk like the codec's nesting limit, so that a
// value holding itself fails instead of looping.
const maxDepth = 1 << 16

func (c *converter) value(v variant.Value, p *variant.Path, depth int) (variant.Value, error) {
	if depth > maxDepth {
		return nil, c.fail(p, v, "nested too deeply")
	}
	switch x := v.(type) {
	case *variant.Array:
		return c.array(x, p, depth)
	case *variant.Dictionary:
		return c.dictionary(x, p, depth)
	case *variant.Object:
		return c.object(x, p, depth)
	}
	if c.to == variant.Godot4 {
		return c.text4(v, p) // Godot 4 has every type of the model
	}
	return c.down(v, p)
}

// text4 converts the strings of v, which is neither a container nor an
// object, for Godot 4 (string4).
func (c *converter) text4(v variant.Value, p *variant.Path) (variant.Value, error) {
	switch x := v.(type) {
	case variant.String:
		s, err := c.string4(string(x), p, v)
		return variant.String(s), err
	case variant.StringName:
		s, err := c.string4(string(x), p, v)
		return variant.StringName(s), err
	case variant.NodePath:
		names, err := c.strings4(x.Names, p, v)
		if err != nil {
			return nil, err
		}
		subnames, err := c.strings4(x.Subnames, p, v)
		return variant.NodePath{Names: names, Subnames: subnames, Absolute: x.Absolute}, err
	case variant.PackedStringArray:
		out, err := c.strings4(x, p, v)
		return variant.PackedStringArray(out), err
	}
	return v, nil
}

// strings4 is string4 for each of ss; it returns ss itself when none
// changes.
func (c *converter) strings4(ss []string, p *variant.Path, v variant.Value) ([]string, error) {
	out := ss
	for i, s := range ss {
		s4, err := c.string4(s, p, v)
		if err != nil {
			return nil, err
		}
		if s4 != s {
			if &out[0] == &ss[0] {
				out = slices.Clone(ss)
			}
			out[i] = s4
		}
	}
	return out, nil
}

// string4 returns s, a string of v, as Godot 4 can hold it. A Godot 3
// string is read with Godot 3's rule (variant.DecodeRuneGodot3): a high
// surrogate followed by a low one becomes the character the pair stands
// for; an unpaired surrogate, a character above U+10FFFF or a byte Godot
// 3 refuses has no Godot 4 form, and is an error, or with Lossy U+FFFD.
func (c *converter) string4(s string, p *variant.Path, v variant.Value) (string, error) {
	if utf8.ValidString(s) {
		return s, nil
	}
	out := make([]byte, 0, len(s))
	replaced := 0
	for i := 0; i < len(s); {
		r, n := variant.DecodeRuneGodot3(s[i:])
		at := i
		i += n
		if r >= 0xD800 && r < 0xDC00 {
			if low, m := variant.DecodeRuneGodot3(s[i:]); low >= 0xDC00 && low < 0xE000 {
				out = utf8.AppendRune(out, 0x10000+(r-0xD800)<<10+(low-0xDC00))
				i += m
				continue
			}
		}
		if (r != utf8.RuneError || n > 1) && utf8.ValidRune(r) {
			out = utf8.AppendRune(out, r)
			continue
		}
		if !c.lossy {
			what := fmt.Sprintf("character U+%04X", r)
			switch {
			case r == utf8.RuneError:
				what = fmt.Sprintf("byte 0x%02X", s[at])
			case r < 0xE000:
				what = fmt.Sprintf("unpaired surrogate U+%04X", r)
			}
			return "", c.fail(p, v, fmt.Sprintf("Godot 4 cannot hold the %s (byte %d of a string)", what, at))
		}
		out = utf8.AppendRune(out, utf8.RuneError)
		replaced++
	}
	if replaced > 0 {
		c.warn(p, fmt.Sprintf("%d characters Godot 4 cannot hold become U+FFFD", replaced))
	}
	return string(out), nil
}

// down converts a value that is neither a container nor an object for
// Godot 3.
func (c *converter) down(v variant.Value, p *variant.Path) (variant.Value, error) {
	t := variant.TypeOf(v)
	if _, ok := t.ID(variant.Godot3); !ok {
		if c.lossy {
			if w, ok := lossyDown(v); ok {
				c.warn(p, t.String()+" becomes "+variant.Godot3.Name(variant.TypeOf(w)))
				return w, nil
			}
		}
		return nil, c.fail(p, v, "Godot 3 has no "+t.String())
	}
	if r, ok := v.(variant.RID); ok && r != 0 {
		return nil, c.fail(p, v, "Godot 3 does not store the id of a RID")
	}
	if np, ok := v.(variant.NodePath); ok && np.Absolute && len(np.Names) == 0 && len(np.Subnames) == 0 &&
		c.to.Facts().EmptyPathRelative {
		if c.lossy {
			c.warn(p, `NodePath "/" becomes NodePath "": Godot 3 drops the absolute flag of an empty path`)
			return variant.NodePath{}, nil
		}
		return nil, c.fail(p, v, `Godot 3 drops the absolute flag of an empty NodePath ("/" reads back as "")`)
	}
	if !single(v) {
		return nil, c.fail(p, v, "a component needs double precision; Godot 3 stores 32-bit floats")
	}
	return v, nil
}

// fits32 reports whether a real component survives a 32-bit float.
func fits32(f float64) bool { return float64(float32(f)) == f || f != f }

// single reports whether every real component of v fits a 32-bit float.
func single(v variant.Value) bool {
	all := func(fs ...float64) bool {
		for _, f := range fs {
			if !fits32(f) {
				return false
			}
		}
		return true
	}
	v2 := func(p variant.Vector2) bool { return all(p.X, p.Y) }
	v3 := func(p variant.Vector3) bool { return all(p.X, p.Y, p.Z) }
	switch x := v.(type) {
	case variant.Vector2:
		return v2(x)
	case variant.Rect2:
		return v2(x.Position) && v2(x.Size)
	case variant.Vector3:
		return v3(x)
	case variant.Transform2D:
		return v2(x.X) && v2(x.Y) && v2(x.Origin)
	case variant.Plane:
		return v3(x.Normal) && all(x.D)
	case variant.Quaternion:
		return all(x.X, x.Y, x.Z, x.W)
	case variant.AABB:
		return v3(x.Position) && v3(x.Size)
	case variant.Basis:
		return v3(x.X) && v3(x.Y) && v3(x.Z)
	case variant.Transform3D:
		return v3(x.Basis.X) && v3(x.Basis.Y) && v3(x.Basis.Z) && v3(x.Origin)
	case variant.PackedVector2Array:
		for _, p := range x {
			if !v2(p) {
				return false
			}
		}
	case variant.PackedVector3Array:
		for _, p := range x {
			if !v3(p) {
				return false
			}
		}
	}
	return true
}

// lossyDown converts a Godot 4 value without a Godot 3 type into the
// nearest Godot 3 one, when its data survives.
func lossyDown(v variant.Value) (variant.Value, bool) {
	exact := func(i int32) bool { return i >= -1<<24 && i <= 1<<24 } // exact as float32
	switch x := v.(type) {
	case variant.StringName:
		return variant.String(x), true
	case variant.Vector2i:
		if exact(x.X) && exact(x.Y) {
			return variant.Vector2{X: float64(x.X), Y: float64(x.Y)}, true
		}
	case variant.Vector3i:
		if exact(x.X) && exact(x.Y) && exact(x.Z) {
			return variant.Vector3{X: float64(x.X), Y: float64(x.Y), Z: float64(x.Z)}, true
		}
	case variant.Rect2i:
		if exact(x.Position.X) && exact(x.Position.Y) && exact(x.Size.X) && exact(x.Size.Y) {
			return variant.Rect2{
				Position: variant.Vector2{X: float64(x.Position.X), Y: float64(x.Position.Y)},
				Size:     variant.Vector2{X: float64(x.Size.X), Y: float64(x.Size.Y)}}, true
		}
	case variant.PackedInt64Array:
		out := make(variant.PackedInt32Array, len(x))
		for i, e := range x {
			if e < math.MinInt32 || e > math.MaxInt32 {
				return nil, false
			}
			out[i] = int32(e)
		}
		return out, true
	case variant.PackedFloat64Array:
		out := make(variant.PackedFloat32Array, len(x))
		for i, e := range x {
			if !fits32(e) {
				return nil, false
			}
			out[i] = float32(e)
		}
		return out, true
	}
	return nil, false
}

// containerType checks a typed container's element type for the target.
func (c *converter) containerType(ct variant.ContainerType, p *variant.Path, v variant.Value) (variant.ContainerType, error) {
	if !ct.IsTyped() || c.to == variant.Godot4 {
		return ct, nil
	}
	if c.lossy {
		c.warn(p, "the typed "+variant.TypeOf(v).String()+" becomes untyped")
		return variant.ContainerType{}, nil
	}
	return ct, c.fail(p, v, "Godot 3 has no typed "+variant.TypeOf(v).String()+"s")
}

func (c *converter) array(a *variant.Array, p *variant.Path, depth int) (variant.Value, error) {
	if a == nil {
		return variant.NewArray(), nil
	}
	elem, err := c.containerType(a.Elem, p, a)
	if err != nil {
		return nil, err
	}
	out := &variant.Array{Elem: elem, Values: make([]variant.Value, len(a.Values))}
	for i, e := range a.Values {
		if out.Values[i], err = c.value(e, p.Add(variant.IndexSeg(i)), depth+1); err != nil {
			return nil, err
		}
	}
	return out, nil
}

func (c *converter) dictionary(d *variant.Dictionary, p *variant.Path, depth int) (variant.Value, error) {
	out := variant.NewDictionary(d.Len())
	if d != nil && (d.KeyType().IsTyped() || d.ValueType().IsTyped()) {
		// One check (and one warning) for both types.
		if _, err := c.containerType(variant.Typed(variant.TypeInt), p, d); err != nil {
			return nil, err
		}
		if c.to == variant.Godot4 {
			out.SetTypes(d.KeyType(), d.ValueType())
		}
	}
	for i, e := range d.Entries() {
		k, err := c.value(e.Key, p.Add("{key "+strconv.Itoa(i)+"}"), depth+1)
		if err != nil {
			return nil, err
		}
		v, err := c.value(e.Value, p.Add(variant.KeySeg(e.Key)), depth+1)
		if err != nil {
			return nil, err
		}
		if _, dup := out.Get(k); dup {
			c.warn(p.Add(variant.KeySeg(e.Key)), "two keys become the same key; the later value wins")
		}
		out.Set(k, v)
	}
	return out, nil
}

func (c *converter) object(o *variant.Object, p *variant.Path, depth int) (variant.Value, error) {
	if o == nil || o.Class == "" {
		return o, nil
	}
	class := o.Class
	if c.to == variant.Godot4 {
		var err error
		if class, err = c.string4(class, p, o); err != nil {
			return nil, err
		}
	}
	out := &variant.Object{Class: class, Properties: make([]variant.Property, 0, len(o.Properties))}
	if name, ok := RenamedClass(class, c.to); ok {
		switch {
		case name == "":
			c.warn(p, "class "+o.Class+" does not exist in "+c.to.String()+"; the engine will refuse the object")
		case c.rename:
			c.warn(p, "class "+o.Class+" renamed "+name)
			out.Class = name
		default:
			c.warn(p, "class "+o.Class+" is called "+name+" in "+c.to.String()+"; the engine will refuse the object under its old name")
		}
	}
	for _, prop := range o.Properties {
		pp := p.Add("." + prop.Name)
		if c.to == variant.Godot4 {
			var err error
			if prop.Name, err = c.string4(prop.Name, pp, o); err != nil {
				return nil, err
			}
		}
		if prop.Name == "script" && prop.Value != nil {
			switch prop.Value.(type) {
			case *variant.Object:
				if c.to == variant.Godot4 {
					return nil, c.fail(pp, prop.Value, "Godot 3 stores the script itself; Godot 4 names it by its res:// path")
				}
			case variant.String:
				if c.to == variant.Godot3 {
					if !c.lossy {
						return nil, c.fail(pp, prop.Value, "Godot 4 names the script by its path; Godot 3 stores the script itself")
					}
					c.warn(pp, "the script path is dropped")
					out.Properties = append(out.Properties, variant.Property{Name: prop.Name})
					continue
				}
			}
		}
		v, err := c.value(prop.Value, pp, depth+1)
		if err != nil {
			return nil, err
		}
		out.Properties = append(out.Properties, variant.Property{Name: prop.Name, Value: v})
	}
	return out, nil
}
