package main

import (
	"bufio"
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"strconv"

	"github.com/gdvar/gdvar/variant"
)

const decodeUsage = `Usage: gdvar decode [--godot 3|4] [--hex] [--lines] [--allow-objects]
                   [--classes LIST] [--strict] [--to text|json|typed-json] [FILE|-]

Reads one encoded Variant (what var_to_bytes, store_var and put_var write,
without any length prefix) from FILE or standard input and prints it in the
family's text form (var_to_str for Godot 4, var2str for Godot 3). Bytes after
the value are ignored, as the engine ignores them; a note on standard error
says how many.

Flags:
  --godot 3|4       engine family that wrote the data (default 4)
  --hex             the input is hex text; whitespace is ignored
  --lines           every input line is one hex-encoded value (implies
                    --hex); one output line per input line: the value, or
                    ERROR and the reason. Exit status 1 if any line failed.
  --allow-objects   accept full Objects (class and properties, as plain data;
                    nothing is instantiated), like bytes_to_var_with_objects
` + classesUsage + `
  --strict          accept only the exact bytes the engine itself writes:
                    refuse what it merely tolerates (trailing bytes, non-zero
                    padding, header bits it does not define, a wider int or
                    float than needed, …)
  --to FORMAT       print the value as text (the default), json
                    (JSON.stringify: lossy) or typed-json (JSON.from_native:
                    lossless)

Examples:
  gdvar decode testdata/sample/savegame.bin
  echo 050000000000803f00000040 | gdvar decode --hex
  gdvar decode --godot 3 --lines --hex packets.txt

Errors name the byte offset, the place in the value and the Variant type:
  gdvar: decode: byte 12, [1] (Vector2): data truncated: need 8 bytes, have 4
`

func runDecode(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("decode", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprint(stderr, decodeUsage) }
	godot := newGodotFlag()
	fs.Var(godot, "godot", "engine family: 3 or 4")
	hexIn := fs.Bool("hex", false, "input is hex text")
	lines := fs.Bool("lines", false, "one hex value per line")
	allow := fs.Bool("allow-objects", false, "accept full objects")
	strict := fs.Bool("strict", false, "accept only canonical encodings")
	classes := fs.String("classes", "", "classes full objects may have: engine or a file")
	to := &formatFlag{"text", []string{"text", "json", "typed-json"}}
	fs.Var(to, "to", "output format: text, json or typed-json")
	name, status, ok := parseFlags(fs, args, stderr)
	if !ok {
		if status == 0 {
			fmt.Fprint(stdout, decodeUsage)
		}
		return status
	}
	allowed, err := classList(*classes, godot.family())
	if err != nil {
		fmt.Fprintln(stderr, "gdvar decode:", err)
		return 2
	}
	dm, err := variant.DecOptions{Family: godot.family(), AllowObjects: *allow, Classes: allowed, Strict: *strict}.DecMode()
	if err != nil {
		fmt.Fprintln(stderr, "gdvar decode:", err)
		return 2
	}
	textOut := valueCodec{fam: godot.family()}
	data, err := readInput(name, stdin)
	if err != nil {
		fmt.Fprintln(stderr, "gdvar:", err)
		return 1
	}
	out := bufio.NewWriter(stdout)
	defer out.Flush()

	decodeOne := func(b []byte) (string, int, error) {
		v, n, err := dm.Decode(b)
		if err != nil {
			return "", 0, err
		}
		text, err := textOut.format(v, to.name)
		return text, n, err
	}

	if !*lines {
		if *hexIn {
			if data, err = decodeHex(data); err != nil {
				fmt.Fprintln(stderr, "gdvar: decode:", err)
				return 1
			}
		}
		text, n, err := decodeOne(data)
		if err != nil {
			fmt.Fprintln(stderr, "gdvar:", err)
			return 1
		}
		fmt.Fprintln(out, text)
		if n < len(data) {
			fmt.Fprintf(stderr, "gdvar: note: the value ends at byte %d; %d trailing bytes ignored\n", n, len(data)-n)
		}
		return 0
	}

	failed := false
	for _, line := range splitLines(data) {
		b, err := decodeHex(line)
		if err != nil {
			failed = true
			fmt.Fprintln(out, "ERROR", err)
			continue
		}
		text, _, err := decodeOne(b)
		if err != nil {
			failed = true
			fmt.Fprintln(out, "ERROR", err)
			continue
		}
		fmt.Fprintln(out, text)
	}
	if failed {
		return 1
	}
	return 0
}

// splitLines splits input into lines without their line endings; a final
// line ending does not start another line.
func splitLines(data []byte) [][]byte {
	if len(data) == 0 {
		return nil
	}
	data = bytes.TrimSuffix(data, []byte("\n"))
	lines := bytes.Split(data, []byte("\n"))
	for i, l := range lines {
		lines[i] = bytes.TrimSuffix(l, []byte("\r"))
	}
	return lines
}

// decodeHex decodes hex text, ignoring whitespace; errors name the
// position of the offending character.
func decodeHex(text []byte) ([]byte, error) {
	out := make([]byte, 0, len(text)/2)
	var hi byte
	half := false
	for i, c := range text {
		var v byte
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			continue
		case c >= '0' && c <= '9':
			v = c - '0'
		case c >= 'a' && c <= 'f':
			v = c - 'a' + 10
		case c >= 'A' && c <= 'F':
			v = c - 'A' + 10
		default:
			return nil, fmt.Errorf("hex input: character %s at position %d is not a hex digit", strconv.QuoteRune(rune(c)), i)
		}
		if half {
			out = append(out, hi<<4|v)
		} else {
			hi = v
		}
		half = !half
	}
	if half {
		return nil, errors.New("hex input: odd number of hex digits")
	}
	if len(out) == 0 {
		return nil, errors.New("hex input: empty")
	}
	return out, nil
}
