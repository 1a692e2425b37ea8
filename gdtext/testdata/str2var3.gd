extends SceneTree
# str2var3.gd INPUT-FILE: reads Variant text with Godot 3's str2var and prints
# what the engine made of it. Run with the Godot 3 oracle:
#
#     run.sh str2var3.gd INPUT-FILE
#
# INPUT-FILE holds one item a line: the UTF-8 bytes of the text as hex, with
# "obj:" in front to re-encode with full objects. Blank lines and "#" lines
# are skipped. Every other line prints one line:
#
#     TYPE<TAB>HEX<TAB>TEXT     typeof(value), var2bytes(value[, true]) as hex,
#                               var2str(value) with line breaks as spaces
#     ERROR<TAB>message         str2var refused the text
#
# str2var returns the text itself when it cannot parse it; no literal of a
# String parses to its own text, so that is how a refusal is recognised.

var _hexval = {}

func _hex2bytes(h):
	if h.length() % 2 != 0:
		return null
	var out = PoolByteArray()
	out.resize(h.length() / 2)
	for i in range(out.size()):
		var a = _hexval.get(h.ord_at(2 * i), -1)
		var b = _hexval.get(h.ord_at(2 * i + 1), -1)
		if a < 0 or b < 0:
			return null
		out[i] = a * 16 + b
	return out

func _init():
	for i in range(10):
		_hexval[48 + i] = i
	for i in range(6):
		_hexval[97 + i] = 10 + i
		_hexval[65 + i] = 10 + i
	var args = OS.get_cmdline_args()
	var fi = File.new()
	if fi.open(args[args.size() - 1], File.READ) != OK:
		printerr("str2var3.gd: cannot open input")
		quit(2)
		return
	while not fi.eof_reached():
		var line = fi.get_line().strip_edges()
		if line == "" or line.begins_with("#"):
			continue
		var objects = false
		if line.begins_with("obj:"):
			objects = true
			line = line.substr(4, line.length() - 4)
		var b = _hex2bytes(line)
		if b == null:
			print("ERROR\tinput is not hex")
			continue
		var text = b.get_string_from_utf8()
		var v = str2var(text)
		if typeof(v) == TYPE_STRING and v == text:
			print("ERROR\tstr2var refused the text")
			continue
		var shown = var2str(v).replace("\n", " ").replace("\r", " ").replace("\t", " ")
		print("%d\t%s\t%s" % [typeof(v), var2bytes(v, objects).hex_encode(), shown])
	fi.close()
	quit(0)
