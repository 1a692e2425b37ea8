extends SceneTree
# Godot 4 WebSocketPeer client for gdvar's interop test (peer/godot4_test.go).
# Arguments: PORT BIG_SIZE MANY
#
# 1. connects to ws://127.0.0.1:PORT/, put_var()s every value of _values()
#    in a row, and checks that each echo equals what it sent;
# 2. sends a PackedByteArray of BIG_SIZE bytes (b[i] = i % 251), checks the echo;
# 3. sends the ints 0..MANY-1 in a row and checks the MANY echoes;
# 4. sends "bye" and checks the server's own answer (_greeting());
# 5. closes the connection cleanly.
# The engine is single-threaded in the browser: everything happens in
# _process(), one step per frame. Prints "OK ..." / "FAIL ..." lines, then
# "DONE" and quit(0), or quit(1) on the first failure.

var ws := WebSocketPeer.new()
var step := "connect"
var sent := []
var got := 0
var big_size := 0
var many := 0
var deadline := 0

func _values() -> Array:
	return [
		null, true, false, 0, -1, 1 << 40, -9223372036854775807 - 1,
		2.5, 0.1, -1.0e300,
		"", "héllo, wörld ✓ 🎮",
		Vector2(1.5, -2), Rect2(1, 2, 3, 4), Vector3(1, 2, 3),
		Transform2D(Vector2(1, 0), Vector2(0, 1), Vector2(5, 6)),
		Plane(Vector3(0, 1, 0), 2), Quaternion(0, 0, 0, 1),
		AABB(Vector3(-1, -1, -1), Vector3(2, 2, 2)),
		Basis(Vector3(1, 0, 0), Vector3(0, 1, 0), Vector3(0, 0, 1)),
		Transform3D(Basis(Vector3(1, 0, 0), Vector3(0, 1, 0), Vector3(0, 0, 1)), Vector3(7, 8, 9)),
		Color(1, 0.5, 0.25, 1),
		NodePath("/root/World/Player:position:x"),
		{"name": "Ada", "hp": 87.5, 7: [1, "x"]},
		[1, 2.5, "three", [], {}],
		PackedByteArray([0, 1, 2, 253, 254, 255]),
		PackedInt32Array([1, -2, 2147483647, -2147483648]),
		PackedFloat32Array([0.5, -1.25, 3]),
		PackedStringArray(["a", "", "ünï"]),
		PackedVector2Array([Vector2(1, 2), Vector2(-3, 4)]),
		PackedVector3Array([Vector3(1, 2, 3)]),
		PackedColorArray([Color(1, 0, 0, 1), Color(0, 0, 1, 0.5)]),
		&"player_name",
		Vector2i(3, -4), Rect2i(1, 2, 3, 4), Vector3i(1, 2, 3),
		Vector4(1, 2, 3, 4), Vector4i(-1, -2, -3, -4),
		Projection(Vector4(1, 0, 0, 0), Vector4(0, 1, 0, 0), Vector4(0, 0, 1, 0), Vector4(0, 0, 0, 1)),
		PackedInt64Array([1, -1, 9223372036854775807]),
		PackedFloat64Array([0.1, -2.5]),
		PackedVector4Array([Vector4(1, 2, 3, 4)]),
		Array([1, 2], TYPE_INT, &"", null),
	]

func _greeting() -> Dictionary:
	return {"from": "gdvar", "values": _values().size(), "pos": Vector3(1, 2, 3), "tags": PackedStringArray(["a", "b"])}

func _big() -> PackedByteArray:
	var unit := PackedByteArray()
	for i in 251:
		unit.append(i)
	var b := unit.duplicate()
	while b.size() < big_size:
		b.append_array(b)
	b.resize(big_size)
	return b

func _same(a, b) -> bool:
	if typeof(a) != typeof(b):
		return false
	if a is NodePath:
		return a == b  # the engine leaves NodePath padding uninitialized
	return var_to_bytes(a) == var_to_bytes(b)

func _fail(why: String) -> void:
	print("FAIL ", why)
	ws.close()
	quit(1)
	step = "failed"

func _initialize() -> void:
	var args := OS.get_cmdline_user_args()
	var port := int(args[0])
	big_size = int(args[1])
	many = int(args[2])
	# Room for the large value, both ways.
	ws.inbound_buffer_size = 16 << 20
	ws.outbound_buffer_size = 16 << 20
	ws.max_queued_packets = 8192
	var err := ws.connect_to_url("ws://127.0.0.1:%d/godot4" % port)
	if err != OK:
		_fail("connect_to_url: error %d" % err)
	deadline = Time.get_ticks_msec() + 90000

func _process(_delta: float) -> bool:
	if step == "failed" or step == "done":
		return false
	if Time.get_ticks_msec() > deadline:
		_fail("timed out in step %s (%d received)" % [step, got])
		return false
	ws.poll()
	var state := ws.get_ready_state()
	match step:
		"connect":
			if state == WebSocketPeer.STATE_OPEN:
				sent = _values()
				for v in sent:
					var err := ws.put_var(v)
					if err != OK:
						_fail("put_var(%s): error %d" % [var_to_str(v), err])
						return false
				print("OK connected, sent %d values" % sent.size())
				step = "values"
			elif state == WebSocketPeer.STATE_CLOSED:
				_fail("could not connect (close code %d)" % ws.get_close_code())
		"values":
			while ws.get_available_packet_count() > 0:
				var v = ws.get_var()
				if not _same(v, sent[got]):
					_fail("value %d: sent %s, got back %s" % [got, var_to_str(sent[got]), var_to_str(v)])
					return false
				got += 1
			if got == sent.size():
				print("OK %d values echoed" % got)
				got = 0
				var err := ws.put_var(_big())
				if err != OK:
					_fail("put_var(big): error %d" % err)
					return false
				step = "big"
		"big":
			if ws.get_available_packet_count() > 0:
				var v = ws.get_var()
				if not (v is PackedByteArray and v.size() == big_size and v == _big()):
					_fail("big value: got back %s of %d bytes" % [type_string(typeof(v)), v.size() if v is PackedByteArray else -1])
					return false
				print("OK %d-byte PackedByteArray echoed" % big_size)
				for i in many:
					ws.put_var(i)
				step = "many"
		"many":
			while ws.get_available_packet_count() > 0:
				var v = ws.get_var()
				if typeof(v) != TYPE_INT or v != got:
					_fail("value %d of many: got %s" % [got, var_to_str(v)])
					return false
				got += 1
			if got == many:
				print("OK %d values in a row echoed" % many)
				ws.put_var("bye")
				step = "bye"
		"bye":
			if ws.get_available_packet_count() > 0:
				var v = ws.get_var()
				if not _same(v, _greeting()):
					_fail("greeting: got %s" % var_to_str(v))
					return false
				print("OK greeting ", var_to_str(v).replace("\n", " "))
				ws.close(1000, "done")
				step = "close"
		"close":
			if state == WebSocketPeer.STATE_CLOSED:
				print("OK closed, code %d" % ws.get_close_code())
				print("DONE")
				step = "done"
				quit(0)
	if step != "done" and step != "failed" and step != "close" and step != "connect" and state != WebSocketPeer.STATE_OPEN:
		_fail("connection lost in step %s (close code %d)" % [step, ws.get_close_code()])
	return false
