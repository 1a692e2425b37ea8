# Prints what Godot 3 Marshalls writes in base64, and what it reads back.
# Run in Godot 3.2.3 (a SceneTree script); see README.md.
#
# Output, one line each:
#   variant<TAB>var2str<TAB>var2bytes hex<TAB>Marshalls.variant_to_base64
#   raw<TAB>var2str<TAB>var2bytes hex<TAB>Marshalls.raw_to_base64(var2bytes)
#   read<TAB>input<TAB>typeof of base64_to_variant (-1: null)
extends SceneTree


func _init():
	var big = PoolByteArray()
	for i in 300:
		big.append(i % 256)
	var values := [
		1,
		"abc",
		Vector2(1, 2),
		{"name": "player1", "hp": 99.5, "pos": Vector2(3, -4)},
		[1, "two", 3.5, null, true],
		PoolIntArray([1, 2, 3]),
		big,
	]
	for v in values:
		var b = var2bytes(v)
		print("variant\t%s\t%s\t%s" % [var2str(v).replace("\n", " "), b.hex_encode(), Marshalls.variant_to_base64(v)])
		print("raw\t%s\t%s\t%s" % [var2str(v).replace("\n", " "), b.hex_encode(), Marshalls.raw_to_base64(b)])
	# What the engine reads: padding, line breaks and spaces, URL-safe letters.
	for s in ["AgAAAAEAAAA=", "AgAAAAEAAAA", "AgAAAA\nEAAAA=", "AgAAAA EAAAA=", "BQAAAAAAgD8AAABA", "BQAAAAAAgD8AAABA-_"]:
		var v = Marshalls.base64_to_variant(s)
		print("read\t%s\t%d" % [s.c_escape(), typeof(v) if v != null else -1])
	quit()
