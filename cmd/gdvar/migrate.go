package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"
	"time"

	"github.com/gdvar/gdvar/gdfile"
	"github.com/gdvar/gdvar/migrate"
	"github.com/gdvar/gdvar/variant"
)

const migrateUsage = `Usage: gdvar migrate [--password P | --key HEX] [--to 4|3] [--container KIND]
                    [--rename-classes] [--lossy] [--quiet] IN OUT

Converts a save file written with FileAccess.store_var (Godot 3: File) into
the file the other engine family's get_var reads as the same data: a
Godot 3 file into a Godot 4 one (the default), or back where nothing is
lost. The file may hold one value or several, as it is or encrypted or
compressed (found out from its first bytes). The output keeps the
container: re-encrypted with the same password or key (Godot 3's AES-ECB
becomes Godot 4's AES-CFB), compressed the same way, with the same byte
order of the length prefixes.

Types that changed are converted: Pool*Array becomes Packed*Array, REAL
float, Transform Transform3D, Quat Quaternion. Full objects keep their
class and properties; classes Godot 4 renamed (Spatial is Node3D, …) give a
warning, as Godot 4 refuses them under the old name. A value without an
exact equivalent is an error naming its place in the file, such as
value 0["player"]["cell"].

Flags:
  --password P      the password of an encrypted file (open_encrypted_with_pass)
  --key HEX         its key instead: 64 hex digits (open_encrypted)
  --to 4|3          the family to convert to (default 4); the input is of
                    the other one
  --container KIND  the output's container instead of the input's: keep
                    (default), plain, encrypted, fastlz, deflate, zstd or gzip
  --rename-classes  give full objects of renamed classes their new name
  --lossy           towards Godot 3, turn StringName into String and typed
                    containers into untyped ones (and the like), with a
                    warning each, instead of refusing them
  --quiet           no summary, warnings or progress on standard error

OUT "-" writes to standard output. Progress goes to standard error for files
over 4 MiB. A compressed file may hold up to 1 GiB.

Examples:
  gdvar migrate savegame.sav savegame4.sav
  gdvar migrate --password "my secret" --to 4 user.sav user4.sav
  gdvar migrate --container plain encrypted.sav readable.sav --password p
`

// progressOver is the input size from which migrate reports progress.
const progressOver = 4 << 20

// migrateMaxSize is the most a compressed input may decompress to.
const migrateMaxSize = 1 << 30

func runMigrate(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("migrate", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprint(stderr, migrateUsage) }
	password := fs.String("password", "", "password of the encrypted file")
	keyHex := fs.String("key", "", "key of the encrypted file, 64 hex digits")
	to := newGodotFlag()
	fs.Var(to, "to", "family to convert to: 4 or 3")
	container := &formatFlag{"keep", []string{"keep", "plain", "encrypted", "fastlz", "deflate", "zstd", "gzip"}}
	fs.Var(container, "container", "container of the output")
	rename := fs.Bool("rename-classes", false, "rename classes renamed in the target family")
	lossy := fs.Bool("lossy", false, "allow conversions that lose only the type")
	quiet := fs.Bool("quiet", false, "nothing on standard error but errors")
	pos, status, ok := parsePositional(fs, args, stderr, 2)
	if !ok {
		if status == 0 {
			fmt.Fprint(stdout, migrateUsage)
		}
		return status
	}
	in, out := pos[0], pos[1]
	key, err := keyFromFlags(*password, *keyHex, flagSet(fs, "password"))
	if err != nil {
		fmt.Fprintln(stderr, "gdvar migrate:", err)
		return 2
	}
	toFam := to.family()
	fromFam := variant.Godot3
	if toFam == variant.Godot3 {
		fromFam = variant.Godot4
	}
	say := func(format string, a ...any) {
		if !*quiet {
			fmt.Fprintf(stderr, "gdvar: migrate: "+format+"\n", a...)
		}
	}

	data, err := readInput(in, stdin)
	if err != nil {
		fmt.Fprintln(stderr, "gdvar:", err)
		return 1
	}
	opts := gdfile.Options{Key: key, Godot: fromFam, Dec: variant.DecOptions{AllowObjects: true}, MaxSize: migrateMaxSize}
	if !*quiet && len(data) > progressOver {
		opts.Progress = progress(stderr, "reading", "bytes")
	}
	f, err := gdfile.Read(data, opts)
	if err != nil {
		var ve *variant.Error
		switch {
		case errors.Is(err, gdfile.ErrNeedKey):
			err = fmt.Errorf("%s is encrypted: give --password or --key", in)
		case errors.As(err, &ve):
			// Perhaps the file is of the target family already.
			opts.Godot, opts.Progress = toFam, nil
			if _, err2 := gdfile.Read(data, opts); err2 == nil {
				err = fmt.Errorf("%s is not a %v file but a %v one already (--to %d converts the other way)",
					in, fromFam, toFam, fromFam)
			}
		}
		fmt.Fprintln(stderr, "gdvar: migrate:", err)
		return 1
	}
	g, warnings, err := migrate.File(f, migrate.Options{To: toFam, RenameClasses: *rename, Lossy: *lossy})
	for _, w := range warnings {
		say("warning: %v", w)
	}
	if err != nil {
		fmt.Fprintln(stderr, "gdvar: migrate:", err)
		return 1
	}
	if container.name != "keep" {
		c := gdfile.Container{Format: gdfile.Plain}
		switch container.name {
		case "encrypted":
			c = gdfile.Container{Format: gdfile.Encrypted, Family: toFam}
		case "fastlz", "deflate", "zstd", "gzip":
			mode, _ := gdfile.ParseCompression(container.name)
			c = gdfile.Container{Format: gdfile.Compressed, Compression: mode, BlockSize: gdfile.DefaultBlockSize}
		}
		g.Container = c
	}
	if g.Container.Format == gdfile.Encrypted && key == nil {
		fmt.Fprintln(stderr, "gdvar migrate: an encrypted output needs --password or --key")
		return 2
	}
	full := false
	for _, v := range g.Values {
		full = full || migrate.HasObjects(v)
	}
	if full {
		say("warning: the file holds full objects: the engine reads them only with get_var(true)")
	}
	wopts := gdfile.Options{Key: key, Enc: variant.EncOptions{Family: toFam, FullObjects: full}}
	if !*quiet && len(data) > progressOver {
		wopts.Progress = progress(stderr, "writing", "values")
	}
	result, err := g.Encode(wopts)
	if err != nil {
		fmt.Fprintln(stderr, "gdvar: migrate:", err)
		return 1
	}
	if out == "-" {
		_, err = stdout.Write(result)
	} else {
		err = os.WriteFile(out, result, 0o644)
	}
	if err != nil {
		fmt.Fprintln(stderr, "gdvar:", err)
		return 1
	}
	say("%s (%v, %s, %s) -> %s (%v, %s), %d bytes", in, fromFam, f.Container, plural(len(f.Values), "value"),
		out, toFam, g.Container, len(result))
	return 0
}

// parsePositional parses flags around exactly n positional arguments.
func parsePositional(fs *flag.FlagSet, args []string, stderr io.Writer, n int) ([]string, int, bool) {
	pos, status, ok := parseArgs(fs, args, stderr)
	if !ok {
		return nil, status, false
	}
	if len(pos) != n {
		usageError(stderr, fs.Name(), fmt.Errorf("want %d arguments, got %d", n, len(pos)))
		return nil, 2, false
	}
	return pos, 0, true
}

// keyFromFlags turns --password or --key into a key; nil when neither is
// given.
func keyFromFlags(password, keyHex string, passwordSet bool) (*gdfile.Key, error) {
	switch {
	case passwordSet && keyHex != "":
		return nil, errors.New("give --password or --key, not both")
	case passwordSet:
		k := gdfile.PasswordKey(password)
		return &k, nil
	case keyHex != "":
		k, err := gdfile.ParseKey(keyHex)
		if err != nil {
			return nil, err
		}
		return &k, nil
	}
	return nil, nil
}

// progress returns a callback that reports progress on w at most twice a
// second, and at the end.
func progress(w io.Writer, what, unit string) func(done, total int64) {
	var last time.Time
	return func(done, total int64) {
		if total <= 0 || (done < total && time.Since(last) < 500*time.Millisecond) {
			return
		}
		last = time.Now()
		fmt.Fprintf(w, "gdvar: migrate: %s %d%% (%d of %d %s)\n", what, done*100/total, done, total, unit)
	}
}

func plural(n int, unit string) string {
	s := strconv.Itoa(n) + " " + unit
	if n != 1 {
		s += "s"
	}
	return s
}
