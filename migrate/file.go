package migrate

import (
	"errors"
	"strconv"

	"github.com/gdvar/gdvar/gdfile"
	"github.com/gdvar/gdvar/variant"
)

// File converts a whole store_var file for the family o.To: every value
// (paths in errors and warnings start with "value N"), the family, and an
// encrypted container's layout (Godot 3's AES-ECB becomes Godot 4's
// AES-CFB with a new random IV, and back). Other containers stay as they
// are: compressed files keep their compression and block size, big-endian
// length prefixes stay big-endian. A Brotli file cannot go to Godot 3,
// which does not read Brotli.
//
// The result encodes with File.Encode; values holding full objects need
// variant.EncOptions.FullObjects there, and the engine reads them back
// only with get_var(true).
func File(f *gdfile.File, o Options) (*gdfile.File, []Warning, error) {
	to := o.To
	if to == 0 {
		to = variant.Godot4
	}
	o.To = to
	out := &gdfile.File{Container: f.Container, Godot: to, BigEndian: f.BigEndian,
		Values: make([]variant.Value, len(f.Values))}
	if out.Container.Format == gdfile.Encrypted {
		out.Container.Family = to
		out.Container.IV = nil
	}
	if out.Container.Format == gdfile.Compressed && out.Container.Compression == gdfile.Brotli && to == variant.Godot3 {
		return nil, nil, errors.New("migrate: Godot 3 cannot read Brotli-compressed files; choose another container")
	}
	var warnings []Warning
	for i, v := range f.Values {
		prefix := "value " + strconv.Itoa(i)
		w, ws, err := Value(v, o)
		for _, x := range ws {
			x.Path = prefix + x.Path
			warnings = append(warnings, x)
		}
		if err != nil {
			var e *Error
			if errors.As(err, &e) {
				e.Path = prefix + e.Path
			}
			return nil, warnings, err
		}
		out.Values[i] = w
	}
	return out, warnings, nil
}

// HasObjects reports whether v holds a full object anywhere, so that it
// must be written with full objects (store_var(v, true)).
func HasObjects(v variant.Value) bool {
	return hasObjects(v, 0)
}

func hasObjects(v variant.Value, depth int) bool {
	if depth > maxDepth {
		return false
	}
	switch x := v.(type) {
	case *variant.Object:
		return x != nil && x.Class != ""
	case *variant.Array:
		if x == nil {
			return false
		}
		for _, e := range x.Values {
			if hasObjects(e, depth+1) {
				return true
			}
		}
	case *variant.Dictionary:
		for k, v := range x.All() {
			if hasObjects(k, depth+1) || hasObjects(v, depth+1) {
				return true
			}
		}
	}
	return false
}
