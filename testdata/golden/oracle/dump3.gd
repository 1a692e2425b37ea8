extends SceneTree
# dump3.gd: decodes hex strings with Godot 3 and prints one JSON object per
# input line. Run with the Godot 3 oracle's run.sh; bytes2var raises a
# script error on bad input, which must be tolerated:
#
#     ORACLE3_TOLERATE='SCRIPT ERROR: _decode: *' run.sh dump3.gd INPUT
#
# INPUT holds one hex string a line, after "hex:" (or nothing) or "obj:";
# "obj:" decodes with bytes2var(b, true) and re-encodes with
# var2bytes(v, true). "hex:" alone stands for the empty input. Blank lines and
# "#" lines are skipped. For item N (counted from 0) it first writes "@@N" to
# stderr (the engine's error messages about the item follow it there), then
# prints
#
#     {"n": N, "type": typeof(value), "text": var2str(value),
#      "text_hex": hex of the UTF-8 bytes of that text,
#      "reencoded": hex of var2bytes(value)}
#
# Whether the decode failed is only visible on stderr (a SCRIPT ERROR from
# the bytes2var call after the item's marker); golden.py joins the two.

var _hexval = {}

func _hex2bytes(h):
	var out = PoolByteArray()
	out.resize(h.length() / 2)
	for i in range(out.size()):
		out[i] = _hexval[h.ord_at(2 * i)] * 16 + _hexval[h.ord_at(2 * i + 1)]
	return out

func _decode(b, allow_objects):
	return bytes2var(b, allow_objects)

func _init():
	for i in range(10):
		_hexval[48 + i] = i
	for i in range(6):
		_hexval[97 + i] = 10 + i
		_hexval[65 + i] = 10 + i
	var args = OS.get_cmdline_args()
	var f = File.new()
	if f.open(args[args.size() - 1], File.READ) != OK:
		printerr("dump3.gd: cannot open input")
		quit(2)
		return
	var n = 0
	while not f.eof_reached():
		var line = f.get_line().strip_edges()
		if line == "" or line.begins_with("#"):
			continue
		var objects = line.begins_with("obj:")
		if objects or line.begins_with("hex:"):
			line = line.substr(4, line.length() - 4)
		printerr("@@", n)
		var v = _decode(_hex2bytes(line), objects)
		var text = var2str(v)
		print(to_json({
			"n": n,
			"type": typeof(v),
			"text": text,
			"text_hex": text.to_utf8().hex_encode(),
			"reencoded": var2bytes(v, objects).hex_encode(),
		}))
		n += 1
	printerr("@@END")
	f.close()
	quit(0)
