# colors4.gd: what Godot 4 makes of a String where a Color is expected.
# Run with the Godot 4 oracle's run.sh:
#
#     run.sh colors4.gd INPUT
#
# INPUT holds color names, one a line, then a line "--", then strings, one
# JSON string a line; blank and "#" lines are skipped. For every name it
# prints
#
#     name<TAB>hex of var_to_bytes(Color.from_string(name, Color(-1, -1, -1, -1)))
#
# then "--", then for every string s
#
#     the JSON string<TAB>hex of var_to_bytes(element)<TAB>hex of var_to_bytes(Color(s))
#
# where element is what bytes_to_var makes of a one-element Array typed
# Color holding s: the conversion the binary decoder applies.
extends SceneTree


func _initialize() -> void:
	var input := FileAccess.get_file_as_string(OS.get_cmdline_user_args()[0])
	var strings := false
	for line in input.split("\n"):
		if line.strip_edges() == "" or line.begins_with("#"):
			continue
		if line == "--":
			strings = true
			print("--")
			continue
		if not strings:
			var found := Color.from_string(line, Color(-1, -1, -1, -1))
			print("%s\t%s" % [line, var_to_bytes(found).hex_encode()])
			continue
		var s: String = JSON.parse_string(line)
		# Array typed Color: header 28 with kind 1 (builtin) in bits 16-17,
		# the builtin type 20, then the untyped Array's count and element.
		var b := PackedByteArray([28, 0, 1, 0, 20, 0, 0, 0])
		b.append_array(var_to_bytes([s]).slice(4))
		var a: Array = bytes_to_var(b)
		var element := "dropped"
		if a.size() == 1:
			element = var_to_bytes(a[0]).hex_encode()
		print("%s\t%s\t%s" % [line, element, var_to_bytes(Color(s)).hex_encode()])
	quit(0)
