package main

import (
	"encoding/hex"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	iofs "io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"
	"unicode/utf8"

	"github.com/gdvar/gdvar/gdfile"
	"github.com/gdvar/gdvar/gdproject"
	"github.com/gdvar/gdvar/gdtext"
	"github.com/gdvar/gdvar/pck"
)

const pckUsage = `Usage: gdvar pck list    [--key HEX] [--json] PACK
       gdvar pck extract [--key HEX] [--force] [--out DIR] PACK [PATH|GLOB...]
       gdvar pck pack    [--godot VERSION] [--key HEX] [--encrypt-dir] [--align N]
                         [--embed EXE] DIR OUT
       gdvar pck verify  [--key HEX] PACK
       gdvar pck cat     [--key HEX] [--raw] PACK PATH

Godot's resource packs (.pck): the files of an exported game, as a pack or
inside the game's executable (found as the engine finds it), from Godot 3
(pack format 1) and Godot 4.0 to 4.6 (formats 2 and 3).

  list     the entries: path, size, flags (encrypted, removal); --json for
           every field (offset, MD5) and the pack's header
  extract  the files into --out DIR (default: the current directory), all
           or those matching PATHs or GLOBs ("scenes/*.tscn", "res://a.png");
           existing files are kept unless --force. Paths that would leave
           DIR (.., absolute, drive letters) are refused; every file is
           checked against its MD5 as it is written
  pack     every file under DIR into OUT, for the engine version --godot
           (default 4: format 3, loaded by 4.5 and 4.6; 4.0 to 4.4 use format
           2 and 3.x format 1; an engine refuses a pack naming a newer minor
           version than its own). --key encrypts the files (Godot 4), and
           --encrypt-dir the directory too. --embed EXE writes a copy of the
           executable EXE with the pack appended, which it finds and runs
  verify   reads every entry and checks it against its MD5; exit status 1
           when one fails
  cat      one file's contents on standard output: project.binary as
           project.godot text, a save file's values (store_var, encrypted
           with the same key or compressed) as text, anything else as it is
           (--raw: always as it is)

Encrypted packs need the key the game was exported with: --key, 64 hex
digits (the SCRIPT_AES256_ENCRYPTION_KEY the export templates were built
with). A wrong key is reported, never decrypted into garbage.

Examples:
  gdvar pck list game.pck
  gdvar pck extract --out game game.exe 'scenes/*'
  gdvar pck cat game.pck project.binary
  gdvar pck pack --godot 4.2 mod/ mod.pck
`

func runPck(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 || args[0] == "-h" || args[0] == "-help" || args[0] == "--help" || args[0] == "help" {
		if len(args) == 0 {
			fmt.Fprint(stderr, pckUsage)
			return 2
		}
		fmt.Fprint(stdout, pckUsage)
		return 0
	}
	if strings.HasPrefix(args[0], "-") {
		usageError(stderr, "pck", fmt.Errorf("flag provided but not defined: -%s", strings.TrimLeft(args[0], "-")))
		return 2
	}
	sub, args := args[0], args[1:]
	fs := flag.NewFlagSet("pck "+sub, flag.ContinueOnError)
	keyHex := fs.String("key", "", "the pack's key, 64 hex digits")
	var (
		asJSON, force, raw, encDir *bool
		out, godot, embed          *string
		align                      *int
	)
	switch sub {
	case "list":
		asJSON = fs.Bool("json", false, "JSON output")
	case "extract":
		force = fs.Bool("force", false, "overwrite existing files")
		out = fs.String("out", ".", "the directory to extract into")
	case "pack":
		godot = fs.String("godot", "4", "the engine version to pack for")
		encDir = fs.Bool("encrypt-dir", false, "encrypt the directory too")
		align = fs.Int("align", 0, "align the files' data to N bytes (default 16)")
		embed = fs.String("embed", "", "append the pack to a copy of this executable")
	case "verify":
	case "cat":
		raw = fs.Bool("raw", false, "the bytes as they are")
	default:
		fmt.Fprintf(stderr, "gdvar pck: unknown command %q\nRun 'gdvar pck --help' for usage.\n", sub)
		return 2
	}
	pos, status, ok := parseArgs(fs, args, stderr)
	if !ok {
		if status == 0 {
			fmt.Fprint(stdout, pckUsage)
		}
		return status
	}
	var key *gdfile.Key
	if *keyHex != "" {
		k, err := gdfile.ParseKey(*keyHex)
		if err != nil {
			usageError(stderr, fs.Name(), err)
			return 2
		}
		key = &k
	}
	need := map[string][2]int{"list": {1, 1}, "extract": {1, -1}, "pack": {2, 2}, "verify": {1, 1}, "cat": {2, 2}}[sub]
	if len(pos) < need[0] || (need[1] >= 0 && len(pos) > need[1]) {
		want := map[string]string{"list": "PACK", "extract": "PACK [PATH|GLOB...]", "pack": "DIR OUT", "verify": "PACK", "cat": "PACK PATH"}[sub]
		usageError(stderr, fs.Name(), fmt.Errorf("takes %s, got %s", want, plural(len(pos), "argument")))
		return 2
	}
	if sub == "pack" {
		if fi, err := os.Stat(pos[0]); err == nil && !fi.IsDir() {
			usageError(stderr, fs.Name(), fmt.Errorf("%s is not a directory: pck pack puts every file under DIR into the pack OUT", pos[0]))
			return 2
		}
	} else if fi, err := os.Stat(pos[0]); err == nil && fi.IsDir() {
		hint := ""
		if _, err := os.Stat(filepath.Join(pos[0], "project.godot")); err == nil {
			hint = " (a project folder: gdvar pck pack DIR OUT builds a pack of its files)"
		}
		usageError(stderr, fs.Name(), fmt.Errorf("%s is a directory, not a pack (.pck) or a game's executable%s", pos[0], hint))
		return 2
	}
	fail := func(err error) int {
		fmt.Fprintf(stderr, "gdvar %s: %v\n", fs.Name(), err)
		return 1
	}
	if sub == "pack" {
		v, err := pck.ParseVersion(*godot)
		if err == nil {
			_, err = pck.FormatFor(v)
		}
		if err != nil {
			usageError(stderr, fs.Name(), err)
			return 2
		}
		o := pck.WriterOptions{Engine: v, Key: key, EncryptDirectory: *encDir, Alignment: *align, Trailer: *embed != ""}
		if err := packDir(pos[0], pos[1], *embed, o, stderr); err != nil {
			return fail(err)
		}
		return 0
	}
	r, err := pck.Open(pos[0], &pck.Options{Key: key})
	if err != nil {
		if errors.Is(err, pck.ErrNeedKey) {
			err = fmt.Errorf("%w; give --key", err)
		}
		st := fail(err)
		if errors.Is(err, pck.ErrNotPack) {
			if data, err := readHead(pos[0], maxHintRead); err == nil {
				if h := notPackHint(data); h != "" {
					fmt.Fprintln(stderr, "gdvar: hint:", h)
				}
			}
		}
		return st
	}
	defer r.Close()
	switch sub {
	case "list":
		err = listPack(stdout, &r.Reader, *asJSON)
	case "extract":
		err = extractPack(&r.Reader, *out, pos[1:], *force, stderr)
	case "verify":
		return verifyPack(&r.Reader, stdout, stderr)
	case "cat":
		err = catEntry(&r.Reader, pos[1], *raw, key, stdout)
	}
	if err != nil {
		if errors.Is(err, pck.ErrNeedKey) {
			err = fmt.Errorf("%w; give --key", err)
		}
		return fail(err)
	}
	return 0
}

type jsonEntry struct {
	Path   string   `json:"path"`
	Offset int64    `json:"offset"`
	Size   int64    `json:"size"`
	MD5    string   `json:"md5,omitempty"`
	Flags  []string `json:"flags,omitempty"`
}

func flagList(s string) []string {
	if s == "" {
		return nil
	}
	return strings.Split(s, ",")
}

func listPack(w io.Writer, r *pck.Reader, asJSON bool) error {
	if asJSON {
		out := struct {
			Format  pck.Format  `json:"format"`
			Engine  string      `json:"engine"`
			Flags   []string    `json:"flags,omitempty"`
			Start   int64       `json:"start"`
			Entries []jsonEntry `json:"entries"`
		}{r.Format, r.Engine.String(), flagList(r.Flags.String()), r.Start, []jsonEntry{}}
		for _, e := range r.Entries {
			je := jsonEntry{Path: e.Path, Offset: e.Offset, Size: e.Size, Flags: flagList(e.Flags.String())}
			if e.HasMD5() {
				je.MD5 = hex.EncodeToString(e.MD5[:])
			}
			out.Entries = append(out.Entries, je)
		}
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(out)
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "SIZE\tFLAGS\t PATH\n")
	var total int64
	for _, e := range r.Entries {
		f := e.Flags.String()
		if f == "" {
			f = "-"
		}
		fmt.Fprintf(tw, "%d\t%s\t %s\n", e.Size, f, printable(e.Path))
		total += e.Size
	}
	tw.Flush()
	where := ""
	if r.Start > 0 {
		where = fmt.Sprintf(", embedded at offset %d", r.Start)
	}
	fmt.Fprintf(w, "%d entries, %d bytes; pack format %d, Godot %v%s\n", len(r.Entries), total, r.Format, r.Engine, where)
	return nil
}

// printable returns a path as it is, or quoted when it holds control
// characters or invalid UTF-8, which a pack's author could use to write
// to the terminal.
func printable(p string) string {
	for _, r := range p {
		if r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) || r == utf8.RuneError {
			return strconv.Quote(p)
		}
	}
	return p
}

// matcher returns whether an entry matches one of the patterns: a path or
// a glob (path.Match), with or without "res://"; a directory's name
// matches everything under it.
func matcher(patterns []string) (func(*pck.Entry) bool, error) {
	for i, p := range patterns {
		p = strings.TrimPrefix(strings.TrimPrefix(p, "res://"), "/")
		if _, err := path.Match(p, ""); err != nil {
			return nil, fmt.Errorf("bad pattern %q: %w", patterns[i], err)
		}
		patterns[i] = strings.TrimSuffix(p, "/")
	}
	return func(e *pck.Entry) bool {
		if len(patterns) == 0 {
			return true
		}
		name := e.Name
		if name == "" {
			name = strings.TrimPrefix(e.Path, "res://")
		}
		for _, p := range patterns {
			if ok, _ := path.Match(p, name); ok || strings.HasPrefix(name, p+"/") {
				return true
			}
		}
		return false
	}, nil
}

func extractPack(r *pck.Reader, dir string, patterns []string, force bool, stderr io.Writer) error {
	match, err := matcher(patterns)
	if err != nil {
		return err
	}
	n := 0
	o := pck.ExtractOptions{Overwrite: force, Match: func(e *pck.Entry) bool {
		ok := match(e)
		if ok {
			n++
		}
		return ok
	}}
	bar := newProgressBar(stderr, "extracting")
	o.Progress = bar.update
	err = r.Extract(dir, o)
	bar.done()
	if err == nil && n == 0 && len(patterns) > 0 {
		return fmt.Errorf("no entry matches %s", strings.Join(patterns, " "))
	}
	return err
}

func verifyPack(r *pck.Reader, stdout, stderr io.Writer) int {
	var failed, noMD5, skipped int
	bar := newProgressBar(stderr, "verifying")
	var total, done int64
	for _, e := range r.Entries {
		total += e.Size
	}
	for _, e := range r.Entries {
		if e.Flags&(pck.FileRemoval|pck.FileDelta) != 0 || r.Flags&pck.SparseBundle != 0 {
			skipped++
			continue
		}
		if err := r.Verify(e); err != nil {
			failed++
			bar.clear()
			fmt.Fprintf(stdout, "FAIL %s: %v\n", printable(e.Path), err)
		} else if !e.HasMD5() {
			noMD5++
		}
		done += e.Size
		bar.update(done, total)
	}
	bar.done()
	fmt.Fprintf(stdout, "%d entries: %d verified, %d without an MD5 (read only), %d without data, %d failed\n",
		len(r.Entries), len(r.Entries)-failed-noMD5-skipped, noMD5, skipped, failed)
	if failed > 0 {
		return 1
	}
	return 0
}

func catEntry(r *pck.Reader, name string, raw bool, key *gdfile.Key, w io.Writer) error {
	e := r.Lookup(name)
	if e == nil {
		return fmt.Errorf("%s: %w (gdvar pck list shows the pack's paths)", name, iofs.ErrNotExist)
	}
	if raw {
		rd, err := r.OpenEntry(e)
		if err != nil {
			return err
		}
		_, err = io.Copy(w, rd)
		return err
	}
	data, err := r.ReadEntry(e)
	if err != nil {
		return err
	}
	if strings.HasPrefix(string(data), gdproject.Magic) {
		if s, err := gdproject.DecodeBinary(data, 0); err == nil {
			text, err := s.Text()
			if err == nil {
				_, err = io.WriteString(w, text)
			}
			return err
		}
	}
	if gdfile.Detect(data) != gdfile.Plain {
		if f, err := gdfile.Read(data, gdfile.Options{Key: key}); err == nil {
			for _, v := range f.Values {
				s, err := gdtext.Format(v, gdtext.Options{Family: f.Godot, Multiline: true})
				if err != nil {
					return err
				}
				fmt.Fprintln(w, s)
			}
			return nil
		}
	}
	_, err = w.Write(data)
	return err
}

// packDir packs every regular file under dir into out, after a copy of
// the executable exe when it is not "".
func packDir(dir, out, exe string, o pck.WriterOptions, stderr io.Writer) error {
	absOut, _ := filepath.Abs(out)
	type file struct {
		name, path string
		size       int64
	}
	var files []file
	var total int64
	err := filepath.WalkDir(dir, func(p string, d iofs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.Type().IsRegular() {
			return nil
		}
		if abs, _ := filepath.Abs(p); abs == absOut {
			return nil
		}
		rel, err := filepath.Rel(dir, p)
		if err != nil {
			return err
		}
		fi, err := d.Info()
		if err != nil {
			return err
		}
		files = append(files, file{filepath.ToSlash(rel), p, fi.Size()})
		total += fi.Size()
		return nil
	})
	if err != nil {
		return err
	}
	sort.Slice(files, func(i, j int) bool { return files[i].name < files[j].name })
	bar := newProgressBar(stderr, "packing")
	defer bar.done()
	mode := iofs.FileMode(0o644)
	if exe != "" {
		mode = 0o755
	}
	return replaceFile(out, mode, true, func(w io.Writer) error { // a new file: less the umask
		if exe != "" {
			// The executable, padded to 8 bytes as the exporter does.
			f, err := os.Open(exe)
			if err != nil {
				return err
			}
			n, err := io.Copy(w, f)
			f.Close()
			if err != nil {
				return err
			}
			if _, err := w.Write(make([]byte, (8-n%8)%8)); err != nil {
				return err
			}
		}
		pw, err := pck.NewWriter(w, o)
		if err != nil {
			return err
		}
		var done int64
		for _, f := range files {
			fw, err := pw.Create(f.name)
			if err != nil {
				return err
			}
			src, err := os.Open(f.path)
			if err != nil {
				return err
			}
			n, err := io.Copy(fw, src)
			src.Close()
			if err != nil {
				return err
			}
			done += n
			bar.update(done, total)
		}
		return pw.Close()
	})
}

// progressBar draws a bar on a terminal (nothing elsewhere), at most ten
// times a second.
type progressBar struct {
	w     io.Writer
	what  string
	on    bool
	last  time.Time
	shown bool
}

func newProgressBar(w io.Writer, what string) *progressBar {
	return &progressBar{w: w, what: what, on: isTerminal(w)}
}

func (b *progressBar) update(done, total int64) {
	if !b.on || total <= 0 || time.Since(b.last) < 100*time.Millisecond {
		return
	}
	b.last = time.Now()
	const width = 30
	n := int(done * width / total)
	fmt.Fprintf(b.w, "\r%s [%s%s] %3d%% %s / %s", b.what, strings.Repeat("#", n), strings.Repeat(".", width-n),
		done*100/total, byteSize(done), byteSize(total))
	b.shown = true
}

func (b *progressBar) clear() {
	if b.shown {
		fmt.Fprint(b.w, "\r\x1b[K")
		b.shown = false
	}
}

func (b *progressBar) done() { b.clear() }

func byteSize(n int64) string {
	switch {
	case n >= 1<<30:
		return fmt.Sprintf("%.1f GiB", float64(n)/(1<<30))
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d B", n)
}

// maxHintRead is how much of a file that is not a pack the pck commands
// read to say what it is instead.
const maxHintRead = 16 << 20

// readHead reads at most n bytes of the file name.
func readHead(name string, n int64) ([]byte, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(io.LimitReader(f, n))
}
