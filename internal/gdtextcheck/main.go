// Command gdtextcheck supports testdata/golden/check-text.sh, which checks
// that the real engines read gdtext's text of every golden fixture back to
// the fixture's bytes.
//
//	gdtextcheck texts FAMILY FIXTURES.jsonl
//	    For every fixture, two input lines for the engine's text reader
//	    (str_to_var4.gd / str2var3.gd): the one-line and the multi-line text
//	    of the decoded value, as hex of their UTF-8 bytes, "obj:" in front
//	    when the fixture uses full objects.
//	gdtextcheck compare FAMILY FIXTURES.jsonl ENGINE-OUTPUT
//	    Compares the engine's bytes for those texts with the fixtures'
//	    (padding zeroed) and prints one line per fixture, OK or MISMATCH
//	    with details, then a summary line.
//	gdtextcheck gen FAMILY
//	    Prints extra fixtures in the same JSON-lines form: values chosen to
//	    stress the text form (random floats, every control character, …),
//	    with this project's encoding as their bytes.
package main

import (
	"bufio"
	"bytes"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"reflect"
	"strconv"
	"strings"

	"github.com/gdvar/gdvar/gdtext"
	"github.com/gdvar/gdvar/variant"
	"github.com/gdvar/gdvar/wire"
)

type fixture struct {
	Expr      string `json:"expr"`
	Objects   bool   `json:"objects"`
	Hex       string `json:"hex"`
	Reencoded string `json:"reencoded"`
}

func main() {
	if len(os.Args) == 3 && os.Args[1] == "gen" {
		n, _ := strconv.Atoi(os.Args[2])
		if err := gen(variant.Family(n)); err != nil {
			fmt.Fprintln(os.Stderr, "gdtextcheck:", err)
			os.Exit(1)
		}
		return
	}
	if len(os.Args) < 4 {
		fmt.Fprintln(os.Stderr, "usage: gdtextcheck texts FAMILY FIXTURES.jsonl | compare FAMILY FIXTURES.jsonl ENGINE-OUTPUT | gen FAMILY")
		os.Exit(2)
	}
	n, err := strconv.Atoi(os.Args[2])
	if err != nil || (n != 3 && n != 4) {
		fmt.Fprintln(os.Stderr, "gdtextcheck: FAMILY must be 3 or 4")
		os.Exit(2)
	}
	fam := variant.Family(n)
	fixtures, err := load(os.Args[3])
	if err != nil {
		fmt.Fprintln(os.Stderr, "gdtextcheck:", err)
		os.Exit(1)
	}
	switch {
	case os.Args[1] == "texts" && len(os.Args) == 4:
		err = texts(fam, fixtures)
	case os.Args[1] == "compare" && len(os.Args) == 5:
		err = compare(fam, fixtures, os.Args[4])
	default:
		err = errors.New("bad arguments")
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "gdtextcheck:", err)
		os.Exit(1)
	}
}

func load(path string) ([]fixture, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []fixture
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		var fx fixture
		if err := json.Unmarshal(sc.Bytes(), &fx); err != nil {
			return nil, err
		}
		out = append(out, fx)
	}
	return out, sc.Err()
}

func decode(fam variant.Family, fx fixture) (variant.Value, error) {
	b, err := hex.DecodeString(fx.Hex)
	if err != nil {
		return nil, err
	}
	m, err := variant.DecOptions{Family: fam, AllowObjects: fx.Objects}.DecMode()
	if err != nil {
		return nil, err
	}
	v, _, err := m.Decode(b)
	return v, err
}

// ourTexts returns the one-line and multi-line texts of the fixture.
func ourTexts(fam variant.Family, fx fixture) ([2]string, error) {
	var out [2]string
	v, err := decode(fam, fx)
	if err != nil {
		return out, fmt.Errorf("decode: %v", err)
	}
	for i, multi := range []bool{false, true} {
		if out[i], err = gdtext.Format(v, gdtext.Options{Family: fam, Multiline: multi}); err != nil {
			return out, fmt.Errorf("format: %v", err)
		}
	}
	return out, nil
}

func texts(fam variant.Family, fixtures []fixture) error {
	w := bufio.NewWriter(os.Stdout)
	for _, fx := range fixtures {
		ts, err := ourTexts(fam, fx)
		if err != nil {
			ts = [2]string{"null", "null"} // reported by compare
		}
		for _, t := range ts {
			if fx.Objects {
				w.WriteString("obj:")
			}
			w.WriteString(hex.EncodeToString([]byte(t)))
			w.WriteByte('\n')
		}
	}
	return w.Flush()
}

func compare(fam variant.Family, fixtures []fixture, enginePath string) error {
	data, err := os.ReadFile(enginePath)
	if err != nil {
		return err
	}
	lines := strings.Split(strings.TrimRight(string(data), "\n"), "\n")
	if len(lines) != 2*len(fixtures) {
		return fmt.Errorf("%s has %d lines, want %d", enginePath, len(lines), 2*len(fixtures))
	}
	w := bufio.NewWriter(os.Stdout)
	ok, bad := 0, 0
	explained := map[string]int{}
	for i, fx := range fixtures {
		ts, err := ourTexts(fam, fx)
		if err != nil {
			bad++
			fmt.Fprintf(w, "MISMATCH\t%s\t%v\n", fx.Expr, err)
			continue
		}
		var problems []string
		var engine []byte
		for j, form := range []string{"one-line", "multi-line"} {
			if j == 1 && ts[1] == ts[0] {
				continue
			}
			if p, b := check(fam, fx, lines[2*i+j]); p != "" {
				problems = append(problems, fmt.Sprintf("%s text %q: %s", form, ts[j], p))
				if engine == nil {
					engine = b
				}
			}
		}
		if len(problems) == 0 {
			ok++
			fmt.Fprintf(w, "OK\t%s\t%s\n", fx.Expr, ts[0])
			continue
		}
		bad++
		v, _ := decode(fam, fx)
		why := limitation(fam, fx, v, engine)
		explained[why]++
		fmt.Fprintf(w, "MISMATCH\t%s\t%s\t[%s]\n", fx.Expr, strings.Join(problems, "; "), why)
	}
	fmt.Fprintf(w, "SUMMARY\t%v\t%d fixtures: %d OK, %d MISMATCH", fam, len(fixtures), ok, bad)
	for why, n := range explained {
		fmt.Fprintf(w, "; %d %s", n, why)
	}
	fmt.Fprintln(w)
	return w.Flush()
}

// check compares one line of engine output with the fixture; it returns
// "" when the engine's bytes equal the fixture's, else what is wrong and the
// engine's bytes (padding zeroed; nil if the engine refused the text).
func check(fam variant.Family, fx fixture, line string) (string, []byte) {
	cols := strings.Split(line, "\t")
	if cols[0] == "ERROR" {
		return "engine refused it: " + strings.Join(cols[1:], " "), nil
	}
	if len(cols) < 2 {
		return "unexpected engine output " + strconv.Quote(line), nil
	}
	got, err := hex.DecodeString(cols[1])
	if err != nil {
		return "bad engine hex", nil
	}
	want, _ := hex.DecodeString(fx.Hex)
	g, err1 := zeroPadding(got, fam)
	w, err2 := zeroPadding(want, fam)
	if err1 != nil || err2 != nil {
		return fmt.Sprintf("cannot walk the bytes (%v, %v)", err1, err2), nil
	}
	if string(g) == string(w) {
		return "", nil
	}
	shown := ""
	if len(cols) > 2 {
		shown = ", engine's own text of it " + strconv.Quote(cols[2])
	}
	return fmt.Sprintf("engine bytes %x, want %x%s", g, w, shown), g
}

// limitation names the engine limitation that explains a mismatch (see the
// gdtext package documentation), or "unexplained". v is the fixture's
// value and engine the engine's bytes for our text (nil if it refused it).
func limitation(fam variant.Family, fx fixture, v variant.Value, engine []byte) string {
	var found []string
	walk(v, func(x variant.Value) {
		switch x := x.(type) {
		case variant.ObjectID:
			found = append(found, "an object ID read from text becomes a new EncodedObjectAsID")
		case variant.Signal:
			if x != (variant.Signal{}) {
				found = append(found, "str_to_var reads only an empty Signal()")
			}
		case variant.RID:
			if fam == variant.Godot3 {
				found = append(found, "str2var has no RID")
			}
		case variant.String:
			if strings.IndexByte(string(x), 0) >= 0 && fam == variant.Godot4 {
				found = append(found, "str_to_var turns NUL into U+FFFD")
			}
		case variant.NodePath:
			if q, ok := variant.ParseNodePath(x.String()); !ok || !reflect.DeepEqual(q, x) {
				found = append(found, "a NodePath name holding '/' or ':' or empty has no engine text")
			}
		}
	})
	if len(found) > 0 {
		return found[0]
	}
	var fs []float64
	collectReals(reflect.ValueOf(v), &fs)
	for _, f := range fs {
		if fam == variant.Godot3 && f != f && !isScalarNaN(v) {
			return "str2var has no NaN inside constructors"
		}
	}
	if engine == nil {
		return "unexplained"
	}
	if re, err := hex.DecodeString(fx.Reencoded); err == nil {
		if z, err := zeroPadding(re, fam); err == nil && string(z) == string(engine) {
			return "decoding already changes this value: the engine reads the text to its own re-encoding of the fixture"
		}
	}
	m, _ := variant.DecOptions{Family: fam, AllowObjects: fx.Objects}.DecMode()
	ev, _, err := m.Decode(engine)
	if err == nil && closeValues(v, ev) {
		return "the engine's float reader is not correctly rounded: no text reads back as this number"
	}
	return "unexplained"
}

// closeValues reports whether a and b differ only in real numbers that are
// a few units in the last place apart, or tiny numbers read as zero.
func closeValues(a, b variant.Value) bool {
	if variant.TypeOf(a) != variant.TypeOf(b) {
		return false
	}
	var fa, fb []float64
	collectReals(reflect.ValueOf(a), &fa)
	collectReals(reflect.ValueOf(b), &fb)
	if len(fa) != len(fb) || len(fa) == 0 {
		return false
	}
	for i := range fa {
		x, y := fa[i], fb[i]
		switch {
		case x == y || x != x && y != y:
		case math.Abs(x) < 1e-290 && y == 0:
		case math.Signbit(x) == math.Signbit(y) && absDiff(math.Float64bits(x), math.Float64bits(y)) <= 4:
		default:
			return false
		}
	}
	return true
}

func absDiff(a, b uint64) uint64 {
	if a > b {
		return a - b
	}
	return b - a
}

func isScalarNaN(v variant.Value) bool {
	f, ok := v.(variant.Float)
	return ok && f != f
}

func walk(v variant.Value, fn func(variant.Value)) {
	fn(v)
	switch v := v.(type) {
	case *variant.Array:
		for _, e := range v.Values {
			walk(e, fn)
		}
	case *variant.Dictionary:
		for k, e := range v.All() {
			walk(k, fn)
			walk(e, fn)
		}
	case *variant.Object:
		for _, p := range v.Properties {
			walk(p.Value, fn)
		}
	}
}

func collectReals(v reflect.Value, out *[]float64) {
	switch v.Kind() {
	case reflect.Interface, reflect.Pointer:
		if !v.IsNil() {
			collectReals(v.Elem(), out)
		}
	case reflect.Float32, reflect.Float64:
		*out = append(*out, v.Float())
	case reflect.Struct:
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				collectReals(v.Field(i), out)
			}
		}
	case reflect.Slice:
		for i := range v.Len() {
			collectReals(v.Index(i), out)
		}
	}
}

// zeroPadding returns a copy of the first Variant in b with every padding
// byte set to zero: the engines leave NodePath padding uninitialized. The
// value is read with variant.Reader, so the format's layout is known in
// one place; only where padding sits is this walker's concern.
func zeroPadding(b []byte, fam variant.Family) ([]byte, error) {
	m, err := variant.DecOptions{Family: fam, AllowObjects: true}.DecMode()
	if err != nil {
		return nil, err
	}
	w := walker{b: bytes.Clone(b)}
	w.r = m.Reader(w.b)
	n, err := w.value(0, 0)
	if err != nil {
		return nil, err
	}
	return w.b[:n], nil
}

// walker zeroes the padding of the value in b, which r reads.
type walker struct {
	b []byte
	r variant.Reader
}

// str zeroes the padding of the "str" payload at p in a value of type t
// and returns the offset after it.
func (w *walker) str(p int, t variant.Type) (int, error) {
	raw, next, err := w.r.StrRaw(p, t)
	if err != nil {
		return 0, err
	}
	clear(w.b[p+4+len(raw) : next])
	return next, nil
}

// typeData zeroes the padding of the type data of kind kind (a class
// name or a script path) of a typed container t at p.
func (w *walker) typeData(p int, kind uint32, t variant.Type) (int, error) {
	switch kind {
	case wire.KindBuiltin:
		return p + 4, nil
	case wire.KindClassName, wire.KindScript:
		return w.str(p, t)
	}
	return p, nil
}

// value zeroes the padding of the value at off, nested depth deep, and
// returns the offset after it.
func (w *walker) value(off, depth int) (int, error) {
	r := &w.r
	h, t, err := r.Head(off, depth)
	if err != nil {
		return 0, err
	}
	p := off + 4
	strs := func(q, n int) (int, error) {
		for range n {
			if q, err = w.str(q, t); err != nil {
				return 0, err
			}
		}
		return q, nil
	}
	values := func(q, n int) (int, error) {
		for range n {
			if q, err = w.value(q, depth+1); err != nil {
				return 0, err
			}
		}
		return q, nil
	}
	switch t {
	case variant.TypeString, variant.TypeStringName:
		return w.str(p, t)
	case variant.TypeNodePath:
		_, total, _, q, err := r.NodePathHead(off, p)
		if err != nil {
			return 0, err
		}
		return strs(q, int(total))
	case variant.TypeSignal:
		q, err := w.str(p, t)
		if err != nil {
			return 0, err
		}
		_, next, err := r.Field(off, q, t, 8)
		return next, err
	case variant.TypeObject:
		if _, next, asID, err := r.ObjectID(off, h); asID {
			return next, err
		}
		if _, err := w.str(p, t); err != nil { // the class
			return 0, err
		}
		class, n, q, err := r.ObjectHead(off, p)
		if err != nil || len(class) == 0 {
			return q, err
		}
		for range n {
			if q, err = w.str(q, t); err != nil {
				return 0, err
			}
			if q, err = w.value(q, depth+1); err != nil {
				return 0, err
			}
		}
		return q, nil
	case variant.TypeArray, variant.TypeDictionary:
		first, second := r.TypeKinds(h, t)
		q, err := w.typeData(p, first, t)
		if err == nil {
			_, err = w.typeData(q, second, t)
		}
		if err != nil {
			return 0, err
		}
		if t == variant.TypeArray {
			_, n, q, err := r.ArrayHead(off, h)
			if err != nil {
				return 0, err
			}
			return values(q+4, n)
		}
		_, _, n, q, err := r.DictHead(off, h)
		if err != nil {
			return 0, err
		}
		return values(q+4, 2*n)
	case variant.TypePackedByteArray:
		n, err := r.Count(off, p, t, 1)
		if err != nil {
			return 0, err
		}
		end := p + 4 + n
		next := min(end+wire.Pad4(n), len(w.b)) // the padding may be cut short
		clear(w.b[end:next])
		return next, nil
	case variant.TypePackedStringArray:
		n, err := r.StringsCount(off, p)
		if err != nil {
			return 0, err
		}
		return strs(p+4, n)
	}
	next, _, _, err := r.Skip(off, depth) // no padding in the other types
	return next, err
}
