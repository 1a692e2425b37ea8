package multiplayer

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/gdvar/gdvar/variant"
)

func TestScriptRPCs(t *testing.T) {
	src, err := os.ReadFile("testdata/lobby4.gd")
	if err != nil {
		t.Fatal(err)
	}
	got, err := ScriptRPCs(variant.Godot4, string(src))
	if err != nil {
		t.Fatal(err)
	}
	want := []Method{
		{Name: "hello", Mode: AnyPeer, Transfer: Reliable},
		{Name: "blob", Mode: AnyPeer, Transfer: Reliable},
		{Name: "ping", Mode: AnyPeer, Transfer: Unreliable},
		{Name: "only_host", Mode: Authority, Transfer: Reliable},
		{Name: "welcome", Mode: Authority, Transfer: Reliable},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %+v", got)
	}
	src, _ = os.ReadFile("testdata/lobby3.gd")
	got, _ = ScriptRPCs(variant.Godot3, string(src))
	if len(got) != 5 || got[0].Name != "hello" || got[0].Mode != AnyPeer || got[3].Mode != Authority {
		t.Errorf("Godot 3: %+v", got)
	}
	got, err = ScriptRPCs(variant.Godot4, "@rpc(\"any_peer\", \"call_local\", \"unreliable_ordered\", 2) func a():\n\tpass\n@rpc\nvar x = 1\nfunc b():\n\tpass\n")
	if err != nil || len(got) != 1 || got[0] != (Method{Name: "a", Mode: AnyPeer, CallLocal: true, Transfer: UnreliableOrdered, Channel: 2}) {
		t.Errorf("one-line annotation: %+v %v", got, err)
	}
}

func TestLoadProject(t *testing.T) {
	dir := t.TempDir()
	write := func(name, body string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	lobby, _ := os.ReadFile("testdata/lobby4.gd")
	write("lobby.gd", string(lobby))
	write("player.gd", "extends Node2D\n@rpc(\"any_peer\")\nfunc move(p: Vector2) -> void:\n\tpass\n")
	write("main.tscn", `[gd_scene load_steps=3 format=3]

[ext_resource type="Script" path="res://player.gd" id="1_abc"]

[node name="Main" type="Node"]

[node name="World" type="Node2D" parent="."]

[node name="Player" type="Node2D" parent="World"]
script = ExtResource("1_abc")
`)
	write("project.godot", "[application]\nrun/main_scene=\"res://main.tscn\"\n\n[autoload]\n\nLobby=\"*res://lobby.gd\"\n")
	nodes, err := LoadProject(dir, variant.Godot4)
	if err != nil {
		t.Fatal(err)
	}
	if len(nodes) != 2 || nodes[0].Path != "Lobby" || len(nodes[0].Methods) != 5 || nodes[1].Path != "Main/World/Player" || nodes[1].Methods[0].Name != "move" {
		t.Errorf("nodes %+v", nodes)
	}
}

// A Godot 3 project: its scene format and keywords.
func TestLoadProject3(t *testing.T) {
	dir := t.TempDir()
	write := func(name, body string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("player.gd", "extends KinematicBody2D\n\nremote func move(pos):\n\tpass\n\npuppetsync func hit(d):\n\tpass\n")
	write("main.tscn", `[gd_scene load_steps=2 format=2]

[ext_resource path="res://player.gd" type="Script" id=1]

[node name="Main" type="Node"]

[node name="Player" type="KinematicBody2D" parent="."]
script = ExtResource( 1 )
`)
	nodes, err := LoadProject(dir, variant.Godot3)
	if err != nil {
		t.Fatal(err)
	}
	if len(nodes) != 1 || nodes[0].Path != "Main/Player" || len(nodes[0].Methods) != 2 ||
		nodes[0].Methods[1] != (Method{Name: "hit", Mode: Authority, Transfer: Reliable, CallLocal: true}) {
		t.Errorf("nodes %+v", nodes)
	}
}
