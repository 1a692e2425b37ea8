// Command gdvar decodes and encodes Godot's binary Variant serialization
// (var_to_bytes / bytes_to_var, the payload of store_var and put_var) and
// prints values in Godot's text form (var_to_str / str_to_var).
//
// Usage:
//
//	gdvar decode [--godot 3|4] [--hex] [--lines] [--allow-objects] [--classes LIST] [--strict] [--to FORMAT] [FILE|-]
//	gdvar encode [--godot 3|4] [--hex] [--lines] [--full-objects] [--double] [--from FORMAT] [FILE|-]
//	gdvar serve [--tcp ADDR] [--udp ADDR] [--ws ADDR] [--godot 3|4]
//	gdvar migrate [--password P | --key HEX] [--to 4|3] IN OUT
//	gdvar inspect [--godot 3|4] [--value | --file] [--hex] [--password P | --key HEX] [FILE|-]
//	gdvar convert [--from FORMAT] --to FORMAT [--godot 3|4] [--to-godot 3|4] [FILE|-]
//
// Run "gdvar CMD --help" for each command's details.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"strings"
)

const usage = `gdvar: Godot Variant serialization (var_to_bytes / bytes_to_var) from the command line.

Usage:
  gdvar decode [--godot 3|4] [--hex] [--lines] [--allow-objects] [--classes LIST] [--strict] [--to FORMAT] [FILE|-]
  gdvar encode [--godot 3|4] [--hex] [--lines] [--full-objects] [--double] [--from FORMAT] [FILE|-]
  gdvar serve [--tcp ADDR] [--udp ADDR] [--ws ADDR] [--godot 3|4]
  gdvar migrate [--password P | --key HEX] [--to 4|3] IN OUT
  gdvar inspect [--godot 3|4] [--value | --file] [--hex] [--password P | --key HEX] [FILE|-]
  gdvar convert [--from FORMAT] --to FORMAT [--godot 3|4] [--to-godot 3|4] [FILE|-]

Commands:
  decode   read one encoded value, print it in Godot's text form
  encode   read one value in Godot's text form, write its encoding
  serve    a TCP/UDP/WebSocket server that prints and echoes the values a game sends
  migrate  turn a Godot 3 save file (store_var; plain, encrypted or compressed)
           into the Godot 4 file that reads as the same data, or back
  inspect  show encoded bytes field by field, and where and why they are bad
  convert  between binary, text, JSON and typed JSON, and between families

Examples:
  gdvar decode testdata/sample/savegame.bin
  echo 050000000000803f00000040 | gdvar decode --hex
  echo 'Vector2(1, 2)' | gdvar encode --hex
  echo '{"hp": 99.5}' | gdvar encode --godot 3 --hex

Run "gdvar CMD --help" for the flags of a command.
`

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// run is the whole command; it returns the exit status: 0 on success, 1 when
// the input was bad, 2 for a usage error.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) (status int) {
	defer func() {
		// Nothing should panic; if something does, say so in one line
		// rather than with a stack trace.
		if r := recover(); r != nil {
			fmt.Fprintf(stderr, "gdvar: internal error: %v (please report it)\n", r)
			if os.Getenv("GDVAR_DEBUG") != "" {
				stderr.Write(debug.Stack())
			}
			status = 1
		}
	}()
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return 2
	}
	switch args[0] {
	case "-h", "-help", "--help", "help":
		fmt.Fprint(stdout, usage)
		return 0
	case "decode":
		return runDecode(args[1:], stdin, stdout, stderr)
	case "encode":
		return runEncode(args[1:], stdin, stdout, stderr)
	case "serve":
		return runServe(args[1:], stdin, stdout, stderr)
	case "migrate":
		return runMigrate(args[1:], stdin, stdout, stderr)
	case "inspect":
		return runInspect(args[1:], stdin, stdout, stderr)
	case "convert":
		return runConvert(args[1:], stdin, stdout, stderr)
	case "host":
		return runHost(args[1:], stdin, stdout, stderr)
	}
	fmt.Fprintf(stderr, "gdvar: unknown command %q\n\n%s", args[0], usage)
	return 2
}

// parseFlags parses flags that may stand before or after the one
// positional argument (FILE or -), and returns that argument ("-" when
// absent).
func parseFlags(fs *flag.FlagSet, args []string, stderr io.Writer) (string, int, bool) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				return "", 0, false
			}
			return "", 2, false
		}
		args = fs.Args()
		if len(args) == 0 {
			break
		}
		pos = append(pos, args[0])
		args = args[1:]
	}
	switch len(pos) {
	case 0:
		return "-", 0, true
	case 1:
		return pos[0], 0, true
	}
	fmt.Fprintf(stderr, "gdvar %s: one input at most, got %s\n", fs.Name(), strings.Join(pos, " "))
	return "", 2, false
}

func readInput(name string, stdin io.Reader) ([]byte, error) {
	if name == "-" {
		return io.ReadAll(stdin)
	}
	return os.ReadFile(name)
}
