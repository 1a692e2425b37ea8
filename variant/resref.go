package variant

import "strconv"

// RefKind says how a ResourceRef names the resource it refers to.
type RefKind uint8

// The kinds of resource references.
const (
	// RefSub is a resource defined in the same file (a [sub_resource]
	// section; an internal resource of a binary file), named by its id.
	RefSub RefKind = iota + 1
	// RefExt is a resource of another file, named by the id of the
	// file's [ext_resource] entry (a binary file's external resource
	// table, by position).
	RefExt
	// RefPath is another file's resource named by its path, as Godot 3's
	// text form Resource("res://…") and the first binary format do.
	RefPath
)

// ResourceRef is a reference from one resource to another, as the values
// inside resource files (.tres/.tscn, .res/.scn) hold them:
// SubResource("id"), ExtResource("id") or Resource("res://path"). It
// exists only inside resource files: var_to_bytes cannot carry it (the
// engine loads the resource instead), so encoding one is an error. Its
// Variant type is Object.
type ResourceRef struct {
	Kind RefKind
	// ID is the id of the [sub_resource] or [ext_resource] (RefSub,
	// RefExt): a string in Godot 4 ("Resource_wje02", "1_abc"), a number
	// in Godot 3 ("3").
	ID string
	// Path and Class name the resource of a RefPath (Class may be empty).
	Path  string
	Class string
}

// Type returns TypeObject.
func (ResourceRef) Type() Type { return TypeObject }
func (ResourceRef) isValue()   {}

// String returns the reference in the Godot 4 text form.
func (v ResourceRef) String() string { return text(v) }

// GoString returns the same text as String.
func (v ResourceRef) GoString() string { return text(v) }

// resourceRef writes r: SubResource("id"), ExtResource("id"),
// Resource("path"); Godot 3 writes numeric ids unquoted, SubResource( 1 ).
func (w *writer) resourceRef(r ResourceRef) error {
	var name, arg string
	switch r.Kind {
	case RefSub:
		name, arg = "SubResource", r.ID
	case RefExt:
		name, arg = "ExtResource", r.ID
	case RefPath:
		name, arg = "Resource", r.Path
	default:
		if w.lenient {
			w.str("null")
			return nil
		}
		return errorf("invalid resource reference kind %d", r.Kind)
	}
	w.open(name)
	if _, err := strconv.ParseUint(arg, 10, 31); err == nil && w.g3 && r.Kind != RefPath {
		w.str(arg)
	} else if err := w.quote(arg); err != nil {
		return err
	}
	w.close()
	return nil
}
