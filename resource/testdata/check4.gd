# Loads pairs of resource files given beside this script (res://<name>)
# and compares them property by property: for each argument "A|B" (or
# "A|B|untyped": B is binary, which does not record whether an Array is
# typed, so that is not compared) it
# prints "same A B" or "DIFF A B: what". A PackedScene is compared through
# its SceneState (nodes, their properties and groups, connections).
# Before anything, res://item.tscn and res://stats.gd are saved to user://,
# where the corpus's level scenes and stats resources refer to them.
extends SceneTree

var untyped := false

func props(r: Object) -> Dictionary:
	var out := {}
	for p in r.get_property_list():
		if p.usage & PROPERTY_USAGE_STORAGE:
			out[p.name] = r.get(p.name)
	return out

func diff(a, b, where: String, depth: int) -> String:
	if depth > 20:
		return ""
	if typeof(a) != typeof(b):
		return "%s: %s vs %s" % [where, type_string(typeof(a)), type_string(typeof(b))]
	if a is PackedScene:
		return diff_scene(a.get_state(), b.get_state(), where)
	if a is Resource:
		if a.get_class() != b.get_class():
			return "%s: class %s vs %s" % [where, a.get_class(), b.get_class()]
		if depth > 0 and not a.resource_path.is_empty() and not a.resource_path.contains("::"):
			return "" if a.resource_path == b.resource_path else "%s: %s vs %s" % [where, a.resource_path, b.resource_path]
		var pa := props(a)
		var pb := props(b)
		if pa.keys() != pb.keys():
			return "%s: properties %s vs %s" % [where, pa.keys(), pb.keys()]
		for k in pa:
			if k == "resource_path" or k == "resource_scene_unique_id":
				continue
			var d := diff(pa[k], pb[k], where + "." + k, depth + 1)
			if d != "":
				return d
		return ""
	if a is Array:
		if a.size() != b.size() or not untyped and a.get_typed_builtin() != b.get_typed_builtin():
			return "%s: %s vs %s" % [where, var_to_str(a), var_to_str(b)]
		for i in a.size():
			var d := diff(a[i], b[i], "%s[%d]" % [where, i], depth + 1)
			if d != "":
				return d
		return ""
	if a is Dictionary:
		if a.size() != b.size():
			return "%s: %d vs %d entries" % [where, a.size(), b.size()]
		for k in a:
			if not b.has(k):
				return "%s: key %s missing" % [where, var_to_str(k)]
			var d := diff(a[k], b[k], "%s[%s]" % [where, var_to_str(k)], depth + 1)
			if d != "":
				return d
		return ""
	if typeof(a) == TYPE_FLOAT and is_nan(a) and is_nan(b):
		return ""
	if a != b:
		return "%s: %s vs %s" % [where, var_to_str(a), var_to_str(b)]
	return ""

# norm makes the paths of a scene state comparable: the engine keeps them
# as the file gave them ("./A/B" or "A/B"), which mean the same node.
func norm(v):
	if v is NodePath:
		var s := str(v)
		return s.trim_prefix("./") if s != "." else s
	return v

func diff_scene(a: SceneState, b: SceneState, where: String) -> String:
	if a.get_node_count() != b.get_node_count():
		return "%s: %d vs %d nodes" % [where, a.get_node_count(), b.get_node_count()]
	for i in a.get_node_count():
		var w := "%s node %s" % [where, a.get_node_path(i)]
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
			var d := diff(a.get_node_property_value(i, j), b.get_node_property_value(i, j), w + "." + a.get_node_property_name(i, j), 1)
			if d != "":
				return d
	if a.get_connection_count() != b.get_connection_count():
		return "%s: %d vs %d connections" % [where, a.get_connection_count(), b.get_connection_count()]
	for i in a.get_connection_count():
		for f in ["get_connection_source", "get_connection_target", "get_connection_signal", "get_connection_method", "get_connection_flags", "get_connection_binds", "get_connection_unbinds"]:
			if norm(a.call(f, i)) != norm(b.call(f, i)):
				return "%s connection %d: %s %s vs %s" % [where, i, f, a.call(f, i), b.call(f, i)]
	if a.get_editable_instances() != b.get_editable_instances():
		return "%s: editable %s vs %s" % [where, a.get_editable_instances(), b.get_editable_instances()]
	return ""

func _initialize():
	var item = load("res://item.tscn")
	if item != null:
		ResourceSaver.save(item, "user://item.tscn")
	var stats = load("res://stats.gd")
	if stats != null:
		ResourceSaver.save(stats, "user://stats.gd")
	for arg in OS.get_cmdline_user_args():
		var pair: PackedStringArray = arg.split("|")
		var a = ResourceLoader.load("res://" + pair[0], "", ResourceLoader.CACHE_MODE_IGNORE)
		var b = ResourceLoader.load("res://" + pair[1], "", ResourceLoader.CACHE_MODE_IGNORE)
		if a == null or b == null:
			print("DIFF %s %s: does not load (%s, %s)" % [pair[0], pair[1], a, b])
			continue
		untyped = pair.size() > 2 and pair[2] == "untyped"
		var d := diff(a, b, "", 0)
		print("same %s %s" % [pair[0], pair[1]] if d == "" else "DIFF %s %s: %s" % [pair[0], pair[1], d])
	quit()
