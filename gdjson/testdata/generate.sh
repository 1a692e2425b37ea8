#!/usr/bin/env bash
# Regenerates json4.jsonl from json4.gd with the real Godot 4.6 (run from
# the repository root):
#
#     gdjson/testdata/generate.sh
#
# GODOT4_ORACLE names the Godot 4.6 oracle folder (run.sh); default
# ../shared/oracle4. The engine's JSON.stringify leaves control characters
# raw inside strings; the lines are rewritten with them escaped, so that
# any JSON reader takes them.
set -euo pipefail
dir=gdjson/testdata
[ -f "$dir/json4.gd" ] || { echo "generate.sh: run this from the repository root" >&2; exit 2; }
G4=${GODOT4_ORACLE:-../shared/oracle4}
"$G4/run.sh" "$dir/json4.gd" | python3 -c '
import json, sys
for line in sys.stdin:
    if line.startswith("{"):
        print(json.dumps(json.loads(line, strict=False), ensure_ascii=False))
' >"$dir/json4.jsonl.new"
mv "$dir/json4.jsonl.new" "$dir/json4.jsonl"
echo "generate.sh: wrote $dir/json4.jsonl ($(wc -l <"$dir/json4.jsonl") lines)" >&2
