package resource

import (
	"strconv"
	"testing"

	"github.com/gdvar/gdvar/variant"
)

// bigScene is a scene of n nodes: a root with n-1 Node2D children in
// chains of ten, each with a position and a group, and a connection every
// ten nodes, as a level editor makes them.
func bigScene(n int) *File {
	s := &Scene{}
	s.Nodes = append(s.Nodes, Node{Name: "Level", Type: "Node2D", Index: -1})
	parent := "."
	for i := 1; i < n; i++ {
		if i%10 == 1 {
			parent = "."
		}
		nd := Node{Name: "N" + strconv.Itoa(i), Type: "Node2D", Parent: parent, Index: -1,
			Groups: []string{"g" + strconv.Itoa(i%7)},
			Properties: []variant.Property{
				{Name: "position", Value: variant.Vector2{X: float64(i), Y: float64(-i) / 4}},
				{Name: "rotation", Value: variant.Float(float64(i) / 1000)},
			}}
		s.Nodes = append(s.Nodes, nd)
		if i%10 == 0 {
			s.Connections = append(s.Connections, Connection{Signal: "ready", From: nd.Path(), To: ".", Method: "on_ready", Flags: connectPersist,
				Binds: []variant.Value{variant.Int(i)}})
		}
		parent = nd.Path()
	}
	return &File{Family: variant.Godot4, Type: "PackedScene", UID: NoUID, Scene: s}
}

// bigResource is a resource holding a mesh-sized PackedVector3Array and an
// Array of 10,000 small Dictionaries.
func bigResource() *File {
	verts := make(variant.PackedVector3Array, 1<<18)
	for i := range verts {
		verts[i] = variant.Vector3{X: float64(i), Y: 1, Z: float64(i) / 2}
	}
	items := &variant.Array{}
	for i := range 10000 {
		d := variant.NewDictionary(3)
		d.Set(variant.String("id"), variant.Int(i))
		d.Set(variant.String("name"), variant.String("item"+strconv.Itoa(i)))
		d.Set(variant.String("pos"), variant.Vector2{X: float64(i), Y: 2})
		items.Values = append(items.Values, d)
	}
	return &File{Family: variant.Godot4, Type: "Resource", UID: NoUID, Properties: []variant.Property{
		{Name: "metadata/vertices", Value: verts}, {Name: "metadata/items", Value: items}}}
}

func benchForms(b *testing.B, f *File) {
	text, err := f.EncodeText()
	if err != nil {
		b.Fatal(err)
	}
	bin, err := f.EncodeBinary()
	if err != nil {
		b.Fatal(err)
	}
	b.Run("ReadText", func(b *testing.B) {
		b.SetBytes(int64(len(text)))
		for b.Loop() {
			if _, err := ReadText(text, Options{}); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("ReadBinary", func(b *testing.B) {
		b.SetBytes(int64(len(bin)))
		for b.Loop() {
			if _, err := ReadBinary(bin, Options{}); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("TextToBinary", func(b *testing.B) {
		b.SetBytes(int64(len(text)))
		for b.Loop() {
			g, err := ReadText(text, Options{})
			if err != nil {
				b.Fatal(err)
			}
			if _, err := g.EncodeBinary(); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("BinaryToText", func(b *testing.B) {
		b.SetBytes(int64(len(bin)))
		for b.Loop() {
			g, err := ReadBinary(bin, Options{})
			if err != nil {
				b.Fatal(err)
			}
			if _, err := g.EncodeText(); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkScene20k reads and converts a scene of 20,000 nodes.
func BenchmarkScene20k(b *testing.B) { benchForms(b, bigScene(20000)) }

// BenchmarkBigResource reads and converts a resource of a 262,144-vertex
// PackedVector3Array and 10,000 Dictionaries.
func BenchmarkBigResource(b *testing.B) { benchForms(b, bigResource()) }
