extends Node
# The node both sides of the Godot 3 interop tests share, at /root/Lobby.
# As a client (client3.gd) it runs the exchange from _process(); as a host
# (host3.gd) it answers the Go client.

signal welcomed(args)
signal hello_received(from, args)

remote func hello(name, i8, i16, i32, i64, f, b, v2, v3, arr, dict, pba, nilv, color, psa):
	emit_signal("hello_received", get_tree().get_rpc_sender_id(), [name, i8, i16, i32, i64, f, b, v2, v3, arr, dict, pba, nilv, color, psa])

remote func blob(_data):
	pass

remote func ping():
	pass

puppet func only_host():
	pass

puppet func welcome(id, msg, pos, data):
	emit_signal("welcomed", [id, msg, pos, data])
