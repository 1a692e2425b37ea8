# str_to_var4.gd INPUT-FILE: reads Variant text with Godot 4's str_to_var and
# prints what the engine made of it. Run with the Godot 4 oracle:
#
#     run.sh str_to_var4.gd INPUT-FILE
#
# INPUT-FILE holds one item a line: the UTF-8 bytes of the text as hex, with
# "obj:" in front to re-encode with var_to_bytes_with_objects. Blank lines
# and "#" lines are skipped. Every other line prints one line:
#
#     TYPE<TAB>HEX<TAB>TEXT     typeof(value), var_to_bytes(value) as hex,
#                               var_to_str(value) with line breaks as spaces
#     ERROR<TAB>messages        the engine logged errors while parsing, or
#                               str_to_var returned null for a text that is
#                               not "null" (it reports syntax errors so)
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


func check(line: String) -> String:
	var objects := false
	if line.begins_with("obj:"):
		objects = true
		line = line.substr(4)
	var text := line.hex_decode().get_string_from_utf8()
	errors.messages.clear()
	var value: Variant = str_to_var(text)
	if errors.messages.size() > 0:
		var msg := " | ".join(errors.messages)
		errors.messages.clear()
		return "ERROR\t" + msg.replace("\n", " ").replace("\t", " ")
	if value == null and not text.strip_edges() in ["null", "nil"]:
		return "ERROR\tstr_to_var refused the text (it returned null)"
	var data := var_to_bytes_with_objects(value) if objects else var_to_bytes(value)
	var shown := var_to_str(value).replace("\n", " ").replace("\r", " ").replace("\t", " ")
	errors.messages.clear()
	return "%d\t%s\t%s" % [typeof(value), data.hex_encode(), shown]


func _initialize() -> void:
	OS.add_logger(errors)
	var args := OS.get_cmdline_user_args()
	var input := FileAccess.get_file_as_string(args[0]) if args.size() > 0 else ""
	var out := PackedStringArray()
	for raw in input.split("\n"):
		var line := raw.strip_edges()
		if line == "" or line.begins_with("#"):
			continue
		out.append(check(line))
	OS.remove_logger(errors)
	if out.size() > 0:
		print("\n".join(out))
	quit(0)
