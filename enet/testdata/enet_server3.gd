extends SceneTree
# Godot 3 NetworkedMultiplayerENet server for the Go tests of package enet
# (godot3_test.go). Arguments: PORT
#
# Listens on PORT, prints "LISTENING", then "CONNECTED <id>" for the peer
# that connects and "GOT <from> <channel> <size> <text>" for each packet;
# answers a packet "ping" with "pong" to its sender, and ends with "DONE"
# when the peer disconnects.

var peer = NetworkedMultiplayerENet.new()

func _on_connected(id):
	print("CONNECTED ", id)

var gone = false
func _on_disconnected(id):
	print("DISCONNECTED ", id)
	gone = true

func _init():
	var args = OS.get_cmdline_args()
	var i = 0
	while i < args.size() and not args[i].ends_with(".gd"):
		i += 1
	var port = int(args[i + 1])
	peer.connect("peer_connected", self, "_on_connected")
	peer.connect("peer_disconnected", self, "_on_disconnected")
	var err = peer.create_server(port, 4)
	if err != OK:
		print("FAIL create_server ", err)
		quit(1)
		return
	print("LISTENING")
	var t0 = OS.get_ticks_msec()
	while OS.get_ticks_msec() - t0 < 20000 and not gone:
		peer.poll()
		while peer.get_available_packet_count() > 0:
			var from = peer.get_packet_peer()
			var ch = peer.get_packet_channel()
			var p = peer.get_packet()
			print("GOT %d %d %d %s" % [from, ch, p.size(), p.get_string_from_utf8()])
			if p.get_string_from_utf8() == "ping":
				peer.set_target_peer(from)
				peer.set_transfer_mode(NetworkedMultiplayerPeer.TRANSFER_MODE_RELIABLE)
				peer.put_packet("pong".to_utf8())
		OS.delay_msec(2)
	print("DONE")
	quit(0)
