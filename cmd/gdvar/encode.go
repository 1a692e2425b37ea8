package main

import (
	"bufio"
	"encoding/hex"
	"flag"
	"fmt"
	"io"

	"github.com/gdvar/gdvar/variant"
)

const encodeUsage = `Usage: gdvar encode [--godot 3|4] [--hex] [--lines] [--full-objects] [--double]
                   [--from text|json|typed-json] [FILE|-]

Reads one value in the family's text form (str_to_var syntax for Godot 4,
str2var for Godot 3) from FILE or standard input and writes its encoding,
byte for byte what var_to_bytes writes.

Flags:
  --godot 3|4|4.N   engine family (default 4); a 4.x version refuses what
                    that version cannot read (4.2: no typed Arrays, no
                    PackedVector4Array; 4.3: no typed Dictionaries)
  --hex             write lowercase hex and a newline instead of raw bytes
  --lines           every input line is one value; one output line of hex
                    per input line, or ERROR and the reason. Exit status 1
                    if any line failed.
  --full-objects    write Object(...) values in full, like
                    var_to_bytes_with_objects
  --double          write math types in double precision, as engines built
                    with precision=double do (Godot 4 only)
  --from FORMAT     read the value as text (the default), json
                    (JSON.parse_string: numbers are floats) or typed-json
                    (JSON.to_native)

Examples:
  echo 'Vector2(1, 2)' | gdvar encode --hex
  echo '{"name": "player1", "hp": 99.5}' | gdvar encode > player.bin
  gdvar encode --godot 3 --lines --hex values.txt

Errors name the line and column of bad text, or the place in the value that
cannot be encoded.
`

func runEncode(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("encode", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprint(stderr, encodeUsage) }
	godot := newGodotFlag()
	fs.Var(godot, "godot", "engine family: 3 or 4, or a 4.x version")
	hexOut := fs.Bool("hex", false, "write hex")
	lines := fs.Bool("lines", false, "one value per line")
	full := fs.Bool("full-objects", false, "write objects in full")
	double := fs.Bool("double", false, "double-precision math types")
	from := &formatFlag{"text", []string{"text", "json", "typed-json"}}
	fs.Var(from, "from", "input format: text, json or typed-json")
	name, status, ok := parseFlags(fs, args, stderr)
	if !ok {
		if status == 0 {
			fmt.Fprint(stdout, encodeUsage)
		}
		return status
	}
	opts := variant.EncOptions{Family: godot.family(), Version: godot.encVersion(), FullObjects: *full}
	if *double {
		opts.Precision = variant.Double
	}
	em, err := opts.EncMode()
	if err != nil {
		fmt.Fprintln(stderr, "gdvar encode:", err)
		return 2
	}
	textIn := valueCodec{fam: godot.family(), allowObjects: *full, double: *double}
	data, err := readInput(name, stdin)
	if err != nil {
		fmt.Fprintln(stderr, "gdvar:", err)
		return 1
	}
	out := bufio.NewWriter(stdout)
	defer out.Flush()

	encodeOne := func(text string) ([]byte, error) {
		v, err := textIn.parse(text, from.name)
		if err != nil {
			return nil, fmt.Errorf("encode: %w", err)
		}
		return em.Encode(v)
	}

	if !*lines {
		b, err := encodeOne(string(data))
		if err != nil {
			fmt.Fprintln(stderr, "gdvar:", err)
			return 1
		}
		if *hexOut {
			fmt.Fprintln(out, hex.EncodeToString(b))
		} else {
			out.Write(b)
		}
		return 0
	}

	failed := false
	for _, line := range splitLines(data) {
		b, err := encodeOne(string(line))
		if err != nil {
			failed = true
			fmt.Fprintln(out, "ERROR", err)
			continue
		}
		fmt.Fprintln(out, hex.EncodeToString(b))
	}
	if failed {
		return 1
	}
	return 0
}
