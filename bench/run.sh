#!/usr/bin/env bash
# Runs the benchmark workloads in gdvar and, when godot3-server is installed,
# in Godot 3.2's own C++ on the same machine, and prints one table with the
# ratios.
#
#     bench/run.sh [BENCHTIME [RUNS]]   # from the repository root; default 1s 5
#
# Both sides are timed the same way: the best of RUNS runs. A Go run is
# one `go test -bench` measurement (the mean over as many operations as
# fill BENCHTIME, garbage collection included); a Godot run is one
# operation (godot3.gd runs each workload RUNS times).
#
# Workloads (bench/workloads_test.go and bench/godot3.gd build the same values):
#   A  PackedFloat32Array of 1,000,000 floats
#   B  Array of 100,000 {"id", "name", "pos", "hp"} dictionaries (dynamic
#      values; B-structs: the same into and from []Player through Marshal)
#   C  a game state of 800 entities, about 1 MB
#   D  100,000 small messages through StreamPeer framing, one at a time
set -euo pipefail
cd "$(dirname "$0")/.."
benchtime=${1:-1s}
runs=${2:-5}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//'), $(go version | cut -d' ' -f3)" >&2
echo "date: $(date -u +%Y-%m-%dT%H:%MZ)" >&2

# The whole set runs RUNS times in turn, rather than each benchmark RUNS
# times in a row, so that a spell of load from elsewhere on the machine
# cannot take all the runs of one row.
go test -c -o "$tmp/bench.test" ./bench
for _ in $(seq "$runs"); do
	(cd bench && "$tmp/bench.test" -test.run '^$' -test.bench . -test.benchmem -test.benchtime "$benchtime")
done | tee "$tmp/go.txt" >&2

if command -v godot3-server >/dev/null 2>&1; then
	mkdir -p "$tmp/project"
	printf 'config_version=4\n\n[logging]\n\nfile_logging/enable_file_logging=false\nfile_logging/enable_file_logging.pc=false\n' >"$tmp/project/project.godot"
	LANG=en_US.UTF-8 godot3-server --path "$tmp/project" --script "$PWD/bench/godot3.gd" "$runs" 2>/dev/null |
		grep -E '^(RESULT|INFO)' >"$tmp/godot.txt" || true
	grep INFO "$tmp/godot.txt" >&2 || true
else
	echo "godot3-server not installed: gdvar numbers only" >&2
	: >"$tmp/godot.txt"
fi

awk -F'\t' '
FNR == NR {
	if ($1 == "RESULT") { godot_us[$2 "/" $3] = $6; values[$2] = $4; bytes[$2] = $5 }
	next
}
/^Benchmark/ {
	split($1, parts, "-"); name = parts[1]; sub(/^Benchmark/, "", name)
	ns = ""; mbs = ""; allocs = ""; nsv = ""
	for (i = 2; i <= NF; i++) {
		if ($(i) == "ns/op") ns = $(i-1)
		if ($(i) == "MB/s") mbs = $(i-1)
		if ($(i) == "allocs/op") allocs = $(i-1)
		if ($(i) == "ns/value") nsv = $(i-1)
	}
	if (name in best && best[name] <= ns + 0) next # the best of the runs
	best[name] = ns + 0
	split(name, w, "_"); wl = w[1]; dir = tolower(w[2])
	variant = ""
	if (dir ~ /structs$/) { variant = " (structs)"; sub(/structs$/, "", dir) }
	if (dir ~ /zerocopy$/) { variant = " (ZeroCopy)"; sub(/zerocopy$/, "", dir) }
	if (dir ~ /reuse$/) { variant = " ([]float32 reused)"; sub(/reuse$/, "", dir) }
	if (dir == "memcopy") { variant = " (copy of its bytes)"; dir = "-" }
	key = wl "/" dir
	g = godot_us[key]
	ratio = "-"; gmbs = "-"; gus = "-"
	if (g != "" && ns != "") { ratio = sprintf("%.1fx", (g * 1000) / ns); gus = g; if (bytes[wl] > 0) gmbs = sprintf("%.0f", bytes[wl] / g) }
	if (!(name in idx)) idx[name] = ++n
	rows[idx[name]] = sprintf("| %s%s | %s | %.0f | %s | %s | %s | %s | %s | %s |", wl, variant, dir, ns / 1000, mbs, nsv, allocs, gus, gmbs, ratio)
}
END {
	print "| workload | dir | gdvar µs/op (best of " runs ") | gdvar MB/s | ns/value | allocs/op | Godot 3.2 µs (best of " runs ") | Godot MB/s | gdvar / Godot |"
	print "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
	for (i = 1; i <= n; i++) print rows[i]
}' runs="$runs" "$tmp/godot.txt" FS=' +|\t' "$tmp/go.txt"
