# Godot 4.6 side of the pck engine tests (run by internal/godot4web).
#
#   make            writes packs with PCKPacker to user:// and prints each
#                   as "pack NAME BASE64" (plain, encrypted files and
#                   directory, encrypted files, and one with a removal entry)
#   bench N SIZE    writes N files of SIZE bytes to user://bench/, packs
#                   them with PCKPacker and prints "usec T files N", the
#                   time the packing took (the web build's user:// is in
#                   memory)
#   load PCK… // PATH…
#                   loads each res://PCK with ProjectSettings.load_resource_pack
#                   (after copying it to user://) and prints
#                   "file<TAB>PATH<TAB>BASE64" for each res://PATH
extends SceneTree

const FILES = {
	"project.godot": "config_version=5\n",
	"a.txt": "hello from the engine\n",
	"dir/b.bin": "caf\u00e9 \u0001\u007f binary",
	"dir/sub/c.txt": "deeper",
}
const KEY = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"
const ZERO_KEY = "0000000000000000000000000000000000000000000000000000000000000000"

func _initialize():
	var args = OS.get_cmdline_user_args()
	if args.is_empty():
		quit(2)
		return
	if args[0] == "make":
		quit(make())
	elif args[0] == "bench":
		quit(bench(int(args[1]), int(args[2])))
	elif args[0] == "load":
		var split = args.find("//")
		quit(load_packs(args.slice(1, split), args.slice(split + 1)))
	else:
		quit(2)

func write_sources():
	for p in FILES:
		var f = FileAccess.open("user://src_" + p.replace("/", "_"), FileAccess.WRITE)
		f.store_string(FILES[p])
		f.close()

func pack(name, alignment, key, enc_dir, enc_files):
	var pk = PCKPacker.new()
	var err = pk.pck_start("user://" + name, alignment, key, enc_dir)
	if err != OK:
		return err
	for p in FILES:
		err = pk.add_file("res://" + p, "user://src_" + p.replace("/", "_"), enc_files)
		if err != OK:
			return err
	err = pk.flush()
	if err != OK:
		return err
	var bytes = FileAccess.get_file_as_bytes("user://" + name)
	print("pack ", name, " ", Marshalls.raw_to_base64(bytes))
	return OK

func make():
	write_sources()
	var err = pack("plain.pck", 32, ZERO_KEY, false, false)
	if err == OK:
		err = pack("encrypted.pck", 32, KEY, true, true)
	if err == OK:
		err = pack("encfiles.pck", 16, KEY, false, true)
	if err == OK:
		var pk = PCKPacker.new()
		err = pk.pck_start("user://removal.pck")
		if err == OK:
			err = pk.add_file("res://a.txt", "user://src_a.txt")
		if err == OK:
			err = pk.add_file_removal("res://dir/b.bin")
		if err == OK:
			err = pk.flush()
		if err == OK:
			print("pack removal.pck ", Marshalls.raw_to_base64(FileAccess.get_file_as_bytes("user://removal.pck")))
	return 0 if err == OK else 10 + err

func load_packs(names, paths):
	for name in names:
		var data = FileAccess.get_file_as_bytes("res://" + name)
		var f = FileAccess.open("user://" + name, FileAccess.WRITE)
		f.store_buffer(data)
		f.close()
		if not ProjectSettings.load_resource_pack("user://" + name, true):
			print("load failed ", name)
	for p in paths:
		if not FileAccess.file_exists("res://" + p):
			print("missing ", p)
			continue
		print("file\t", p, "\t", Marshalls.raw_to_base64(FileAccess.get_file_as_bytes("res://" + p)))
	return 0

func bench(n, size):
	DirAccess.make_dir_recursive_absolute("user://bench")
	var data = PackedByteArray()
	data.resize(size)
	data.fill(120)
	for i in n:
		var f = FileAccess.open("user://bench/f%04d.bin" % i, FileAccess.WRITE)
		f.store_buffer(data)
		f.close()
	var start = Time.get_ticks_usec()
	var pk = PCKPacker.new()
	pk.pck_start("user://bench.pck", 16)
	for i in n:
		pk.add_file("res://d/f%04d.bin" % i, "user://bench/f%04d.bin" % i)
	pk.flush()
	print("usec ", Time.get_ticks_usec() - start, " files ", n)
	return 0
