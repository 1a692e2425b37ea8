extends SceneTree
# Godot 3 multiplayer host (WebSocketServer or NetworkedMultiplayerENet as
# the network_peer) for gdvar's interop tests (multiplayer/godot3_test.go,
# multiplayer/enet_test.go). Arguments: PORT [enet COMPRESSION_MODE]
#
# 1. listens on PORT and prints LISTENING;
# 2. when a client calls hello on /root/Lobby, prints the arguments, calls
#    welcome on that client and sends it raw bytes;
# 3. when the client sends raw bytes back, prints them and DONE and quits;
#    quit(1) after 20 s.

const Lobby = preload("lobby3.gd")
var lobby
var server
var deadline = 0
var done = false

func _init():
	var args = []
	var after = false
	for a in OS.get_cmdline_args():
		if after:
			args.append(a)
		elif a.ends_with(".gd"):
			after = true
	lobby = Lobby.new()
	lobby.name = "Lobby"
	get_root().add_child(lobby)
	lobby.connect("hello_received", self, "_on_hello")
	multiplayer.connect("network_peer_packet", self, "_on_packet")
	var err
	if args.size() > 2 and args[1] == "enet":
		server = NetworkedMultiplayerENet.new()
		server.compression_mode = int(args[2])
		err = server.create_server(int(args[0]))
	else:
		server = WebSocketServer.new()
		err = server.listen(int(args[0]), PoolStringArray(), true)
	if err != OK:
		print("FAIL listen: %d" % err)
		quit(1)
		return
	network_peer = server
	deadline = OS.get_ticks_msec() + 20000
	print("LISTENING")

func _on_hello(from, args):
	print("OK hello from ", from, " ", var2str(args).replace("\n", " "))
	lobby.rpc_id(from, "welcome", from, "hi from Godot", Vector2(3, 4), {"n": args.size()})
	multiplayer.send_bytes(PoolByteArray([7, 7]), from)

func _on_packet(id, data):
	print("OK bytes from ", id, " ", Array(data))
	done = true
	print("DONE")
	quit(0)

func _idle(_delta):
	if not done and OS.get_ticks_msec() > deadline:
		done = true
		print("FAIL timed out")
		quit(1)
	return false
