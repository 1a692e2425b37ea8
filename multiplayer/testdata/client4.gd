extends SceneTree
# Godot 4 WebSocketMultiplayerPeer client for gdvar's multiplayer interop
# test (multiplayer/godot4_test.go). Arguments: PORT
#
# 1. joins ws://127.0.0.1:PORT as a multiplayer client, authenticates
#    (auth_callback: sends "secret", prints the host's answer) and prints
#    its id;
# 2. calls hello (16 arguments of many types), blob (one PackedByteArray:
#    sent raw), ping (no arguments) and only_host (an authority RPC, which
#    the host must refuse) on the host;
# 3. waits for the host's welcome RPC and prints its arguments;
# 4. calls ping again (now with the cached node id), sends raw bytes with send_bytes and waits for the host's answer;
# 5. prints DONE and quits. quit(1) on a failure or after 20 s.
# The engine is single-threaded in the browser: everything is polled in
# _process().

const Lobby = preload("lobby4.gd")
var lobby
var peer := WebSocketMultiplayerPeer.new()
var deadline := 0
var got_bytes := false
var welcomed := false

func _initialize() -> void:
	var port := int(OS.get_cmdline_user_args()[0])
	lobby = Lobby.new()
	lobby.name = "Lobby"
	root.add_child(lobby)
	lobby.welcomed.connect(_on_welcome)
	get_multiplayer().connected_to_server.connect(_on_connected)
	get_multiplayer().connection_failed.connect(func(): _fail("connection failed"))
	get_multiplayer().server_disconnected.connect(func(): _fail("server disconnected"))
	get_multiplayer().peer_packet.connect(_on_packet)
	get_multiplayer().auth_callback = _on_auth
	get_multiplayer().peer_authenticating.connect(_on_authenticating)
	var err := peer.create_client("ws://127.0.0.1:%d" % port)
	if err != OK:
		_fail("create_client: %d" % err)
		return
	get_multiplayer().multiplayer_peer = peer
	deadline = Time.get_ticks_msec() + 20000

func _fail(why: String) -> void:
	print("FAIL ", why)
	quit(1)

func _on_authenticating(id: int) -> void:
	get_multiplayer().send_auth(id, "secret".to_utf8_buffer())
	get_multiplayer().complete_auth(id)

func _on_auth(id: int, data: PackedByteArray) -> void:
	print("OK auth from ", id, " ", data.get_string_from_utf8())

func _on_connected() -> void:
	print("OK connected id=", get_multiplayer().get_unique_id())
	lobby.rpc_id(1, "hello", "Ada", -5, 1000, -100000, 1 << 40, 2.5, true,
		Vector2(1.5, -2), Vector3(1, 2, 3), [1, "two", 3.0], {"k": "v", 7: [8]},
		PackedByteArray([9, 8, 7]), null, Color(1, 0.5, 0.25, 1), &"sn", PackedStringArray(["x", "y"]))
	lobby.rpc_id(1, "blob", PackedByteArray([1, 2, 3, 4]))
	lobby.rpc_id(1, "ping")
	lobby.rpc_id(1, "only_host")

func _on_welcome(args: Array) -> void:
	print("OK welcome ", var_to_str(args).replace("\n", " "))
	welcomed = true
	lobby.rpc_id(1, "ping")  # the path is confirmed by now: a compact call
	get_multiplayer().send_bytes(PackedByteArray([10, 20, 30]))

func _on_packet(id: int, data: PackedByteArray) -> void:
	print("OK bytes from ", id, " ", data)
	got_bytes = true

func _process(_delta: float) -> bool:
	if welcomed and got_bytes:
		print("DONE")
		quit(0)
	elif Time.get_ticks_msec() > deadline:
		_fail("timed out (welcomed=%s bytes=%s)" % [welcomed, got_bytes])
	return false
