extends SceneTree
# A player of examples/rooms, for Godot 4, headless:
#   godot --headless --script client4.gd -- ws://127.0.0.1:9082/match-1 7
# Arguments: URL POINTS
#
# Joins the match at URL, scores POINTS (Game.score on the server), prints
# the totals the server sends after each score (TOTALS) and when the match
# ends (FINAL), and quits when the server disconnects it, printing the
# close code and reason. A refused join prints REFUSED with them.

class Game extends Node:
	signal totals_changed(totals: Dictionary)
	signal ended(totals: Dictionary)

	@rpc("authority", "reliable")
	func final(totals: Dictionary) -> void:
		ended.emit(totals)

	@rpc("any_peer", "reliable")
	func score(_points: int) -> void:
		pass # runs on the server

	@rpc("authority", "reliable")
	func totals(t: Dictionary) -> void:
		totals_changed.emit(t)

var game := Game.new()
var peer := WebSocketMultiplayerPeer.new()
var ws: WebSocketPeer
var points := 0
var deadline := 0

func _initialize() -> void:
	game.name = "Game"
	root.add_child(game)
	game.totals_changed.connect(func(t): print("TOTALS ", _fmt(t)))
	game.ended.connect(func(t): print("FINAL ", _fmt(t)))
	var mp := get_multiplayer()
	mp.connected_to_server.connect(_on_connected)
	mp.connection_failed.connect(func():
		print("REFUSED ", ws.get_close_code(), " ", ws.get_close_reason())
		quit(0))
	mp.server_disconnected.connect(func():
		print("DISCONNECTED ", ws.get_close_code(), " ", ws.get_close_reason())
		quit(0))
	var args := OS.get_cmdline_user_args()
	points = int(args[1])
	if peer.create_client(args[0]) != OK:
		print("FAIL create_client")
		quit(1)
		return
	ws = peer.get_peer(1)
	mp.multiplayer_peer = peer
	deadline = Time.get_ticks_msec() + 60000

func _on_connected() -> void:
	print("JOINED ", get_multiplayer().get_unique_id())
	game.rpc_id(1, "score", points)

# _fmt prints a Dictionary of totals sorted by peer id, as "id=points ...".
func _fmt(t: Dictionary) -> String:
	var ids := t.keys()
	ids.sort()
	var parts := PackedStringArray()
	for id in ids:
		parts.append("%d=%d" % [id, t[id]])
	return " ".join(parts)

func _process(_delta: float) -> bool:
	if Time.get_ticks_msec() > deadline:
		print("FAIL timed out")
		quit(1)
	return false
