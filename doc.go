// Package gdvar is the Go implementation of Godot Engine's binary Variant
// serialization: the bytes behind var_to_bytes / bytes_to_var,
// FileAccess.store_var / get_var, StreamPeer.put_var / get_var and
// PacketPeer.put_var / get_var, for Godot 4.0–4.6 and Godot 3.0–3.6, in both
// single and double precision. Limits: decoding takes variant's bounds (nesting
// MaxDepth, 1024 by default as in the engine; MaxSize and MaxElements when set)
// and never allocates more than the input can justify; Marshal refuses cycles,
// and Go values with no Variant form (channels, functions, complex numbers).
//
// The work is split into packages, each usable on its own:
//
//   - [github.com/gdvar/gdvar/wire]: the low-level primitives of the
//     encoding (header word, padded strings, bulk packed arrays).
//   - [github.com/gdvar/gdvar/variant]: the Variant value model and the
//     binary codec, with the engines' exact encoding choices and decoding
//     decisions.
//   - [github.com/gdvar/gdvar/gdtext]: Godot's text form of Variants
//     (var_to_str / str_to_var, var2str / str2var).
//   - [github.com/gdvar/gdvar/gdjson]: the JSON forms (JSON.stringify and
//     JSON.from_native / to_native).
//   - [github.com/gdvar/gdvar/frame]: the framing around encoded values
//     (store_var, StreamPeer, PacketPeerStream, PacketPeer).
//   - [github.com/gdvar/gdvar/stream]: an Encoder and Decoder of Variants
//     over io.Writer and io.Reader, with that framing.
//   - [github.com/gdvar/gdvar/peer]: TCP, UDP and WebSocket connections that
//     real Godot clients and servers talk to.
//   - [github.com/gdvar/gdvar/gdfile]: FileAccess files: several store_var
//     values, encrypted (GDEC) and compressed (GCPF) containers.
//   - [github.com/gdvar/gdvar/migrate]: Godot 3 values and save files to
//     Godot 4 and back.
//   - [github.com/gdvar/gdvar/inspect]: an annotated dump of encoded bytes.
//   - cmd/gdvar: the gdvar command (decode, encode, serve, migrate,
//     inspect, convert).
//
// # Go values
//
// This package itself converts between those bytes and ordinary Go
// values, the way encoding/json does for JSON: a game server sends and
// receives its own structs, maps and slices, with no Variant trees built by
// hand.
//
//	data, err := gdvar.Marshal(&player)      // var_to_bytes
//	err = gdvar.Unmarshal(data, &player)     // bytes_to_var
//	buf, err = gdvar.Append(buf[:0], &state) // into a reused buffer
//	err = gdvar.UnmarshalValue(v, &player)   // from a variant.Value in hand
//
// Other settings go through EncOptions and DecOptions, which build
// immutable modes safe to share between goroutines, as in package variant
// (whose fields they repeat): the engine family, the oldest version to
// write for, double precision, full objects, the depth, size and element
// limits, and a few of this package's own.
//
//	enc, err := gdvar.EncOptions{Family: variant.Godot3}.EncMode()
//	dec, err := gdvar.DecOptions{AllowObjects: true, RejectUnknownFields: true}.DecMode()
//
// Marshal writes exactly the bytes variant.Encode writes for the
// equivalent Variant, and so those of the engine: a struct gives the bytes
// Godot writes for the Dictionary built in GDScript with the same keys in
// field order (checked against Godot 4.6 and 3.2.3 in testdata/marshal).
// Unmarshal accepts and refuses exactly what variant.Decode does; when the
// bytes are malformed its error wraps variant's.
//
// # The mapping
//
// Both ways, Go on the left:
//
//	nil pointer, nil interface      Nil
//	bool                            bool
//	int, int8 … int64,              int. Marshal fails with ErrOverflow for a uint64
//	uint … uint64, uintptr          above 2^63-1; Unmarshal fails with ErrOverflow when
//	                                the int does not fit the Go kind (no wrapping).
//	float32, float64                float (32 bits on the wire when exact, as the
//	                                engine). Unmarshal also takes an int; a float32
//	                                that overflows fails with ErrOverflow.
//	string                          String. Unmarshal also takes a StringName.
//	[]byte, [N]byte                 PackedByteArray
//	[]int32                         PackedInt32Array
//	[]int64, []float64              PackedInt64Array, PackedFloat64Array; an Array of
//	                                ints or floats for Godot 3, which has neither.
//	[]float32, []string             PackedFloat32Array, PackedStringArray
//	[]variant.Vector2, Vector3,     PackedVector2Array, PackedVector3Array,
//	Color, Vector4                  PackedColorArray, PackedVector4Array
//	other slices, Go arrays         Array; Array[T] (Godot 4.3+) with
//	                                EncOptions.TypedContainers or a `typed` tag, when
//	                                the element type maps to one Variant type T.
//	map[K]V                         Dictionary, keys in sorted order (strings, numbers
//	                                and bools by value, other keys by their encoding);
//	                                Dictionary[K, V] (Godot 4.4+) likewise. Any key
//	                                type that maps to a Variant will do.
//	struct                          Dictionary with String keys in field order; see
//	                                Struct fields.
//	pointer                         what it points to (Unmarshal allocates)
//	interface                       the dynamic value; see Unmarshalling into any.
//	variant.Value and the model     themselves, exactly as package variant encodes
//	types (StringName, NodePath,    them: StringName and NodePath are reached through
//	Vector2 … Projection, Color,    their model types.
//	RID, Callable, Signal,
//	ObjectID, *Object, *Array,
//	*Dictionary, Packed…)
//	time.Time                       float: seconds since the Unix epoch, as Godot's
//	                                Time.get_unix_time_from_system() counts them (to
//	                                about a microsecond). Unmarshal also takes an int,
//	                                or a String in RFC 3339 or Godot's
//	                                "YYYY-MM-DDTHH:MM:SS" form (read as UTC).
//	encoding.TextMarshaler,         String, as GDScript would hold an address, a UUID
//	TextUnmarshaler                 or a big number.
//	Marshaler, Unmarshaler          the Value their methods give and take.
//
// Nil and empty slices and maps marshal as empty containers, since
// GDScript's are never null. A Go array must receive exactly its number
// of elements. Every slice and array also accepts an Array, or any packed
// array, whose elements it accepts: []int64 takes a Godot 3 PoolIntArray,
// []float64 a PackedFloat32Array. Channels, functions and complex numbers
// fail with ErrUnsupportedType. Values that contain themselves fail with
// variant.ErrTooDeep past MaxDepth (1024 by default, the engine's limit),
// a cycle of pointers alone with ErrUnsupportedType; neither overflows the
// stack.
//
// # Struct fields
//
// Exported fields become Dictionary entries in field order, named by their
// gdvar tag or else their json tag or else their Go name:
//
//	Name  string            `gdvar:"name"`           // key "name"
//	HP    float32           `gdvar:"hp,omitempty"`   // left out when 0
//	Home  *Place            `gdvar:"home,omitzero"`  // left out when zero (or IsZero())
//	Best  []int             `gdvar:"best,typed"`     // Array[int]
//	Cache map[string][]byte `gdvar:"-"`              // never
//
// omitempty leaves out false, 0, "", nil pointers and interfaces, and
// empty slices, maps and arrays; omitzero leaves out zero values, or those
// whose IsZero method says so. Embedded structs are flattened as in
// encoding/json: their fields are promoted unless a tag names the embedded
// field, a shallower field hides a deeper one of the same name, and two at
// the same depth hide each other unless exactly one is tagged. Fields
// behind a nil embedded pointer are left out; Unmarshal allocates the
// struct it needs.
//
// Unmarshal matches keys to names exactly (case-sensitive); a StringName
// key is as good as a String. Keys that name no field are checked and
// skipped, or refused with ErrUnknownField under
// DecOptions.RejectUnknownFields. A Dictionary with any other kind of key
// fails with ErrTypeMismatch.
//
// # Unmarshalling into any
//
// An `any` receives the natural Go value where there is one: nil, bool,
// int64, float64, string, []any for Arrays, map[string]any for
// Dictionaries whose keys are all Strings or StringNames, and []byte,
// []int32, []int64, []float32, []float64, []string, []variant.Vector2,
// []variant.Vector3, []variant.Color or []variant.Vector4 for the packed
// arrays. Everything else arrives as its model type: variant.StringName,
// variant.NodePath, variant.Vector2 and the other math types, variant.RID,
// variant.ObjectID, *variant.Object, …, and a Dictionary with other keys as
// a *variant.Dictionary holding variant Values. A variant.Value target
// receives exactly what variant.Decode gives.
//
// Like encoding/json, Unmarshal fills what is there: a struct keeps the
// fields the Dictionary does not name, a map its other entries, a slice
// reuses its array, a pointer already set is followed. Nil sets pointers,
// interfaces, slices and maps to nil and leaves other values alone.
//
// # Errors
//
// Every error is an *Error that names the byte offset, the Go path
// (player.inventory[2]), the Variant type and the Go type, e.g.
// "unmarshal: byte 92, player.inventory[2]: cannot unmarshal Vector2 into
// string". Its Err is ErrTypeMismatch, ErrOverflow, ErrUnknownField,
// ErrUnsupportedType, ErrInvalidTarget or a method's error; or, when the
// bytes are at fault or a value cannot be written for the target engine,
// the *variant.Error package variant reports, so that
// errors.Is(err, variant.ErrTruncated) works.
//
// # Speed
//
// The conversion code of each Go type is built once, by reflection, and
// cached; it then works on the bytes directly, without a Variant tree.
// Appending a struct through a pointer into a buffer with room allocates
// nothing; unmarshalling into a struct allocates only the strings, slices
// and maps it must create. An Array of 100,000 four-field structs
// (workload B in bench_test.go) marshals in about 50 ns and unmarshals in
// about 65 ns per element on the 2-core machine the project is built on,
// where Godot's own C++ takes 1 to 1.4 µs per Dictionary.
package gdvar
