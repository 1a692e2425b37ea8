extends SceneTree
# Godot 3 WebSocketClient for gdvar's interop test (peer/godot3_test.go).
# Arguments: PORT BIG_SIZE MANY
#
# Connects to ws://127.0.0.1:PORT/ and, over its WebSocketPeer (binary write
# mode, one value per message), sends every value of values3.gd in a row and
# checks the echoes, then a PoolByteArray of BIG_SIZE bytes, then the ints
# 0..MANY-1 in a row, then "bye", whose answer is the server's own; then
# closes with status 1000. Prints "OK ..." / "FAIL ..." lines, then "DONE";
# quit(1) on a failure.

const V = preload("values3.gd")
var wait_ms = 30000
var ws = WebSocketClient.new()

func _fail(why):
	print("FAIL ", why)
	quit(1)

func _connected():
	return ws.get_connection_status() == NetworkedMultiplayerPeer.CONNECTION_CONNECTED

func _recv(what):
	var t0 = OS.get_ticks_msec()
	while true:
		ws.poll()
		if ws.get_peer(1).get_available_packet_count() > 0:
			return [true, ws.get_peer(1).get_var()]
		if not _connected():
			_fail("connection lost waiting for " + what)
			return [false, null]
		if OS.get_ticks_msec() - t0 > wait_ms:
			_fail("nothing came back for " + what)
			return [false, null]
		OS.delay_msec(1)

func _send(v):
	var err = ws.get_peer(1).put_var(v)
	ws.poll()
	if err != OK:
		_fail("put_var: error %d" % err)
		return false
	return true

func _init():
	var args = OS.get_cmdline_args()
	var i = 0
	while i < args.size() and not args[i].ends_with(".gd"):
		i += 1
	var port = int(args[i + 1])
	var big_size = int(args[i + 2])
	var many = int(args[i + 3])

	# Buffers in KiB and packets, both ways: room for the large value.
	ws.set_buffers(16384, 4096, 16384, 4096)
	var err = ws.connect_to_url("ws://127.0.0.1:%d/godot3" % port)
	if err != OK:
		return _fail("connect_to_url: error %d" % err)
	var t0 = OS.get_ticks_msec()
	while not _connected():
		ws.poll()
		if ws.get_connection_status() == NetworkedMultiplayerPeer.CONNECTION_DISCONNECTED:
			return _fail("could not connect")
		if OS.get_ticks_msec() - t0 > wait_ms:
			return _fail("connect timed out")
		OS.delay_msec(1)
	ws.get_peer(1).set_write_mode(WebSocketPeer.WRITE_MODE_BINARY)
	print("OK connected")

	var vals = V.values()
	for v in vals:
		if not _send(v):
			return
	for k in range(vals.size()):
		var r = _recv("value %d" % k)
		if not r[0]:
			return
		if not V.same(r[1], vals[k]):
			return _fail("value %d: sent %s, got back %s" % [k, V.text(vals[k]), V.text(r[1])])
	print("OK %d values echoed" % vals.size())

	var big = V.big(big_size)
	if not _send(big):
		return
	var r = _recv("the big value")
	if not r[0]:
		return
	if typeof(r[1]) != TYPE_RAW_ARRAY or not (r[1] == big):
		return _fail("big value: got back type %d" % typeof(r[1]))
	print("OK %d-byte PoolByteArray echoed" % big_size)

	for k in range(many):
		if not _send(k):
			return
	for k in range(many):
		r = _recv("value %d of many" % k)
		if not r[0]:
			return
		if typeof(r[1]) != TYPE_INT or r[1] != k:
			return _fail("value %d of many: got %s" % [k, V.text(r[1])])
	print("OK %d values in a row echoed" % many)

	if not _send("bye"):
		return
	r = _recv("bye")
	if not r[0]:
		return
	if not V.same(r[1], V.greeting()):
		return _fail("greeting: got %s" % V.text(r[1]))
	print("OK greeting ", V.text(r[1]))
	ws.disconnect_from_host(1000, "done")
	t0 = OS.get_ticks_msec()
	while ws.get_connection_status() != NetworkedMultiplayerPeer.CONNECTION_DISCONNECTED:
		ws.poll()
		if OS.get_ticks_msec() - t0 > wait_ms:
			return _fail("close timed out")
		OS.delay_msec(1)
	print("DONE")
	quit(0)
