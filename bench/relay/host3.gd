# A Godot 3 multiplayer host for the relay benchmark: server_relay on (the
# default), the node /root/Bench with remote func ping(seq), listening on
# 127.0.0.1 until killed.
#   godot3-server --script host3.gd enet|ws PORT MAX_CLIENTS
extends SceneTree

func _init():
	var args = OS.get_cmdline_args()
	var transport = args[args.size() - 3]
	var port = int(args[args.size() - 2])
	var max_clients = int(args[args.size() - 1])
	var s = GDScript.new()
	s.source_code = "extends Node\nremote func ping(seq):\n\tpass\n"
	s.reload()
	var node = Node.new()
	node.set_script(s)
	node.name = "Bench"
	get_root().add_child(node)
	var err
	if transport == "enet":
		var peer = NetworkedMultiplayerENet.new()
		peer.set_bind_ip("127.0.0.1")
		err = peer.create_server(port, max_clients)
		network_peer = peer
	else:
		var server = WebSocketServer.new()
		server.bind_ip = "127.0.0.1"
		err = server.listen(port, PoolStringArray(), true)
		network_peer = server
	if err != OK:
		printerr("listen failed: ", err)
		quit(1)
		return
	print("listening ", transport, " ", port)
