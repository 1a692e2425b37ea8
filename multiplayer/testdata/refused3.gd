extends SceneTree
# Godot 3 multiplayer client for gdvar's refusal test
# (multiplayer/refuse_test.go). Argument: PORT. It joins
# ws://127.0.0.1:PORT with WebSocketClient as its network_peer and prints
# what the engine reports: CLOSE code reason (the server's close frame),
# then FAILED, DISCONNECTED or CONNECTED id, and quits; TIMEOUT after 10 s.

var client
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
	connect("connected_to_server", self, "_end", ["CONNECTED"])
	connect("connection_failed", self, "_end", ["FAILED"])
	connect("server_disconnected", self, "_end", ["DISCONNECTED"])
	client = WebSocketClient.new()
	client.connect("server_close_request", self, "_on_close")
	client.connect("connection_closed", self, "_on_closed")
	client.connect("connection_error", self, "_on_error")
	var err = client.connect_to_url("ws://127.0.0.1:%s" % args[0], PoolStringArray(), true)
	if err != OK:
		_end("CONNECT ERROR %d" % err)
		return
	network_peer = client
	deadline = OS.get_ticks_msec() + 10000

func _on_close(code, reason):
	print("CLOSE ", code, " ", reason)

func _on_closed(clean):
	print("CLOSED clean=", clean)

func _on_error():
	print("ERROR")

func _end(what):
	if done:
		return
	done = true
	if what == "CONNECTED":
		what += " %d" % get_network_unique_id()
	print(what)
	quit(0)

func _idle(_delta):
	if not done and OS.get_ticks_msec() > deadline:
		_end("TIMEOUT status=%d" % client.get_connection_status())
	return false
