package main

import (
	"cmp"
	"errors"
	"flag"
	"fmt"
	"io"

	"github.com/gdvar/gdvar/gdfile"
	"github.com/gdvar/gdvar/inspect"
	"github.com/gdvar/gdvar/variant"
)

const inspectUsage = `Usage: gdvar inspect [--godot 3|4] [--value | --file] [--hex] [--allow-objects]
                    [--password P | --key HEX] [--all] [--max-size N] [FILE|-]

Prints encoded data field by field: offset, raw bytes, field (nested values
indented) and meaning. It reads a raw value (var_to_bytes, a PacketPeer
packet), a file of store_var values, or an encrypted or compressed file,
whose container fields it shows before its contents.

On malformed data it shows every field up to the bad one and ends with
what is wrong there, as "gdvar decode" (and the engine) would refuse it;
the exit status is then 1.

Flags:
  --godot 3|4       engine family of the data (default: 4 for a value;
                    found out for a file)
  --value           the input is one raw value, without a length prefix
  --file            the input is a store_var file (default: a file when it
                    starts with GDEC or GCPF or splits into store_var
                    values, a value otherwise)
  --hex             the input is hex text; whitespace is ignored
  --allow-objects   accept full objects, as decode --allow-objects
  --password P      the password of an encrypted file
  --key HEX         its key instead: 64 hex digits
  --all             a row for every element of packed arrays (default: the
                    first 8, then one row for the rest)
  --max-size N      the most data a file may hold once decrypted or
                    decompressed, in bytes or with K, M or G (default 16M)

The rows are written as they are found: memory does not grow with their
number.

Examples:
  gdvar inspect testdata/sample/savegame.bin
  echo 1c000000 02000000 02000000 01000000 05000000 0000803f | gdvar inspect --hex
  gdvar inspect --password secret user.sav
`

func runInspect(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("inspect", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprint(stderr, inspectUsage) }
	godot := newGodotFlag()
	fs.Var(godot, "godot", "engine family: 3 or 4")
	asValue := fs.Bool("value", false, "the input is one raw value")
	asFile := fs.Bool("file", false, "the input is a store_var file")
	hexIn := fs.Bool("hex", false, "input is hex text")
	allow := fs.Bool("allow-objects", false, "accept full objects")
	password := fs.String("password", "", "password of an encrypted file")
	keyHex := fs.String("key", "", "key of an encrypted file, 64 hex digits")
	all := fs.Bool("all", false, "show every element of packed arrays")
	maxSize := sizeFlag(gdfile.DefaultMaxSize)
	fs.Var(&maxSize, "max-size", "most data a file may hold, in bytes (K, M, G)")
	name, status, ok := parseFlags(fs, args, stderr)
	if !ok {
		if status == 0 {
			fmt.Fprint(stdout, inspectUsage)
		}
		return status
	}
	if *asValue && *asFile {
		fmt.Fprintln(stderr, "gdvar inspect: --value or --file, not both")
		return 2
	}
	key, err := keyFromFlags(*password, *keyHex, flagSet(fs, "password"))
	if err != nil {
		fmt.Fprintln(stderr, "gdvar inspect:", err)
		return 2
	}
	limit := gdfile.Options{MaxSize: int(maxSize)}
	if *hexIn {
		limit.MaxSize = 2*limit.MaxSize + 1<<20 // two digits a byte, and spaces
	}
	data, err := readFileBounded(name, stdin, limit)
	if err != nil {
		fmt.Fprintln(stderr, "gdvar: inspect:", err)
		return 1
	}
	if *hexIn {
		if data, err = decodeHex(data); err != nil {
			fmt.Fprintln(stderr, "gdvar: inspect:", err)
			return 1
		}
	}
	o := inspect.Options{AllowObjects: *allow, Key: key, MaxSize: int(maxSize)}
	if flagSet(fs, "godot") {
		o.Godot = godot.family()
	}
	if *all {
		o.Elements = -1
	}
	file := *asFile || !*asValue && looksLikeFile(data, o)
	var d *inspect.Dump
	if file {
		d, err = inspect.WriteFile(stdout, data, o)
	} else {
		d, err = inspect.WriteValue(stdout, data, o)
	}
	if err != nil {
		fmt.Fprintln(stderr, "gdvar:", err)
		return 1
	}
	if d.Err != nil {
		switch {
		case errors.Is(d.Err, gdfile.ErrNeedKey):
			fmt.Fprintln(stderr, "gdvar: inspect: the file is encrypted: give --password or --key")
		case errors.Is(d.Err, gdfile.ErrTooLarge):
			fmt.Fprintln(stderr, "gdvar: inspect: the file is larger than --max-size allows")
		default:
			if !*hexIn {
				if h := cmp.Or(fileKindHint(data), textInputHint(data, cmp.Or(o.Godot, variant.Godot4), true, false)); h != "" {
					fmt.Fprintln(stderr, "gdvar: hint:", h)
				}
			}
		}
		return 1
	}
	return 0
}

// looksLikeFile reports whether data is better read as a store_var file
// than as one value: it has a container's magic, or it splits into
// store_var frames that all decode, in some family.
func looksLikeFile(data []byte, o inspect.Options) bool {
	if gdfile.Detect(data) != gdfile.Plain {
		return true
	}
	n, be, err := gdfile.CountFrames(data, gdfile.AutoEndian)
	if err != nil || n == 0 {
		return false
	}
	fams := []variant.Family{variant.Godot4, variant.Godot3}
	if o.Godot != 0 {
		fams = []variant.Family{o.Godot}
	}
	limit := gdfile.Options{MaxSize: o.MaxSize}.ValueLimit()
	for _, fam := range fams {
		dm, err := variant.DecOptions{Family: fam, AllowObjects: o.AllowObjects}.DecMode()
		if err != nil {
			continue
		}
		budget := limit
		_, err = gdfile.ScanFrames(data, be, func(fr gdfile.Frame) error {
			_, n, err := dm.DecodeBudget(fr.Payload, &budget)
			if err == nil && n != len(fr.Payload) {
				err = errors.New("a value does not fill its frame")
			}
			return err
		})
		// Past the budget of values, the frames that fit say enough.
		if err == nil || errors.Is(err, variant.ErrTooLarge) {
			return true
		}
	}
	return false
}
