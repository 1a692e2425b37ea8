extends Reference
# Shared by the Godot 3 interop scripts: the values they send, and how they
# compare what comes back. Must match sampleValues(Godot3) in values_test.go.

static func values() -> Array:
	return [
		null, true, false, 0, -1, 1 << 40, -9223372036854775807 - 1,
		2.5, 0.1, -1.0e300,
		"", "héllo, wörld ✓ 🎮",
		Vector2(1.5, -2), Rect2(1, 2, 3, 4), Vector3(1, 2, 3),
		Transform2D(Vector2(1, 0), Vector2(0, 1), Vector2(5, 6)),
		Plane(Vector3(0, 1, 0), 2), Quat(0, 0, 0, 1),
		AABB(Vector3(-1, -1, -1), Vector3(2, 2, 2)),
		Basis(Vector3(1, 0, 0), Vector3(0, 1, 0), Vector3(0, 0, 1)),
		Transform(Basis(Vector3(1, 0, 0), Vector3(0, 1, 0), Vector3(0, 0, 1)), Vector3(7, 8, 9)),
		Color(1, 0.5, 0.25, 1),
		NodePath("/root/World/Player:position:x"),
		{"name": "Ada", "hp": 87.5, 7: [1, "x"]},
		[1, 2.5, "three", [], {}],
		PoolByteArray([0, 1, 2, 253, 254, 255]),
		PoolIntArray([1, -2, 2147483647, -2147483648]),
		PoolRealArray([0.5, -1.25, 3]),
		PoolStringArray(["a", "", "ünï"]),
		PoolVector2Array([Vector2(1, 2), Vector2(-3, 4)]),
		PoolVector3Array([Vector3(1, 2, 3)]),
		PoolColorArray([Color(1, 0, 0, 1), Color(0, 0, 1, 0.5)]),
	]

static func greeting() -> Dictionary:
	return {"from": "gdvar", "values": values().size(), "pos": Vector3(1, 2, 3), "tags": PoolStringArray(["a", "b"])}

# A PoolByteArray of n bytes, b[i] = i % 251.
static func big(n: int) -> PoolByteArray:
	var b = PoolByteArray()
	for i in range(251):
		b.append(i)
	while b.size() < n:
		b.append_array(b)
	b.resize(n)
	return b

static func same(a, b) -> bool:
	if typeof(a) != typeof(b):
		return false
	if typeof(a) == TYPE_NODE_PATH:
		return a == b  # the engine leaves NodePath padding uninitialized
	return var2bytes(a).hex_encode() == var2bytes(b).hex_encode()

static func text(v) -> String:
	return var2str(v).replace("\n", " ")
