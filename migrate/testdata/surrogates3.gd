# Godot 3.2.3: prints var2bytes of values holding the surrogates of
# U+1F600 (two characters in a Godot 3 String, as on Windows, where
# Strings are UTF-16; written as CESU-8), in hex.
extends SceneTree

func _init():
	var s = char(0xD83D) + char(0xDE00)
	var v = [s + "x", PoolStringArray(["a" + s]), {s: NodePath("/root/" + s + ":p")}]
	print(var2bytes(v).hex_encode())
	quit()
