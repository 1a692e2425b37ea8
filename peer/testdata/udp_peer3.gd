extends SceneTree
# Godot 3 PacketPeerUDP for gdvar's interop test (peer/godot3_test.go).
# Arguments: PORT BIG_SIZE MANY
#
# Listens on a free loopback port and sends to 127.0.0.1:PORT, one value per
# datagram: every value of values3.gd (waiting for each echo), a
# PoolByteArray of BIG_SIZE bytes (it must fit in a datagram), the ints
# 0..MANY-1 in bursts of 100, then "bye", whose answer is the server's own.
# Prints "OK ..." / "FAIL ..." lines, then "DONE"; quit(1) on a failure.

const V = preload("values3.gd")
var wait_ms = 30000
var udp = PacketPeerUDP.new()

func _fail(why):
	print("FAIL ", why)
	udp.close()
	quit(1)

func _recv(what):
	var t0 = OS.get_ticks_msec()
	while udp.get_available_packet_count() == 0:
		if OS.get_ticks_msec() - t0 > wait_ms:
			_fail("nothing came back for " + what)
			return [false, null]
		OS.delay_msec(1)
	var v = udp.get_var()
	if udp.get_packet_error() != OK:
		_fail("get_var for %s: error %d" % [what, udp.get_packet_error()])
		return [false, null]
	return [true, v]

func _send(v):
	var err = udp.put_var(v)
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

	var err = udp.listen(0, "127.0.0.1", 1 << 22)
	if err != OK:
		return _fail("listen: error %d" % err)
	udp.set_dest_address("127.0.0.1", port)

	var vals = V.values()
	for k in range(vals.size()):
		if not _send(vals[k]):
			return
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

	# In bursts of 100: the echoes wait in the socket's receive buffer (about
	# 200 KiB, some 270 small datagrams here) until the burst is sent, and
	# what does not fit is dropped.
	var burst = 100
	for start in range(0, many, burst):
		var end = min(start + burst, many)
		for k in range(start, end):
			if not _send(k):
				return
		for k in range(start, end):
			r = _recv("value %d of many" % k)
			if not r[0]:
				return
			if typeof(r[1]) != TYPE_INT or r[1] != k:
				return _fail("value %d of many: got %s" % [k, V.text(r[1])])
	print("OK %d values echoed, in bursts of %d" % [many, burst])

	if not _send("bye"):
		return
	r = _recv("bye")
	if not r[0]:
		return
	if not V.same(r[1], V.greeting()):
		return _fail("greeting: got %s" % V.text(r[1]))
	print("OK greeting ", V.text(r[1]))
	udp.close()
	print("DONE")
	quit(0)
