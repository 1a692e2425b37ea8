extends Node
# The node both sides of the Godot 4 interop test share, at /root/Lobby.
# Its RPC methods (sorted: blob, hello, only_host, ping, welcome) get the
# ids 0..4 on both sides.

signal welcomed(args: Array)

@rpc("any_peer", "call_remote", "reliable")
func hello(_name: String, _i8: int, _i16: int, _i32: int, _i64: int, _f: float, _b: bool,
		_v2: Vector2, _v3: Vector3, _arr: Array, _dict: Dictionary, _pba: PackedByteArray,
		_nil: Variant, _color: Color, _sn: StringName, _psa: PackedStringArray) -> void:
	pass

@rpc("any_peer", "reliable")
func blob(_data: PackedByteArray) -> void:
	pass

@rpc("any_peer", "unreliable")
func ping() -> void:
	pass

@rpc("authority", "reliable")
func only_host() -> void:
	pass

@rpc("authority", "reliable")
func welcome(id: int, msg: String, pos: Vector2, data: Dictionary) -> void:
	welcomed.emit([id, msg, pos, data])
