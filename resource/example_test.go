package resource_test

import (
	"fmt"
	"os"

	"github.com/gdvar/gdvar/resource"
	"github.com/gdvar/gdvar/variant"
)

// Read a binary scene that Godot 4.6 saved and print its nodes.
func ExampleReadBinary() {
	data, err := os.ReadFile("testdata/godot4/level.scn")
	if err != nil {
		panic(err)
	}
	f, err := resource.ReadBinary(data, resource.Options{})
	if err != nil {
		panic(err)
	}
	for _, n := range f.Scene.Nodes {
		pos, _ := n.Get("position")
		fmt.Println(n.Path(), n.Type, n.Groups, pos)
	}
	// Output:
	// . Node2D [] <nil>
	// A Node2D [enemies] Vector2(1, 2)
	// A/B Timer [] <nil>
	// Item1  [] Vector2(10, 0)
	// Item1/Sprite  [] Vector2(7, 8)
}

// Build a resource with a sub-resource and write it in both forms.
func ExampleFile_EncodeText() {
	f := &resource.File{
		Family: variant.Godot4,
		Type:   "Resource",
		UID:    resource.NoUID,
		Sub: []*resource.Resource{{ID: "Gradient_1", Type: "Gradient", Properties: []variant.Property{
			{Name: "colors", Value: variant.PackedColorArray{{R: 1, A: 1}, {B: 1, A: 1}}},
		}}},
		Properties: []variant.Property{
			{Name: "resource_name", Value: variant.String("sky")},
			{Name: "metadata/gradient", Value: variant.ResourceRef{Kind: variant.RefSub, ID: "Gradient_1"}},
		},
	}
	text, err := f.EncodeText()
	if err != nil {
		panic(err)
	}
	fmt.Print(string(text))
	bin, err := f.EncodeBinary()
	if err != nil {
		panic(err)
	}
	g, err := resource.Read(bin, resource.Options{})
	if err != nil {
		panic(err)
	}
	fmt.Println(len(bin), "bytes;", resource.Diff(f, g, resource.DiffOptions{}) == "")
	// Output:
	// [gd_resource type="Resource" format=3]
	//
	// [sub_resource type="Gradient" id="Gradient_1"]
	// colors = PackedColorArray(1, 0, 0, 1, 0, 0, 1, 1)
	//
	// [resource]
	// resource_name = "sky"
	// metadata/gradient = SubResource("Gradient_1")
	// 349 bytes; true
}
