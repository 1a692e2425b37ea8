extends SceneTree
# Godot 3 TCP_Server for gdvar's interop test (peer/godot3_test.go).
# Arguments: PORT little|big
#
# Listens on 127.0.0.1:PORT (Godot 3.2 cannot report a port it picks),
# prints "LISTENING", accepts one StreamPeerTCP connection (with big_endian
# set for "big") and sends every value it get_var()s straight back with
# put_var(), until the peer disconnects. Then prints "DONE <count>".

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
	var big_endian = args[i + 2] == "big"

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
	peer.big_endian = big_endian
	var n = 0
	t0 = OS.get_ticks_msec()
	while peer.get_status() == StreamPeerTCP.STATUS_CONNECTED:
		if peer.get_available_bytes() < 4:
			if OS.get_ticks_msec() - t0 > wait_ms:
				return _fail("nothing received for %d ms" % wait_ms)
			OS.delay_msec(1)
			continue
		var v = peer.get_var()
		peer.put_var(v)
		n += 1
		t0 = OS.get_ticks_msec()
	print("DONE %d" % n)
	quit(0)
