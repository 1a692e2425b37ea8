extends SceneTree
# Godot 3 TCP_Server for gdvar's struct interop test (peer/godot3_test.go).
# Arguments: PORT
#
# Listens on 127.0.0.1:PORT, prints "LISTENING", accepts one StreamPeerTCP
# connection and reads one value with get_var(): a Dictionary that a Go
# struct was encoded to. Prints "TYPES" and the engine's type of each
# field, and "GOT" and the value in var2str form, then answers with a
# Dictionary computed from the fields (which fails if they do not have the
# types the Go side meant) and prints "DONE".

var wait_ms = 30000

func _fail(why):
	print("FAIL ", why)
	quit(1)

func _init():
	var args = OS.get_cmdline_args()
	var i = 0
	while i < args.size() and not args[i].ends_with(".gd"):
		i += 1
	var port = int(args[i + 1])

	var server = TCP_Server.new()
	var err = server.listen(port, "127.0.0.1")
	if err != OK:
		return _fail("listen on 127.0.0.1:%d: error %d" % [port, err])
	print("LISTENING")
	var t0 = OS.get_ticks_msec()
	while not server.is_connection_available():
		if OS.get_ticks_msec() - t0 > wait_ms:
			return _fail("no connection")
		OS.delay_msec(1)
	var peer = server.take_connection()
	server.stop()
	peer.set_no_delay(true)
	t0 = OS.get_ticks_msec()
	while peer.get_available_bytes() < 4:
		if OS.get_ticks_msec() - t0 > wait_ms:
			return _fail("nothing received")
		OS.delay_msec(1)
	var v = peer.get_var()
	if typeof(v) != TYPE_DICTIONARY:
		return _fail("got %s" % var2str(v))
	print("TYPES %d %d %d %d %d %d %d %d" % [typeof(v), typeof(v["name"]), typeof(v["hp"]), typeof(v["pos"]),
		typeof(v["items"]), typeof(v["color"]), typeof(v["stats"]), typeof(v["stats"]["speed"])])
	print("GOT ", var2str(v).replace("\n", " "))
	var stats = v["stats"]
	var reply = {
		"name": v["name"].to_upper(),
		"hp": v["hp"] + 1,
		"pos": v["pos"] * 2,
		"items": v["items"] + PoolStringArray(["sword"]),
		"color": v["color"].inverted(),
		"stats": {"speed": stats["speed"] * 2, "tags": stats["tags"]},
	}
	peer.put_var(reply)
	t0 = OS.get_ticks_msec()
	while peer.get_status() == StreamPeerTCP.STATUS_CONNECTED:
		if OS.get_ticks_msec() - t0 > wait_ms:
			return _fail("the peer did not close")
		OS.delay_msec(1)
	print("DONE")
	quit(0)
