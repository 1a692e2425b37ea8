extends SceneTree
# Times Godot 3's own var2bytes / bytes2var on the workloads of
# bench_test.go, inside the engine, with OS.get_ticks_usec().
#
#     godot3-server --path <empty project> --script bench/godot3.gd [RUNS]
#
# (bench/run.sh does this.) Prints one line per workload and direction:
#     RESULT <workload> <encode|decode> <values> <bytes> <best_us> <median_us>
# and "BYTES <workload> <hex>" for workload C, whose encoding the Go side
# checks byte for byte. MB are 10^6 bytes of the encoded form.

var runs = 5


func median(a):
	var s = a.duplicate()
	s.sort()
	return s[s.size() / 2]


func report(name, dir, values, nbytes, times):
	print("RESULT\t%s\t%s\t%d\t%d\t%d\t%d" % [name, dir, values, nbytes, times.min(), median(times)])


# The player record of workloads B and D.
func player(i):
	return {"id": i, "name": "player%d" % i, "pos": Vector2(i, -i), "hp": 99.5}


# Workload C: a game state of 800 entities, about 1 MB encoded.
func game_state():
	var kinds = ["player", "enemy", "npc"]
	var entities = []
	for i in range(800):
		var path = PoolVector3Array()
		for k in range(60):
			path.append(Vector3(k, i, -k))
		var inventory = []
		for k in range(8):
			inventory.append(i + k)
		entities.append({
			"id": i,
			"name": "entity_%d" % i,
			"kind": kinds[i % 3],
			"transform": Transform(Basis(Vector3(1, 0, 0), Vector3(0, 1, 0), Vector3(0, 0, 1)), Vector3(i, 0.5 * i, -i)),
			"velocity": Vector3(0.25 * i, 0, -0.5),
			"hp": 100.0 - i * 0.25,
			"alive": i % 7 != 0,
			"tags": PoolStringArray(["a", "b", "tag%d" % (i % 5)]),
			"inventory": inventory,
			"path": path,
			"color": Color(0.5, 0.25, 1.0, 1.0),
			"stats": {"str": i % 20, "dex": (i * 3) % 20, "int": (i * 7) % 20},
		})
	var events = PoolStringArray()
	for k in range(200):
		events.append("event number %d" % k)
	return {"tick": 123456, "map": "forest_02", "entities": entities, "events": events}


func time_value(name, value, values):
	var enc_t = []
	var dec_t = []
	var enc = PoolByteArray()
	for r in range(runs):
		var t0 = OS.get_ticks_usec()
		enc = var2bytes(value)
		var t1 = OS.get_ticks_usec()
		var back = bytes2var(enc)
		var t2 = OS.get_ticks_usec()
		enc_t.append(t1 - t0)
		dec_t.append(t2 - t1)
		back = null
	report(name, "encode", values, enc.size(), enc_t)
	report(name, "decode", values, enc.size(), dec_t)
	return enc


func _init():
	var args = OS.get_cmdline_args()
	if args.size() > 0 and args[args.size() - 1].is_valid_integer():
		runs = int(args[args.size() - 1])
	print("INFO\tengine\tGodot %s" % Engine.get_version_info()["string"])

	var floats = PoolRealArray()
	floats.resize(1000000)
	for i in range(floats.size()):
		floats[i] = i * 0.5
	time_value("A", floats, floats.size())
	floats = PoolRealArray()

	var players = []
	for i in range(100000):
		players.append(player(i))
	time_value("B", players, players.size())

	var enc = time_value("C", game_state(), 800)
	print("BYTES\tC\t%s" % enc.hex_encode())

	# Workload D: 100,000 small messages through StreamPeer framing
	# (put_var writes a 4-byte length and the value), in memory.
	var msgs = players
	var enc_t = []
	var dec_t = []
	var total = 0
	for r in range(runs):
		var out = StreamPeerBuffer.new()
		var t0 = OS.get_ticks_usec()
		for m in msgs:
			out.put_var(m)
		var t1 = OS.get_ticks_usec()
		var data = out.data_array
		total = data.size()
		var inp = StreamPeerBuffer.new()
		inp.data_array = data
		var t2 = OS.get_ticks_usec()
		for i in range(msgs.size()):
			inp.get_var()
		var t3 = OS.get_ticks_usec()
		enc_t.append(t1 - t0)
		dec_t.append(t3 - t2)
	report("D", "encode", msgs.size(), total, enc_t)
	report("D", "decode", msgs.size(), total, dec_t)
	quit()
