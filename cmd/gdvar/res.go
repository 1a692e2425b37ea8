package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/gdvar/gdvar/gdfile"
	"github.com/gdvar/gdvar/gdtext"
	"github.com/gdvar/gdvar/pck"
	"github.com/gdvar/gdvar/resource"
	"github.com/gdvar/gdvar/variant"
)

const resUsage = `Usage: gdvar res dump [--json] [--max-size N] FILE|-
       gdvar res convert [--to FORM] [--compress MODE] [--force] [--max-size N] IN OUT

Reads Godot's resource files: text (.tres, .tscn) and binary (.res, .scn;
RSRC, or RSCC when compressed), of Godot 3 and 4, found out from their
first bytes. Nothing is loaded: external resources and scripts are names.

dump prints the file: its form and header facts as ';' comments, then the
resource as the text form shows it (sub-resources, properties, and for a
scene its nodes, connections and editable instances). --json prints the
same as JSON, each value as its text ("Vector2(1, 2)").

convert writes IN in the other form, or in the same one: by OUT's extension
(.tres/.tscn text, .res/.scn binary; text for "-"), or --to text|binary
(also tres, tscn, res, scn). Nothing is lost: the text form keeps every value exactly (as
single-precision engines write them) and in order. --compress writes a
compressed binary file (zstd, deflate, fastlz, gzip; "none" an
uncompressed one; the default keeps IN's when it is binary).

An existing OUT is refused unless --force; OUT "-" writes to standard
output. A FILE of the form PACK:res://PATH names a file inside a pack.

Flags:
  --json          dump as JSON
  --to FORM       text or binary (default: OUT's extension)
  --compress MODE compression of a binary OUT: zstd, deflate, fastlz,
                  gzip or none
  --force         replace an existing OUT
  --max-size N    the largest file, and compressed file's data, to read
                  (bytes, or with K, M, G; default 256M)

Examples:
  gdvar res dump level.scn
  gdvar res dump --json theme.res
  gdvar res convert level.scn level.tscn
  gdvar res convert --to binary --compress zstd data.tres data.res
`

// readResourceInput reads a resource file argument: "-", a file, or
// PACK:res://PATH, a file inside a pack (or an executable with one), at
// most maxSize bytes.
func readResourceInput(name string, stdin io.Reader, maxSize int64) ([]byte, error) {
	if i := strings.Index(name, ":res://"); i > 0 {
		return readFromPack(name[:i], name[i+1:], maxSize)
	}
	o := gdfile.Options{MaxSize: int(min(maxSize, 1<<31-1))}
	return readFileBounded(name, stdin, o)
}

// readFromPack reads the file inner (res://…) inside the pack at pack,
// refusing one larger than maxSize before reading it.
func readFromPack(pack, inner string, maxSize int64) ([]byte, error) {
	pr, err := pck.Open(pack, nil)
	if err != nil {
		return nil, err
	}
	defer pr.Close()
	e := pr.Lookup(inner)
	if e == nil {
		return nil, fmt.Errorf("%s: no %s in the pack (gdvar pck list %s lists it)", pack, inner, pack)
	}
	if e.Size > maxSize {
		return nil, fmt.Errorf("%s:%s: %d bytes, more than --max-size allows", pack, inner, e.Size)
	}
	return pr.ReadEntry(e)
}

func runRes(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, resUsage)
		return 2
	}
	switch args[0] {
	case "-h", "-help", "--help", "help":
		fmt.Fprint(stdout, resUsage)
		return 0
	case "dump":
		return runResDump(args[1:], stdin, stdout, stderr)
	case "convert":
		return runResConvert(args[1:], stdin, stdout, stderr)
	}
	if strings.HasPrefix(args[0], "-") {
		usageError(stderr, "res", fmt.Errorf("flag provided but not defined: -%s", strings.TrimLeft(args[0], "-")))
		return 2
	}
	usageError(stderr, "res", fmt.Errorf("unknown subcommand %q (want dump or convert)", args[0]))
	return 2
}

func runResDump(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("res", flag.ContinueOnError)
	asJSON := fs.Bool("json", false, "print JSON")
	maxSize := sizeFlag(resource.DefaultMaxSize)
	fs.Var(&maxSize, "max-size", "largest file to read")
	name, status, ok := parseFlags(fs, args, stderr)
	if !ok {
		if status == 0 {
			fmt.Fprint(stdout, resUsage)
		}
		return status
	}
	noteTerminalInput(name, stdin, stderr)
	data, err := readResourceInput(name, stdin, int64(maxSize))
	if err != nil {
		fmt.Fprintf(stderr, "gdvar res: %v\n", err)
		return 1
	}
	f, err := resource.Read(data, resource.Options{MaxSize: int64(maxSize)})
	if err != nil {
		fmt.Fprintf(stderr, "gdvar res: %s: %v\n", name, err)
		return 1
	}
	if *asJSON {
		b, err := json.MarshalIndent(dumpJSON(f, resource.IsBinary(data)), "", "  ")
		if err != nil {
			fmt.Fprintf(stderr, "gdvar res: %v\n", err)
			return 1
		}
		stdout.Write(append(b, '\n'))
		return 0
	}
	text, err := f.EncodeText()
	if err != nil {
		fmt.Fprintf(stderr, "gdvar res: %s: %v\n", name, err)
		return 1
	}
	fmt.Fprint(stdout, describe(f, resource.IsBinary(data)))
	stdout.Write(text)
	return 0
}

// describe gives the header facts as ';' comment lines.
func describe(f *resource.File, binary bool) string {
	var sb strings.Builder
	if binary {
		b := f.Binary
		fmt.Fprintf(&sb, "; binary resource, written by Godot %d.%d, format version %d", b.Major, b.Minor, b.Format)
		if b.Compressed {
			fmt.Fprintf(&sb, ", compressed (%v)", b.Compression)
		}
		if b.BigEndian {
			sb.WriteString(", big-endian")
		}
		if b.RealDouble {
			sb.WriteString(", double-precision reals")
		}
		sb.WriteString("\n")
	} else {
		fmt.Fprintf(&sb, "; text resource, %v, format %d\n", f.Family, f.Text.Format)
	}
	counts := fmt.Sprintf("; %s: %d external, %d sub-resources", f.Type, len(f.Ext), len(f.Sub))
	if f.Scene != nil {
		counts += fmt.Sprintf(", %d nodes, %d connections", len(f.Scene.Nodes), len(f.Scene.Connections))
	}
	sb.WriteString(counts + "\n")
	return sb.String()
}

type jsonProp struct {
	Name  string `json:"name"`
	Value string `json:"value"`
}

func jsonProps(f *resource.File, ps []variant.Property) []jsonProp {
	out := []jsonProp{}
	for _, p := range ps {
		s, err := gdtext.Format(p.Value, gdtext.Options{Family: f.Family})
		if err != nil {
			s = fmt.Sprint(p.Value)
		}
		out = append(out, jsonProp{p.Name, s})
	}
	return out
}

// dumpJSON is the JSON form of a file.
func dumpJSON(f *resource.File, binary bool) any {
	type ext struct {
		ID   string `json:"id"`
		Type string `json:"type"`
		Path string `json:"path"`
		UID  string `json:"uid,omitempty"`
	}
	type sub struct {
		ID         string     `json:"id"`
		Type       string     `json:"type"`
		Properties []jsonProp `json:"properties"`
	}
	type node struct {
		Name                string     `json:"name"`
		Type                string     `json:"type,omitempty"`
		Parent              string     `json:"parent,omitempty"`
		Owner               string     `json:"owner,omitempty"`
		Index               *int       `json:"index,omitempty"`
		UniqueID            int32      `json:"unique_id,omitempty"`
		Instance            string     `json:"instance,omitempty"`
		InstancePlaceholder string     `json:"instance_placeholder,omitempty"`
		Groups              []string   `json:"groups,omitempty"`
		Properties          []jsonProp `json:"properties"`
	}
	type conn struct {
		Signal  string   `json:"signal"`
		From    string   `json:"from"`
		To      string   `json:"to"`
		Method  string   `json:"method"`
		Flags   int      `json:"flags"`
		Unbinds int      `json:"unbinds,omitempty"`
		Binds   []string `json:"binds,omitempty"`
	}
	out := map[string]any{"type": f.Type, "family": int(f.Family), "binary": binary}
	if f.ScriptClass != "" {
		out["script_class"] = f.ScriptClass
	}
	if f.UID.Valid() {
		out["uid"] = f.UID.String()
	}
	exts := []ext{}
	for _, e := range f.Ext {
		exts = append(exts, ext{e.ID, e.Type, e.Path, e.UID.String()})
	}
	out["ext_resources"] = exts
	subs := []sub{}
	for _, r := range f.Sub {
		subs = append(subs, sub{r.ID, r.Type, jsonProps(f, r.Properties)})
	}
	out["sub_resources"] = subs
	out["properties"] = jsonProps(f, f.Properties)
	if f.Scene != nil {
		nodes := []node{}
		for _, n := range f.Scene.Nodes {
			nd := node{Name: n.Name, Type: n.Type, Parent: n.Parent, Owner: n.Owner, UniqueID: n.UniqueID,
				InstancePlaceholder: n.InstancePlaceholder, Groups: n.Groups, Properties: jsonProps(f, n.Properties)}
			if n.Index >= 0 {
				nd.Index = &n.Index
			}
			if n.Instance != nil {
				nd.Instance = n.Instance.String()
			}
			nodes = append(nodes, nd)
		}
		conns := []conn{}
		for _, c := range f.Scene.Connections {
			cc := conn{c.Signal, c.From, c.To, c.Method, c.Flags, c.Unbinds, nil}
			for _, b := range c.Binds {
				s, _ := gdtext.Format(b, gdtext.Options{Family: f.Family})
				cc.Binds = append(cc.Binds, s)
			}
			conns = append(conns, cc)
		}
		sc := map[string]any{"nodes": nodes, "connections": conns, "editable": append([]string{}, f.Scene.Editable...)}
		if f.Scene.BaseScene != nil {
			sc["base_scene"] = f.Scene.BaseScene.String()
		}
		out["scene"] = sc
	}
	return out
}

func runResConvert(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("res", flag.ContinueOnError)
	to := fs.String("to", "", "text or binary")
	compress := fs.String("compress", "", "compression of a binary output")
	force := fs.Bool("force", false, "replace an existing output")
	maxSize := sizeFlag(resource.DefaultMaxSize)
	fs.Var(&maxSize, "max-size", "largest file to read")
	pos, status, ok := parsePositional(fs, args, stderr, 2)
	if !ok {
		if status == 0 {
			fmt.Fprint(stdout, resUsage)
		}
		return status
	}
	in, out := pos[0], pos[1]
	binary, err := targetForm(*to, out)
	if err != nil {
		usageError(stderr, "res", err)
		return 2
	}
	data, err := readResourceInput(in, stdin, int64(maxSize))
	if err != nil {
		fmt.Fprintf(stderr, "gdvar res: %v\n", err)
		return 1
	}
	f, err := resource.Read(data, resource.Options{MaxSize: int64(maxSize)})
	if err != nil {
		fmt.Fprintf(stderr, "gdvar res: %s: %v\n", in, err)
		return 1
	}
	if f.Scene == nil && strings.EqualFold(filepath.Ext(out), ".tscn") || f.Scene != nil && strings.EqualFold(filepath.Ext(out), ".tres") {
		fmt.Fprintf(stderr, "gdvar res: warning: %s holds a %s; the engine saves it as %s\n", out, f.Type,
			map[bool]string{true: ".tscn", false: ".tres"}[f.Scene != nil])
	}
	var outData []byte
	if binary {
		switch strings.ToLower(*compress) {
		case "":
		case "none":
			f.Binary.Compressed = false
		default:
			c, ok := gdfile.ParseCompression(*compress)
			if !ok || c == gdfile.Brotli {
				usageError(stderr, "res", fmt.Errorf("--compress %q: want zstd, deflate, fastlz, gzip or none", *compress))
				return 2
			}
			f.Binary.Compressed, f.Binary.Compression = true, c
		}
		outData, err = f.EncodeBinary()
	} else {
		if *compress != "" {
			usageError(stderr, "res", errors.New("--compress is for binary outputs"))
			return 2
		}
		outData, err = f.EncodeText()
	}
	if err != nil {
		fmt.Fprintf(stderr, "gdvar res: %s: %v\n", in, err)
		return 1
	}
	if out == "-" {
		stdout.Write(outData)
		return 0
	}
	if err := writeFileSafely(out, outData, writeOptions{force: *force}); err != nil {
		fmt.Fprintf(stderr, "gdvar res: %v\n", err)
		return 1
	}
	return 0
}

// targetForm decides the output form from --to or the output's extension.
func targetForm(to, out string) (binary bool, err error) {
	switch strings.ToLower(to) {
	case "binary", "res", "scn":
		return true, nil
	case "text", "tres", "tscn":
		return false, nil
	case "":
	default:
		return false, fmt.Errorf("--to %q: want text or binary", to)
	}
	if out == "-" {
		return false, nil // standard output: text unless --to says otherwise
	}
	switch strings.ToLower(filepath.Ext(out)) {
	case ".res", ".scn":
		return true, nil
	case ".tres", ".tscn":
		return false, nil
	}
	return false, fmt.Errorf("cannot tell the form of %s from its extension: give --to text or --to binary", out)
}
