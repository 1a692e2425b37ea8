# Godot 3 version of check4.gd: its one argument is a folder holding the
# files and pairs.txt, one pair a line, "A|B" or "A|B|untyped"; for each it
# prints "same A B" or "DIFF A B: what". Before anything, DIR/item.tscn is
# saved to user://item.tscn, and DIR/stats.gd to user://stats.gd, which the
# corpus's level scenes and stats resources refer to.
extends SceneTree

var untyped = false

func props(r):
	var out = {}
	for p in r.get_property_list():
		if p.usage & PROPERTY_USAGE_STORAGE:
			out[p.name] = r.get(p.name)
	return out

func diff(a, b, where, depth):
	if depth > 20:
		return ""
	if typeof(a) != typeof(b):
		return "%s: type %d vs %d" % [where, typeof(a), typeof(b)]
	if a is PackedScene:
		return diff_scene(a.get_state(), b.get_state(), where)
	if a is Resource:
		if a.get_class() != b.get_class():
			return "%s: class %s vs %s" % [where, a.get_class(), b.get_class()]
		if depth > 0 and a.resource_path != "" and a.resource_path.find("::") < 0:
			return "" if a.resource_path == b.resource_path else "%s: %s vs %s" % [where, a.resource_path, b.resource_path]
		var pa = props(a)
		var pb = props(b)
		if pa.keys() != pb.keys():
			return "%s: properties %s vs %s" % [where, pa.keys(), pb.keys()]
		for k in pa:
			if k == "resource_path":
				continue
			var d = diff(pa[k], pb[k], where + "." + k, depth + 1)
			if d != "":
				return d
		return ""
	if typeof(a) == TYPE_ARRAY:
		if a.size() != b.size():
			return "%s: %d vs %d elements" % [where, a.size(), b.size()]
		for i in a.size():
			var d = diff(a[i], b[i], "%s[%d]" % [where, i], depth + 1)
			if d != "":
				return d
		return ""
	if typeof(a) == TYPE_DICTIONARY:
		if a.size() != b.size():
			return "%s: %d vs %d entries" % [where, a.size(), b.size()]
		for k in a:
			if not b.has(k):
				return "%s: key %s missing" % [where, var2str(k)]
			var d = diff(a[k], b[k], "%s[%s]" % [where, var2str(k)], depth + 1)
			if d != "":
				return d
		return ""
	if typeof(a) == TYPE_REAL and is_nan(a) and is_nan(b):
		return ""
	if a != b:
		return "%s: %s vs %s" % [where, var2str(a), var2str(b)]
	return ""

func norm(v):
	if typeof(v) == TYPE_NODE_PATH:
		var s = str(v)
		if s.begins_with("./"):
			return s.substr(2, s.length())
		return s
	return v

func diff_scene(a, b, where):
	if a.get_node_count() != b.get_node_count():
		return "%s: %d vs %d nodes" % [where, a.get_node_count(), b.get_node_count()]
	for i in a.get_node_count():
		var w = "%s node %s" % [where, a.get_node_path(i)]
		for f in ["get_node_name", "get_node_type", "get_node_path", "get_node_owner_path", "get_node_groups", "get_node_index", "get_node_property_count"]:
			if norm(a.call(f, i)) != norm(b.call(f, i)):
				return "%s: %s %s vs %s" % [w, f, a.call(f, i), b.call(f, i)]
		var ia = a.get_node_instance(i)
		var ib = b.get_node_instance(i)
		if (ia == null) != (ib == null) or ia != null and ia.resource_path != ib.resource_path:
			return "%s: instance %s vs %s" % [w, ia, ib]
		for j in a.get_node_property_count(i):
			if a.get_node_property_name(i, j) != b.get_node_property_name(i, j):
				return "%s: property %s vs %s" % [w, a.get_node_property_name(i, j), b.get_node_property_name(i, j)]
			var d = diff(a.get_node_property_value(i, j), b.get_node_property_value(i, j), w + "." + a.get_node_property_name(i, j), 1)
			if d != "":
				return d
	if a.get_connection_count() != b.get_connection_count():
		return "%s: %d vs %d connections" % [where, a.get_connection_count(), b.get_connection_count()]
	for i in a.get_connection_count():
		for f in ["get_connection_source", "get_connection_target", "get_connection_signal", "get_connection_method", "get_connection_flags", "get_connection_binds"]:
			if norm(a.call(f, i)) != norm(b.call(f, i)):
				return "%s connection %d: %s %s vs %s" % [where, i, f, a.call(f, i), b.call(f, i)]
	return ""

func _init():
	var dir = OS.get_cmdline_args()[OS.get_cmdline_args().size() - 1]
	var item = load(dir + "/item.tscn")
	if item != null:
		ResourceSaver.save("user://item.tscn", item)
	var stats = load(dir + "/stats.gd")
	if stats != null:
		ResourceSaver.save("user://stats.gd", stats)
	var f = File.new()
	f.open(dir + "/pairs.txt", File.READ)
	while not f.eof_reached():
		var line = f.get_line()
		if line == "":
			continue
		var pair = line.split("|")
		var a = ResourceLoader.load(dir + "/" + pair[0], "", true)
		var b = ResourceLoader.load(dir + "/" + pair[1], "", true)
		if a == null or b == null:
			print("DIFF %s %s: does not load" % [pair[0], pair[1]])
			continue
		untyped = pair.size() > 2 and pair[2] == "untyped"
		var d = diff(a, b, "", 0)
		print("same %s %s" % [pair[0], pair[1]] if d == "" else "DIFF %s %s: %s" % [pair[0], pair[1], d])
	quit()
