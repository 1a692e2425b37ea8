package main

import (
	"bufio"
	"encoding/base64"
	"encoding/hex"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/gdvar/gdvar/internal/filefixture"
	"github.com/gdvar/gdvar/variant"
)

// fixtureArgs are the flags that open a fixture as the engine wrote it.
func fixtureArgs(fx filefixture.Fixture) []string {
	var args []string
	switch fx.How {
	case "password":
		args = append(args, "--password", filefixture.Password)
	case "key":
		k := filefixture.Key()
		args = append(args, "--key", hex.EncodeToString(k[:]))
	}
	if fx.Objects {
		args = append(args, "--allow-objects")
	}
	return args
}

// texts formats values as decode prints them.
func texts(t *testing.T, fam variant.Family, values []variant.Value) string {
	t.Helper()
	var sb strings.Builder
	for _, v := range values {
		s, err := valueCodec{fam: fam}.format(v, "text")
		if err != nil {
			t.Fatal(err)
		}
		sb.WriteString(s + "\n")
	}
	return sb.String()
}

// gdvar decode FILE prints every value of every file the engines wrote
// with store_var, plain, encrypted and compressed, one a line, in the
// text form of the family it finds out; as raw bytes, hex and base64.
func TestDecodeSaveFiles(t *testing.T) {
	for _, fam := range []variant.Family{variant.Godot4, variant.Godot3} {
		for _, fx := range filefixture.Load(t, fam) {
			path := filepath.Join(fx.Dir, fx.File)
			want := texts(t, fam, fx.EngineValues(t))
			args := append([]string{"decode", path}, fixtureArgs(fx)...)
			status, out, stderr := gdvarProgram(t, "", args...)
			if status != 0 || stderr != "" || out != want {
				t.Errorf("%v %s: status %d, stderr %q, %d lines (want %d)", fam, fx.File, status, stderr,
					strings.Count(out, "\n"), len(fx.Values))
				continue
			}
			data := fx.Data(t)
			status, out, _ = gdvarProgram(t, hex.EncodeToString(data), append(args[:1:1], append([]string{"--hex"}, args[2:]...)...)...)
			if status != 0 || out != want {
				t.Errorf("%v %s --hex: status %d", fam, fx.File, status)
			}
			status, out, _ = gdvarProgram(t, base64.StdEncoding.EncodeToString(data), append(args[:1:1], append([]string{"--base64"}, args[2:]...)...)...)
			if status != 0 || out != want {
				t.Errorf("%v %s --base64: status %d", fam, fx.File, status)
			}
			// Said outright, as the family the engine wrote.
			status, out, stderr = gdvarProgram(t, "", append(args, "--file", "--godot", strconv.Itoa(int(fam)))...)
			if status != 0 || out != want || stderr != "" {
				t.Errorf("%v %s --file --godot: status %d, %q", fam, fx.File, status, stderr)
			}
		}
	}
	// The program itself, as a new user runs it first.
	g4 := filepath.Join(filefixture.Root(), "godot4")
	status, out, stderr := gdvarBuilt(t, "", "decode", "--password", filefixture.Password, filepath.Join(g4, "encrypted-password.sav"))
	if lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n"); status != 0 || stderr != "" || len(lines) != 9 ||
		!strings.HasPrefix(lines[0], `{ "version": 4, "player": { "name": "Ada Lovelace"`) || lines[1] != "42" || lines[2] != `"hello"` {
		t.Errorf("built gdvar decode --password: status %d, stderr %q, stdout %q", status, stderr, out)
	}
}

// When the bytes are not what decode was told or guessed, it says what
// they look like instead.
func TestDecodeSaysWhatTheInputLooksLike(t *testing.T) {
	g3 := filepath.Join(filefixture.Root(), "godot3")
	g4 := filepath.Join(filefixture.Root(), "godot4")
	many, err := os.ReadFile(filepath.Join(g4, "plain-many.sav"))
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name   string
		args   []string
		stdin  string
		status int
		stderr []string // each must be in stderr
	}{
		{"encrypted, no password", []string{"decode", filepath.Join(g4, "encrypted-key.sav")}, "", 1,
			[]string{"gdvar: decode: the input is an encrypted file (GDEC): give --password or --key\n"}},
		{"wrong password", []string{"decode", "--password", "nope", filepath.Join(g3, "encrypted-password.sav")}, "", 1,
			[]string{"wrong password or key"}},
		{"password, plain file", []string{"decode", "--password", "x", filepath.Join(g4, "plain-one.sav")}, "", 2,
			[]string{"gdvar decode: --password and --key decrypt encrypted files (GDEC), but the input is not encrypted (no GDEC header)\nRun 'gdvar decode --help' for usage.\n"}},
		{"key, compressed file", []string{"decode", "--key", strings.Repeat("00", 32), filepath.Join(g3, "compressed-zstd.sav")}, "", 2,
			[]string{"but the input is a compressed file (GCPF)"}},
		{"password, one value", []string{"decode", "--password", "x", "../../testdata/sample/savegame.bin"}, "", 2,
			[]string{"the input is not encrypted"}},
		{"--value, a save file", []string{"decode", "--value", filepath.Join(g4, "plain-one.sav")}, "", 1,
			[]string{"invalid Variant type", "\ngdvar: hint: this looks like a save file (1 value, store_var): try without --value\n"}},
		{"--value, encrypted", []string{"decode", "--value", filepath.Join(g4, "encrypted-key.sav")}, "", 1,
			[]string{"gdvar: hint: this looks like an encrypted file (GDEC): try without --value, with --password or --key\n"}},
		{"--value, compressed", []string{"decode", "--value", filepath.Join(g4, "compressed-gzip.sav")}, "", 1,
			[]string{"gdvar: hint: this looks like a compressed file (GCPF): try without --value\n"}},
		{"--file, one value", []string{"decode", "--file", "../../testdata/sample/savegame.bin"}, "", 1,
			[]string{"gdvar: hint: this is one value, not a save file: try without --file\n"}},
		{"--godot 3, a Godot 4 file", []string{"decode", "--godot", "3", filepath.Join(g4, "plain-one.sav")}, "", 1,
			[]string{"gdvar: hint: this reads as a Godot 4 file: try --godot 4, or leave --godot out\n"}},
		{"cut short", []string{"decode", "-"}, string(many[:1000]), 1,
			[]string{"gdvar: hint: this looks like a save file (store_var) cut short: gdfile: value 0 at byte 0: not a sequence of store_var values: its length prefix announces"}},
		{"cut short after whole values", []string{"decode", "-"}, string(many[:len(many)-3]), 1,
			[]string{"gdvar: hint: this looks like a save file (store_var) cut short after 8 whole values: gdfile: value 8"}},
		{"a Godot 3 value", []string{"decode", "--hex"}, "12000000 01000000 04000000 01000000 61000000 02000000 01000000", 1,
			[]string{"gdvar: hint: this decodes as Godot 3: try --godot 3\n"}},
		{"hex, no --hex", []string{"decode"}, "0500 0000 0000 803f 0000 0040\n", 1,
			[]string{"gdvar: hint: this looks like hex text: try --hex\n"}},
		{"base64, no --base64", []string{"decode"}, "BQAAAAAAgD8AAABA\n", 1,
			[]string{"gdvar: hint: this looks like base64 text: try --base64\n"}},
		{"base64, --hex", []string{"decode", "--hex"}, "BQAAAAAAgD8AAABA\n", 1,
			[]string{"gdvar: decode: hex input: character 'Q' at position 1 is not a hex digit\n", "gdvar: hint: this looks like base64 text: try --base64 instead of --hex\n"}},
		{"hex, --base64", []string{"decode", "--base64"}, "050000000000803f00000040\n", 1,
			[]string{"gdvar: hint: this looks like hex text: try --hex instead of --base64\n"}},
		{"text form", []string{"decode"}, "Vector2(1, 2)\n", 1,
			[]string{"gdvar: hint: this is a value in Godot's text form: gdvar encode turns text into bytes\n"}},
		{"other text, --value", []string{"decode", "--value", "../../README.md"}, "", 1,
			[]string{"gdvar: hint: this is text, not Godot's binary format (what var_to_bytes, store_var and put_var write); for hex or base64 text give --hex or --base64\n"}},
		{"other text", []string{"decode"}, "# My notes\n\nsome text\n", 1,
			[]string{"gdvar: hint: this is text, not Godot's binary format"}},
		{"migrate, one value", []string{"migrate", "../../testdata/sample/savegame.bin", filepath.Join(t.TempDir(), "out.sav")}, "", 1,
			[]string{"gdvar: hint: this is one Godot 4 value (var_to_bytes, put_var) already, not a save file of store_var values: there is nothing to migrate (gdvar decode prints it)\n"}},
		{"migrate, one Godot 3 value", []string{"migrate", "-", filepath.Join(t.TempDir(), "out.sav")}, "\x12\x00\x00\x00\x01\x00\x00\x00\x04\x00\x00\x00\x01\x00\x00\x00a\x00\x00\x00\x02\x00\x00\x00\x01\x00\x00\x00", 1,
			[]string{"gdvar: hint: this is one Godot 3 value (var_to_bytes, put_var), not a save file of store_var values: gdvar convert --godot 3 --to-godot 4 --to binary converts one value\n"}},
		{"migrate, text", []string{"migrate", "../../README.md", filepath.Join(t.TempDir(), "out.sav")}, "", 1,
			[]string{"gdvar: hint: this is text, not Godot's binary format (what var_to_bytes, store_var and put_var write)\n"}},
		{"objects", []string{"decode", filepath.Join(g4, "objects.sav")}, "", 1,
			[]string{"full objects not allowed", "(use --allow-objects)\n"}},
		{"empty", []string{"decode"}, "", 1, []string{"gdvar: decode: the input is empty\n"}},
		{"--hex and --base64", []string{"decode", "--hex", "--base64"}, "", 2, []string{"--hex or --base64, not both"}},
		{"--value and --file", []string{"decode", "--value", "--file"}, "", 2, []string{"--value, --file or --lines, one at most"}},
		{"--lines and --password", []string{"decode", "--lines", "--password", "x"}, "", 2, []string{"not with --value or --lines"}},
	}
	for _, c := range cases {
		status, out, stderr := gdvar(t, c.stdin, c.args...)
		ok := status == c.status && out == ""
		for _, s := range c.stderr {
			ok = ok && strings.Contains(stderr, s)
		}
		if !ok {
			t.Errorf("%s: status %d (want %d), stdout %q, stderr %q", c.name, status, c.status, out, stderr)
		}
	}
	// inspect dumps the fields up to the bad one, then the hint.
	if status, out, stderr := gdvar(t, "", "inspect", "../../README.md"); status != 1 || !strings.Contains(out, "error: decode") ||
		stderr != "gdvar: hint: this is text, not Godot's binary format (what var_to_bytes, store_var and put_var write); for hex text give --hex\n" {
		t.Errorf("inspect of text: status %d, stderr %q", status, stderr)
	}
	// A value that decodes with bytes left over, and exactly in the other
	// family; a file that reads in the family given, and exactly in the
	// other: the output, a note, and a hint.
	status, out, stderr := gdvar(t, "0a0000000000803f000000400000404000008040", "decode", "--hex")
	if status != 0 || out != "Vector3i(1065353216, 1073741824, 1077936128)\n" ||
		stderr != "gdvar: note: the value ends at byte 16; 4 trailing bytes ignored\n"+
			"gdvar: hint: this decodes exactly as Godot 3, without trailing bytes: try --godot 3\n" {
		t.Errorf("trailing bytes: %d %q %q", status, out, stderr)
	}
	status, out, stderr = gdvar(t, "", "decode", "--godot", "4", filepath.Join(g3, "plain-one.sav"))
	if status != 0 || !strings.HasPrefix(out, "Transform3D(") ||
		stderr != "gdvar: hint: this file reads exactly as Godot 3 (every value fills its store_var frame): try --godot 3, or leave --godot out\n" {
		t.Errorf("--godot 4 on a Godot 3 file: %d %q %q", status, out, stderr)
	}
	// --lines: the hint on the line.
	status, out, _ = gdvar(t, "0200000001000000\n12000000 01000000 04000000 01000000 61000000 02000000 01000000\n", "decode", "--lines")
	if status != 1 || !strings.HasPrefix(out, "1\nERROR decode: byte 0 (Transform3D): data truncated") ||
		!strings.HasSuffix(out, " (this decodes as Godot 3: try --godot 3)\n") {
		t.Errorf("--lines hint: %d %q", status, out)
	}
}

// Base64 as Godot's Marshalls writes it (testdata/base64: the engines'
// own output): decode --base64 reads it as the value its var_to_bytes
// holds, encode --base64 writes the very same text, and whatever
// base64_to_variant reads, decode --base64 reads too.
func TestBase64Golden(t *testing.T) {
	for _, fam := range []string{"4", "3"} {
		f, err := os.Open("testdata/base64/godot" + fam + ".txt")
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(f)
		sc.Buffer(nil, 1<<20)
		n := 0
		b64s := map[string]string{} // var_to_bytes hex → variant_to_base64
		for sc.Scan() {
			fields := strings.Split(sc.Text(), "\t")
			switch fields[0] {
			case "variant", "raw":
				n++
				hexText, b64 := fields[2], fields[3]
				if prev, ok := b64s[hexText]; ok && prev != b64 {
					t.Errorf("godot %s: raw_to_base64 and variant_to_base64 differ: %s %s", fam, prev, b64)
				}
				b64s[hexText] = b64
				if raw, _ := hex.DecodeString(hexText); base64.StdEncoding.EncodeToString(raw) != b64 {
					t.Errorf("godot %s: %s is not the standard padded base64 of %s", fam, b64, hexText)
				}
				_, want, _ := gdvarProgram(t, hexText, "decode", "--godot", fam, "--hex")
				status, text, stderr := gdvarProgram(t, b64, "decode", "--godot", fam, "--base64")
				if status != 0 || text != want || want == "" {
					t.Errorf("godot %s: decode --base64 %s: status %d, %q, stderr %q; want %q", fam, b64, status, text, stderr, want)
					continue
				}
				status, out, stderr := gdvarProgram(t, text, "encode", "--godot", fam, "--base64")
				if status != 0 || out != b64+"\n" {
					t.Errorf("godot %s: encode --base64 %s: status %d, %q, stderr %q; want %s", fam, text, status, out, stderr, b64)
				}
			case "read":
				s, err := strconv.Unquote(`"` + fields[1] + `"`)
				if err != nil {
					t.Fatal(err)
				}
				if fields[2] == "-1" {
					continue // refused by the engine; gdvar is more lenient
				}
				if status, _, stderr := gdvarProgram(t, s, "decode", "--godot", fam, "--base64"); status != 0 {
					t.Errorf("godot %s: base64_to_variant reads %q, decode --base64 does not: %s", fam, s, stderr)
				}
			}
		}
		f.Close()
		if n < 10 {
			t.Errorf("godot %s: only %d base64 lines", fam, n)
		}
	}
	// One value a line.
	status, out, _ := gdvarProgram(t, "AgAAAAEAAAA=\nBQAAAAAAgD8AAABA\n!!\n", "decode", "--base64", "--lines")
	if status != 1 || out != "1\nVector2(1, 2)\nERROR base64 input: character '!' at position 0 is not base64\n" {
		t.Errorf("--base64 --lines: %d %q", status, out)
	}
	status, out, _ = gdvarProgram(t, "Vector2(1, 2)\n1\n", "encode", "--base64", "--lines")
	if status != 0 || out != "BQAAAAAAgD8AAABA\nAgAAAAEAAAA=\n" {
		t.Errorf("encode --base64 --lines: %d %q", status, out)
	}
}

func TestDecodeBase64(t *testing.T) {
	for _, c := range []struct {
		in, want, err string
	}{
		{"AgAAAAEAAAA=", "0200000001000000", ""},
		{"AgAAAAEAAAA", "0200000001000000", ""},
		{" AgAA\r\nAAEA AAA=\n", "0200000001000000", ""},
		{"-_8=", "fbff", ""},
		{"+/8=", "fbff", ""},
		{"+_8=", "", "mixes the standard (+/) and URL-safe (-_) alphabets"},
		{"AgA=AAEAAAA=", "", "character 'A' at position 4 follows the padding"},
		{"AgAAA", "", "cut short: 5 characters are not a whole number of bytes"},
		{"Ag.A", "", "character '.' at position 2 is not base64"},
		{" \n", "", "empty"},
	} {
		b, err := decodeBase64([]byte(c.in))
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("%q: %v, want %q", c.in, err, c.err)
			}
			continue
		}
		if err != nil || hex.EncodeToString(b) != c.want {
			t.Errorf("%q: %x %v, want %s", c.in, b, err, c.want)
		}
	}
}
