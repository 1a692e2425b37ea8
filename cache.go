package gdvar

import (
	"encoding"
	"reflect"
	"sync"
	"sync/atomic"
	"time"
	"unsafe"

	"github.com/gdvar/gdvar/internal/gotype"
	"github.com/gdvar/gdvar/variant"
)

// encFunc appends the encoding of the Go value at p, nested depth deep.
type encFunc func(e *encodeState, b []byte, p unsafe.Pointer, depth int) ([]byte, error)

// decFunc decodes the Variant at off into the Go value at p and returns
// the offset after it.
type decFunc func(d *decodeState, off int, p unsafe.Pointer, depth int) (int, error)

// codec is everything Marshal and Unmarshal need for one Go type, built
// once by reflection and cached.
type codec struct {
	typ reflect.Type
	// vtype is the one Variant type every value of typ encodes to, or
	// TypeUnknown when it varies (pointers, interfaces, Marshalers) or is
	// an Object. A container of such elements can be typed.
	vtype variant.Type

	enc encFunc
	dec decFunc
	// fill stores a Value not in the input, deciding as dec does.
	fill fillFunc
	// encTyped encodes a slice, array or map as a typed container; nil
	// when the elements do not allow it.
	encTyped encFunc
	// encPtr encodes, for pointer types, the value a pointer points to,
	// given the pointer.
	encPtr func(e *encodeState, b []byte, ptr unsafe.Pointer, depth int) ([]byte, error)
	// encData encodes, for plain slice types, the elements at data.
	encData func(e *encodeState, b []byte, data unsafe.Pointer, n int, typed bool, depth int) ([]byte, error)
	// encMap encodes, for plain map types, the map m.
	encMap func(e *encodeState, b []byte, m reflect.Value, typed bool, depth int) ([]byte, error)

	empty    func(p unsafe.Pointer) bool // for omitempty
	zero     func(p unsafe.Pointer) bool // for omitzero
	size     uintptr
	pointers bool // values hold pointers
}

var (
	codecs    sync.Map // reflect.Type → *codec
	buildMu   sync.Mutex
	lastCodec atomic.Pointer[codec] // the last codec looked up: most programs marshal one type again and again
)

// codecFor returns the codec of t, building and caching it (and the codecs
// of the types it contains) on first use.
func codecFor(t reflect.Type) *codec {
	if e := lastCodec.Load(); e != nil && e.typ == t {
		return e
	}
	if c, ok := codecs.Load(t); ok {
		lastCodec.Store(c.(*codec))
		return c.(*codec)
	}
	buildMu.Lock()
	defer buildMu.Unlock()
	if c, ok := codecs.Load(t); ok {
		return c.(*codec)
	}
	bd := &builder{pending: map[reflect.Type]*codec{}}
	c := bd.get(t)
	// Publish only complete codecs: those of recursive types refer to each
	// other and are all finished now.
	for t, c := range bd.pending {
		codecs.Store(t, c)
	}
	return c
}

// builder builds the codecs of a type and the types it contains.
//
// The functions that return the hot codec closures (decStruct, encStruct,
// decElems, scalarCodec, …) are marked go:noinline. Inlined into one of
// builder's large methods, a closure is compiled as part of a large
// function, and the compiler then inlines only the smallest calls in it:
// the decoders' inline fast paths (Reader.QuickHead, wire.U32, …) became
// calls, and decoding into structs ran about 10 % slower
// (BenchmarkB_DecodeStructs).
type builder struct {
	pending map[reflect.Type]*codec
}

// get returns the codec of t, cached, in progress (for recursive types:
// its functions are filled in before anyone calls them) or new.
func (bd *builder) get(t reflect.Type) *codec {
	if c, ok := codecs.Load(t); ok {
		return c.(*codec)
	}
	if c, ok := bd.pending[t]; ok {
		return c
	}
	c := &codec{typ: t, vtype: builtinOf(t), size: t.Size(), pointers: gotype.HasPointers(t)}
	bd.pending[t] = c
	c.empty = emptyFunc(t)
	c.zero = zeroFunc(t)
	bd.encoder(c)
	bd.decoder(c)
	return c
}

var (
	marshalerType       = reflect.TypeFor[Marshaler]()
	unmarshalerType     = reflect.TypeFor[Unmarshaler]()
	textMarshalerType   = reflect.TypeFor[encoding.TextMarshaler]()
	textUnmarshalerType = reflect.TypeFor[encoding.TextUnmarshaler]()
	timeType            = reflect.TypeFor[time.Time]()
	valueType           = reflect.TypeFor[variant.Value]()
)

// implements reports whether values of t, addressed, have the methods of
// interface it. Pointer and interface types are left to their elements.
func implements(t, it reflect.Type) bool {
	if t.Kind() == reflect.Pointer || t.Kind() == reflect.Interface {
		return false
	}
	return t.Implements(it) || reflect.PointerTo(t).Implements(it)
}

// modelKinds are the model types with codecs of their own, and the
// Variant type each encodes to: these, and the Go type of each fixed-size
// math type (its row's variant.TypeFacts.Proto).
var modelKinds = func() map[reflect.Type]variant.Type {
	m := map[reflect.Type]variant.Type{
		reflect.TypeFor[variant.StringName]():         variant.TypeStringName,
		reflect.TypeFor[variant.NodePath]():           variant.TypeNodePath,
		reflect.TypeFor[variant.RID]():                variant.TypeRID,
		reflect.TypeFor[variant.ObjectID]():           variant.TypeObject,
		reflect.TypeFor[variant.Callable]():           variant.TypeCallable,
		reflect.TypeFor[variant.Signal]():             variant.TypeSignal,
		reflect.TypeFor[*variant.Object]():            variant.TypeObject,
		reflect.TypeFor[variant.Object]():             variant.TypeObject,
		reflect.TypeFor[*variant.Array]():             variant.TypeArray,
		reflect.TypeFor[variant.Array]():              variant.TypeArray,
		reflect.TypeFor[*variant.Dictionary]():        variant.TypeDictionary,
		reflect.TypeFor[variant.Dictionary]():         variant.TypeDictionary,
		reflect.TypeFor[variant.PackedByteArray]():    variant.TypePackedByteArray,
		reflect.TypeFor[variant.PackedInt32Array]():   variant.TypePackedInt32Array,
		reflect.TypeFor[variant.PackedInt64Array]():   variant.TypePackedInt64Array,
		reflect.TypeFor[variant.PackedFloat32Array](): variant.TypePackedFloat32Array,
		reflect.TypeFor[variant.PackedFloat64Array](): variant.TypePackedFloat64Array,
		reflect.TypeFor[variant.PackedStringArray]():  variant.TypePackedStringArray,
		reflect.TypeFor[variant.PackedVector2Array](): variant.TypePackedVector2Array,
		reflect.TypeFor[variant.PackedVector3Array](): variant.TypePackedVector3Array,
		reflect.TypeFor[variant.PackedColorArray]():   variant.TypePackedColorArray,
		reflect.TypeFor[variant.PackedVector4Array](): variant.TypePackedVector4Array,
	}
	for t := range variant.TypeCount {
		if proto := variant.Facts(t).Proto; proto != nil {
			m[reflect.TypeOf(proto)] = t
		}
	}
	return m
}()

// packedElems maps the element types of the packed arrays that are model
// types to their arrays.
var packedElems = map[reflect.Type]variant.Type{
	reflect.TypeFor[variant.Vector2](): variant.TypePackedVector2Array,
	reflect.TypeFor[variant.Vector3](): variant.TypePackedVector3Array,
	reflect.TypeFor[variant.Color]():   variant.TypePackedColorArray,
	reflect.TypeFor[variant.Vector4](): variant.TypePackedVector4Array,
}

// plainKind reports whether t is encoded by its kind alone: no methods of
// ours, not a model type with a codec of its own, not time.Time.
func plainKind(t reflect.Type) bool {
	if _, ok := modelKinds[t]; ok || t == timeType {
		return false
	}
	return !implements(t, marshalerType) && !implements(t, textMarshalerType)
}

// packedOf returns the packed array type that a slice of elem encodes to.
func packedOf(elem reflect.Type) (variant.Type, bool) {
	if pt, ok := packedElems[elem]; ok {
		return pt, true
	}
	if !plainKind(elem) {
		return variant.TypeNil, false
	}
	switch elem.Kind() {
	case reflect.Uint8:
		return variant.TypePackedByteArray, true
	case reflect.Int32:
		return variant.TypePackedInt32Array, true
	case reflect.Int64:
		return variant.TypePackedInt64Array, true
	case reflect.Float32:
		return variant.TypePackedFloat32Array, true
	case reflect.Float64:
		return variant.TypePackedFloat64Array, true
	case reflect.String:
		return variant.TypePackedStringArray, true
	}
	return variant.TypeNil, false
}

// builtinOf returns the one Variant type that values of t encode to, for
// typed containers, or TypeUnknown.
func builtinOf(t reflect.Type) variant.Type {
	if vt, ok := modelKinds[t]; ok {
		if vt == variant.TypeObject {
			return variant.TypeUnknown // objects type containers by class
		}
		return vt
	}
	switch {
	case t == timeType:
		return variant.TypeFloat
	case implements(t, marshalerType):
		return variant.TypeUnknown
	case implements(t, textMarshalerType):
		return variant.TypeString
	}
	switch t.Kind() {
	case reflect.Bool:
		return variant.TypeBool
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return variant.TypeInt
	case reflect.Float32, reflect.Float64:
		return variant.TypeFloat
	case reflect.String:
		return variant.TypeString
	case reflect.Slice, reflect.Array:
		if pt, ok := packedOf(t.Elem()); ok {
			return pt
		}
		return variant.TypeArray
	case reflect.Map, reflect.Struct:
		return variant.TypeDictionary
	}
	return variant.TypeUnknown
}

// encoder picks the encoding function of c.
func (bd *builder) encoder(c *codec) {
	t := c.typ
	if vt, ok := modelKinds[t]; ok {
		bd.modelEncoder(c, vt)
		return
	}
	switch {
	case t == timeType:
		c.enc = encTime
		return
	case implements(t, marshalerType):
		c.enc = encMarshaler(t)
		return
	case implements(t, textMarshalerType):
		c.enc = encTextMarshaler(t)
		return
	}
	switch t.Kind() {
	case reflect.Bool:
		c.enc = encBool
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		c.enc = encInt(t.Kind())
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		c.enc = encUint(t)
	case reflect.Float32:
		c.enc = encFloat32
	case reflect.Float64:
		c.enc = encFloat64
	case reflect.String:
		c.enc = encString
	case reflect.Slice:
		bd.sliceEncoder(c, false)
	case reflect.Array:
		bd.arrayEncoder(c)
	case reflect.Map:
		bd.mapEncoder(c)
	case reflect.Struct:
		c.enc = encStruct(bd.structFields(t))
	case reflect.Pointer:
		bd.pointerEncoder(c)
	case reflect.Interface:
		c.enc = encInterface(t)
	default:
		c.enc = encUnsupported(t)
	}
}

// decoder picks the decoding and filling functions of c.
func (bd *builder) decoder(c *codec) {
	t := c.typ
	if vt, ok := modelKinds[t]; ok {
		bd.modelDecoder(c, vt)
		return
	}
	switch {
	case t == timeType:
		c.dec, c.fill = scalarCodec(putTime)
		return
	case implements(t, unmarshalerType):
		c.dec, c.fill = decUnmarshaler(t), fillUnmarshaler(t)
		return
	case implements(t, textUnmarshalerType):
		c.dec, c.fill = scalarCodec(putText(t))
		return
	}
	switch t.Kind() {
	case reflect.Bool:
		c.dec, c.fill = scalarCodec(putBool(t))
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		c.dec, c.fill = scalarCodec(putInt(t))
	case reflect.Float32, reflect.Float64:
		c.dec, c.fill = scalarCodec(putFloat(t))
	case reflect.String:
		c.dec, c.fill = scalarCodec(putString(t))
	case reflect.Slice:
		bd.sliceDecoder(c)
	case reflect.Array:
		bd.arrayDecoder(c)
	case reflect.Map:
		kc, vc := bd.get(t.Key()), bd.get(t.Elem())
		c.dec, c.fill = decMap(c, kc, vc), fillMap(c, kc, vc)
	case reflect.Struct:
		info := bd.structFields(t)
		c.dec, c.fill = decStruct(c, info), fillStruct(c, info)
	case reflect.Pointer:
		ec := bd.get(t.Elem())
		c.dec, c.fill = decPointer(t, ec), fillPointer(t, ec)
	case reflect.Interface:
		c.dec, c.fill = decInterface(t), fillInterface(t)
	default:
		c.dec, c.fill = decUnsupported(t), fillUnsupported(t)
	}
}

// emptyFunc returns the omitempty test of t: false, 0, "", a nil pointer
// or interface, an empty slice, map or array. Structs are never empty.
func emptyFunc(t reflect.Type) func(unsafe.Pointer) bool {
	switch t.Kind() {
	case reflect.Bool:
		return func(p unsafe.Pointer) bool { return !*(*bool)(p) }
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		switch t.Size() {
		case 1:
			return func(p unsafe.Pointer) bool { return *(*uint8)(p) == 0 }
		case 2:
			return func(p unsafe.Pointer) bool { return *(*uint16)(p) == 0 }
		case 4:
			return func(p unsafe.Pointer) bool { return *(*uint32)(p) == 0 }
		}
		return func(p unsafe.Pointer) bool { return *(*uint64)(p) == 0 }
	case reflect.Float32:
		return func(p unsafe.Pointer) bool { return *(*float32)(p) == 0 }
	case reflect.Float64:
		return func(p unsafe.Pointer) bool { return *(*float64)(p) == 0 }
	case reflect.String:
		return func(p unsafe.Pointer) bool { return len(*(*string)(p)) == 0 }
	case reflect.Slice:
		return func(p unsafe.Pointer) bool { return (*sliceHeader)(p).Len == 0 }
	case reflect.Map:
		return func(p unsafe.Pointer) bool { return reflect.NewAt(t, p).Elem().Len() == 0 }
	case reflect.Pointer:
		return func(p unsafe.Pointer) bool { return *(*unsafe.Pointer)(p) == nil }
	case reflect.Interface:
		return func(p unsafe.Pointer) bool { return reflect.NewAt(t, p).Elem().IsNil() }
	case reflect.Array:
		n := t.Len()
		return func(unsafe.Pointer) bool { return n == 0 }
	}
	return func(unsafe.Pointer) bool { return false }
}

type isZeroer interface{ IsZero() bool }

var isZeroerType = reflect.TypeFor[isZeroer]()

// zeroFunc returns the omitzero test of t: its IsZero method when it has
// one, else whether the value is its type's zero value.
func zeroFunc(t reflect.Type) func(unsafe.Pointer) bool {
	switch {
	case t.Kind() == reflect.Pointer:
		if t.Implements(isZeroerType) {
			return func(p unsafe.Pointer) bool {
				ptr := *(*unsafe.Pointer)(p)
				return ptr == nil || reflect.NewAt(t, p).Elem().Interface().(isZeroer).IsZero()
			}
		}
	case t.Kind() != reflect.Interface && (t.Implements(isZeroerType) || reflect.PointerTo(t).Implements(isZeroerType)):
		return func(p unsafe.Pointer) bool { return reflect.NewAt(t, p).Interface().(isZeroer).IsZero() }
	}
	return func(p unsafe.Pointer) bool { return reflect.NewAt(t, p).Elem().IsZero() }
}

// sliceHeader is the memory layout of a Go slice.
type sliceHeader struct {
	Data unsafe.Pointer
	Len  int
	Cap  int
}
