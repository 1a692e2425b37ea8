#!/usr/bin/env bash
# Records what Godot 3.2.3 does with strings beyond UTF-8 (surrogates,
# characters above U+10FFFF, overlong forms) and checks gdvar's text of
# them: for every String in strings3.cases, the engine decodes its
# encoding, prints it with var2str and reads that back with str2var, and
# reads the text `gdvar decode --godot 3` prints for the same bytes.
#
#     gdtext/testdata/strings3.sh        # run from the repository root
#
# GODOT3_ORACLE  Godot 3.2.3 oracle folder (run.sh); default ../shared/oracle3
#
# Writes gdtext/testdata/strings3.tsv (columns: see strings3.gd), which
# TestGodot3StringsGolden reads.
set -euo pipefail

dir=gdtext/testdata
if [ ! -f go.mod ] || [ ! -f "$dir/strings3.cases" ]; then
	echo "strings3.sh: run this from the repository root" >&2
	exit 2
fi
G3=${GODOT3_ORACLE:-../shared/oracle3}
[ -x "$G3/run.sh" ] || { echo "strings3.sh: $G3/run.sh not found (set GODOT3_ORACLE)" >&2; exit 2; }

tmp=$(mktemp -d "${TMPDIR:-/tmp}/strings3.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
go build -o "$tmp/gdvar" ./cmd/gdvar

hex() { od -An -v -tx1 | tr -d ' \n'; }
grep -v '^#' "$dir/strings3.cases" | cut -f1 | while read -r raw; do
	[ -n "$raw" ] || continue
	n=$((${#raw} / 2))
	enc=$(printf '04000000%02x000000%s' "$n" "$raw")
	while [ $((${#enc} % 8)) != 0 ]; do enc+=00; done
	# The text gdvar prints, without its final line break; "-" if refused.
	if text=$(printf '%s\n' "$enc" | "$tmp/gdvar" decode --godot 3 --hex 2>/dev/null | hex); then
		text=${text%0a}
	else
		text=-
	fi
	printf '%s\t%s\n' "$raw" "$text"
done >"$tmp/in.txt"

ORACLE3_TOLERATE='SCRIPT ERROR: _decode: *' "$G3/run.sh" "$PWD/$dir/strings3.gd" "$tmp/in.txt" >"$tmp/out.tsv" 2>"$tmp/err.txt" || {
	echo "strings3.sh: the engine failed; its messages:" >&2
	tail -20 "$tmp/err.txt" >&2
	exit 1
}
# The engine's UTF-8 reader prints "Unicode error: ..." lines to stdout.
grep -v '^Unicode error: ' "$tmp/out.tsv" >"$tmp/strings3.tsv" || true
[ "$(wc -l <"$tmp/strings3.tsv")" = "$(wc -l <"$tmp/in.txt")" ] || { echo "strings3.sh: output is short" >&2; exit 1; }
cp "$tmp/strings3.tsv" "$dir/strings3.tsv"
echo "strings3.sh: $(wc -l <"$dir/strings3.tsv") strings" >&2
