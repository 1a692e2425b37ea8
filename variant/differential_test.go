package variant

import (
	"encoding/hex"
	"errors"
	"fmt"
	"github.com/gdvar/gdvar/classdb"
	"regexp"
	"sort"
	"strings"
	"testing"
	"text/tabwriter"
)

// verdictLine is one line of ../testdata/golden/godot{3,4}-decode.jsonl:
// the real engine's verdict on a malformed or unusual input, most of them
// mutations of the engine's own encodings (see gen_decode_cases.py).
type verdictLine struct {
	Name      string `json:"name"`
	Group     string `json:"group"`
	Hex       string `json:"hex"`
	Objects   bool   `json:"objects"`
	OK        bool   `json:"ok"`
	Type      int    `json:"type"`
	Reencoded string `json:"reencoded"`
	Used      *int   `json:"used"`
	Error     string `json:"error"`
}

// knownDifference names decoder cases where gdvar does not take the
// engine's decision. Every case of the family (0: both) whose name matches
// must differ from the engine (the test fails when one starts to agree, so
// the list stays true), and every entry must match at least one case. With
// option set, the difference is a default that the option changes: with it
// the decoder must agree. Each is a limit of decoding without an engine,
// or a choice.
type knownDifference struct {
	family Family
	name   *regexp.Regexp
	reason string
	option *DecOptions
}

var knownDifferences = []knownDifference{
	// Without the engine's ClassDB and resources, class names and script
	// paths are not checked by default; with the engine's class list and
	// no scripts (the engines' projects have none) they are, as in the
	// engine.
	{family: Godot4, name: regexp.MustCompile(`^full object of (an unknown class|a class that cannot be instantiated \(Script\))$`),
		reason: "no ClassDB by default: any class name is accepted", option: &engineClassDB4},
	{family: Godot4, name: regexp.MustCompile(`^(full object with script = 'res://nope\.gd'|Array of script res://x\.gd, with allow-objects)$`),
		reason: "no resources by default: any res:// script path is accepted", option: &engineClassDB4},
	{family: Godot3, name: regexp.MustCompile(`^full object of an unknown class$`),
		reason: "no ClassDB by default: any class name is accepted", option: &engineClassDB3},
	// Godot 3.2 has no depth limit; 3.3.5 and later stop at 1024 like 4.x,
	// and so does the default MaxDepth. Where the data has another error
	// deeper down, 3.2 reports that one.
	{family: Godot3, name: regexp.MustCompile(`at depth 1025|^2000 nested Arrays`),
		reason: "Godot 3.2 has no depth limit; 3.3.5+ and the default MaxDepth stop at 1024",
		option: &DecOptions{MaxDepth: 4096}},
	// The value model has no typed null: both encode as Nil.
	{name: regexp.MustCompile(`^(object as ID 0|full object with empty class name \(null\) with allow-objects|` +
		`full null object followed by property data|make\("Resource", \{"resource_name": "x"\}\) \(with objects\): class name NUL at byte 0)$`),
		reason: "a null Object decodes as nil (typeof Nil); the engine's is an Object-typed null; both re-encode as Nil"},
}

// engineClassDB4 and engineClassDB3 give the decoder the engines' class
// lists and script files.
var (
	engineClassDB4 = DecOptions{Classes: classdb.Godot4.Has, Scripts: noScripts}
	engineClassDB3 = DecOptions{Classes: classdb.Godot3.Has, Scripts: noScripts}
)

func noScripts(string) bool { return false }

func knownDifferenceFor(f Family, name string) *knownDifference {
	for i := range knownDifferences {
		if k := &knownDifferences[i]; (k.family == 0 || k.family == f) && k.name.MatchString(name) {
			return k
		}
	}
	return nil
}

// engineQuirks are engine behaviours the decoder reproduces, each with
// cases of the family (0: both) that show it. TestDifferential checks that
// every one of those cases agrees with the engine and lists the quirks.
// testdata/golden/README.md describes them.
var engineQuirks = []struct {
	family Family
	quirk  string
	cases  []string
}{
	{0, "bytes after the value are ignored", []string{
		"int 1 followed by 4 trailing bytes", `[1, "two", 3.5] followed by 00000000`, "nil followed by a whole second value"}},
	{0, "the type is the low byte of the header; header byte 1 and flag bits a type does not use are ignored", []string{
		"type byte = 0xFF", "int with header byte 1 = 0x01", "int with all flag bits 16..31 set except 16",
		`[1, "two", 3.5]: header at [1] (String) byte 1 = 0xFF`}},
	{0, "the 64-bit flag widens int and float even for small values", []string{
		"int 1 with the 64-bit flag (8-byte payload)", "float 2.5 with the 64-bit flag (f64 payload)"}},
	{Godot4, "the 64-bit flag widens the real components of math types, never Color or the integer vectors", []string{
		"Vector2 with the 64-bit flag, f64 components", "Color with the 64-bit flag (Color is always f32)",
		"Vector2i with the 64-bit flag (ints are always i32)"}},
	{Godot3, "Godot 3 ignores the 64-bit flag on math types", []string{"Vector2 with flag bit 16 (3.x has no f64 vectors)"}},
	{0, "a bool is true for any non-zero word", []string{"bool word = 2", "bool word = 0xFFFFFFFF"}},
	{0, "bit 31 of Array and Dictionary counts is ignored", []string{
		"Array count with bit 31 set ([1])", "Dictionary count with bit 31 set ({1: 2})",
		`[1, "two", 3.5]: Array count 3 -> 0x80000003`, `{"a": 1}: Dictionary count 1 -> 0x80000001`}},
	{0, "padding contents are not checked", []string{
		"string length 3, non-zero padding byte", `NodePath("/root/a:b"): padding bytes 0xAA (as uninitialized memory)`,
		"PackedByteArray count 3, padding byte 0xAA, followed by int 7 in an Array"}},
	{0, "a PackedByteArray's final padding may be missing; inside a container the padding is still skipped, so the next element is read up to 3 bytes late", []string{
		"PackedByteArray count 3, final padding missing (top level)", "PackedByteArray count 3, padding missing, last element of an Array",
		"PackedByteArray count 3, padding missing, int 1 right after its data, in an Array",
		"Array [PackedByteArray count 1 without padding, [1]]", "Dictionary {PackedByteArray count 3 without padding: int 1}"}},
	{Godot4, "a byte array cut inside its padding still decodes", []string{"cut to 13 of 16 bytes: PackedByteArray([0, 1, 127, 128, 255])"}},
	{Godot3, "a byte array cut inside its padding still decodes", []string{"cut to 13 of 16 bytes: PoolByteArray([0, 1, 127, 128, 255])"}},
	{0, "a negative PackedStringArray count is an empty array after its 4 count bytes", []string{
		"PackedStringArray count -1", "PackedStringArray count -1 followed by data", "Array [PackedStringArray count 0x80000000, int 1]"}},
	{0, "PackedStringArray element lengths need not count the NUL", []string{
		"PackedStringArray element without NUL (length 1, 'a')", "PackedStringArray of 3 without NUL terminators",
		"PackedStringArray element length 0 (no NUL)"}},
	{0, "a leading byte order mark is dropped, one further in is kept", []string{
		"string with a leading BOM EF BB BF", "string with a BOM in the middle", `"abcde": String BOM EF BB BF at byte 0`}},
	{0, "a NUL ends a string (the rest of its bytes is skipped), so Dictionary keys can collide", []string{
		"string with a NUL inside (a NUL b)", "string with a trailing NUL", `"abcde": String NUL at byte 1`,
		`{"b": 1, "a": 2, "c": 3}: String at {key 1} NUL at byte 0`}},
	{0, "a string length that takes in a zero padding byte reads the same string", []string{`"abc": String length 3 -> 4`}},
	{0, "repeated Dictionary keys: the last value wins; 1 and 1.0 are different keys", []string{
		"Dictionary with duplicate keys {'a': 1, 'a': 2}", "Dictionary with keys 1 and 1.0"}},
	{Godot4, `&"a" and "a" are the same Dictionary key`, []string{"Dictionary with keys &'a' and 'a'"}},
	{0, "NodePaths need bit 31 (the old single-string format is refused); the obsolete property flag reads one more subname; other flag bits are ignored", []string{
		"NodePath old format (bit 31 clear): length 4 + 'root'", "NodePath old format as a Dictionary key",
		"NodePath with the obsolete property flag (bit 1): a:b plus extra subname c",
		`NodePath("a"): unknown flag bits 2..31 set`, `NodePath("a"): property flag (bit 1) plus an extra subname 'p'`}},
	{Godot3, "Godot 3.2 drops the absolute flag of an empty path", []string{
		"NodePath absolute with no names", `NodePath(""): absolute flag toggled`}},
	{Godot4, "Godot 4.6 refuses malformed UTF-8: surrogates, overlong forms, code points above U+10FFFF, stray and missing continuation bytes", []string{
		"invalid UTF-8: surrogate ED A0 80 (U+D800)", "invalid UTF-8: overlong 3-byte E0 80 AF ('/')",
		"invalid UTF-8: above U+10FFFF F4 90 80 80", `"abcde": String cut sequence E6 97 at the end`}},
	{Godot3, "Godot 3.2's UTF-8 decoder keeps surrogates (CESU-8 pairs too), code points above U+10FFFF and 5-byte sequences, and reads overlong 3-byte forms as their character; it refuses overlong 2-byte forms, FE, FF and stray or missing continuation bytes", []string{
		"invalid UTF-8: surrogate ED A0 80 (U+D800)", "invalid UTF-8: surrogate pair as CESU-8 ED A0 BD ED B8 80",
		"invalid UTF-8: 5-byte sequence F8 88 80 80 80", "invalid UTF-8: overlong 3-byte E0 80 AF ('/')",
		`NodePath("/root/a:b"): NodePath name 0 overlong E0 80 AF at byte 0`, "invalid UTF-8: overlong NUL C0 80",
		"invalid UTF-8: byte FE"}},
	{Godot4, "typed Arrays convert an element Variant converts strictly (2.5 to 2, StringName to String, Vector2i to Vector2, a packed array to Array) and drop the others without failing", []string{
		"Array[int] holding 2.5", "Array[int] holding a String", "Array[int] holding null", "Array[String] holding StringName",
		"Array[Vector2] holding Vector2i", "Array typed 2 (int) holding one of each type", "Array typed 28 (Array) holding one of each type"}},
	{Godot4, "typed Dictionaries convert or drop keys the same way but never check values", []string{
		"Dictionary[String, int] with an int key", "Dictionary[String, int] with a String value",
		"Dictionary key typed 4 (String), keys of each type", "Dictionary value typed 2 (int), values of each type"}},
	{Godot4, "container type data: builtin Nil means untyped, a builtin id of 39 or more (the whole word) is refused, and without objects every class or script type becomes EncodedObjectAsID", []string{
		"typed Array, builtin type 0 (Nil)", "typed Array, builtin type 0x102 (int in the low byte)",
		"Array typed with builtin word 0x10002, empty", "Array of class Node, without allow-objects",
		"Array of script res://x.gd, without allow-objects", "Array[Object] (builtin 24), empty"}},
	{Godot3, "Godot 3 ignores the typed-container bits, so Godot 4's typed containers are misread (the type word taken for the count)", []string{
		"Godot 4 Array[int]([1]) bytes (type data read as the count)",
		"Godot 4 typed Array with empty type data: count word 0x10000 ignored",
		`Godot 4 bytes of Array[int]([1, 2])`}},
	{0, "a full object needs allow-objects even when it is null or nested deep; an object as ID needs nothing; ID 0 is null", []string{
		"full object Resource without allow-objects", "full object with empty class name (null) without allow-objects",
		"full Resource as the third level of nested Arrays, without objects", "object as ID 13", "object as ID 13 with allow-objects"}},
	{0, "a negative property count reads no properties; the property data left over is ignored", []string{
		"full object, negative property count", "full Resource, property count 0x80000001"}},
	{Godot4, `a full object's script must be null or a res:// path of an existing script`, []string{
		"full object with script = 5", `full Resource with script = ""`, `full Resource with script = &"res://x.gd"`,
		"full Resource with script = null"}},
	{Godot4, "the innermost value may sit at depth 1024, for Array elements, Dictionary keys and values, typed Arrays and object properties; at depth 1025 the depth error comes before any other", []string{
		"1024 nested Arrays around int 1 (the int is at depth 1024)", "1025 nested Arrays around int 1 (the int is at depth 1025)",
		"1024 Dictionaries nested as keys (innermost key at depth 1024)", "1025 Dictionaries nested as keys (innermost key at depth 1025)",
		"1025 nested Dictionaries (innermost key and value at depth 1025)",
		"1024 nested Array[Array] around an empty Array[int] at depth 1024",
		"1024 Objects nested as property values (innermost value at depth 1024)",
		"1025 Objects nested as property values (innermost value at depth 1025)",
		"1025 nested Arrays around an invalid type byte (at depth 1025)",
		"1025 nested Arrays around a full object, without objects (at depth 1025)"}},
	{0, "error codes: a string length that is negative or runs past the data is ERR_FILE_EOF, a full object without permission ERR_UNAUTHORIZED, everything else ERR_INVALID_DATA", []string{
		"string length -1", "string length 100 with 4 bytes of data", "full object, class name truncated",
		"full object Resource without allow-objects", "Array count 5, one element present", "string, no length word"}},
}

// engineCodeRE finds the error code in an engine message: 4.x logs
// "... Returning: ERR_FILE_EOF (core/io/marshalls.cpp:107 _decode_string)",
// 3.x "... Returned: ERR_FILE_EOF [core/io/marshalls.cpp:84]".
var engineCodeRE = regexp.MustCompile(`Return(?:ing|ed): (ERR_[A-Z_]+)`)

// engineCode returns the code the engine's first message names: the
// failure's origin, from which the code travels up unchanged. ok is false
// when no message names one.
func engineCode(msg string) (Code, bool) {
	m := engineCodeRE.FindStringSubmatch(msg)
	if m == nil {
		return 0, false
	}
	for c, name := range codeNames {
		if name == m[1] {
			return c, true
		}
	}
	return -1, true // a code the package does not know: never equal to ours
}

// shape renders the parts of a value that survive the engine's handling of
// objects: an object becomes "object" (an instance ID, or the engine's
// EncodedObjectAsID) or "object:Class" (a full object; its properties are
// left out, the engine writes every stored property of the class), a
// container type is rendered as it is encoded (without full objects every
// class and script type is written as EncodedObjectAsID), and everything
// else is compared by its encoding.
func shape(v Value, enc *EncMode) string {
	var sb strings.Builder
	encoded := func(v Value) string {
		b, err := enc.Encode(v)
		if err != nil {
			return fmt.Sprintf("<%v>", err)
		}
		return hex.EncodeToString(b)
	}
	var walk func(Value)
	walk = func(v Value) {
		switch x := v.(type) {
		case ObjectID:
			sb.WriteString("object")
		case *Object:
			if x.Class == encodedObjectAsID {
				sb.WriteString("object")
			} else {
				sb.WriteString("object:" + x.Class)
			}
		case *Array:
			sb.WriteString(encoded(&Array{Elem: x.Elem}) + "[")
			for _, e := range x.Values {
				walk(e)
				sb.WriteString(", ")
			}
			sb.WriteString("]")
		case *Dictionary:
			sb.WriteString(encoded(NewTypedDictionary(x.KeyType(), x.ValueType(), 0)) + "{")
			for k, e := range x.All() {
				walk(k)
				sb.WriteString(": ")
				walk(e)
				sb.WriteString(", ")
			}
			sb.WriteString("}")
		default:
			sb.WriteString(encoded(v))
		}
	}
	walk(v)
	return sb.String()
}

// clip shortens an error text for a test message (paths of deeply nested
// values run to kilobytes).
func clip(s string) string {
	if len(s) > 300 {
		return s[:300] + "…"
	}
	return s
}

// differ compares our decoder, with opts, with the engine on one case and
// returns what differs, or "" when we agree: the verdict; for accepted
// input the type, the bytes used (4.x) and the value, by its re-encoding
// (by shape where it holds objects); for refused input the error code,
// when the engine's message names one (codeNamed).
func differ(t *testing.T, opts DecOptions, l verdictLine) (diff string, codeNamed bool) {
	f := opts.Family
	b, err := hex.DecodeString(l.Hex)
	if err != nil {
		t.Fatalf("%v %q: %v", f, l.Name, err)
	}
	v, n, err := dmode(t, opts).Decode(b)
	if (err == nil) != l.OK {
		return fmt.Sprintf("ours ok=%v (%s), engine ok=%v (%s)", err == nil, clip(fmt.Sprint(err)), l.OK, clip(l.Error)), false
	}
	if !l.OK {
		want, named := engineCode(l.Error)
		if !named {
			return "", false
		}
		var e *Error
		if !errors.As(err, &e) {
			return fmt.Sprintf("error %v is not an *Error", err), true
		}
		if e.Code != want {
			return fmt.Sprintf("code %v, engine %v (ours: %s; engine: %s)", e.Code, want, clip(err.Error()), clip(l.Error)), true
		}
		return "", true
	}
	if id, _ := TypeOf(v).ID(f); int(id) != l.Type {
		return fmt.Sprintf("type %v (id %d), engine %d", TypeOf(v), id, l.Type), false
	}
	if l.Used != nil && min(*l.Used, len(b)) != n {
		return fmt.Sprintf("used %d bytes, engine %d", n, *l.Used), false
	}
	enc := mode(t, EncOptions{Family: f, FullObjects: l.Objects, MaxDepth: opts.MaxDepth})
	if containsObject(v) {
		eb, _ := hex.DecodeString(l.Reencoded)
		ev, _, err := dmode(t, DecOptions{Family: f, AllowObjects: true}).Decode(eb)
		if err != nil {
			return fmt.Sprintf("cannot read the engine's re-encoding: %v", err), false
		}
		if ours, theirs := shape(v, enc), shape(ev, enc); ours != theirs {
			return fmt.Sprintf("\nours   %s\nengine %s", ours, theirs), false
		}
		return "", false
	}
	again, err := enc.Encode(v)
	if err != nil {
		return fmt.Sprintf("re-encode: %v", err), false
	}
	if got := hex.EncodeToString(again); got != l.Reencoded {
		return fmt.Sprintf("\nours   %s\nengine %s", got, l.Reencoded), false
	}
	return "", false
}

type groupStats struct {
	cases, agree, known, engineOK, codes, codesAgree int
}

// The decoder takes the real engines' decision on every malformed input of
// the differential suite (except the known differences above): it accepts
// and refuses what Godot 4.6 and 3.2.3 accept and refuse, what it accepts
// re-encodes as the engine re-encodes it, and a refusal carries the error
// code the engine reported.
func TestDifferential(t *testing.T) {
	occurred := map[*knownDifference]int{}
	agreed := map[Family]map[string]bool{}
	for _, g := range goldenFamilies {
		lines := readJSONL[verdictLine](t, g.file+"-decode.jsonl")
		if len(lines) < 300 {
			t.Fatalf("%v: only %d cases", g.fam, len(lines))
		}
		stats := map[string]*groupStats{}
		var total groupStats
		names := map[string]bool{}
		agreed[g.fam] = map[string]bool{}
		for _, l := range lines {
			if names[l.Name] {
				t.Errorf("%v: case %q appears twice", g.fam, l.Name)
			}
			names[l.Name] = true
			group := l.Group
			if group == "" {
				group = "(none)"
			}
			s := stats[group]
			if s == nil {
				s = &groupStats{}
				stats[group] = s
			}
			count := func(f func(*groupStats)) { f(s); f(&total) }
			count(func(s *groupStats) {
				s.cases++
				if l.OK {
					s.engineOK++
				}
			})
			diff, codeNamed := differ(t, DecOptions{Family: g.fam, AllowObjects: l.Objects}, l)
			if codeNamed {
				count(func(s *groupStats) { s.codes++ })
			}
			known := knownDifferenceFor(g.fam, l.Name)
			switch {
			case diff != "" && known != nil:
				occurred[known]++
				count(func(s *groupStats) { s.known++ })
				if known.option != nil {
					// The difference is a choice: with the option we take
					// the engine's decision.
					opts := *known.option
					opts.Family, opts.AllowObjects = g.fam, l.Objects
					if diff, _ := differ(t, opts, l); diff != "" {
						t.Errorf("%v %q with %+v: %s", g.fam, l.Name, opts, diff)
					}
				}
				continue
			case diff != "":
				t.Errorf("%v %s %q: %s", g.fam, group, l.Name, diff)
				continue
			case known != nil:
				t.Errorf("%v %q: listed as a known difference (%s) but agrees with the engine", g.fam, l.Name, known.reason)
			}
			agreed[g.fam][l.Name] = true
			count(func(s *groupStats) { s.agree++ })
			if codeNamed {
				count(func(s *groupStats) { s.codesAgree++ })
			}
		}

		groups := make([]string, 0, len(stats))
		for k := range stats {
			groups = append(groups, k)
		}
		sort.Strings(groups)
		var sb strings.Builder
		tw := tabwriter.NewWriter(&sb, 0, 0, 2, ' ', tabwriter.AlignRight)
		fmt.Fprintf(tw, "%v group\tcases\tagree\tknown\tengine ok\tengine refused\tcodes named\tcodes agree\t\n", g.fam)
		row := func(name string, s *groupStats) {
			fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t\n", name, s.cases, s.agree, s.known,
				s.engineOK, s.cases-s.engineOK, s.codes, s.codesAgree)
		}
		for _, k := range groups {
			row(k, stats[k])
		}
		row("all", &total)
		tw.Flush()
		t.Logf("differential suite, %v: %d of %d cases agree with the engine, %d known differences; "+
			"%d of %d engine error codes agree (the other %d are in known differences)\n%s",
			g.fam, total.agree, total.cases, total.known, total.codesAgree, total.codes,
			total.codes-total.codesAgree, sb.String())
	}
	var sb strings.Builder
	for _, q := range engineQuirks {
		fams := []Family{q.family}
		if q.family == 0 {
			fams = []Family{Godot4, Godot3}
		}
		for _, f := range fams {
			for _, name := range q.cases {
				if !agreed[f][name] {
					t.Errorf("quirk %q: %v case %q is missing or does not agree with the engine", q.quirk, f, name)
				}
			}
		}
		which := "both"
		if q.family != 0 {
			which = q.family.String()
		}
		fmt.Fprintf(&sb, "- %s (%s; cases: %d)\n", q.quirk, which, len(q.cases))
	}
	t.Logf("engine quirks reproduced:\n%s", sb.String())
	sb.Reset()
	for i := range knownDifferences {
		k := &knownDifferences[i]
		which := "both"
		if k.family != 0 {
			which = k.family.String()
		}
		fmt.Fprintf(&sb, "- %s, cases: %d: %s\n", which, occurred[k], k.reason)
		if occurred[k] == 0 {
			t.Errorf("known difference (%s) %q (%s) matched no differing case", which, k.name, k.reason)
		}
	}
	t.Logf("known differences:\n%s", sb.String())
}
