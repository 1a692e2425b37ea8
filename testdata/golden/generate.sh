#!/usr/bin/env bash
# Regenerates the golden fixtures in testdata/golden/ from godot4.exprs,
# godot3.exprs and gen_decode_cases.py, using real engines:
#
#     testdata/golden/generate.sh                # run from the repository root
#     testdata/golden/generate.sh --decode-only  # only the -decode.jsonl files
#
# GODOT4_ORACLE  Godot 4.6 oracle folder (encode.sh, run.sh); default ../shared/oracle4
# GODOT3_ORACLE  Godot 3.2.3 oracle folder (encode.sh, run.sh); default ../shared/oracle3
#
# Writes godot4.jsonl, godot3.jsonl, godot4-decode.jsonl and
# godot3-decode.jsonl (only when every step succeeded). With --decode-only
# it leaves godot4.jsonl and godot3.jsonl alone, builds the decoder cases
# from them as they are, and writes only the two -decode.jsonl files.
# See README.md.
set -euo pipefail

decode_only=false
case "${1:-}" in
--decode-only) decode_only=true ;;
"") ;;
*) echo "usage: testdata/golden/generate.sh [--decode-only]" >&2; exit 2 ;;
esac

dir=testdata/golden
if [ ! -f go.mod ] || [ ! -f "$dir/godot4.exprs" ]; then
	echo "generate.sh: run this from the repository root" >&2
	exit 2
fi
G4=${GODOT4_ORACLE:-../shared/oracle4}
G3=${GODOT3_ORACLE:-../shared/oracle3}
for f in "$G4/encode.sh" "$G4/run.sh" "$G3/encode.sh" "$G3/run.sh"; do
	[ -x "$f" ] || { echo "generate.sh: $f not found (set GODOT4_ORACLE / GODOT3_ORACLE)" >&2; exit 2; }
done

tmp=$(mktemp -d "${TMPDIR:-/tmp}/golden.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
py() { python3 "$dir/oracle/golden.py" "$@"; }

# encode.sh exits 1 when a line could not be evaluated; golden.py reports
# and skips such lines. Any other failure stops the run.
encode() { # ORACLE EXPRS OUT
	local rc=0
	"$1/encode.sh" "$2" >"$3" || rc=$?
	if [ "$rc" != 0 ] && [ "$rc" != 1 ]; then
		echo "generate.sh: $1/encode.sh failed with status $rc" >&2
		exit 1
	fi
}

# bytes2var raises a script error on bad input; dump3.gd expects that.
export ORACLE3_TOLERATE='SCRIPT ERROR: _decode: *'

# The decoder cases are mutations of the engines' own encodings: they are
# built from the godotN.jsonl just made, or the ones in $dir.
if $decode_only; then
	cp "$dir/godot4.jsonl" "$dir/godot3.jsonl" "$tmp/"
else
	echo "== Godot 4: encoding $dir/godot4.exprs" >&2
	encode "$G4" "$dir/godot4.exprs" "$tmp/enc4.tsv"
	py prep 4 "$tmp/enc4.tsv" >"$tmp/in4.txt"
	echo "== Godot 4: decoding" >&2
	"$G4/run.sh" "$dir/oracle/dump4.gd" "$tmp/in4.txt" >"$tmp/dump4.out" 2>"$tmp/dump4.err"
	py main 4 "$tmp/enc4.tsv" "$tmp/dump4.out" >"$tmp/godot4.jsonl"

	echo "== Godot 3: encoding $dir/godot3.exprs" >&2
	encode "$G3" "$dir/godot3.exprs" "$tmp/enc3.tsv"
	py prep 3 "$tmp/enc3.tsv" >"$tmp/in3.txt"
	echo "== Godot 3: decoding" >&2
	"$G3/run.sh" "$dir/oracle/dump3.gd" "$tmp/in3.txt" >"$tmp/dump3.out" 2>"$tmp/dump3.err"
	py main 3 "$tmp/enc3.tsv" "$tmp/dump3.out" "$tmp/dump3.err" >"$tmp/godot3.jsonl"
fi

echo "== Godot 4: malformed inputs" >&2
python3 "$dir/gen_decode_cases.py" 4 "$tmp/godot4.jsonl" >"$tmp/cases4.tsv"
py cases-in "$tmp/cases4.tsv" >"$tmp/cin4.txt"
"$G4/run.sh" "$dir/oracle/dump4.gd" "$tmp/cin4.txt" >"$tmp/cdump4.out" 2>"$tmp/cdump4.err"
py cases 4 "$tmp/cases4.tsv" "$tmp/cdump4.out" >"$tmp/godot4-decode.jsonl"

echo "== Godot 3: malformed inputs" >&2
python3 "$dir/gen_decode_cases.py" 3 "$tmp/godot3.jsonl" "$tmp/godot4.jsonl" >"$tmp/cases3.tsv"
py cases-in "$tmp/cases3.tsv" >"$tmp/cin3.txt"
"$G3/run.sh" "$dir/oracle/dump3.gd" "$tmp/cin3.txt" >"$tmp/cdump3.out" 2>"$tmp/cdump3.err"
py cases 3 "$tmp/cases3.tsv" "$tmp/cdump3.out" "$tmp/cdump3.err" >"$tmp/godot3-decode.jsonl"

py check "$tmp/godot4.jsonl" "$tmp/godot3.jsonl" "$tmp/godot4-decode.jsonl" "$tmp/godot3-decode.jsonl"
files="godot4.jsonl godot3.jsonl godot4-decode.jsonl godot3-decode.jsonl"
if $decode_only; then
	files="godot4-decode.jsonl godot3-decode.jsonl"
fi
for f in $files; do
	cp "$tmp/$f" "$dir/$f"
done
echo "== done: $(wc -l <"$dir/godot4.jsonl") + $(wc -l <"$dir/godot3.jsonl") encoded, $(wc -l <"$dir/godot4-decode.jsonl") + $(wc -l <"$dir/godot3-decode.jsonl") decode cases" >&2
