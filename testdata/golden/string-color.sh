#!/usr/bin/env bash
# Regenerates testdata/golden/godot4-string-color.tsv: Godot 4's named
# colors (color-names.txt) and what it makes of the strings of
# string-color.txt where a Color is expected (oracle/colors4.gd).
#
#     testdata/golden/string-color.sh    # run from the repository root
#
# GODOT4_ORACLE  Godot 4.6 oracle folder (run.sh); default ../shared/oracle4
set -euo pipefail
dir=testdata/golden
G4=${GODOT4_ORACLE:-../shared/oracle4}
[ -x "$G4/run.sh" ] || { echo "string-color.sh: $G4/run.sh not found (set GODOT4_ORACLE)" >&2; exit 2; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/colors.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
{ cat "$dir/color-names.txt"; echo "--"; cat "$dir/string-color.txt"; } >"$tmp/input"
"$G4/run.sh" "$dir/oracle/colors4.gd" "$tmp/input" >"$tmp/out"
want=$(( $(grep -cv '^#' "$dir/color-names.txt") + $(grep -cv '^#' "$dir/string-color.txt") + 1 ))
got=$(wc -l <"$tmp/out")
[ "$got" = "$want" ] || { echo "string-color.sh: $got lines from the engine, want $want" >&2; exit 1; }
mv "$tmp/out" "$dir/godot4-string-color.tsv"
echo "wrote $dir/godot4-string-color.tsv ($got lines)" >&2
