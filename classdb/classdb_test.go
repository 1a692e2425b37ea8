package classdb_test

import (
	"fmt"
	"testing"

	"github.com/gdvar/gdvar/classdb"
)

func TestEngineLists(t *testing.T) {
	for _, c := range []struct {
		list       classdb.List
		n          int
		has, hasnt []string
	}{
		{classdb.Godot4, 778, []string{"Object", "Node", "Resource", "GDScript", "EncodedObjectAsID", "Node3D"}, []string{"Script", "NoSuchClass", "Spatial", ""}},
		{classdb.Godot3, 512, []string{"Object", "Node", "Resource", "GDScript", "EncodedObjectAsID", "Spatial"}, []string{"Script", "NoSuchClass", "Node3D", ""}},
	} {
		if c.list.Len() != c.n {
			t.Errorf("%d classes, want %d", c.list.Len(), c.n)
		}
		for _, name := range c.has {
			if !c.list.Has(name) {
				t.Errorf("%q missing", name)
			}
		}
		for _, name := range c.hasnt {
			if c.list.Has(name) {
				t.Errorf("%q listed", name)
			}
		}
	}
}

func TestParse(t *testing.T) {
	l := classdb.Parse("# a comment\nNode\n\n  Sprite2D \nNode\r\nCamera2D")
	if got := fmt.Sprint(l.Names()); got != "[Camera2D Node Sprite2D]" {
		t.Fatal(got)
	}
	var zero classdb.List
	if zero.Has("Node") || zero.Len() != 0 {
		t.Fatal("the zero List is not empty")
	}
}

func ExampleOf() {
	// Only the classes a game server expects in its messages.
	allowed := classdb.Of("Resource", "Curve")
	fmt.Println(allowed.Has("Curve"), allowed.Has("GDScript"))
	// Output: true false
}
