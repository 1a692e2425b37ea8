extends Node
## Chat and lobby client for the gdvar example server, Godot 4.
##
## Uses WebSocketPeer, which works in native games and in web exports.
## Add it to the scene tree, connect to its signals, then call
## connect_to_server(). Every message is a Dictionary sent with put_var():
## one value per WebSocket message, the bytes of var_to_bytes().

signal joined(id: int, players: Dictionary)  # players: {id: {"name", "pos"}}
signal player_joined(id: int, player_name: String)
signal player_left(id: int)
signal player_moved(id: int, pos: Vector2)
signal said(id: int, player_name: String, text: String)
signal server_error(message: String)
signal disconnected(code: int)

var my_id := 0

var _ws := WebSocketPeer.new()
var _name := ""
var _open := false
var _started := false


func connect_to_server(url: String, player_name: String) -> Error:
	_name = player_name
	var err := _ws.connect_to_url(url)
	_started = err == OK
	return err


func say(text: String) -> void:
	_send({"type": "say", "text": text})


func move(pos: Vector2) -> void:
	_send({"type": "move", "pos": pos})


func leave() -> void:
	_ws.close(1000, "bye")


func _send(msg: Dictionary) -> void:
	if _open:
		_ws.put_var(msg)


func _process(_delta: float) -> void:
	if not _started:
		return
	_ws.poll()
	match _ws.get_ready_state():
		WebSocketPeer.STATE_OPEN:
			if not _open:
				_open = true
				_ws.put_var({"type": "join", "name": _name})
			while _ws.get_available_packet_count() > 0:
				var msg = _ws.get_var()
				if msg is Dictionary:
					_handle(msg)
		WebSocketPeer.STATE_CLOSED:
			_open = false
			_started = false
			disconnected.emit(_ws.get_close_code())


func _handle(msg: Dictionary) -> void:
	match msg.get("type"):
		"welcome":
			my_id = msg["id"]
			joined.emit(my_id, msg["players"])
		"joined":
			player_joined.emit(msg["id"], msg["name"])
		"left":
			player_left.emit(msg["id"])
		"moved":
			player_moved.emit(msg["id"], msg["pos"])
		"said":
			said.emit(msg["id"], msg["name"], msg["text"])
		"error":
			server_error.emit(msg["message"])
