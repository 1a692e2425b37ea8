#!/usr/bin/env bash
# Regenerates the engine-made corpus of package resource:
#   godot4/  by Godot 4.6 (web export template, internal/godot4web) from gen4.gd
#   godot3/  by Godot 3.2.3 (Debian's godot3-server) from gen3.gd
# Each script saves its resources with ResourceSaver under user:// and prints
# "name<TAB>base64"; this script decodes them into the folders.
# Run from the repository root: resource/testdata/gen.sh [4|3]...
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
decode() { # dir
	mkdir -p "$here/$1"
	while IFS=$'\t' read -r name b64; do
		printf '%s' "$b64" | base64 -d > "$here/$1/$name"
	done
}
for fam in "${@:-4 3}"; do
	case $fam in
	4) GDVAR_GODOT4WEB_ENGINE=${GDVAR_GODOT4WEB_ENGINE:-$root/internal/godot4web/.cache/godot} \
		GDVAR_CHROMIUM=${GDVAR_CHROMIUM:-/usr/bin/chromium} \
		node "$root/internal/godot4web/run.mjs" --timeout 120 "$here/gen4.gd" | decode godot4 ;;
	3) godot_dir=$(mktemp -d)
		printf '[application]\nconfig/name="gdvar-resource-corpus"\n' > "$godot_dir/project.godot"
		timeout 60 godot3-server --path "$godot_dir" --script "$here/gen3.gd" | grep -P '^[\w.]+\t' | decode godot3
		rm -rf "$godot_dir" ;;
	esac
done
