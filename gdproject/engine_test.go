package gdproject

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gdvar/gdvar/gdtext"
	"github.com/gdvar/gdvar/internal/enginetest"
	"github.com/gdvar/gdvar/internal/godot4web"
	"github.com/gdvar/gdvar/variant"
)

// Godot 3.2.3 loads a project.binary written by EncodeBinary (a project
// folder holding no project.godot).
func TestEngine3LoadsBinary(t *testing.T) {
	bin := enginetest.Godot3(t)
	s, err := DecodeBinary(read(t, "godot3.2.3-project.binary"), variant.Godot3)
	if err != nil {
		t.Fatal(err)
	}
	s.Settings = append(s.Settings,
		Setting{"application/config/name", variant.String("written by gdvar")},
		Setting{"gdvar/values/int", variant.Int(7)}) // the last one counts
	data, err := s.EncodeBinary()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "project.binary"), data, 0o644); err != nil {
		t.Fatal(err)
	}
	script, _ := filepath.Abs(filepath.Join("testdata", "read3.gd"))
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	out, err := exec.CommandContext(ctx, bin, "--path", dir, "--script", script).Output()
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	for _, want := range []string{"name\twritten by gdvar\n", "int\t7\n", "vector\t(1.5, -2)\n"} {
		if !strings.Contains(string(out), want) {
			t.Errorf("engine printed %q, want %q in it", out, want)
		}
	}
}

// The engines still save the golden files (GDVAR_UPDATE_GOLDEN=1 rewrites
// them).
func TestEngine3SavesGoldens(t *testing.T) {
	enginetest.Godot3(t)
	dir := t.TempDir()
	if out := enginetest.RunGodot3(t, filepath.Join("testdata", "settings3.gd"), dir); strings.TrimSpace(out) != "done" {
		t.Fatalf("engine: %q", out)
	}
	for _, ext := range []string{"binary", "godot"} {
		got, err := os.ReadFile(filepath.Join(dir, "project."+ext))
		if err != nil {
			t.Fatal(err)
		}
		compareGolden(t, "godot3.2.3-project."+ext, got)
	}
}

func TestEngine4SavesGoldens(t *testing.T) {
	res := godot4web.Run(t, godot4web.Job{Script: filepath.Join("testdata", "settings4.gd")})
	if res.Code != 0 {
		t.Fatalf("engine: %d\n%s", res.Code, res.Stderr)
	}
	for _, line := range strings.Split(res.Stdout, "\n") {
		kind, b64, ok := strings.Cut(line, " ")
		if !ok {
			continue
		}
		got, err := base64.StdEncoding.DecodeString(b64)
		if err != nil {
			t.Fatal(err)
		}
		ext := map[string]string{"binary": "binary", "text": "godot"}[kind]
		compareGolden(t, "godot4.6-project."+ext, got)
	}
}

func compareGolden(t *testing.T, name string, got []byte) {
	t.Helper()
	p := filepath.Join("testdata", name)
	if os.Getenv("GDVAR_UPDATE_GOLDEN") != "" {
		if err := os.WriteFile(p, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if want, err := os.ReadFile(p); err != nil || !bytes.Equal(want, got) {
		t.Errorf("%s: the engine saved something else (%v)\n%s", name, err, got)
	}
}

// keysText is a project.godot whose keys the engines read as ParseText
// does: a quoted key is a string (it may hold '=', '/', quotes, escapes,
// line breaks and control characters) and replaces what was read of the
// key before it; a bare key loses every character up to ' ', line breaks
// included, and goes on after a comment; its other bytes are one
// character each; an empty key, and one with no '=' before the end, set
// nothing; a value may be followed by another key on its line; an empty
// section changes nothing. keysRead is what config3.gd and config4.gd print
// of it (c_escape()d keys).
const (
	keysText = "\"a=/b\"=1\n\"a\\\"b\"=2\n  x y =3\n\"tab\\there\"=4\n\"two\nlines\"=5\n\"\"=8\n =9\n\"c\x01d\"=10\n" +
		"a\xc3\xa9=11\nb\xffc=12\n\"q\xc3\xa9\"=13\na\"b\"=14\n\"a\"b=15\nc;d=3\ne=16\n#c\nf=17\ng=18 h=19\n" +
		"[s]\n\"k=v\"=6\nplain=7\n[]\nafter=22\n"
	keysRead = "a=/b\t1\na\\\"b\t2\nxy\t3\ntab\\there\t4\ntwo\\nlines\t5\nc\x01d\t10\n" +
		"a\u00c3\u00a9\t11\nb\u00ffc\t12\nq\u00e9\t13\nb\t14\nab\t15\nce\t16\n#cf\t17\ng\t18\nh\t19\n" +
		"s/k=v\t6\ns/plain\t7\ns/after\t22\n"
	// keysEnd follows keysText in both tests: the first ']' after
	// "[t\" ends the section's name in Godot 3, not in Godot 4; the
	// bytes of a name are characters in Godot 3, UTF-8 in Godot 4; the
	// last key has no '='.
	keysEnd = "[t\\]u]\nk=23\n[v\xc3\xa9]\nk=24\n[w\xff]\nk=25\nx=26 27"
)

// Godot 3.2.3's ConfigFile reads the keys of keysText as ParseText does,
// and the keys Text writes back as they were; a setting with nothing
// after its section's '/', which the engine would write and then drop,
// is refused.
func TestEngine3ReadsKeys(t *testing.T) {
	enginetest.Godot3(t)
	checkEngineReadsKeys(t, variant.Godot3, "t\\\\/u]k\t23\nv\u00c3\u00a9/k\t24\nw\u00ff/k\t25\nw\u00ff/x\t26\n", godot3Reads(t))
}

// Godot 4.6's ConfigFile reads them alike, but for section names.
func TestEngine4ReadsKeys(t *testing.T) {
	godot4web.Skip(t)
	checkEngineReadsKeys(t, variant.Godot4, "t]u/k\t23\nv\u00e9/k\t24\nw\uFFFD/k\t25\nw\uFFFD/x\t26\n", godot4Reads(t))
}

// godot3Reads returns a function that has Godot 3.2.3 read a project.godot
// with ConfigFile and returns what testdata/config3.gd printed of it.
func godot3Reads(t *testing.T) func(file string) string {
	return func(file string) string {
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, "project.godot"), []byte(file), 0o644); err != nil {
			t.Fatal(err)
		}
		return enginetest.RunGodot3(t, filepath.Join("testdata", "config3.gd"), dir)
	}
}

// godot4Reads is godot3Reads for Godot 4.6 (testdata/config4.gd).
func godot4Reads(t *testing.T) func(file string) string {
	return func(file string) string {
		res := godot4web.Run(t, godot4web.Job{Script: filepath.Join("testdata", "config4.gd"),
			Args: []string{base64.StdEncoding.EncodeToString([]byte(file))}})
		if res.Code != 0 {
			t.Fatalf("engine: %d\n%s", res.Code, res.Stderr)
		}
		return res.Stdout
	}
}

// engineLines splits what config3.gd or config4.gd printed into its
// settings' lines (c_escape()d key, hex bytes, text), leaving out
// "done" and the engine's complaints about the text.
func engineLines(out string) [][3]string {
	var lines [][3]string
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		if f := strings.SplitN(line, "\t", 3); len(f) == 3 {
			lines = append(lines, [3]string{f[0], f[1], f[2]})
		}
	}
	return lines
}

// checkEngineReadsKeys has the engine read keysText+keysEnd and the text
// Text writes from what ParseText read of it (read returns what
// config3.gd or config4.gd printed), and compares the keys and values as
// text with ParseText's; end is what the engine reads of keysEnd.
func checkEngineReadsKeys(t *testing.T, family variant.Family, end string, read func(file string) string) {
	text, wantRead := keysText+keysEnd, keysRead+end+"done"
	s, err := ParseText(text, family)
	if err != nil {
		t.Fatal(err)
	}
	var got strings.Builder
	for _, st := range s.Settings {
		v, err := gdtext.Format(st.Value, gdtext.Options{Family: family})
		if err != nil {
			t.Fatal(err)
		}
		got.WriteString(engineKey(st.Key) + "\t" + v + "\n")
	}
	got.WriteString("done")
	if got.String() != wantRead {
		t.Fatalf("ParseText read:\n%s\nwant\n%s", got.String(), wantRead)
	}
	// Text writes every section but "t]u" (Godot 4), which it refuses.
	if family == variant.Godot4 {
		if _, err := s.Text(); !errors.Is(err, ErrFormat) {
			t.Fatalf("a section holding ']': %v", err)
		}
		s.Settings = slices.DeleteFunc(s.Settings, func(st Setting) bool { return strings.HasPrefix(st.Key, "t]u/") })
		wantRead = strings.Replace(wantRead, "t]u/k\t23\n", "", 1)
	}
	written, err := s.Text()
	if err != nil {
		t.Fatal(err)
	}
	for i, file := range []string{text, written} {
		// Text groups the keys by section, as the engine does: the same
		// lines, perhaps in another order.
		out := read(file)
		got := []string{"done"}
		for _, l := range engineLines(out) {
			got = append(got, l[0]+"\t"+l[2])
		}
		want := wantRead
		if i == 0 {
			want = keysRead + end + "done"
		}
		if w := strings.Split(want, "\n"); !slices.Equal(slices.Sorted(slices.Values(got)), slices.Sorted(slices.Values(w))) {
			t.Errorf("the engine read\n%s\nfrom\n%q\nwant:\n%s", out, file, want)
		}
	}
	empty := &Settings{Family: family, Settings: []Setting{{Key: "=/", Value: variant.Int(1)}}}
	if _, err := empty.Text(); !errors.Is(err, ErrFormat) {
		t.Errorf("a setting with no name after its section: %v", err)
	}
}

// engineKey is k as config3.gd and config4.gd print it (String.c_escape).
func engineKey(k string) string {
	r := strings.NewReplacer("\\", "\\\\", "\"", "\\\"", "\n", "\\n", "\t", "\\t")
	return r.Replace(k)
}

// textValues are settings whose strings hold what a file's reader may
// misread: line breaks, quotes, backslashes, control characters, C1
// controls, the Unicode line separator, non-ASCII and a character above
// U+FFFF, in every kind of string the family has.
func textValues(family variant.Family) *Settings {
	const odd = "a\u0085b\u2028c\né\t\"q\"\\ \x01 😀"
	d := variant.NewDictionary(1)
	d.Set(variant.String("k\u0085"), variant.String("v\u2028"))
	s := &Settings{Family: family, Settings: []Setting{
		{Key: "s/str", Value: variant.String(odd)},
		{Key: "s/path", Value: variant.NodePath{Names: []string{"root", "é\u0085\u2028"}, Subnames: []string{"x\u0085"}, Absolute: true}},
		{Key: "s/list", Value: variant.PackedStringArray{"\u0085", "\u2028é", "\n", odd}},
		{Key: "s/dict", Value: d},
	}}
	if family == variant.Godot4 {
		s.Settings = append(s.Settings, Setting{Key: "s/name", Value: variant.StringName(odd)})
	} else {
		// The surrogates of U+1F600, which Godot 3 holds (as on Windows).
		const pair = "\xed\xa0\xbd\xed\xb8\x80"
		s.Settings = append(s.Settings, Setting{Key: "s/surrogates", Value: variant.PackedStringArray{pair, "a" + pair}},
			Setting{Key: "s/surrogate", Value: variant.String(pair)})
	}
	return s
}

// checkEngineReadsValues compares what the engine read (read returns what
// config3.gd or config4.gd printed) of the text Text writes of
// textValues with the values themselves.
func checkEngineReadsValues(t *testing.T, family variant.Family, read func(file string) string) {
	s := textValues(family)
	text, err := s.Text()
	if err != nil {
		t.Fatal(err)
	}
	checkEngineReads(t, family, text, s, read)
}

// fileStrings is a project.godot whose strings hold what the engines'
// file readers turn into other characters: invalid UTF-8, \u escapes of
// characters from U+0080 (and a pair of them for one above U+FFFF), a
// NUL escape, UTF-8 split between a byte and an escape, CESU-8, an escape
// before a byte of a multibyte character, in Strings, StringNames,
// NodePaths and string arrays, and a NUL in a section's name.
func fileStrings(family variant.Family) string {
	array := "PackedStringArray"
	if family == variant.Godot3 {
		array = "PoolStringArray"
	}
	text := "k0=\"\\u4e2d\"\nk1=\"x\\u0000y\"\nk2=\"\\u00e9\"\nk3=\"\xc3\\u00a9\"\nk4=\"\xc3\xa9\\u0085\"\n" +
		"k5=\"\\ud83d\\ude00\"\nk6=\"\xff\"\nk7=\"q\xc3\xa9\xff\"\nk8=\"\xed\xa0\xbd\xed\xb8\x80\"\nk9=\"\\u0041\xc3\xa9\"\n" +
		"k10=NodePath(\"\xff/\xc3\xa9\")\nk11=" + array + "(\"\xff\", \"\\u00e9\xc3\xa9\")\nk12=\"\xc6\xc6\xc6\xc6\"\nk13=\"\\\xc3\xa9\"\n" +
		"[s\x00t]\nk14=\"\xef\xbb\xbfa\"\n"
	if family == variant.Godot4 {
		text += "k15=&\"\xff\\u00e9\"\n"
	}
	return text
}

// checkEngineReads compares what the engine read of text (read returns
// what config3.gd or config4.gd printed) with what ParseText reads, and
// with want when it is not nil.
func checkEngineReads(t *testing.T, family variant.Family, text string, want *Settings, read func(file string) string) {
	t.Helper()
	parsed, err := ParseText(text, family)
	if err != nil {
		t.Fatal(err)
	}
	s := parsed
	if want != nil {
		sameSettings(t, "ParseText", want, parsed)
		s = want
	}
	dec, err := variant.DecOptions{Family: family}.DecMode()
	if err != nil {
		t.Fatal(err)
	}
	out := read(text)
	seen := 0
	for _, l := range engineLines(out) {
		key, h := l[0], l[1] // the keys here have nothing c_escape changes
		// The engine's bytes of what it read, decoded (Godot 3 pads
		// strings with whatever its buffer held: bytes are not compared).
		b, err := hex.DecodeString(h)
		if err != nil {
			t.Fatal(err)
		}
		got, _, err := dec.Decode(b)
		want, ok := s.Get(key)
		if err != nil || !ok || !variant.Equal(got, want) {
			t.Errorf("the engine read %s as %#v (%v), want %#v", key, got, err, want)
		}
		seen++
	}
	if seen != len(s.Settings) || !strings.HasSuffix(strings.TrimSpace(out), "done") {
		t.Errorf("the engine read %d settings of %d from\n%s\nit printed\n%s", seen, len(s.Settings), text, out)
	}
}

// Godot 3.2.3 reads the strings of fileStrings as ParseText does.
func TestEngine3ReadsFileStrings(t *testing.T) {
	enginetest.Godot3(t)
	checkEngineReads(t, variant.Godot3, fileStrings(variant.Godot3), nil, godot3Reads(t))
}

// So does Godot 4.6, with its own rules.
func TestEngine4ReadsFileStrings(t *testing.T) {
	godot4web.Skip(t)
	checkEngineReads(t, variant.Godot4, fileStrings(variant.Godot4), nil, godot4Reads(t))
}

// Godot 3.2.3 reads the strings Text writes as they were.
func TestEngine3ReadsValues(t *testing.T) {
	enginetest.Godot3(t)
	checkEngineReadsValues(t, variant.Godot3, godot3Reads(t))
}

// So does Godot 4.6.
func TestEngine4ReadsValues(t *testing.T) {
	godot4web.Skip(t)
	checkEngineReadsValues(t, variant.Godot4, godot4Reads(t))
}
