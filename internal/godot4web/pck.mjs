// Builds a minimal Godot 4 resource pack that runs one GDScript as the
// project's main loop.
//
// The web export template is a release build made with
// disable_path_overrides, so it ignores `--script`. It still loads a pack
// given with `--main-pack`, and a project may name a global script class as
// its main loop type (application/run/main_loop_type): the engine then
// instantiates that script as the main loop, as `--script` would. So the
// pack holds project.godot, the global class cache naming the class, and
// the script.
//
// Layout (pack format 3, Godot 4.5+, little-endian):
//   "GDPC", u32 format (3), u32 major, minor, patch, u32 flags
//   (2: offsets relative to file_base), u64 file_base, u64 dir_offset,
//   16 reserved u32; the files, each at a multiple of 16 from file_base;
//   then the directory: u32 count and, per file, u32 path size (NUL
//   included, padded to 4), the path, u64 offset, u64 size, md5, u32 flags.

import { createHash } from 'node:crypto';

export const MAIN_CLASS = 'GdvarMain';

const pad = (n, a) => Math.ceil(n / a) * a;

function u32(v) {
	const b = Buffer.alloc(4);
	b.writeUInt32LE(v);
	return b;
}

function u64(v) {
	const b = Buffer.alloc(8);
	b.writeBigUInt64LE(BigInt(v));
	return b;
}

// pack returns the bytes of a pack holding files, a list of {path, data}
// with res:// paths written without the scheme.
export function pack(files, [major, minor, patch] = [4, 6, 0]) {
	const headerSize = 4 + 5 * 4 + 2 * 8 + 16 * 4;
	const fileBase = pad(headerSize, 16);
	let size = 0;
	const placed = files.map((f) => {
		const at = size;
		size = pad(size + f.data.length, 16);
		return { ...f, at };
	});
	const header = Buffer.alloc(fileBase);
	header.write('GDPC', 0, 'latin1');
	[3, major, minor, patch, 2].forEach((v, i) => header.writeUInt32LE(v, 4 + 4 * i));
	header.writeBigUInt64LE(BigInt(fileBase), 24);
	header.writeBigUInt64LE(BigInt(fileBase + size), 32);
	const body = Buffer.alloc(size);
	const dir = [u32(placed.length)];
	for (const f of placed) {
		f.data.copy(body, f.at);
		const name = Buffer.from(f.path, 'utf8');
		const field = Buffer.alloc(pad(name.length + 1, 4));
		name.copy(field);
		dir.push(u32(field.length), field, u64(f.at), u64(f.data.length),
			createHash('md5').update(f.data).digest(), u32(0));
	}
	return Buffer.concat([header, body, ...dir]);
}

// project returns the files of a project whose main loop is the script
// source, saved as res://<name>.
export function project(name, source) {
	const base = /^extends\s+(\w+)/m.exec(source)?.[1] ?? 'SceneTree';
	const settings = `config_version=5

[application]

config/name="gdvar-godot4web"
run/main_loop_type="${MAIN_CLASS}"
config/features=PackedStringArray("4.6")

[audio]

driver/driver="Dummy"

[rendering]

renderer/rendering_method="gl_compatibility"
`;
	const classCache = `list=[{
"base": &"${base}",
"class": &"${MAIN_CLASS}",
"icon": "",
"is_abstract": false,
"is_tool": false,
"language": &"GDScript",
"path": "res://${name}"
}]
`;
	return [
		{ path: 'project.godot', data: Buffer.from(settings) },
		{ path: '.godot/global_script_class_cache.cfg', data: Buffer.from(classCache) },
		{ path: name, data: Buffer.from(source) },
	];
}
