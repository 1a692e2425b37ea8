extends Node
# The lobby of gdvar's example server (examples/lobby), Godot 3.
#
# Add it to the tree at /root/Lobby (for instance as an autoload named
# Lobby), then call join_server(). The server calls the puppet functions;
# join(), say() and move() are called on the server.

signal roster_received(players)  # {id: {"name", "pos"}}
signal player_joined(id, player_name)
signal player_left(id)
signal player_said(id, text)
signal player_moved(id, pos)

var _name = ""

func join_server(url, player_name):
	_name = player_name
	var peer = WebSocketClient.new()
	var err = peer.connect_to_url(url, PoolStringArray(), true)
	if err != OK:
		return err
	get_tree().network_peer = peer
	get_tree().connect("connected_to_server", self, "_on_connected", [], CONNECT_ONESHOT)
	return OK

func _on_connected():
	rpc_id(1, "join", _name)

func chat(text):
	rpc_id(1, "say", text)

func walk(pos):
	rpc_unreliable_id(1, "move", pos)

# Called on the server.
remote func join(_player_name):
	pass

remote func say(_text):
	pass

remote func move(_pos):
	pass

# Called by the server.
puppet func roster(players):
	emit_signal("roster_received", players)

puppet func joined(id, player_name):
	emit_signal("player_joined", id, player_name)

puppet func left(id):
	emit_signal("player_left", id)

puppet func said(id, text):
	emit_signal("player_said", id, text)

puppet func moved(id, pos):
	emit_signal("player_moved", id, pos)
