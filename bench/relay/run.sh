#!/usr/bin/env bash
# The relay benchmark: gdvar's multiplayer host (relay serve) and Godot
# 3.2.3's (host3.gd, godot3-server) in turn, each driven by the same load
# generator (relay load) for each transport, size and rate; prints a
# Markdown table of host CPU per 1,000 delivered calls, the share of the
# scheduled calls delivered, and host memory per client.
#
#   bench/relay/run.sh                 # the default sizes
#   bench/relay/run.sh "enet 10 320" "ws 100 5"   # transport clients rate ...
#   RUNS=3 DURATION=10s bench/relay/run.sh       # interleaved runs, seconds measured each
#   SYSCALLS=1 bench/relay/run.sh      # also the host's system calls per delivery (perf stat)
#   FLUSH_DELAY=-1ms bench/relay/run.sh           # gdvar's enet.Config.FlushDelay
#   CPUPROFILE=/tmp/prof bench/relay/run.sh       # a CPU profile of gdvar's host per run in that directory
#   GDVAR_FLAGS=--write-delay=5ms bench/relay/run.sh "ws 10 100"   # more flags for relay serve
#   GDVAR_FLAGS=--no-poller bench/relay/run.sh "ws 100 5"       # WebSocket clients on goroutines of their own
#   WARM_JOIN=1 bench/relay/run.sh     # the clients join and leave once before the host's idle memory is read
#   BASE=a458bb5 bench/relay/run.sh    # also gdvar's host as of that commit (built from git archive), in turn with the others
set -euo pipefail
cd "$(dirname "$0")"
RUNS=${RUNS:-1}
DURATION=${DURATION:-8s}
RELIABLE=${RELIABLE:-true}
GODOT3=${GODOT3:-godot3-server}
PORT=${PORT:-17777}
SYSCALLS=${SYSCALLS:-}
FLUSH_DELAY=${FLUSH_DELAY:-0}
CPUPROFILE=${CPUPROFILE:-}
GDVAR_FLAGS=${GDVAR_FLAGS:-}
WARM_JOIN=${WARM_JOIN:-}
BASE=${BASE:-}
cases=("$@")
[ ${#cases[@]} -gt 0 ] || cases=("enet 10 320" "enet 100 20" "enet 500 0.5" "ws 10 100" "ws 100 5")

bin=$(mktemp -d)
trap 'rm -rf "$bin"; kill $(jobs -p) 2>/dev/null || true' EXIT
go build -o "$bin/relay" .
if [ -n "$BASE" ]; then
	src="$bin/base-src"
	mkdir "$src"
	git -C ../.. archive "$BASE" | tar -x -C "$src"
	(cd "$src/bench/relay" && go build -o "$bin/relay-base" .)
	rm -rf "$src"
fi
have_godot=1
command -v "$GODOT3" >/dev/null || { have_godot=0; echo "relay: $GODOT3 not found: gdvar's side only" >&2; }
project=$(mktemp -d)
printf 'config_version=4\n' >"$project/project.godot"
ulimit -n 65536 2>/dev/null || true

# start_host NAME TRANSPORT CLIENTS: starts a host on $PORT in the background
# and prints its pid once it listens.
start_host() {
	local name=$1 transport=$2 clients=$3
	if [ "$name" = gdvar ] || [ "$name" = base ]; then
		local prof=() exe="$bin/relay"
		[ -n "$CPUPROFILE" ] && prof=(--cpuprofile "$CPUPROFILE/$name-$transport-$clients-$PORT.pprof")
		[ "$name" = base ] && exe="$bin/relay-base"
		"$exe" serve --transport "$transport" --addr "127.0.0.1:$PORT" --clients "$clients" --reliable="$RELIABLE" \
			--flush-delay "$FLUSH_DELAY" "${prof[@]}" $GDVAR_FLAGS >"$bin/host.log" 2>&1 &
	else
		"$GODOT3" --path "$project" --script "$PWD/host3.gd" "$transport" "$PORT" "$((clients + 16))" >"$bin/host.log" 2>&1 &
	fi
	local pid=$!
	for _ in $(seq 100); do grep -q listening "$bin/host.log" 2>/dev/null && break; sleep 0.1; done
	grep -q listening "$bin/host.log" || { cat "$bin/host.log" >&2; return 1; }
	echo "$pid"
}

count=()
[ -n "$WARM_JOIN" ] && count+=(--warm-join)
if [ -n "$SYSCALLS" ]; then
	count+=(--syscalls)
	printf '| transport | clients × Hz | host | CPU ms / 1k deliveries | of it system | delivered | latency ms p50 / p99 | KB / client | anon KB / client | RSS MB | syscalls / delivery | sends / delivery | receives / delivery | datagrams out / delivery |\n|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n'
else
	printf '| transport | clients × Hz | host | CPU ms / 1k deliveries | of it system | delivered | latency ms p50 / p99 | KB / client | anon KB / client | RSS MB |\n|---|---|---|---:|---:|---:|---:|---:|---:|---:|\n'
fi
for c in "${cases[@]}"; do
	read -r transport clients rate <<<"$c"
	for run in $(seq "$RUNS"); do
		hosts=()
		[ -n "$BASE" ] && hosts+=(base)
		hosts+=(gdvar)
		[ $have_godot = 1 ] && hosts+=(godot3)
		for host in "${hosts[@]}"; do
			PORT=$((PORT + 1))
			pid=$(start_host "$host" "$transport" "$clients")
			row=$host
			[ "$host" = base ] && row="gdvar@$BASE"
			[ "$host" != godot3 ] && [ -n "$GDVAR_FLAGS" ] && row="$row $GDVAR_FLAGS"
			if ! "$bin/relay" load --transport "$transport" --addr "127.0.0.1:$PORT" --clients "$clients" \
				--rate "$rate" --duration "$DURATION" --reliable="$RELIABLE" --pid "$pid" --row "$row" "${count[@]}" 2>"$bin/load.log"; then
				printf '| %s | %s × %s | %s | failed: %s | | | | | | |\n' "$transport" "$clients" "$rate" "$host" "$(tail -1 "$bin/load.log")"
			fi
			kill "$pid" 2>/dev/null; wait "$pid" 2>/dev/null || true
		done
	done
done
