# Prints what Godot 4 Marshalls writes in base64, and what it reads back.
# Run in Godot 4.6 (a SceneTree script); see README.md.
#
# Output, one line each:
#   variant<TAB>var_to_str<TAB>var_to_bytes hex<TAB>Marshalls.variant_to_base64
#   raw<TAB>var_to_str<TAB>var_to_bytes hex<TAB>Marshalls.raw_to_base64(var_to_bytes)
#   read<TAB>input<TAB>typeof of base64_to_variant (-1: null)
extends SceneTree


func _initialize() -> void:
	var big := PackedByteArray()
	for i in 300:
		big.append(i % 256)
	var values := [
		1,
		"abc",
		Vector2(1, 2),
		{"name": "player1", "hp": 99.5, "pos": Vector2i(3, -4)},
		[1, "two", 3.5, null, true],
		PackedInt32Array([1, 2, 3]),
		big,
	]
	for v in values:
		var b := var_to_bytes(v)
		print("variant\t%s\t%s\t%s" % [var_to_str(v).replace("\n", " "), b.hex_encode(), Marshalls.variant_to_base64(v)])
		print("raw\t%s\t%s\t%s" % [var_to_str(v).replace("\n", " "), b.hex_encode(), Marshalls.raw_to_base64(b)])
	# What the engine reads: padding, line breaks and spaces, URL-safe letters.
	for s in ["AgAAAAEAAAA=", "AgAAAAEAAAA", "AgAAAA\nEAAAA=", "AgAAAA EAAAA=", "BQAAAAAAgD8AAABA", "BQAAAAAAgD8AAABA-_"]:
		var v = Marshalls.base64_to_variant(s)
		print("read\t%s\t%d" % [s.c_escape(), typeof(v) if v != null else -1])
	quit()
