package main

import (
	"bufio"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/gdvar/gdvar/gdjson"
	"github.com/gdvar/gdvar/gdtext"
	"github.com/gdvar/gdvar/migrate"
	"github.com/gdvar/gdvar/variant"
)

const convertUsage = `Usage: gdvar convert [--from FORMAT] --to FORMAT [--godot 3|4] [--to-godot 3|4] [--hex]
                    [--allow-objects] [--lossy] [--double] [FILE|-]

Reads one value in one format and writes it in another, and from one
engine family to the other where the value has an exact equivalent.

Formats:
  binary       var_to_bytes / bytes_to_var (raw bytes; --hex for hex text)
  text         var_to_str / str_to_var (Godot 3: var2str / str2var)
  json         JSON.stringify / JSON.parse_string: lossy (numbers become
               floats, most types become strings)
  typed-json   JSON.from_native / JSON.to_native (Godot 4.4+): every value
               with its type, lossless

Flags:
  --from FORMAT     input format (default binary)
  --to FORMAT       output format
  --godot 3|4       family of the input (default 4)
  --to-godot 3|4    family of the output (default: the input's); values
                    without an exact equivalent are an error naming their
                    place in the value
  --hex             binary input is hex text / binary output is written as
                    hex and a newline
  --allow-objects   accept full objects (as plain data; nothing runs) and
                    write them
  --lossy           towards Godot 3, turn StringName into String and typed
                    containers into untyped ones (and the like); towards
                    Godot 4, turn characters it cannot hold (unpaired
                    surrogates) into U+FFFD; with a warning each, instead
                    of refusing them
  --double          math types in double precision: written so in binary,
                    kept as 64-bit floats when read from typed JSON

Examples:
  gdvar convert --to typed-json testdata/sample/savegame.bin
  echo '{"args":[1.0,2.0],"type":"Vector2"}' | gdvar convert --from typed-json --to text
  gdvar convert --godot 3 --to-godot 4 --to binary old.bin > new.bin
`

// formats are the value formats convert, decode --to and encode --from
// know.
var formats = []string{"binary", "text", "json", "typed-json"}

// formatFlag is a flag naming a format.
type formatFlag struct {
	name    string
	allowed []string
}

func (f *formatFlag) String() string { return f.name }

func (f *formatFlag) Set(s string) error {
	for _, a := range f.allowed {
		if s == a {
			f.name = s
			return nil
		}
	}
	return fmt.Errorf("want one of %s, got %q", strings.Join(f.allowed, ", "), s)
}

// valueCodec holds what reading and writing values in the text formats
// needs.
type valueCodec struct {
	fam          variant.Family
	allowObjects bool
	double       bool
}

// format writes v as text in the given format ("text", "json" or
// "typed-json").
func (c valueCodec) format(v variant.Value, format string) (string, error) {
	switch format {
	case "json":
		return gdjson.Format(v, gdjson.Options{})
	case "typed-json":
		return gdjson.Format(v, gdjson.Options{Form: gdjson.Typed, FullObjects: true})
	}
	return gdtext.Format(v, gdtext.Options{Family: c.fam})
}

// parse reads text in the given format.
func (c valueCodec) parse(text, format string) (variant.Value, error) {
	switch format {
	case "json":
		return gdjson.Parse(text, gdjson.ParseOptions{})
	case "typed-json":
		return gdjson.Parse(text, gdjson.ParseOptions{Form: gdjson.Typed, AllowObjects: c.allowObjects, Double: c.double})
	}
	v, err := gdtext.Parse(text, gdtext.ParseOptions{Family: c.fam})
	if err != nil {
		return nil, fmt.Errorf("text: %w", err)
	}
	return v, nil
}

func runConvert(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("convert", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprint(stderr, convertUsage) }
	from := &formatFlag{"binary", formats}
	to := &formatFlag{"", formats}
	fs.Var(from, "from", "input format")
	fs.Var(to, "to", "output format")
	godot := newGodotFlag()
	fs.Var(godot, "godot", "family of the input: 3 or 4")
	toGodot := newGodotFlag()
	fs.Var(toGodot, "to-godot", "family of the output: 3 or 4")
	hexIO := fs.Bool("hex", false, "binary as hex text")
	allow := fs.Bool("allow-objects", false, "accept and write full objects")
	lossy := fs.Bool("lossy", false, "convert what only loses its type (towards Godot 4: unpaired surrogates)")
	double := fs.Bool("double", false, "double-precision math types")
	name, status, ok := parseFlags(fs, args, stderr)
	if !ok {
		if status == 0 {
			fmt.Fprint(stdout, convertUsage)
		}
		return status
	}
	if to.name == "" {
		fmt.Fprintln(stderr, "gdvar convert: --to is required (binary, text, json or typed-json)")
		return 2
	}
	inFam := godot.family()
	outFam := inFam
	if flagSet(fs, "to-godot") {
		outFam = toGodot.family()
	}
	if *double && outFam == variant.Godot3 && to.name == "binary" {
		fmt.Fprintln(stderr, "gdvar convert: Godot 3 has no double-precision encoding")
		return 2
	}
	data, err := readInput(name, stdin)
	if err != nil {
		fmt.Fprintln(stderr, "gdvar:", err)
		return 1
	}

	in := valueCodec{fam: inFam, allowObjects: *allow, double: *double}
	var v variant.Value
	if from.name == "binary" {
		if *hexIO {
			if data, err = decodeHex(data); err != nil {
				fmt.Fprintln(stderr, "gdvar: convert:", err)
				return 1
			}
		}
		dm, err := variant.DecOptions{Family: inFam, AllowObjects: *allow}.DecMode()
		if err != nil {
			fmt.Fprintln(stderr, "gdvar convert:", err)
			return 2
		}
		var n int
		if v, n, err = dm.Decode(data); err != nil {
			fmt.Fprintln(stderr, "gdvar:", err)
			if h := convertHint(data, *hexIO, inFam); h != "" {
				fmt.Fprintln(stderr, "gdvar: hint:", h)
			}
			return 1
		}
		if n < len(data) {
			fmt.Fprintf(stderr, "gdvar: note: the value ends at byte %d; %d trailing bytes ignored\n", n, len(data)-n)
		}
	} else {
		if !utf8.Valid(data) {
			fmt.Fprintf(stderr, "gdvar: convert: the %s input is not UTF-8 text\n", from.name)
			if h := binaryInputHint(data); h != "" {
				fmt.Fprintln(stderr, "gdvar: hint:", h)
			}
			return 1
		}
		if v, err = in.parse(string(data), from.name); err != nil {
			fmt.Fprintln(stderr, "gdvar: convert:", err)
			return 1
		}
	}

	if outFam != inFam {
		var warnings []migrate.Warning
		v, warnings, err = migrate.Value(v, migrate.Options{To: outFam, Lossy: *lossy})
		for _, w := range warnings {
			fmt.Fprintln(stderr, "gdvar: convert: warning:", w)
		}
		if err != nil {
			fmt.Fprintln(stderr, "gdvar: convert:", err)
			return 1
		}
	}

	out := bufio.NewWriter(stdout)
	defer out.Flush()
	if to.name == "binary" {
		eo := variant.EncOptions{Family: outFam, FullObjects: *allow}
		if *double {
			eo.Precision = variant.Double
		}
		em, err := eo.EncMode()
		if err != nil {
			fmt.Fprintln(stderr, "gdvar convert:", err)
			return 2
		}
		b, err := em.Encode(v)
		if err != nil {
			fmt.Fprintln(stderr, "gdvar:", explainObjects(err, "--allow-objects"))
			return 1
		}
		if *hexIO {
			fmt.Fprintln(out, hex.EncodeToString(b))
		} else {
			out.Write(b)
		}
		return 0
	}
	text, err := valueCodec{fam: outFam}.format(v, to.name)
	if err != nil {
		fmt.Fprintln(stderr, "gdvar: convert:", err)
		return 1
	}
	fmt.Fprintln(out, text)
	return 0
}

// flagSet reports whether the flag was given on the command line.
func flagSet(fs *flag.FlagSet, name string) bool {
	set := false
	fs.Visit(func(f *flag.Flag) { set = set || f.Name == name })
	return set
}

// explainObjects adds the flag that allows full objects to an error about
// them.
func explainObjects(err error, flagName string) error {
	if errors.Is(err, variant.ErrObjectsNotAllowed) {
		return fmt.Errorf("%w (use %s)", err, flagName)
	}
	return err
}
