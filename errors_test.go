package gdvar_test

import (
	"errors"
	"testing"

	"github.com/gdvar/gdvar"
	"github.com/gdvar/gdvar/variant"
)

// failingValue refuses every value it is given.
type failingValue struct{}

var errRefused = errors.New("refused")

func (*failingValue) UnmarshalVariant(variant.Value) error { return errRefused }

// Every error of Marshal and Unmarshal is also a *variant.Error for
// errors.As, with the byte offset, both paths and the Variant type.
func TestErrorsAreVariantErrors(t *testing.T) {
	type item struct {
		Qty int `gdvar:"qty"`
	}
	type player struct {
		Inventory []item       `gdvar:"inventory"`
		Custom    failingValue `gdvar:"custom"`
	}
	bad := enc(t, dict(S("inventory"), arr(dict(S("qty"), variant.Int(1)), dict(S("qty"), S("two")))))
	good := enc(t, dict(S("custom"), variant.Int(1)))
	pos := enc(t, dict(S("id"), variant.Int(1), S("pos"), variant.Vector2{X: 1, Y: 2}))
	cases := []struct {
		name                   string
		err                    error
		op, goPath, path       string
		typ                    variant.Type
		cause                  error
		code                   variant.Code
		offsetAt               []byte // the input the offset points into, when unmarshalling
		wantTypeAtOffset, wire bool
	}{
		{name: "type mismatch", err: gdvar.Unmarshal(bad, &player{}), op: "unmarshal", goPath: "inventory[1].qty",
			path: `["inventory"][1]["qty"]`, typ: variant.TypeString, cause: gdvar.ErrTypeMismatch,
			code: variant.ErrCodeInvalidData, offsetAt: bad, wantTypeAtOffset: true},
		{name: "truncated", err: gdvar.Unmarshal(pos[:len(pos)-2], &Player{}), op: "decode", goPath: "pos",
			path: `["pos"]`, typ: variant.TypeVector2, cause: variant.ErrTruncated,
			code: variant.ErrCodeInvalidData, offsetAt: pos, wantTypeAtOffset: true, wire: true},
		{name: "method", err: gdvar.Unmarshal(good, &player{}), op: "unmarshal", goPath: "custom",
			path: `["custom"]`, typ: variant.TypeInt, cause: errRefused, code: variant.ErrCodeInvalidData,
			offsetAt: good, wantTypeAtOffset: true},
		{name: "unsupported Go type", err: func() error { _, err := gdvar.Marshal(map[string]any{"c": make(chan int)}); return err }(),
			op: "marshal", goPath: `["c"]`, path: `["c"]`, typ: variant.TypeUnknown, cause: gdvar.ErrUnsupportedType,
			code: variant.ErrCodeInvalidParam},
	}
	for _, c := range cases {
		var e *gdvar.Error
		var ve *variant.Error
		if !errors.As(c.err, &e) || !errors.As(c.err, &ve) {
			t.Errorf("%s: %T %v is not both a *gdvar.Error and a *variant.Error", c.name, c.err, c.err)
			continue
		}
		if ve.Op != c.op || ve.GoPath != c.goPath || ve.Path != c.path || ve.Type != c.typ ||
			ve.Offset != e.Offset || ve.Code != c.code || !errors.Is(ve, c.cause) || !errors.Is(c.err, c.cause) {
			t.Errorf("%s: variant.Error %+v (from %v)", c.name, *ve, c.err)
		}
		if e.Path != c.goPath {
			t.Errorf("%s: gdvar.Error path %q, want %q", c.name, e.Path, c.goPath)
		}
		if c.wire != (ve == e.Err) {
			t.Errorf("%s: the cause is %T, the variant.Error %p", c.name, e.Err, ve)
		}
		if c.wantTypeAtOffset && variant.Type(c.offsetAt[ve.Offset]) != c.typ {
			t.Errorf("%s: byte %d is type %d, want %v", c.name, ve.Offset, c.offsetAt[ve.Offset], c.typ)
		}
	}
}
