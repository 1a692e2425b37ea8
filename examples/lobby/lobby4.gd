extends Node
## The lobby of gdvar's example server (examples/lobby), Godot 4.
##
## Add it to the tree at /root/Lobby (for instance as an autoload named
## Lobby), then call join_server(). The server calls the RPCs below that
## it marks "authority"; join(), say() and move() are called on the server.

signal roster_received(players: Dictionary)  # {id: {"name", "pos"}}
signal player_joined(id: int, player_name: String)
signal player_left(id: int)
signal player_said(id: int, text: String)
signal player_moved(id: int, pos: Vector2)

func join_server(url: String, player_name: String) -> Error:
	var peer := WebSocketMultiplayerPeer.new()
	var err := peer.create_client(url)
	if err != OK:
		return err
	multiplayer.multiplayer_peer = peer
	multiplayer.connected_to_server.connect(func(): join.rpc_id(1, player_name), CONNECT_ONE_SHOT)
	return OK

func chat(text: String) -> void:
	say.rpc_id(1, text)

func walk(pos: Vector2) -> void:
	move.rpc_id(1, pos)

# Called on the server.
@rpc("any_peer", "reliable")
func join(_player_name: String) -> void:
	pass

@rpc("any_peer", "reliable")
func say(_text: String) -> void:
	pass

@rpc("any_peer", "unreliable_ordered")
func move(_pos: Vector2) -> void:
	pass

# Called by the server.
@rpc("authority", "reliable")
func roster(players: Dictionary) -> void:
	roster_received.emit(players)

@rpc("authority", "reliable")
func joined(id: int, player_name: String) -> void:
	player_joined.emit(id, player_name)

@rpc("authority", "reliable")
func left(id: int) -> void:
	player_left.emit(id)

@rpc("authority", "reliable")
func said(id: int, text: String) -> void:
	player_said.emit(id, text)

@rpc("authority", "unreliable_ordered")
func moved(id: int, pos: Vector2) -> void:
	player_moved.emit(id, pos)
