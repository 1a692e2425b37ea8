package resource

import (
	"fmt"
	"math"
	"strconv"

	"github.com/gdvar/gdvar/variant"
)

// DiffOptions says how loosely Diff compares.
type DiffOptions struct {
	// Untyped ignores the element types of Arrays and Dictionaries, which
	// Godot 4's binary form does not record.
	Untyped bool
	// Tolerance, when positive, accepts reals that differ by at most this
	// much relative to their size, or that round to the same 32-bit real:
	// Godot 3's text form writes six significant digits (1e-5 covers
	// that), and a resource's text form writes the reals of math types
	// with the digits of their 32-bit value, which for the smallest
	// (subnormal) ones are fewer than six. A Dictionary key not in the
	// other Dictionary as it is matches the first of its keys equal within
	// the tolerance (past about a million values and reals compared in
	// that search in one Diff, it is missing).
	Tolerance float64
}

// Diff compares two files' resources: types, properties, sub-resources,
// external resources and scenes, not the form-specific Text and Binary
// facts. A null script property, which only Godot 4's binary form stores,
// counts as absent. It returns "" when they are equal, else the first difference.
func Diff(a, b *File, o DiffOptions) string {
	d := &differ{o: o}
	d.file(a, b)
	return d.out
}

type differ struct {
	o          DiffOptions
	out        string
	extA, extB map[string]int // external resource id -> position
	near       bool           // comparing within nearKey's search: count nearWork
	nearWork   int            // values and reals nearKey's searches compared
}

func (d *differ) fail(where, format string, args ...any) {
	if d.out == "" {
		d.out = where + ": " + fmt.Sprintf(format, args...)
	}
}

func (d *differ) file(a, b *File) {
	if a.Type != b.Type {
		d.fail("type", "%q vs %q", a.Type, b.Type)
	}
	if a.ScriptClass != b.ScriptClass {
		d.fail("script class", "%q vs %q", a.ScriptClass, b.ScriptClass)
	}
	// External resources are compared by position: binary files do not
	// name them, so their ids differ between forms.
	d.extA, d.extB = map[string]int{}, map[string]int{}
	if len(a.Ext) != len(b.Ext) {
		d.fail("external resources", "%d vs %d", len(a.Ext), len(b.Ext))
	} else {
		for i := range a.Ext {
			x, y := a.Ext[i], b.Ext[i]
			d.extA[x.ID], d.extB[y.ID] = i, i
			if x.Type != y.Type || x.Path != y.Path || x.UID.Valid() != y.UID.Valid() || x.UID.Valid() && x.UID != y.UID {
				d.fail("external resource "+strconv.Itoa(i), "%+v vs %+v", x, y)
			}
		}
	}
	if len(a.Sub) != len(b.Sub) {
		d.fail("sub-resources", "%d vs %d", len(a.Sub), len(b.Sub))
	} else {
		for i := range a.Sub {
			w := "sub-resource " + strconv.Quote(a.Sub[i].ID)
			if a.Sub[i].ID != b.Sub[i].ID || a.Sub[i].Type != b.Sub[i].Type {
				d.fail(w, "%s %s vs %s %s", a.Sub[i].ID, a.Sub[i].Type, b.Sub[i].ID, b.Sub[i].Type)
			}
			d.props(w, a.Sub[i].Properties, b.Sub[i].Properties)
		}
	}
	d.props("resource", a.Properties, b.Properties)
	if (a.Scene == nil) != (b.Scene == nil) {
		d.fail("scene", "one file is a scene, the other not")
		return
	}
	if a.Scene != nil {
		d.scene(a.Scene, b.Scene)
	}
}

func (d *differ) scene(a, b *Scene) {
	if len(a.Nodes) != len(b.Nodes) {
		d.fail("nodes", "%d vs %d", len(a.Nodes), len(b.Nodes))
		return
	}
	for i := range a.Nodes {
		x, y := &a.Nodes[i], &b.Nodes[i]
		w := "node " + strconv.Quote(x.Path())
		if x.Name != y.Name || x.Type != y.Type || x.Parent != y.Parent || x.Owner != y.Owner ||
			x.Index != y.Index || x.UniqueID != y.UniqueID || x.InstancePlaceholder != y.InstancePlaceholder ||
			fmt.Sprint(x.Groups) != fmt.Sprint(y.Groups) || fmt.Sprint(x.NodePaths) != fmt.Sprint(y.NodePaths) ||
			fmt.Sprint(x.ParentIDPath, x.OwnerIDPath) != fmt.Sprint(y.ParentIDPath, y.OwnerIDPath) ||
			(x.Instance == nil) != (y.Instance == nil) {
			d.fail(w, "%+v vs %+v", *x, *y)
		}
		if x.Instance != nil && y.Instance != nil {
			d.ref(w+" instance", *x.Instance, *y.Instance)
		}
		d.props(w, x.Properties, y.Properties)
	}
	if len(a.Connections) != len(b.Connections) {
		d.fail("connections", "%d vs %d", len(a.Connections), len(b.Connections))
		return
	}
	for i := range a.Connections {
		x, y := a.Connections[i], b.Connections[i]
		w := "connection " + strconv.Itoa(i)
		if x.Signal != y.Signal || x.From != y.From || x.To != y.To || x.Method != y.Method ||
			x.Flags != y.Flags || x.Unbinds != y.Unbinds || len(x.Binds) != len(y.Binds) ||
			fmt.Sprint(x.FromIDPath, x.ToIDPath) != fmt.Sprint(y.FromIDPath, y.ToIDPath) {
			d.fail(w, "%+v vs %+v", x, y)
			continue
		}
		for j := range x.Binds {
			d.value(w+" bind "+strconv.Itoa(j), x.Binds[j], y.Binds[j])
		}
	}
	if fmt.Sprint(a.Editable) != fmt.Sprint(b.Editable) {
		d.fail("editable", "%v vs %v", a.Editable, b.Editable)
	}
	if (a.BaseScene == nil) != (b.BaseScene == nil) {
		d.fail("base scene", "%v vs %v", a.BaseScene, b.BaseScene)
	} else if a.BaseScene != nil {
		d.ref("base scene", *a.BaseScene, *b.BaseScene)
	}
}

func (d *differ) props(where string, a, b []variant.Property) {
	a, b = withoutNullScript(a), withoutNullScript(b)
	if len(a) != len(b) {
		d.fail(where, "%d properties vs %d", len(a), len(b))
		return
	}
	for i := range a {
		if a[i].Name != b[i].Name {
			d.fail(where, "property %d: %q vs %q", i, a[i].Name, b[i].Name)
			return
		}
		d.value(where+" property "+strconv.Quote(a[i].Name), a[i].Value, b[i].Value)
	}
}

func (d *differ) real(where string, x, y float64) {
	if d.near {
		d.nearWork++
	}
	if x == y || x != x && y != y {
		return
	}
	if d.o.Tolerance > 0 && (math.Abs(x-y) <= d.o.Tolerance*math.Max(math.Abs(x), math.Abs(y)) || float32(x) == float32(y)) {
		return
	}
	d.fail(where, "%v vs %v", x, y)
}

func (d *differ) value(where string, a, b variant.Value) {
	if d.near {
		d.nearWork++
	}
	if d.out != "" {
		return
	}
	ta, tb := variant.TypeOf(a), variant.TypeOf(b)
	if ta != tb {
		d.fail(where, "%v (%v) vs %v (%v)", a, ta, b, tb)
		return
	}
	if d.o.Tolerance > 0 {
		if ca := variant.AppendComponents(nil, a); len(ca) > 0 {
			cb := variant.AppendComponents(nil, b)
			for i := range ca {
				d.real(where, ca[i], cb[i])
			}
			return
		}
		switch x := a.(type) {
		case variant.Float:
			d.real(where, float64(x), float64(b.(variant.Float)))
			return
		case variant.PackedVector2Array, variant.PackedVector3Array, variant.PackedVector4Array:
			xe, ye := vectors(x), vectors(b)
			if len(xe) != len(ye) {
				d.fail(where, "%d vs %d elements", len(xe), len(ye))
				return
			}
			for i := range xe {
				d.value(where+"["+strconv.Itoa(i)+"]", xe[i], ye[i])
			}
			return
		case variant.PackedFloat32Array:
			y := b.(variant.PackedFloat32Array)
			if len(x) != len(y) {
				d.fail(where, "%d vs %d elements", len(x), len(y))
				return
			}
			for i := range x {
				d.real(where, float64(x[i]), float64(y[i]))
			}
			return
		}
	}
	switch x := a.(type) {
	case *variant.Array:
		y := b.(*variant.Array)
		if !d.o.Untyped && x.Len() > 0 && y.Len() > 0 && x.Elem != y.Elem {
			d.fail(where, "element type %+v vs %+v", x.Elem, y.Elem)
			return
		}
		if x.Len() != y.Len() {
			d.fail(where, "%d vs %d elements", x.Len(), y.Len())
			return
		}
		for i := range x.Len() {
			d.value(where+"["+strconv.Itoa(i)+"]", x.Values[i], y.Values[i])
		}
		return
	case *variant.Dictionary:
		y := b.(*variant.Dictionary)
		if x.Len() != y.Len() {
			d.fail(where, "%d vs %d entries", x.Len(), y.Len())
			return
		}
		for k, v := range x.All() {
			w, ok := y.Get(k)
			if !ok && d.o.Tolerance > 0 {
				w, ok = d.nearKey(y, k)
			}
			if !ok {
				d.fail(where, "key %v missing", k)
				return
			}
			d.value(where+"["+fmt.Sprint(k)+"]", v, w)
		}
		return
	}
	if ra, ok := a.(variant.ResourceRef); ok {
		if rb, ok := b.(variant.ResourceRef); ok {
			d.ref(where, ra, rb)
			return
		}
	}
	if !variant.Equal(a, b) {
		d.fail(where, "%v vs %v", a, b)
	}
}

// maxNearWork bounds the values and reals nearKey's searches compare in
// one Diff (each key compared counts its every part), so that two large
// dictionaries whose keys all differ, or keys that are large themselves,
// cost time in proportion to their size, not its square.
const maxNearWork = 1 << 20

// nearKey finds the value of y's key equal to k within the tolerance:
// keys hold reals too, written with fewer digits.
func (d *differ) nearKey(y *variant.Dictionary, k variant.Value) (variant.Value, bool) {
	for k2, v := range y.All() {
		if d.nearWork > maxNearWork {
			return nil, false
		}
		e := &differ{o: d.o, extA: d.extA, extB: d.extB, near: true, nearWork: d.nearWork}
		e.value("", k, k2)
		if d.nearWork = e.nearWork; e.out == "" {
			return v, true
		}
	}
	return nil, false
}

// ref compares two references, external ones by the position of what they
// name.
func (d *differ) ref(where string, a, b variant.ResourceRef) {
	if a.Kind == variant.RefExt && b.Kind == variant.RefExt {
		i, ok := d.extA[a.ID]
		j, ok2 := d.extB[b.ID]
		if !ok || !ok2 || i != j {
			d.fail(where, "%v vs %v", a, b)
		}
		return
	}
	if a != b {
		d.fail(where, "%v vs %v", a, b)
	}
}

// withoutNullScript drops a null script, which only Godot 4's binary form
// stores.
func withoutNullScript(ps []variant.Property) []variant.Property {
	for i, p := range ps {
		if isNullScript(p) {
			return append(ps[:i:i], ps[i+1:]...)
		}
	}
	return ps
}

// vectors returns the elements of a packed vector array as Values.
func vectors(v variant.Value) []variant.Value {
	var out []variant.Value
	switch v := v.(type) {
	case variant.PackedVector2Array:
		for _, e := range v {
			out = append(out, e)
		}
	case variant.PackedVector3Array:
		for _, e := range v {
			out = append(out, e)
		}
	case variant.PackedVector4Array:
		for _, e := range v {
			out = append(out, e)
		}
	}
	return out
}
