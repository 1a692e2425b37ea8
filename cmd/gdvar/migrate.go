package main

import (
	"cmp"
	"errors"
	"flag"
	"fmt"
	"io"
	iofs "io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/gdvar/gdvar/gdfile"
	"github.com/gdvar/gdvar/migrate"
	"github.com/gdvar/gdvar/variant"
)

const migrateUsage = `Usage: gdvar migrate [--password P | --key HEX] [--to 4|3] [--container KIND]
                    [--rename-classes] [--lossy] [--force] [--max-size N] [--quiet] IN OUT
       gdvar migrate [flags] --out-dir DIR FILE|DIR...
       gdvar migrate [flags] --in-place FILE|DIR...

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

Many files: --out-dir DIR writes each FILE, and every file under each DIR
(by its path below DIR), into DIR; --in-place replaces each file by its
migration and keeps the original as FILE.bak. A file that fails is
reported and left alone; the others go on. A summary at the end counts
the files, the values and the classes renamed.

Existing files are never damaged: the output is written to a temporary
file next to it, synced, then renamed over it, so a failed write (a full
disk) leaves every file as it was. An existing OUT is refused unless
--force, and OUT being IN (also through a link) unless --in-place.

Flags:
  --password P      the password of an encrypted file (open_encrypted_with_pass)
  --key HEX         its key instead: 64 hex digits (open_encrypted)
  --to 4|3          the family to convert to (default 4); the input is of
                    the other one
  --container KIND  the output's container instead of the input's: keep
                    (default), plain, encrypted, fastlz, deflate, zstd or gzip
  --rename-classes  give full objects of renamed classes their new name
  --lossy           towards Godot 3, turn StringName into String and typed
                    containers into untyped ones (and the like); towards
                    Godot 4, turn characters it cannot hold (unpaired
                    surrogates) into U+FFFD; with a warning each, instead
                    of refusing them
  --out-dir DIR     write the outputs into DIR (created if needed)
  --in-place        replace each input, keeping FILE.bak
  --force           replace existing outputs (and backups)
  --max-size N      the most data a file may hold once decrypted or
                    decompressed, in bytes or with K, M or G (default 16M);
                    it also bounds the values read, a million per 16M
  --quiet           no summary, warnings or progress on standard error

OUT "-" writes to standard output. On a terminal, progress goes to
standard error. An output never gets a permission its input lacks: a new
one is created with the input's read and write permissions, less the
umask; a replaced one keeps its own, less what the input lacks.

Examples:
  gdvar migrate savegame.sav savegame4.sav
  gdvar migrate --password "my secret" --to 4 user.sav user4.sav
  gdvar migrate --container plain encrypted.sav readable.sav --password p
  gdvar migrate --out-dir saves4 saves/
  gdvar migrate --in-place --rename-classes slot1.sav slot2.sav
`

// progressOver is the input size from which migrate reports the progress
// of a file.
const progressOver = 4 << 20

// migrateJob is one file to migrate.
type migrateJob struct {
	in, out string
}

// migrateStats is what a migration did, for the summary.
type migrateStats struct {
	files, failed, values int
	renamed               map[string]int // "class Spatial renamed Node3D" → count
}

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
	lossy := fs.Bool("lossy", false, "allow conversions that lose only the type (towards Godot 4: unpaired surrogates)")
	quiet := fs.Bool("quiet", false, "nothing on standard error but errors")
	outDir := fs.String("out-dir", "", "directory of the outputs")
	inPlace := fs.Bool("in-place", false, "replace the inputs, keeping FILE.bak")
	force := fs.Bool("force", false, "replace existing outputs")
	maxSize := sizeFlag(gdfile.DefaultMaxSize)
	fs.Var(&maxSize, "max-size", "most data a file may hold, in bytes (K, M, G)")
	pos, status, ok := parsePositional(fs, args, stderr, -1)
	if !ok {
		if status == 0 {
			fmt.Fprint(stdout, migrateUsage)
		}
		return status
	}
	usageErr := func(msg string) int {
		usageError(stderr, "migrate", errors.New(msg))
		return 2
	}
	key, err := keyFromFlags(*password, *keyHex, flagSet(fs, "password"))
	if err != nil {
		return usageErr(err.Error())
	}
	if container.name == "encrypted" && key == nil {
		return usageErr("an encrypted output needs --password or --key")
	}
	var jobs []migrateJob
	switch {
	case *outDir != "" && *inPlace:
		return usageErr("--out-dir or --in-place, not both")
	case *outDir != "" || *inPlace:
		if len(pos) == 0 {
			return usageErr("no input files")
		}
		if *inPlace && len(pos) == 2 && sameFile(pos[0], pos[1]) {
			pos = pos[:1] // IN OUT naming one file
		}
		if jobs, err = expandInputs(pos, *outDir); err != nil {
			fmt.Fprintln(stderr, "gdvar: migrate:", err)
			return 1
		}
	case len(pos) != 2:
		return usageErr(fmt.Sprintf("want IN OUT, --out-dir DIR FILES... or --in-place FILES..., got %d arguments", len(pos)))
	default:
		if fi, err := os.Stat(pos[0]); err == nil && fi.IsDir() {
			return usageErr(pos[0] + " is a directory: use --out-dir DIR or --in-place")
		}
		jobs = []migrateJob{{pos[0], pos[1]}}
	}
	if *outDir != "" {
		if err := os.MkdirAll(*outDir, 0o755); err != nil {
			fmt.Fprintln(stderr, "gdvar: migrate:", err)
			return 1
		}
	}

	m := &migrator{
		stdin: stdin, stdout: stdout, stderr: stderr, key: key, to: to.family(), container: container.name,
		opts:    migrate.Options{To: to.family(), RenameClasses: *rename, Lossy: *lossy},
		maxSize: int(maxSize), force: *force, inPlace: *inPlace, quiet: *quiet,
		terminal: !*quiet && isTerminal(stderr), many: len(jobs) > 1 || *outDir != "" || *inPlace,
		stats: migrateStats{renamed: map[string]int{}},
	}
	for i, j := range jobs {
		if m.terminal && len(jobs) > 1 {
			fmt.Fprintf(stderr, "gdvar: migrate: [%d/%d] %s\n", i+1, len(jobs), j.in)
		}
		m.stats.files++
		if status := m.one(j); status != 0 {
			if status == 2 {
				return 2
			}
			m.stats.failed++
		}
	}
	if m.many && !*quiet {
		m.summary()
	}
	if m.stats.failed > 0 {
		return 1
	}
	return 0
}

// migrator migrates files one by one with the same settings.
type migrator struct {
	stdin          io.Reader
	stdout, stderr io.Writer
	key            *gdfile.Key
	to             variant.Family
	container      string
	opts           migrate.Options
	maxSize        int
	force, inPlace bool
	quiet          bool
	terminal       bool // stderr is a terminal: show progress
	many           bool // several files: a summary at the end
	stats          migrateStats
}

func (m *migrator) say(format string, a ...any) {
	if !m.quiet {
		fmt.Fprintf(m.stderr, "gdvar: migrate: "+format+"\n", a...)
	}
}

// one migrates one file; it returns the exit status of that file alone
// (2 for a usage error that concerns every file).
func (m *migrator) one(j migrateJob) int {
	in, out := j.in, j.out
	fail := func(err error) int {
		fmt.Fprintln(m.stderr, "gdvar: migrate:", err)
		return 1
	}
	toFam := m.to
	fromFam := variant.Godot3
	if toFam == variant.Godot3 {
		fromFam = variant.Godot4
	}
	// Refuse what would replace a file before doing any work.
	same := out != "-" && in != "-" && sameFile(in, out)
	switch {
	case same && !m.inPlace:
		return fail(fmt.Errorf("%s and %s are the same file (--in-place replaces it, keeping %s.bak)", in, out, in))
	case out != "-" && isDir(out):
		return fail(fmt.Errorf("%s is a directory: OUT is the new file's name (--out-dir %s writes each file there under its own name)", out, out))
	case out != "-" && !same && !m.force && exists(out):
		return fail(fmt.Errorf("%s %w (--force replaces it)", out, errExists))
	}

	opts := gdfile.Options{Key: m.key, Godot: fromFam, Dec: variant.DecOptions{AllowObjects: true}, MaxSize: m.maxSize}
	data, err := readFileBounded(in, m.stdin, opts)
	if err != nil {
		return fail(err)
	}
	if m.terminal && len(data) > progressOver {
		opts.Progress = progress(m.stderr, "reading", "bytes")
	}
	f, err := gdfile.Read(data, opts)
	if err != nil {
		var ve *variant.Error
		switch {
		case errors.Is(err, gdfile.ErrNeedKey):
			err = fmt.Errorf("%s is encrypted: give --password or --key", in)
		case errors.Is(err, gdfile.ErrTooLarge):
			err = fmt.Errorf("%s: %w (--max-size raises the limit)", in, err)
		case errors.As(err, &ve):
			// Perhaps the file is of the target family already.
			opts.Godot, opts.Progress = toFam, nil
			if _, err2 := gdfile.Read(data, opts); err2 == nil {
				err = fmt.Errorf("%s is not a %v file but a %v one already (--to %d converts the other way)",
					in, fromFam, toFam, fromFam)
			} else {
				err = fmt.Errorf("%s: %w", in, err)
			}
		default:
			err = fmt.Errorf("%s: %w", in, err)
		}
		fail(err)
		if h := cmp.Or(fileKindHint(data), textInputHint(data, fromFam, false, false), oneValueHint(data, fromFam, toFam)); h != "" {
			fmt.Fprintln(m.stderr, "gdvar: hint:", h)
		}
		return 1
	}
	data = nil
	g, warnings, err := migrate.File(f, m.opts)
	for _, w := range warnings {
		if m.many {
			m.say("warning: %s: %v", in, w)
		} else {
			m.say("warning: %v", w)
		}
		if strings.HasPrefix(w.Message, "class ") && (strings.Contains(w.Message, " renamed ") || strings.Contains(w.Message, " is called ")) {
			m.stats.renamed[strings.SplitN(w.Message, ";", 2)[0]]++
		}
	}
	if err != nil {
		return fail(fmt.Errorf("%s: %w", in, err))
	}
	if m.container != "keep" {
		c := gdfile.Container{Format: gdfile.Plain}
		switch m.container {
		case "encrypted":
			c = gdfile.Container{Format: gdfile.Encrypted, Family: toFam}
		case "fastlz", "deflate", "zstd", "gzip":
			mode, _ := gdfile.ParseCompression(m.container)
			c = gdfile.Container{Format: gdfile.Compressed, Compression: mode, BlockSize: gdfile.DefaultBlockSize}
		}
		g.Container = c
	}
	if g.Container.Format == gdfile.Encrypted && m.key == nil {
		return fail(fmt.Errorf("%s: an encrypted output needs --password or --key", in))
	}
	full := false
	for _, v := range g.Values {
		full = full || migrate.HasObjects(v)
	}
	if full {
		m.say("warning: %s holds full objects: the engine reads them only with get_var(true)", out)
	}
	wopts := gdfile.Options{Key: m.key, Enc: variant.EncOptions{Family: toFam, FullObjects: full}}
	if m.terminal && len(g.Values) > progressOver/64 {
		wopts.Progress = progress(m.stderr, "writing", "values")
	}
	result, err := g.Encode(wopts)
	if err != nil {
		return fail(fmt.Errorf("%s: %w", in, err))
	}
	if out == "-" {
		_, err = m.stdout.Write(result)
	} else {
		wo := writeOptions{force: m.force, backup: same}
		wo.from, wo.fromFile = inputMode(in)
		err = writeFileSafely(out, result, wo)
	}
	if err != nil {
		return fail(err)
	}
	m.stats.values += len(f.Values)
	if !m.many {
		m.say("%s (%v, %s, %s) -> %s (%v, %s), %d bytes", in, fromFam, f.Container, plural(len(f.Values), "value"),
			out, toFam, g.Container, len(result))
	} else {
		m.say("%s -> %s: %s, %d bytes", in, out, plural(len(f.Values), "value"), len(result))
	}
	return 0
}

// summary reports what a migration of many files did.
func (m *migrator) summary() {
	s := m.stats
	line := plural(s.files, "file")
	if s.failed > 0 {
		line += " (" + strconv.Itoa(s.files-s.failed) + " migrated, " + strconv.Itoa(s.failed) + " failed)"
	}
	line += ", " + plural(s.values, "value")
	m.say("%s", line)
	names := make([]string, 0, len(s.renamed))
	for k := range s.renamed {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, k := range names {
		m.say("%s: %s", k, plural(s.renamed[k], "object"))
	}
}

// expandInputs turns FILE and DIR arguments into jobs: every regular file
// under a DIR (its hidden files and .bak backups aside), written into
// outDir by its path below DIR, or in place when outDir is "".
func expandInputs(args []string, outDir string) ([]migrateJob, error) {
	var jobs []migrateJob
	for _, a := range args {
		fi, err := os.Stat(a)
		if err != nil {
			return nil, err
		}
		if !fi.IsDir() {
			out := a
			if outDir != "" {
				out = filepath.Join(outDir, filepath.Base(a))
			}
			jobs = append(jobs, migrateJob{a, out})
			continue
		}
		err = filepath.WalkDir(a, func(p string, d iofs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			name := d.Name()
			if p != a && strings.HasPrefix(name, ".") {
				if d.IsDir() {
					return filepath.SkipDir
				}
				return nil
			}
			if outDir != "" && d.IsDir() && sameFile(p, outDir) {
				return filepath.SkipDir // the outputs of an earlier run
			}
			if !d.Type().IsRegular() || strings.HasSuffix(name, ".bak") {
				return nil
			}
			out := p
			if outDir != "" {
				rel, err := filepath.Rel(a, p)
				if err != nil {
					return err
				}
				out = filepath.Join(outDir, rel)
				if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
					return err
				}
			}
			jobs = append(jobs, migrateJob{p, out})
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	return jobs, nil
}

// sameFile reports whether a and b name the same existing file, through
// links too.
func sameFile(a, b string) bool {
	fa, err := os.Stat(a)
	if err != nil {
		return false
	}
	fb, err := os.Stat(b)
	return err == nil && os.SameFile(fa, fb)
}

func exists(name string) bool {
	_, err := os.Lstat(name)
	return err == nil
}

// isDir reports whether name is a directory (or a link to one).
func isDir(name string) bool {
	fi, err := os.Stat(name)
	return err == nil && fi.IsDir()
}

// sizeFlag is a size in bytes, given as a number with an optional K, M or
// G (binary multiples).
type sizeFlag int

func (s *sizeFlag) String() string { return strconv.Itoa(int(*s)) }

func (s *sizeFlag) Set(v string) error {
	mult := 1
	switch {
	case strings.HasSuffix(v, "K"):
		mult = 1 << 10
	case strings.HasSuffix(v, "M"):
		mult = 1 << 20
	case strings.HasSuffix(v, "G"):
		mult = 1 << 30
	}
	if mult > 1 {
		v = v[:len(v)-1]
	}
	n, err := strconv.Atoi(v)
	if err != nil || n <= 0 || n > (1<<32-1)/mult {
		return fmt.Errorf("want a size such as 1048576, 64M or 1G, at most 4G")
	}
	*s = sizeFlag(n * mult)
	return nil
}

// parsePositional parses flags around exactly n positional arguments, or
// any number when n is negative.
func parsePositional(fs *flag.FlagSet, args []string, stderr io.Writer, n int) ([]string, int, bool) {
	pos, status, ok := parseArgs(fs, args, stderr)
	if !ok {
		return nil, status, false
	}
	if n >= 0 && len(pos) != n {
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
