# dump4.gd: decodes hex strings with Godot 4 and prints one JSON object per
# input line. Run with the Godot 4 oracle's run.sh:
#
#     run.sh dump4.gd INPUT
#
# INPUT holds one hex string a line, after "hex:" (or nothing) or "obj:";
# "obj:" decodes with bytes_to_var_with_objects and re-encodes with
# var_to_bytes_with_objects. "hex:" alone stands for the empty input.
# Blank lines and "#" lines are skipped. For every other line it prints
#
#     {"ok": bool, "type": typeof(value), "text": var_to_str(value),
#      "text_hex": hex of the UTF-8 bytes of that text,
#      "reencoded": hex of var_to_bytes(value), "used": decode_var_size,
#      "errors": [messages the engine logged while decoding]}
#
# "ok" is decode_var_size(0, objects) > 0: the engine's decoder returned OK.
# Messages can be logged even when the decode succeeds (typed containers
# that drop or convert elements). text_hex lets the caller check that the
# JSON escaping kept the text intact.
extends SceneTree


class ErrorLog:
	extends Logger

	var messages: PackedStringArray = []

	func _log_error(function: String, file: String, line: int, code: String, rationale: String,
			_editor_notify: bool, _error_type: int, _script_backtraces: Array[ScriptBacktrace]) -> void:
		var what := code
		if rationale != "":
			what = rationale if code == "" else code + ": " + rationale
		messages.append("%s (%s:%d %s)" % [what, file, line, function])


var errors := ErrorLog.new()


func dump(line: String) -> Dictionary:
	var objects := line.begins_with("obj:")
	if objects or line.begins_with("hex:"):
		line = line.substr(4)
	var data := line.strip_edges().hex_decode()
	errors.messages.clear()
	var value: Variant = bytes_to_var_with_objects(data) if objects else bytes_to_var(data)
	var logged := errors.messages.duplicate()
	var used := 0
	if data.size() > 0:
		used = data.decode_var_size(0, objects)
	var out := {"ok": used > 0, "errors": Array(logged)}
	if used > 0:
		var text := var_to_str(value)
		var again := var_to_bytes_with_objects(value) if objects else var_to_bytes(value)
		out["type"] = typeof(value)
		out["text"] = text
		out["text_hex"] = text.to_utf8_buffer().hex_encode()
		out["reencoded"] = again.hex_encode()
		out["used"] = used
	errors.messages.clear()
	return out


func _initialize() -> void:
	OS.add_logger(errors)
	var args := OS.get_cmdline_user_args()
	var text := FileAccess.get_file_as_string(args[0]) if args.size() > 0 else ""
	var out := PackedStringArray()
	for raw in text.split("\n"):
		var line := raw.strip_edges()
		if line == "" or line.begins_with("#"):
			continue
		out.append(JSON.stringify(dump(line)))
	OS.remove_logger(errors)
	if out.size() > 0:
		print("\n".join(out))
	quit(0)
