#!/usr/bin/env bash
# A site of several servers and engine workers on one PostgreSQL (issue 44),
# on this machine: for each number of servers (1-3) and workers (1-3), the
# same players (bench/load run: level 1, a tenth at level 8, a tenth in
# Reconnaissance Chess) behind a round-robin proxy, and what each kind of
# process spent. Every process shares this machine's cores, so the totals
# say little: read the CPU each kind used per move, and PostgreSQL's work
# per move (commits, table scans, notifications, rows). A SQLite server
# alone runs first, as the baseline.
#
#   bash bench/scale.sh                         # 20 players, 20 s each
#   GAMES=40 DURATION=30s bash bench/scale.sh
set -euo pipefail
cd "$(dirname "$0")/.."
ulimit -n 4096 2>/dev/null || true
GAMES=${GAMES:-20}
DURATION=${DURATION:-20s}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
go build -o "$out/knightwatch" .
run() { # label, then bench/load run flags
	local label=$1
	shift
	go run ./bench/load run -bin "$out/knightwatch" -games "$GAMES" -duration "$DURATION" -warmup 5s "$@" >"$out/run.txt" 2>&1 || {
		cat "$out/run.txt"
		return 1
	}
	local moves ack l1 cpu pg
	moves=$(sed -n 's/^moves\/s \([0-9.]*\).*/\1/p' "$out/run.txt")
	ack=$(sed -n "s/^ack of the player's move: p50 \([0-9.]*\) ms  p99 \([0-9.]*\) ms.*/\1 \/ \2/p" "$out/run.txt")
	l1=$(sed -n 's/^engine reply, level 1: p50 \([0-9.]*\) ms  p99 \([0-9.]*\) ms.*/\1 \/ \2/p' "$out/run.txt")
	cpu=$(sed -n 's/^site: .*CPU of the servers \([0-9.]*\) cores, of the workers \([0-9.]*\), of PostgreSQL \([0-9.]*\)/\1 \/ \2 \/ \3/p' "$out/run.txt")
	cpu=${cpu:-$(sed -n 's/^server: CPU \([0-9.]*\) cores.*/\1 (one server, engine inside)/p' "$out/run.txt")}
	pg=$(sed -n 's/^postgresql per move or recon action ([0-9]*): \([0-9.]*\) commits, \([0-9.]*\) table scans, \([0-9.]*\) notifications.*/\1 \/ \2 \/ \3/p' "$out/run.txt")
	wal=$(sed -n 's/^postgresql write-ahead log per move or recon action: \([0-9]*\) bytes.*engine jobs per move or recon action: \([0-9.]*\)/\1 \/ \2/p' "$out/run.txt")
	printf '| %s | %s | %s | %s | %s | %s | %s |\n' "$label" "$moves" "$ack" "$l1" "$cpu" "${pg:--}" "${wal:--}"
}
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), load $(cut -d' ' -f1-3 /proc/loadavg), commit $(git rev-parse --short HEAD)"
echo "| site | moves/s | ack p50 / p99 ms | level-1 reply p50 / p99 ms | CPU cores: servers / workers / PostgreSQL | PostgreSQL per move: commits / scans / notifications | per move: WAL bytes / engine jobs |"
echo "|---|---|---|---|---|---|---|"
run "SQLite, 1 server"
for s in 1 2 3; do
	for w in 1 2 3; do
		run "$s server(s), $w worker(s)" -db postgres -servers "$s" -workers "$w"
	done
done
