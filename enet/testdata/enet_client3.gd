extends SceneTree
# Godot 3 NetworkedMultiplayerENet client for the Go tests of package enet
# (godot3_test.go). Arguments: PORT COMPRESSION BIG_SIZE
#
# Connects to 127.0.0.1:PORT with compression mode COMPRESSION (0 none,
# 1 range coder, 2 FastLZ, 3 zlib, 4 Zstandard), prints "ID <unique id>",
# sends with put_packet: "hello" reliably, a BIG_SIZE byte array (byte i
# is i % 251) reliably, and "fast" unreliably, all to the server (1); then
# prints every packet it receives as "GOT <from> <channel> <size> <sum>"
# (sum: the byte sum) until it receives "quit", and prints "DONE". If the
# server refuses the connection (connection_failed), it prints
# "REFUSED <milliseconds since create_client>" and quits.

var peer = NetworkedMultiplayerENet.new()

func _wait(cond_owner, ms):
	var t0 = OS.get_ticks_msec()
	while OS.get_ticks_msec() - t0 < ms:
		peer.poll()
		if cond_owner.call_func():
			return true
		OS.delay_msec(2)
	return false

var connected = false
var failed = false
func _on_ok():
	connected = true

func _on_failed():
	failed = true

func _is_connected():
	return connected or failed

func _init():
	var args = OS.get_cmdline_args()
	var i = 0
	while i < args.size() and not args[i].ends_with(".gd"):
		i += 1
	var port = int(args[i + 1])
	var mode = int(args[i + 2])
	var big = int(args[i + 3])
	peer.compression_mode = mode
	peer.connect("connection_succeeded", self, "_on_ok")
	peer.connect("connection_failed", self, "_on_failed")
	var started = OS.get_ticks_msec()
	var err = peer.create_client("127.0.0.1", port)
	if err != OK:
		print("FAIL create_client ", err)
		quit(1)
		return
	if not _wait(funcref(self, "_is_connected"), 10000):
		print("FAIL not connected")
		quit(1)
		return
	if failed:
		print("REFUSED ", OS.get_ticks_msec() - started)
		quit(0)
		return
	print("ID ", peer.get_unique_id())
	peer.set_target_peer(1)
	peer.set_transfer_mode(NetworkedMultiplayerPeer.TRANSFER_MODE_RELIABLE)
	peer.put_packet("hello".to_utf8())
	var b = PoolByteArray()
	b.resize(big)
	for k in range(big):
		b[k] = k % 251
	peer.put_packet(b)
	peer.set_transfer_mode(NetworkedMultiplayerPeer.TRANSFER_MODE_UNRELIABLE)
	peer.put_packet("fast".to_utf8())
	var t0 = OS.get_ticks_msec()
	while OS.get_ticks_msec() - t0 < 20000:
		peer.poll()
		while peer.get_available_packet_count() > 0:
			var from = peer.get_packet_peer()
			var ch = peer.get_packet_channel()
			var p = peer.get_packet()
			var sum = 0
			for x in p:
				sum += x
			print("GOT %d %d %d %d" % [from, ch, p.size(), sum])
			if p.get_string_from_utf8() == "quit":
				print("DONE")
				peer.close_connection()
				quit(0)
				return
		OS.delay_msec(2)
	print("FAIL timeout")
	quit(1)
