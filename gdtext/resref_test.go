package gdtext

import (
	"errors"
	"testing"

	"github.com/gdvar/gdvar/variant"
)

func TestResourceRefs(t *testing.T) {
	for _, c := range []struct {
		fam       variant.Family
		in, out   string
		wantFirst variant.ResourceRef
	}{
		{variant.Godot4, `[SubResource("Resource_x1"), ExtResource("1_ab"), Resource("res://a.tres")]`,
			`[SubResource("Resource_x1"), ExtResource("1_ab"), Resource("res://a.tres")]`,
			variant.ResourceRef{Kind: variant.RefSub, ID: "Resource_x1"}},
		{variant.Godot3, `[ SubResource( 3 ), ExtResource( 1 ), Resource( "res://a.tres" ) ]`,
			`[ SubResource( 3 ), ExtResource( 1 ), Resource( "res://a.tres" ) ]`,
			variant.ResourceRef{Kind: variant.RefSub, ID: "3"}},
	} {
		v, err := Parse(c.in, ParseOptions{Family: c.fam, Resources: true})
		if err != nil {
			t.Fatal(err)
		}
		if got := v.(*variant.Array).Values[0]; got != c.wantFirst {
			t.Errorf("first = %#v, want %#v", got, c.wantFirst)
		}
		out, err := Format(v, Options{Family: c.fam})
		if err != nil || out != c.out {
			t.Errorf("Format = %q, %v; want %q", out, err, c.out)
		}
		if _, err := Parse(c.in, ParseOptions{Family: c.fam}); err == nil {
			t.Errorf("%s parsed without Resources", c.in)
		}
	}
	if _, err := variant.Encode(variant.ResourceRef{Kind: variant.RefSub, ID: "a"}); err == nil {
		t.Error("a ResourceRef encoded with var_to_bytes")
	}
	v, err := Parse(`Array[ExtResource("2_x")]([])`, ParseOptions{Resources: true})
	if err != nil || v.(*variant.Array).Elem.Name != "2_x" {
		t.Errorf("typed by ExtResource: %v, %v", v, err)
	}
	v, n, err := ParsePrefix("{\n\"a\": 1\n}\nnext = 2", ParseOptions{})
	if err != nil || n != 10 || v.(*variant.Dictionary).Len() != 1 {
		t.Errorf("ParsePrefix = %v, %d, %v", v, n, err)
	}
}

func TestResourceRefEncodeError(t *testing.T) {
	_, err := variant.Encode(variant.NewArray(variant.ResourceRef{Kind: variant.RefExt, ID: "1"}))
	var e *variant.Error
	if !errors.As(err, &e) || !errors.Is(err, variant.ErrUnsupported) {
		t.Errorf("encoding a ResourceRef: %v, want a *variant.Error with ErrUnsupported", err)
	}
}
