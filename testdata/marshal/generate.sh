#!/usr/bin/env bash
# Regenerates godot4.hex and godot3.hex from the expressions, with the real
# engines. Run from anywhere; the oracles are found beside the repository.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
oracle4="${GODOT4_ORACLE:-$here/../../../shared/oracle4}"
oracle3="${GODOT3_ORACLE:-$here/../../../shared/oracle3}"
"$oracle4/encode.sh" "$here/godot4.exprs" > "$here/godot4.hex.new"
"$oracle3/encode.sh" "$here/godot3.exprs" > "$here/godot3.hex.new"
if grep -q '^ERROR' "$here/godot4.hex.new" "$here/godot3.hex.new"; then
	grep '^ERROR' "$here/godot4.hex.new" "$here/godot3.hex.new" >&2
	exit 1
fi
mv "$here/godot4.hex.new" "$here/godot4.hex"
mv "$here/godot3.hex.new" "$here/godot3.hex"
