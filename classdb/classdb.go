// Package classdb lists the classes that Godot engines can instantiate,
// for variant.DecOptions.Classes (and gdvar.DecOptions.Classes). Limits: the
// lists are those of two builds, Godot 4.6's web export template and Debian's
// Godot 3.2.3; other versions and builds (desktop modules, GDExtensions)
// differ, and can print their own list for Parse.
//
// When a decoder allows full Objects, the engine accepts one only if its
// ClassDB can instantiate the class: an unknown class name, or an abstract
// one such as Script, fails the whole decode. gdvar has no ClassDB, so by
// default it accepts any class name. With a list from this package it
// refuses the same names the engine refuses, and a server that decodes
// objects can also narrow the list to the few classes it expects:
//
//	dec, err := variant.DecOptions{
//		AllowObjects: true,
//		Classes:      classdb.Godot4.Has,
//	}.DecMode()
//
// The lists were printed by the engines themselves (classes4.gd,
// classes3.gd and generate.sh in this folder). An engine's list depends on
// its build: Godot4 is Godot 4.6's web export template, which lacks a few
// modules of the desktop builds (ENet, UPnP, OpenXR and others); Godot3 is
// Debian's headless Godot 3.2.3. For another build, print its own list
// with the same scripts and load it with Parse.
package classdb

import (
	_ "embed"
	"slices"
	"strings"
)

// List is a set of class names. The zero List holds none.
type List struct {
	names []string // sorted
}

//go:embed godot4.txt
var godot4 string

//go:embed godot3.txt
var godot3 string

var (
	// Godot4 holds the classes Godot 4.6's web export template can
	// instantiate (778 classes).
	Godot4 = Parse(godot4)
	// Godot3 holds the classes Godot 3.2.3 (Debian's godot3-server) can
	// instance (512 classes).
	Godot3 = Parse(godot3)
)

// Parse returns the List of the class names in text, one a line; blank
// lines and lines starting with "#" are ignored.
func Parse(text string) List {
	var names []string
	for line := range strings.Lines(text) {
		line = strings.TrimSpace(line)
		if line != "" && !strings.HasPrefix(line, "#") {
			names = append(names, line)
		}
	}
	return Of(names...)
}

// Of returns the List of the given class names.
func Of(names ...string) List {
	s := slices.Clone(names)
	slices.Sort(s)
	return List{names: slices.Compact(s)}
}

// Has reports whether class is in the list. Its signature fits
// variant.DecOptions.Classes.
func (l List) Has(class string) bool {
	_, ok := slices.BinarySearch(l.names, class)
	return ok
}

// Names returns the class names, sorted.
func (l List) Names() []string { return slices.Clone(l.names) }

// Len returns the number of classes in the list.
func (l List) Len() int { return len(l.names) }
