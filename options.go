package gdvar

import (
	"errors"
	"strings"

	"github.com/gdvar/gdvar/variant"
)

// EncOptions configures Marshal. The zero value writes what Godot 4.6's
// var_to_bytes writes in an official (single-precision) build. The first
// five fields mean what they mean in variant.EncOptions. Build an EncMode
// from it once and reuse the mode.
type EncOptions struct {
	// Family is the engine family to write for; 0 means Godot4, or
	// Version.Major when Version is set.
	Family variant.Family
	// Version is the oldest engine version that must read the data; the
	// zero value means the family's newest. What that version cannot read
	// (typed containers before 4.3/4.4, PackedVector4Array before 4.3, …)
	// fails with variant.ErrUnsupported.
	Version variant.Version
	// Precision of real-valued math components (Vector2, Transform3D, …);
	// Double matches engines built with precision=double.
	Precision variant.Precision
	// FullObjects writes *variant.Object values in full, like
	// var_to_bytes_with_objects; without it they fail with
	// variant.ErrObjectsNotAllowed.
	FullObjects bool
	// MaxDepth is the deepest nesting written; 0 means
	// variant.DefaultMaxDepth (1024, the engine's limit). A value nested
	// deeper, or one that contains itself, fails with variant.ErrTooDeep.
	MaxDepth int
	// TypedContainers writes slices, arrays and maps as typed containers
	// wherever their element types map to a single Variant type: []int as
	// Array[int] (Godot 4.3+), map[string]float64 as Dictionary[String,
	// float] and map[string]any as Dictionary[String, Variant] (Godot
	// 4.4+). Elements that are pointers, interfaces or Marshalers leave
	// their side untyped. Without it only fields tagged `gdvar:",typed"`
	// are typed.
	TypedContainers bool
}

// EncMode is an immutable, validated marshalling configuration, safe for
// concurrent use.
type EncMode struct {
	opts  EncOptions
	vmode *variant.EncMode
}

// EncMode validates the options and returns a mode built from them.
func (o EncOptions) EncMode() (*EncMode, error) {
	vm, err := variant.EncOptions{
		Family: o.Family, Version: o.Version, Precision: o.Precision,
		FullObjects: o.FullObjects, MaxDepth: o.MaxDepth,
	}.EncMode()
	if err != nil {
		return nil, renameErr(err)
	}
	vo := vm.Options()
	o.Family, o.Version, o.Precision, o.MaxDepth = vo.Family, vo.Version, vo.Precision, vo.MaxDepth
	return &EncMode{opts: o, vmode: vm}, nil
}

// Options returns the mode's options, with defaults filled in.
func (m *EncMode) Options() EncOptions { return m.opts }

// DecOptions configures Unmarshal. The zero value reads Godot 4 data the
// way the engine's bytes_to_var does. The fields before
// RejectUnknownFields mean what they mean in variant.DecOptions, and
// Unmarshal refuses exactly what variant.Decode refuses with them. Build a
// DecMode from it once and reuse the mode.
type DecOptions struct {
	// Family is the engine family that wrote the data; 0 means Godot4.
	Family variant.Family
	// AllowObjects accepts full Objects, like bytes_to_var_with_objects;
	// without it they fail with variant.ErrObjectsNotAllowed. They can
	// only go into *variant.Object, variant.Value or any.
	AllowObjects bool
	// MaxDepth is the deepest nesting accepted; 0 means
	// variant.DefaultMaxDepth (1024, the engine's limit).
	MaxDepth int
	// MaxSize is the largest input accepted, in bytes; 0 means no limit.
	// Larger input fails with variant.ErrTooLarge before anything is
	// decoded.
	MaxSize int
	// MaxElements is the most elements the value may hold in all (Array
	// elements, Dictionary entries, packed array elements, NodePath names,
	// Object properties, through every level); 0 means no limit beyond
	// what the input's size allows. More fails with variant.ErrTooLarge
	// before the container is allocated.
	MaxElements int
	// Strict also refuses what the engine only tolerates, so that only
	// the exact bytes the engine itself writes get through (see
	// variant.DecOptions.Strict). It costs a second pass over the input.
	Strict bool
	// Classes, when set, says which classes a full Object may have, and
	// Scripts which res:// script paths exist, as in variant.DecOptions;
	// package classdb has the engines' class lists.
	Classes func(class string) bool
	Scripts func(path string) bool
	// RejectUnknownFields fails with ErrUnknownField on a Dictionary key
	// that names no field of the struct being filled. By default such
	// entries are checked and skipped.
	RejectUnknownFields bool
}

// DecMode is an immutable, validated unmarshalling configuration, safe for
// concurrent use.
type DecMode struct {
	opts  DecOptions
	vmode *variant.DecMode // all the options
}

// DecMode validates the options and returns a mode built from them.
func (o DecOptions) DecMode() (*DecMode, error) {
	vm, err := variant.DecOptions{
		Family: o.Family, AllowObjects: o.AllowObjects, MaxDepth: o.MaxDepth,
		MaxSize: o.MaxSize, MaxElements: o.MaxElements, Strict: o.Strict,
		Classes: o.Classes, Scripts: o.Scripts,
	}.DecMode()
	if err != nil {
		return nil, renameErr(err)
	}
	vo := vm.Options()
	o.Family, o.MaxDepth = vo.Family, vo.MaxDepth
	return &DecMode{opts: o, vmode: vm}, nil
}

// Options returns the mode's options, with defaults filled in.
func (m *DecMode) Options() DecOptions { return m.opts }

// renameErr turns variant's option errors ("variant: EncOptions.Family 5
// is neither 3 nor 4") into this package's.
func renameErr(err error) error {
	return errors.New("gdvar" + strings.TrimPrefix(err.Error(), "variant"))
}

var (
	defaultEncMode, _ = EncOptions{}.EncMode()
	defaultDecMode, _ = DecOptions{}.DecMode()
)

// Marshal returns the Godot 4 encoding of v, byte for byte what
// var_to_bytes writes for the equivalent Variant. The package
// documentation lists how Go values map to Variants.
func Marshal(v any) ([]byte, error) { return defaultEncMode.Append(nil, v) }

// Append appends the Godot 4 encoding of v to dst and returns the extended
// slice; on error it returns dst unchanged. Appending a struct through a
// pointer into a buffer with room allocates nothing.
func Append(dst []byte, v any) ([]byte, error) { return defaultEncMode.Append(dst, v) }

// Unmarshal decodes the Godot 4 Variant at the start of data into the
// value v points to, the way bytes_to_var reads it (objects only as
// instance IDs). Bytes after the value are ignored, as the engine ignores
// them. v must be a non-nil pointer.
func Unmarshal(data []byte, v any) error { return defaultDecMode.Unmarshal(data, v) }
