#!/usr/bin/env bash
# Regenerates godot4.txt and godot3.txt, the classes the engines can
# instantiate, by asking them (classes4.gd, classes3.gd):
#
#     classdb/generate.sh        # run from the repository root
#
# GODOT4_ORACLE  Godot 4.6 oracle folder (run.sh); default ../shared/oracle4
# GODOT3_ORACLE  Godot 3.2.3 oracle folder (run.sh); default ../shared/oracle3
#
# The same scripts print the list of any other engine build, to be loaded
# with classdb.Parse: godot --headless --script classdb/classes4.gd
set -euo pipefail
G4=${GODOT4_ORACLE:-../shared/oracle4}
G3=${GODOT3_ORACLE:-../shared/oracle3}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/classdb.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
"$G4/run.sh" classdb/classes4.gd >"$tmp/godot4.txt"
"$G3/run.sh" classdb/classes3.gd >"$tmp/godot3.txt"
for f in godot4.txt godot3.txt; do
	grep -qx Object "$tmp/$f" || { echo "generate.sh: $f lacks Object; engine output:" >&2; cat "$tmp/$f" >&2; exit 1; }
	mv "$tmp/$f" "classdb/$f"
	echo "wrote classdb/$f ($(wc -l <"classdb/$f") classes)" >&2
done
