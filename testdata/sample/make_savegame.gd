# Builds the sample save game and prints var_to_bytes(save) as hex.
# Run in Godot 4.6 (a SceneTree script), then: xxd -r -p > savegame.bin
extends SceneTree


func _initialize() -> void:
	var unlocked: Array[int] = [1, 2, 3, 5, 8]
	var stats: Dictionary[String, int] = {"strength": 14, "agility": 9, "wits": 11}
	var save := {
		"version": 3,
		"player": {
			"name": "Ada Lovelace",
			"level": 12,
			"hp": 87.5,
			"xp": 1234567890123,
			"position": Vector3(12.5, 0.0, -4.25),
			"rotation": Quaternion(0, 0.70710677, 0, 0.70710677),
			"inventory": ["sword", "potion", "potion", &"key_red"],
			"gold": 1520,
		},
		"checkpoint": NodePath("/root/World/Checkpoints:cp_3"),
		"flags": PackedStringArray(["met_merchant", "opened_gate", "ñandú 🦤"]),
		"unlocked_levels": unlocked,
		"stats": stats,
		"play_time": 5321.75,
		"difficulty": 0.1,
		"settings": {"volume": 0.8, "fullscreen": true, "keys": {"jump": "space", "dash": "shift"}},
		"minimap": PackedByteArray([0, 1, 1, 0, 2, 3, 1]),
		"spawn": Transform3D(Basis(Vector3(0, 0, -1), Vector3(0, 1, 0), Vector3(1, 0, 0)), Vector3(1, 2, 3)),
		"tint": Color(0.2, 0.4, 0.6, 1.0),
		"cells": PackedVector2Array([Vector2(0, 0), Vector2(1, 0), Vector2(1, 1)]),
		"last_enemy": null,
	}
	print(var_to_bytes(save).hex_encode())
	quit()
