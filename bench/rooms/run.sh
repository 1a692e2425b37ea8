#!/usr/bin/env bash
# The rooms benchmark at full scale: multiplayer.Rooms serving WebSocket
# clients in one process (rooms serve), a load generator holding the
# clients in another (rooms load), each client calling an RPC on its
# room's host RATE times a second. Prints a Markdown table of the server's
# CPU and memory per client and per room, one row per configuration.
#
#   bench/rooms/run.sh                          # 10,000 in 500 rooms; in 1 room, relay off; in 50 rooms
#   bench/rooms/run.sh "1000 50 on" "1000 1 on" # clients rooms relay(on|off) ...
#   DURATION=20s RATE=20 bench/rooms/run.sh     # measured seconds (after WARMUP), calls per client per second
#   CPUPROFILE=/tmp/prof bench/rooms/run.sh     # a CPU profile of the server per configuration
#   MUTEXPROFILE=/tmp/prof bench/rooms/run.sh   # a profile of its contended locks
#   SERVE_FLAGS=--no-poller bench/rooms/run.sh  # more flags for rooms serve (here: a reader goroutine per client)
#
# Both processes hold one file descriptor per client, so the open-file
# limit must exceed CLIENTS + a few hundred (it is raised to the hard limit).
set -euo pipefail
cd "$(dirname "$0")"
DURATION=${DURATION:-30s}
WARMUP=${WARMUP:-3s}
RATE=${RATE:-20}
PORT=${PORT:-19300}
ROOM_QUEUE=${ROOM_QUEUE:-0}
SERVE_FLAGS=${SERVE_FLAGS:-}
CPUPROFILE=${CPUPROFILE:-}
MUTEXPROFILE=${MUTEXPROFILE:-}
cases=("$@")
[ ${#cases[@]} -gt 0 ] || cases=("10000 500 on" "10000 1 off" "10000 50 on")

bin=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null || true; rm -rf "$bin"' EXIT
go build -o "$bin/rooms" .
ulimit -n "$(ulimit -Hn)"

"$bin/rooms" header
for c in "${cases[@]}"; do
	read -r clients rooms relay <<<"$c"
	[ "$relay" = on ] && relay=true || relay=false
	PORT=$((PORT + 2))
	prof=()
	[ -n "$CPUPROFILE" ] && prof+=(--cpuprofile "$CPUPROFILE/rooms-$clients-$rooms.pprof")
	[ -n "$MUTEXPROFILE" ] && prof+=(--mutexprofile "$MUTEXPROFILE/rooms-$clients-$rooms.mutex.pprof")
	"$bin/rooms" serve --addr "127.0.0.1:$PORT" --stats "127.0.0.1:$((PORT + 1))" --clients "$clients" --rooms "$rooms" \
		--relay="$relay" --room-queue "$ROOM_QUEUE" "${prof[@]}" $SERVE_FLAGS >"$bin/serve.log" 2>&1 &
	pid=$!
	for _ in $(seq 100); do grep -q listening "$bin/serve.log" 2>/dev/null && break; sleep 0.1; done
	if ! "$bin/rooms" load --addr "127.0.0.1:$PORT" --stats "127.0.0.1:$((PORT + 1))" --clients "$clients" --rooms "$rooms" \
		--relay="$relay" --rate "$RATE" --duration "$DURATION" --warmup "$WARMUP" --row 2>"$bin/load.log"; then
		printf '| %s × %s | %s | failed: %s |\n' "$clients" "$rooms" "$relay" "$(tail -1 "$bin/load.log")"
		tail -5 "$bin/serve.log" >&2
	fi
	kill "$pid" 2>/dev/null || true
	wait "$pid" 2>/dev/null || true
done
