#!/usr/bin/env bash
# Checks gdtext against the real engines: for every golden fixture, the text
# gdtext.Format writes for the decoded value (one-line and multi-line) is fed
# to the engine's own reader (Godot 4.6 str_to_var, Godot 3.2.3 str2var) and
# the engine's var_to_bytes / var2bytes of the result must equal the
# fixture's bytes (padding bytes zeroed on both sides: the engines leave
# NodePath padding uninitialized).
#
#     testdata/golden/check-text.sh        # run from the repository root
#
# GODOT4_ORACLE  Godot 4.6 oracle folder (run.sh); default ../shared/oracle4
# GODOT3_ORACLE  Godot 3.2.3 oracle folder (run.sh); default ../shared/oracle3
#
# Writes testdata/golden/text-check-godot4.txt and text-check-godot3.txt: one
# line per fixture, OK or MISMATCH with the details and the engine
# limitation that explains it (see the gdtext package documentation), then
# a SUMMARY line. The same check runs on extra values made by
# "go run ./internal/gdtextcheck gen 4|3" (random floats, every control
# character in strings, …; their bytes are this project's encoding), with
# results in text-check-extra-godot4.txt and text-check-extra-godot3.txt.
# Exits 1 if a mismatch is unexplained.
set -euo pipefail

dir=testdata/golden
if [ ! -f go.mod ] || [ ! -f "$dir/godot4.jsonl" ]; then
	echo "check-text.sh: run this from the repository root" >&2
	exit 2
fi
G4=${GODOT4_ORACLE:-../shared/oracle4}
G3=${GODOT3_ORACLE:-../shared/oracle3}
for f in "$G4/run.sh" "$G3/run.sh"; do
	[ -x "$f" ] || { echo "check-text.sh: $f not found (set GODOT4_ORACLE / GODOT3_ORACLE)" >&2; exit 2; }
done

tmp=$(mktemp -d "${TMPDIR:-/tmp}/textcheck.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
go build -o "$tmp/gdtextcheck" ./internal/gdtextcheck

status=0
# check FAMILY FIXTURES RESULT
check() {
	local fam=$1 fixtures=$2 result=$3 oracle script
	if [ "$fam" = 4 ]; then oracle=$G4 script=gdtext/testdata/str_to_var4.gd; else oracle=$G3 script=gdtext/testdata/str2var3.gd; fi
	"$tmp/gdtextcheck" texts "$fam" "$fixtures" >"$tmp/in.txt"
	"$oracle/run.sh" "$PWD/$script" "$tmp/in.txt" >"$tmp/out.txt" 2>"$tmp/err.txt" || {
		echo "check-text.sh: the Godot $fam engine failed; its messages:" >&2
		tail -20 "$tmp/err.txt" >&2
		exit 1
	}
	"$tmp/gdtextcheck" compare "$fam" "$fixtures" "$tmp/out.txt" >"$result"
	tail -1 "$result" >&2
	if grep -q 'unexplained\]$' "$result"; then
		status=1
	fi
}
for fam in 4 3; do
	echo "== Godot $fam: golden fixtures" >&2
	check "$fam" "$dir/godot$fam.jsonl" "$dir/text-check-godot$fam.txt"
	echo "== Godot $fam: extra values (gdtextcheck gen $fam)" >&2
	"$tmp/gdtextcheck" gen "$fam" >"$tmp/extra$fam.jsonl"
	check "$fam" "$tmp/extra$fam.jsonl" "$dir/text-check-extra-godot$fam.txt"
done
exit $status
