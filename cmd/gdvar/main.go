// Command gdvar decodes and encodes Godot's binary Variant serialization
// (var_to_bytes / bytes_to_var, store_var / get_var, put_var / get_var) and
// the save files FileAccess writes, plain, encrypted or compressed, and
// prints values in Godot's text form (var_to_str / str_to_var); it also
// migrates Godot 3 saves to Godot 4, reads and builds resource packs
// (.pck), and runs servers to develop a game against (serve: TCP, UDP and
// WebSocket peers; host: the high-level multiplayer). Limits: it does not
// read textures or compiled scripts; host relays and prints the games'
// packets (MultiplayerSpawner and MultiplayerSynchronizer ones included)
// but runs nothing of its own: the calls made to it are checked and
// dropped (package multiplayer runs Go handlers).
//
// Install it with
//
//	go install github.com/gdvar/gdvar/cmd/gdvar@latest
//
// or, from a checkout of the repository (an offline machine, a private
// mirror, your own changes),
//
//	go install ./cmd/gdvar
//
// Usage:
//
//	gdvar decode [--godot 3|4] [--hex | --base64] [--value | --file | --lines] [--password P | --key HEX] [FILE|-]
//	gdvar encode [--godot 3|4] [--hex | --base64] [--lines | --file] [--container KIND] [--password P | --key HEX] [FILE|-]
//	gdvar serve [--tcp ADDR] [--udp ADDR] [--ws ADDR] [--godot 3|4]
//	gdvar host [--ws ADDR] [--enet ADDR] [--godot 3|4] [--project DIR]
//	gdvar migrate [--password P | --key HEX] [--to 4|3] [--force] IN OUT
//	gdvar migrate [flags] --out-dir DIR FILE|DIR...
//	gdvar migrate [flags] --in-place FILE|DIR...
//	gdvar inspect [--godot 3|4] [--value | --file] [--hex] [--password P | --key HEX] [FILE|-]
//	gdvar convert [--from FORMAT] --to FORMAT [--godot 3|4] [--to-godot 3|4] [FILE|-]
//	gdvar pck list|extract|pack|verify|cat [flags] PACK ...
//	gdvar res dump [--json] FILE | gdvar res convert [--to FORM] IN OUT
//	gdvar help [CMD]
//	gdvar --version
//
// Run "gdvar help CMD" (or "gdvar CMD --help") for each command's details.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime"
	"runtime/debug"
	"strings"
)

const usage = `gdvar: Godot's Variant serialization (var_to_bytes, store_var, put_var) and
save files from the command line.

Usage:
  gdvar decode [--godot 3|4] [--hex | --base64] [--value | --file | --lines]
               [--password P | --key HEX] [--to FORMAT] [flags] [FILE|-]
  gdvar encode [--godot 3|4] [--hex | --base64] [--lines | --file]
               [--container KIND] [--password P | --key HEX] [--from FORMAT]
               [flags] [FILE|-]
  gdvar serve [--tcp ADDR] [--udp ADDR] [--ws ADDR] [--godot 3|4] [flags]
  gdvar host [--ws ADDR] [--enet ADDR] [--godot 3|4] [--project DIR] [flags]
  gdvar migrate [--password P | --key HEX] [--to 4|3] [flags] IN OUT
  gdvar migrate [flags] --out-dir DIR FILE|DIR...  (or --in-place FILE|DIR...)
  gdvar inspect [--godot 3|4] [--value | --file] [--hex]
                [--password P | --key HEX] [flags] [FILE|-]
  gdvar convert [--from FORMAT] --to FORMAT [--godot 3|4] [--to-godot 3|4]
                [flags] [FILE|-]
  gdvar pck list|extract|pack|verify|cat [flags] PACK ...
  gdvar res dump [--json] FILE | gdvar res convert [--to FORM] IN OUT
  gdvar help [CMD]
  gdvar --version

Commands:
  decode   print encoded values in Godot's text form: one value
           (var_to_bytes), or every value of a save file (store_var;
           plain, encrypted or compressed)
  encode   read values in Godot's text form, write their encoding: one
           value, or a save file (--file)
  serve    a TCP/UDP/WebSocket server that prints and echoes the values a
           game sends
  host     a multiplayer host that Godot games join over WebSocket or ENet,
           relaying between them and printing their RPCs
  migrate  turn a Godot 3 save file (store_var; plain, encrypted or compressed)
           into the Godot 4 file that reads as the same data, or back
  inspect  show encoded bytes field by field, and where and why they are bad
  convert  between binary, text, JSON and typed JSON, and between families
  pck      list, extract, verify, cat and build resource packs (.pck)
  res      print resource files (.tres/.tscn, .res/.scn) and convert them
           between the text and binary forms
  help     the details of a command, with examples

Input is raw bytes, or text with --hex or --base64 (what
Marshalls.variant_to_base64 writes). FILE "-" or no FILE reads standard
input; output goes to standard output.

Examples:
  gdvar decode testdata/sample/savegame.bin
  gdvar decode --password "my secret" user.sav
  echo 050000000000803f00000040 | gdvar decode --hex
  echo BQAAAAAAgD8AAABA | gdvar decode --base64
  echo 'Vector2(1, 2)' | gdvar encode --hex
  echo '{"hp": 99.5}' | gdvar encode --godot 3 --base64
  gdvar decode user.sav > user.txt; gdvar encode --file user.txt > user2.sav

Run "gdvar help CMD" for the flags of a command. Exit status: 0 done, 1 bad
input or output not written, 2 usage error.
`

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// commands are the subcommands run knows, for "gdvar help CMD".
var commands = map[string]func(args []string, stdin io.Reader, stdout, stderr io.Writer) int{
	"decode":  runDecode,
	"encode":  runEncode,
	"serve":   runServe,
	"migrate": runMigrate,
	"inspect": runInspect,
	"convert": runConvert,
	"host":    runHost,
	"pck":     runPck,
	"res":     runRes,
}

// run is the whole command; it returns the exit status: 0 on success, 1 when
// the input was bad or the output could not be written, 2 for a usage
// error.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	return checkOutput(stdout, stderr, func(stdout io.Writer) int { return runChecked(args, stdin, stdout, stderr) })
}

// runChecked is run, writing to a checked standard output.
func runChecked(args []string, stdin io.Reader, stdout, stderr io.Writer) (status int) {
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
	case "-h", "-help", "--help":
		fmt.Fprint(stdout, usage)
		return 0
	case "help":
		return runHelp(args[1:], stdin, stdout, stderr)
	case "-version", "--version", "version":
		fmt.Fprintln(stdout, versionLine(debug.ReadBuildInfo()))
		return 0
	}
	if cmd, ok := commands[args[0]]; ok {
		return cmd(args[1:], stdin, stdout, stderr)
	}
	fmt.Fprintf(stderr, "gdvar: unknown command %q%s\nRun 'gdvar --help' for usage.\n", args[0], didYouMean(args[0]))
	return 2
}

// runHelp is "gdvar help [CMD]": the general help, or CMD's.
func runHelp(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	switch {
	case len(args) == 0:
		fmt.Fprint(stdout, usage)
		return 0
	case len(args) > 1:
		fmt.Fprintf(stderr, "gdvar help: one command at most, got %s\nRun 'gdvar --help' for usage.\n", strings.Join(args, " "))
		return 2
	}
	if cmd, ok := commands[args[0]]; ok {
		return cmd([]string{"--help"}, stdin, stdout, stderr)
	}
	if args[0] == "help" {
		fmt.Fprint(stdout, usage)
		return 0
	}
	fmt.Fprintf(stderr, "gdvar help: unknown command %q%s\nRun 'gdvar --help' for usage.\n", args[0], didYouMean(args[0]))
	return 2
}

// versionLine describes the build on one line: the module version (a
// release tag, or a pseudo-version naming the commit, for
// "go install …@version"), or "devel" and the commit when built from a
// checkout; then the Go version and the platform.
func versionLine(info *debug.BuildInfo, ok bool) string {
	platform := runtime.GOOS + "/" + runtime.GOARCH
	if !ok {
		return "gdvar (version unknown: built without module support) (" + runtime.Version() + " " + platform + ")"
	}
	var rev, when string
	modified := false
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value[:min(len(s.Value), 12)]
		case "vcs.time":
			when = s.Value
		case "vcs.modified":
			modified = s.Value == "true"
		}
	}
	line := "gdvar " + info.Main.Version
	if info.Main.Version == "" || info.Main.Version == "(devel)" {
		line = "gdvar devel, built from a checkout"
	}
	if rev != "" && !strings.Contains(line, rev) {
		line += ", commit " + rev
		if when != "" {
			line += " of " + when
		}
		if modified {
			line += " with local changes"
		}
	}
	return line + " (" + info.GoVersion + " " + platform + ")"
}

// parseCommandFlags parses args with fs, the flag set of command
// fs.Name(). It takes over fs's output: on -h or --help it prints nothing
// and returns flag.ErrHelp, for the command to print its help on standard
// output; on a bad flag it prints the one error and a pointer to --help on
// stderr and returns the error.
func parseCommandFlags(fs *flag.FlagSet, args []string, stderr io.Writer) error {
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	err := fs.Parse(args)
	if err != nil && !errors.Is(err, flag.ErrHelp) {
		usageError(stderr, fs.Name(), err)
	}
	return err
}

// usageError prints a usage error of command cmd and a pointer to its
// help.
func usageError(stderr io.Writer, cmd string, err error) {
	fmt.Fprintf(stderr, "gdvar %s: %v\nRun 'gdvar %s --help' for usage.\n", cmd, err, cmd)
}

// parseFlags parses flags that may stand before or after the one
// positional argument (FILE or -), and returns that argument ("-" when
// absent). The status is 0 with ok false for --help (the command prints
// its help), 2 for a usage error (already reported).
func parseFlags(fs *flag.FlagSet, args []string, stderr io.Writer) (name string, status int, ok bool) {
	pos, status, ok := parseArgs(fs, args, stderr)
	if !ok {
		return "", status, false
	}
	switch len(pos) {
	case 0:
		return "-", 0, true
	case 1:
		return pos[0], 0, true
	}
	usageError(stderr, fs.Name(), fmt.Errorf("one input at most, got %s", strings.Join(pos, " ")))
	return "", 2, false
}

// parseArgs parses flags that may stand anywhere among the positional
// arguments, and returns those arguments; status and ok as parseFlags.
func parseArgs(fs *flag.FlagSet, args []string, stderr io.Writer) (pos []string, status int, ok bool) {
	for {
		if err := parseCommandFlags(fs, args, stderr); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				return nil, 0, false
			}
			return nil, 2, false
		}
		args = fs.Args()
		if len(args) == 0 {
			return pos, 0, true
		}
		pos = append(pos, args[0])
		args = args[1:]
	}
}

// noteTerminalInput says, when the input is standard input and that is a
// terminal, that the command waits for it.
func noteTerminalInput(name string, stdin io.Reader, stderr io.Writer) {
	if name == "-" && isTerminal(stdin) {
		fmt.Fprintln(stderr, "gdvar: reading standard input; end it with Ctrl-D, or give a FILE (gdvar help for more)")
	}
}

func readInput(name string, stdin io.Reader) ([]byte, error) {
	return readFileBounded(name, stdin, inputLimit)
}
