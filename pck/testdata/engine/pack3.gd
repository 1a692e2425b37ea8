# Godot 3.2.3 side of the pck engine tests (run by internal/enginetest).
#
#   make DIR        writes DIR/godot3.2.3.pck with PCKPacker (alignment 0,
#                   the default) and DIR/godot3.2.3-align16.pck, then prints
#                   "done"
#   bench SRC OUT   packs every file directly in SRC's subfolders into OUT
#                   with PCKPacker and prints "usec N", the time it took
#   load PCK… // PATH…
#                   loads each PCK with ProjectSettings.load_resource_pack
#                   and prints "file<TAB>PATH<TAB>BASE64" for each res://PATH
extends SceneTree

const FILES = {
	"project.godot": "config_version=4\n",
	"a.txt": "hello from the engine\n",
	"dir/b.bin": "caf\u00e9 \u0001\u007f binary",
	"dir/sub/c.txt": "deeper",
}

func _init():
	var args = OS.get_cmdline_args()
	args = Array(args).slice(2, args.size() - 1)
	if args.empty():
		quit(2)
	elif args[0] == "make":
		quit(make(args[1]))
	elif args[0] == "bench":
		quit(bench(args[1], args[2]))
	elif args[0] == "load":
		var split = args.find("//")
		quit(load_packs(args.slice(1, split - 1), args.slice(split + 1, args.size() - 1)))
	else:
		quit(2)

func make(dir):
	for p in FILES:
		var f = File.new()
		f.open(dir + "/src_" + p.replace("/", "_"), File.WRITE)
		f.store_string(FILES[p])
		f.close()
	for name in ["godot3.2.3.pck", "godot3.2.3-align16.pck"]:
		var pk = PCKPacker.new()
		var err = pk.pck_start(dir + "/" + name, 16 if name.find("align") >= 0 else 0)
		if err != OK:
			return 10 + err
		for p in FILES:
			err = pk.add_file("res://" + p, dir + "/src_" + p.replace("/", "_"))
			if err != OK:
				return 10 + err
		err = pk.flush(false)
		if err != OK:
			return 10 + err
	print("done")
	return 0

func load_packs(names, paths):
	for name in names:
		if not ProjectSettings.load_resource_pack(name):
			print("load failed ", name)
	for p in paths:
		var f = File.new()
		if f.open("res://" + p, File.READ) != OK:
			print("missing ", p)
			continue
		print("file\t", p, "\t", Marshalls.raw_to_base64(f.get_buffer(f.get_len())))
		f.close()
	return 0

func bench(src, out):
	var files = []
	var d = Directory.new()
	d.open(src)
	d.list_dir_begin(true)
	var sub = d.get_next()
	while sub != "":
		var d2 = Directory.new()
		d2.open(src + "/" + sub)
		d2.list_dir_begin(true)
		var f = d2.get_next()
		while f != "":
			files.append(sub + "/" + f)
			f = d2.get_next()
		sub = d.get_next()
	var start = OS.get_ticks_usec()
	var pk = PCKPacker.new()
	pk.pck_start(out, 16)
	for f in files:
		pk.add_file("res://" + f, src + "/" + f)
	pk.flush(false)
	print("usec ", OS.get_ticks_usec() - start, " files ", files.size())
	return 0
