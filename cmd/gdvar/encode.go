package main

import (
	"bufio"
	"bytes"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"io"

	"github.com/gdvar/gdvar/gdfile"
	"github.com/gdvar/gdvar/gdtext"
	"github.com/gdvar/gdvar/variant"
)

const encodeUsage = `Usage: gdvar encode [--godot 3|4] [--hex | --base64] [--lines | --file]
                   [--container KIND] [--password P | --key HEX]
                   [--full-objects] [--double] [--from text|json|typed-json]
                   [FILE|-]

Reads one value in the family's text form (str_to_var syntax for Godot 4,
str2var for Godot 3) from FILE or standard input and writes its encoding,
byte for byte what var_to_bytes writes.

With --file it writes a save file instead, as FileAccess.store_var
(Godot 3: File.store_var) writes it: every input line is one value (blank
lines are skipped), each written after its 4-byte length, back to back.
"gdvar decode" prints a save file in that form (the values, not their
container: give --container or --password again to keep it).
--container puts the file into the container open_compressed or
open_encrypted writes.

Output goes to standard output: raw bytes (not to a terminal: redirect it
to a file), or text with --hex or --base64.

Flags:
  --godot 3|4|4.N   engine family (default 4); a 4.x version refuses what
                    that version cannot read (4.2: no typed Arrays, no
                    PackedVector4Array; 4.3: no typed Dictionaries)
  --hex             write lowercase hex and a newline instead of raw bytes
  --base64          write base64 and a newline, as Marshalls.variant_to_base64
                    (and raw_to_base64) do: standard alphabet, padded
  --lines           every input line is one value; one output line of hex
                    (or base64) per input line, or ERROR and the reason.
                    Exit status 1 if any line failed.
  --file            write a save file: the values of the input lines, each
                    as store_var writes it
  --container KIND  the save file's container: plain (the default);
                    encrypted, as open_encrypted writes it (needs
                    --password or --key); or fastlz, deflate, zstd or gzip,
                    compressed with that mode as open_compressed writes it.
                    Implies --file.
  --password P      encrypt the save file with this password, as
                    open_encrypted_with_pass does. Implies --file and
                    --container encrypted.
  --key HEX         encrypt it with this key instead: 64 hex digits
                    (open_encrypted)
  --full-objects    write Object(...) values in full, like
                    var_to_bytes_with_objects (store_var(value, true))
  --double          write math types in double precision, as engines built
                    with precision=double do (Godot 4 only)
  --from FORMAT     read values as text (the default), json
                    (JSON.parse_string: numbers are floats) or typed-json
                    (JSON.to_native)

Examples:
  echo 'Vector2(1, 2)' | gdvar encode --hex
  echo 'Vector2(1, 2)' | gdvar encode --base64
  echo '{"name": "player1", "hp": 99.5}' | gdvar encode > player.bin
  gdvar decode user.sav > user.txt; gdvar encode --file user.txt > user.sav
  gdvar encode --file --container zstd values.txt > save.dat
  gdvar encode --file --password "my secret" values.txt > secret.sav
  gdvar encode --godot 3 --lines --hex values.txt

Errors name the line and column of bad text, or the place in the value that
cannot be encoded.
`

// containerNames are the values of --container.
var containerNames = []string{"plain", "encrypted", "fastlz", "deflate", "zstd", "gzip"}

// parseContainer turns a --container name into the container gdfile
// writes: "plain", "encrypted" (in the layout of family fam) or a
// compression mode.
func parseContainer(name string, fam variant.Family) (gdfile.Container, error) {
	switch name {
	case "plain":
		return gdfile.Container{Format: gdfile.Plain}, nil
	case "encrypted":
		return gdfile.Container{Format: gdfile.Encrypted, Family: fam}, nil
	}
	mode, ok := gdfile.ParseCompression(name)
	if !ok || mode == gdfile.Brotli {
		return gdfile.Container{}, fmt.Errorf("unknown container %q", name)
	}
	return gdfile.Container{Format: gdfile.Compressed, Compression: mode, BlockSize: gdfile.DefaultBlockSize}, nil
}

func runEncode(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("encode", flag.ContinueOnError)
	godot := newGodotFlag()
	fs.Var(godot, "godot", "engine family: 3 or 4, or a 4.x version")
	hexOut := fs.Bool("hex", false, "write hex")
	b64Out := fs.Bool("base64", false, "write base64")
	lines := fs.Bool("lines", false, "one value per line")
	asFile := fs.Bool("file", false, "write a save file")
	container := &formatFlag{"plain", containerNames}
	fs.Var(container, "container", "container of the save file")
	password := fs.String("password", "", "password to encrypt the save file with")
	keyHex := fs.String("key", "", "key to encrypt the save file with, 64 hex digits")
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
	bad := func(err error) int {
		usageError(stderr, "encode", err)
		return 2
	}
	if *hexOut && *b64Out {
		return bad(errors.New("--hex or --base64, not both"))
	}
	key, err := keyFromFlags(*password, *keyHex, flagSet(fs, "password"))
	if err != nil {
		return bad(err)
	}
	file := *asFile || flagSet(fs, "container") || key != nil
	if file && *lines {
		return bad(errors.New("--lines writes one value a line; --file, --container, --password and --key write a save file: not both"))
	}
	if key != nil && !flagSet(fs, "container") {
		container.name = "encrypted"
	}
	switch {
	case container.name == "encrypted" && key == nil:
		return bad(errors.New("--container encrypted needs --password or --key"))
	case container.name != "encrypted" && key != nil:
		return bad(fmt.Errorf("--password and --key encrypt: they go with --container encrypted, not %s", container.name))
	}
	opts := variant.EncOptions{Family: godot.family(), Version: godot.encVersion(), FullObjects: *full}
	if *double {
		opts.Precision = variant.Double
	}
	em, err := opts.EncMode()
	if err != nil {
		return bad(err)
	}
	textual := *hexOut || *b64Out || *lines
	if !textual && isTerminal(stdout) {
		return bad(errors.New("not writing binary to a terminal: redirect the output to a file (> out.bin), or give --hex or --base64"))
	}
	textIn := valueCodec{fam: godot.family(), allowObjects: *full, double: *double}
	noteTerminalInput(name, stdin, stderr)
	data, err := readInput(name, stdin)
	if err != nil {
		fmt.Fprintln(stderr, "gdvar:", err)
		return 1
	}
	out := bufio.NewWriter(stdout)
	defer out.Flush()
	write := func(b []byte) {
		switch {
		case *hexOut:
			fmt.Fprintln(out, hex.EncodeToString(b))
		case *b64Out:
			fmt.Fprintln(out, base64Text(b))
		default:
			out.Write(b)
		}
	}

	parse := func(text string) (variant.Value, error) {
		v, err := textIn.parse(text, from.name)
		if err != nil {
			return nil, fmt.Errorf("encode: %w", err)
		}
		return v, nil
	}

	switch {
	case file:
		c, err := parseContainer(container.name, godot.family())
		if err != nil {
			return bad(err)
		}
		f := &gdfile.File{Container: c, Godot: godot.family()}
		for i, line := range splitLines(data) {
			if len(bytes.TrimSpace(line)) == 0 {
				continue
			}
			v, err := parse(string(line))
			if err != nil {
				// Count lines in the whole input.
				if se := (*gdtext.SyntaxError)(nil); errors.As(err, &se) {
					se.Line += i
					err = fmt.Errorf("encode: text: %w", se)
				} else {
					err = fmt.Errorf("input line %d: %w", i+1, err)
				}
				fmt.Fprintln(stderr, "gdvar:", err)
				if h := binaryInputHint(data); h != "" {
					fmt.Fprintln(stderr, "gdvar: hint:", h)
				}
				return 1
			}
			f.Values = append(f.Values, v)
		}
		b, err := f.Encode(gdfile.Options{Key: key, Enc: opts})
		if err != nil {
			fmt.Fprintln(stderr, "gdvar: encode:", explainObjects(err, "--full-objects"))
			return 1
		}
		write(b)
		return 0

	case *lines:
		failed := false
		for _, line := range splitLines(data) {
			v, err := parse(string(line))
			var b []byte
			if err == nil {
				b, err = em.Encode(v)
			}
			if err != nil {
				failed = true
				fmt.Fprintln(out, "ERROR", explainObjects(err, "--full-objects"))
				continue
			}
			if *b64Out {
				fmt.Fprintln(out, base64Text(b))
			} else {
				fmt.Fprintln(out, hex.EncodeToString(b))
			}
		}
		if failed {
			return 1
		}
		return 0
	}

	v, err := parse(string(data))
	var b []byte
	if err == nil {
		b, err = em.Encode(v)
	}
	if err != nil {
		fmt.Fprintln(stderr, "gdvar:", explainObjects(err, "--full-objects"))
		if h := binaryInputHint(data); h != "" {
			fmt.Fprintln(stderr, "gdvar: hint:", h)
			return 1
		}
		// Several values, one a line, as decode prints a save file?
		if lines := splitLines(data); len(lines) > 1 {
			if _, err := parse(string(lines[0])); err == nil {
				fmt.Fprintln(stderr, "gdvar: hint: the input holds one value a line: --file writes them as a save file, --lines writes each")
			}
		}
		return 1
	}
	write(b)
	return 0
}
