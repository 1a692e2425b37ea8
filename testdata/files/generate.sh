#!/usr/bin/env bash
# Regenerates the engine-written fixture files in testdata/files/godot3 and
# testdata/files/godot4 (run from the repository root):
#
#     testdata/files/generate.sh
#
# GODOT4_ORACLE  Godot 4.6 oracle folder (run.sh); default ../shared/oracle4
# GODOT3_ORACLE  Godot 3.2.3 oracle folder (run.sh); default ../shared/oracle3
#
# Godot 4.6 encrypts with a random IV, so its encrypted files change from
# run to run; everything else is deterministic. See README.md.
set -euo pipefail

dir=testdata/files
if [ ! -f go.mod ] || [ ! -f "$dir/make3.gd" ]; then
	echo "generate.sh: run this from the repository root" >&2
	exit 2
fi
G4=${GODOT4_ORACLE:-../shared/oracle4}
G3=${GODOT3_ORACLE:-../shared/oracle3}

tmp=$(mktemp -d "${TMPDIR:-/tmp}/files.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

echo "== Godot 3.2.3: make3.gd" >&2
mkdir -p "$tmp/godot3"
"$G3/run.sh" "$PWD/$dir/make3.gd" "$tmp/godot3" >"$tmp/make3.out"
python3 "$dir/split.py" "$tmp/godot3" <"$tmp/make3.out"

echo "== Godot 4.6: make4.gd" >&2
mkdir -p "$tmp/godot4"
"$G4/run.sh" "$dir/make4.gd" >"$tmp/make4.out"
python3 "$dir/split.py" "$tmp/godot4" <"$tmp/make4.out"

for fam in godot3 godot4; do
	rm -rf "${dir:?}/$fam"
	cp -r "$tmp/$fam" "$dir/$fam"
done
echo "generate.sh: wrote $dir/godot3 and $dir/godot4" >&2
