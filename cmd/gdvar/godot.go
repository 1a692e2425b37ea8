package main

import (
	"fmt"
	"strconv"
	"strings"

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
