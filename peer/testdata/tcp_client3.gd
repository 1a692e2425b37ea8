extends SceneTree
# Godot 3 StreamPeerTCP client for gdvar's interop test (peer/godot3_test.go).
# Arguments: PORT BIG_SIZE MANY
#
# 1. connects to 127.0.0.1:PORT, put_var()s every value of values3.gd in a
#    row, then get_var()s the echoes and checks each;
# 2. sends a PoolByteArray of BIG_SIZE bytes and checks the echo;
# 3. sends the ints 0..MANY-1 in a row and checks the MANY echoes;
# 4. sends "bye" and checks the server's own answer;
# 5. disconnects.
# Prints "OK ..." / "FAIL ..." lines, then "DONE"; quit(1) on a failure.

const V = preload("values3.gd")
var wait_ms = 30000

func _fail(why):
	print("FAIL ", why)
	quit(1)

# Waits until the peer has n bytes to read; false on timeout or disconnection.
func _wait_bytes(peer, n):
	var t0 = OS.get_ticks_msec()
	while peer.get_available_bytes() < n:
		if peer.get_status() != StreamPeerTCP.STATUS_CONNECTED:
			return false
		if OS.get_ticks_msec() - t0 > wait_ms:
			return false
		OS.delay_msec(1)
	return true

func _recv(peer, what):
	if not _wait_bytes(peer, 4):
		_fail("nothing came back for " + what)
		return [false, null]
	return [true, peer.get_var()]

func _init():
	var args = OS.get_cmdline_args()
	var i = 0
	while i < args.size() and not args[i].ends_with(".gd"):
		i += 1
	var port = int(args[i + 1])
	var big_size = int(args[i + 2])
	var many = int(args[i + 3])

	var peer = StreamPeerTCP.new()
	if peer.connect_to_host("127.0.0.1", port) != OK:
		return _fail("connect_to_host failed")
	var t0 = OS.get_ticks_msec()
	while peer.get_status() == StreamPeerTCP.STATUS_CONNECTING:
		if OS.get_ticks_msec() - t0 > wait_ms:
			return _fail("connect timed out")
		OS.delay_msec(1)
	if peer.get_status() != StreamPeerTCP.STATUS_CONNECTED:
		return _fail("could not connect (status %d)" % peer.get_status())
	peer.set_no_delay(true)
	print("OK connected")

	var vals = V.values()
	for v in vals:
		peer.put_var(v)
	for k in range(vals.size()):
		var r = _recv(peer, "value %d" % k)
		if not r[0]:
			return
		if not V.same(r[1], vals[k]):
			return _fail("value %d: sent %s, got back %s" % [k, V.text(vals[k]), V.text(r[1])])
	print("OK %d values echoed" % vals.size())

	var big = V.big(big_size)
	peer.put_var(big)
	var r = _recv(peer, "the big value")
	if not r[0]:
		return
	if typeof(r[1]) != TYPE_RAW_ARRAY or r[1].size() != big_size or not (r[1] == big):
		return _fail("big value: got back type %d" % typeof(r[1]))
	print("OK %d-byte PoolByteArray echoed" % big_size)

	for k in range(many):
		peer.put_var(k)
	for k in range(many):
		r = _recv(peer, "value %d of many" % k)
		if not r[0]:
			return
		if typeof(r[1]) != TYPE_INT or r[1] != k:
			return _fail("value %d of many: got %s" % [k, V.text(r[1])])
	print("OK %d values in a row echoed" % many)

	peer.put_var("bye")
	r = _recv(peer, "bye")
	if not r[0]:
		return
	if not V.same(r[1], V.greeting()):
		return _fail("greeting: got %s" % V.text(r[1]))
	print("OK greeting ", V.text(r[1]))
	peer.disconnect_from_host()
	print("DONE")
	quit(0)
