extends SceneTree
# Godot 3 multiplayer client (WebSocketClient or NetworkedMultiplayerENet
# as the network_peer) for gdvar's interop tests (multiplayer/godot3_test.go,
# multiplayer/enet_test.go). Arguments: PORT [enet COMPRESSION_MODE]
#
# 1. joins ws://127.0.0.1:PORT (or 127.0.0.1:PORT over ENet with that
#    compression_mode) and prints its id;
# 2. calls hello (15 arguments of many types), blob (one PoolByteArray:
#    sent raw), ping (no arguments) and only_host (a puppet RPC, which the
#    host, its master, must refuse) on the host;
# 3. waits for the host's welcome RPC and prints its arguments, calls ping
#    again (now with the confirmed path) and sends raw bytes;
# 4. waits for the host's raw bytes, prints DONE and quits; quit(1) on a
#    failure or after 20 s.

const Lobby = preload("lobby3.gd")
var lobby
var client
var deadline = 0
var welcomed = false
var got_bytes = false
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
	lobby.connect("welcomed", self, "_on_welcome")
	connect("connected_to_server", self, "_on_connected")
	connect("connection_failed", self, "_fail", ["connection failed"])
	connect("server_disconnected", self, "_fail", ["server disconnected"])
	multiplayer.connect("network_peer_packet", self, "_on_packet")
	var err
	if args.size() > 2 and args[1] == "enet":
		client = NetworkedMultiplayerENet.new()
		client.compression_mode = int(args[2])
		err = client.create_client("127.0.0.1", int(args[0]))
	else:
		client = WebSocketClient.new()
		err = client.connect_to_url("ws://127.0.0.1:%s" % args[0], PoolStringArray(), true)
	if err != OK:
		_fail("connect: %d" % err)
		return
	network_peer = client
	deadline = OS.get_ticks_msec() + 20000

func _fail(why):
	if done:
		return
	done = true
	print("FAIL ", why)
	quit(1)

func _on_connected():
	print("OK connected id=", get_network_unique_id())
	lobby.rpc_id(1, "hello", "Ada", -5, 1000, -100000, 1 << 40, 2.5, true,
		Vector2(1.5, -2), Vector3(1, 2, 3), [1, "two", 3.0], {"k": "v", 7: [8]},
		PoolByteArray([9, 8, 7]), null, Color(1, 0.5, 0.25, 1), PoolStringArray(["x", "y"]))
	lobby.rpc_id(1, "blob", PoolByteArray([1, 2, 3, 4]))
	lobby.rpc_id(1, "ping")
	lobby.rpc_id(1, "only_host")

func _on_welcome(args):
	print("OK welcome ", var2str(args).replace("\n", " "))
	welcomed = true
	lobby.rpc_id(1, "ping")
	multiplayer.send_bytes(PoolByteArray([10, 20, 30]))

func _on_packet(id, data):
	print("OK bytes from ", id, " ", Array(data))
	got_bytes = true

func _idle(_delta):
	if done:
		return false
	if welcomed and got_bytes:
		done = true
		print("DONE")
		quit(0)
	elif OS.get_ticks_msec() > deadline:
		_fail("timed out (welcomed=%s bytes=%s)" % [welcomed, got_bytes])
	return false
