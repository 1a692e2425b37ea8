package main

import (
	"fmt"
	"os"
	"strconv"
	"strings"

	"github.com/gdvar/gdvar/classdb"
	"github.com/gdvar/gdvar/variant"
)

// godotFlag is the --godot flag: a family ("3", "4") or a version ("4.2").
type godotFlag struct {
	version variant.Version // Minor < 0: the family's newest
}

func newGodotFlag() *godotFlag { return &godotFlag{variant.Version{Major: 4, Minor: -1}} }

func (g *godotFlag) String() string {
	if g.version.Minor < 0 {
		return strconv.Itoa(g.version.Major)
	}
	return g.version.String()
}

func (g *godotFlag) Set(s string) error {
	major, minor, hasMinor := strings.Cut(s, ".")
	v := variant.Version{Minor: -1}
	var err error
	if v.Major, err = strconv.Atoi(major); err != nil || (v.Major != 3 && v.Major != 4) {
		return fmt.Errorf("want 3 or 4 (or a version such as 4.2), got %q", s)
	}
	if hasMinor && minor != "x" {
		if v.Minor, err = strconv.Atoi(minor); err != nil || v.Minor < 0 || v.Minor > 99 {
			return fmt.Errorf("bad minor version in %q", s)
		}
	}
	g.version = v
	return nil
}

func (g *godotFlag) family() variant.Family { return variant.Family(g.version.Major) }

// encVersion is the version for EncOptions: zero for the family's newest.
func (g *godotFlag) encVersion() variant.Version {
	if g.version.Minor < 0 {
		return variant.Version{}
	}
	return g.version
}

// classesUsage describes the --classes flag, for the commands that have it.
const classesUsage = `  --classes LIST    with --allow-objects, accept only Objects of these
                    classes: "engine" for every class the family's engine
                    can instantiate (the engine's own check), or a file of
                    class names, one a line`

// classList turns the --classes flag into DecOptions.Classes: nil for "",
// the engine's list for "engine", else the names in the file.
func classList(flagValue string, fam variant.Family) (func(string) bool, error) {
	switch flagValue {
	case "":
		return nil, nil
	case "engine":
		if fam == variant.Godot3 {
			return classdb.Godot3.Has, nil
		}
		return classdb.Godot4.Has, nil
	}
	text, err := os.ReadFile(flagValue)
	if err != nil {
		return nil, fmt.Errorf("--classes: %w", err)
	}
	return classdb.Parse(string(text)).Has, nil
}
