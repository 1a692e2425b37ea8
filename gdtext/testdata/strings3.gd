extends SceneTree
# strings3.gd INPUT-FILE: what Godot 3's bytes2var, var2str and str2var do
# with strings beyond UTF-8. Run by strings3.sh with the Godot 3 oracle:
#
#     ORACLE3_TOLERATE='SCRIPT ERROR: _decode: *' run.sh strings3.gd INPUT-FILE
#
# INPUT-FILE: one item a line, RAW<TAB>TEXT: RAW is the hex of a String's
# bytes, TEXT the hex of a Variant text ("-" for none). Each item prints
#
#     RAW<TAB>DECODED<TAB>VAR2STR<TAB>AGAIN<TAB>TEXT<TAB>READ
#
# DECODED: var2bytes(bytes2var(the String's encoding)) as hex, or ERROR
#          when bytes2var refuses it;
# VAR2STR: the UTF-8 bytes of var2str of that value, as hex;
# AGAIN:   var2bytes(str2var(var2str(...))) as hex;
# READ:    var2bytes(str2var(TEXT read with get_string_from_utf8)) as hex,
#          or REFUSED when str2var returns the text itself.
# The last three are "-" where there is nothing to show.

var _hexval = {}

func _hex2bytes(h):
	var out = PoolByteArray()
	out.resize(h.length() / 2)
	for i in range(out.size()):
		out[i] = _hexval[h.ord_at(2 * i)] * 16 + _hexval[h.ord_at(2 * i + 1)]
	return out

func _decode(b):
	return bytes2var(b)

func _init():
	for i in range(10):
		_hexval[48 + i] = i
	for i in range(6):
		_hexval[97 + i] = 10 + i
	var args = OS.get_cmdline_args()
	var fi = File.new()
	if fi.open(args[args.size() - 1], File.READ) != OK:
		printerr("strings3.gd: cannot open input")
		quit(2)
		return
	while not fi.eof_reached():
		var line = fi.get_line().strip_edges()
		if line == "" or line.begins_with("#"):
			continue
		var parts = line.split("\t")
		var raw = _hex2bytes(parts[0])
		var enc = PoolByteArray([4, 0, 0, 0, raw.size(), 0, 0, 0])
		enc.append_array(raw)
		while enc.size() % 4 != 0:
			enc.append(0)
		var out = parts[0]
		var v = _decode(enc)
		if v == null:
			out += "\tERROR\t-\t-"
		else:
			var s = var2str(v)
			out += "\t" + var2bytes(v).hex_encode() + "\t" + s.to_utf8().hex_encode()
			out += "\t" + var2bytes(str2var(s)).hex_encode()
		out += "\t" + parts[1]
		if parts[1] == "-":
			out += "\t-"
		else:
			var text = _hex2bytes(parts[1]).get_string_from_utf8()
			var w = str2var(text)
			if typeof(w) == TYPE_STRING and w == text:
				out += "\tREFUSED"
			else:
				out += "\t" + var2bytes(w).hex_encode()
		print(out)
	fi.close()
	quit(0)
