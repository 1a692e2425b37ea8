extends Node
# Chat and lobby client for the gdvar example server, Godot 3.
#
# Uses StreamPeerTCP wrapped in a PacketPeerStream: PacketPeerStream.put_var
# writes a 4-byte little-endian length and the var2bytes() bytes, exactly
# what StreamPeerTCP.put_var writes, and its get_var() never blocks on a
# half-arrived message. Add it to the scene tree, connect to its signals,
# then call connect_to_server(). Every message is a Dictionary.

signal joined(id, players)  # players: {id: {"name", "pos"}}
signal player_joined(id, player_name)
signal player_left(id)
signal player_moved(id, pos)
signal said(id, player_name, text)
signal server_error(message)
signal disconnected()

var my_id = 0

var _tcp = StreamPeerTCP.new()
var _packets = PacketPeerStream.new()
var _name = ""
var _open = false
var _started = false


func connect_to_server(host, port, player_name):
	_name = player_name
	_packets.stream_peer = _tcp
	var err = _tcp.connect_to_host(host, port)
	_started = err == OK
	return err


func say(text):
	_send({"type": "say", "text": text})


func move(pos):
	_send({"type": "move", "pos": pos})


func leave():
	_tcp.disconnect_from_host()


func _send(msg):
	if _open:
		_packets.put_var(msg)


func _process(_delta):
	if not _started:
		return
	match _tcp.get_status():
		StreamPeerTCP.STATUS_CONNECTED:
			if not _open:
				_open = true
				_tcp.set_no_delay(true)
				_packets.put_var({"type": "join", "name": _name})
			while _packets.get_available_packet_count() > 0:
				var msg = _packets.get_var()
				if typeof(msg) == TYPE_DICTIONARY:
					_handle(msg)
		StreamPeerTCP.STATUS_NONE, StreamPeerTCP.STATUS_ERROR:
			_open = false
			_started = false
			emit_signal("disconnected")


func _handle(msg):
	match msg.get("type"):
		"welcome":
			my_id = msg["id"]
			emit_signal("joined", my_id, msg["players"])
		"joined":
			emit_signal("player_joined", msg["id"], msg["name"])
		"left":
			emit_signal("player_left", msg["id"])
		"moved":
			emit_signal("player_moved", msg["id"], msg["pos"])
		"said":
			emit_signal("said", msg["id"], msg["name"], msg["text"])
		"error":
			emit_signal("server_error", msg["message"])
