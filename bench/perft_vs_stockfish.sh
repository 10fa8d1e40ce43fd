#!/usr/bin/env bash
# Perft speed of knightwatch against Stockfish (Debian package `stockfish`, 15.1 on bookworm),
# single-threaded, on this machine, in one run: startpos depth 6 and Kiwipete depth 5.
# Both count leaves in bulk at the last ply. Prints each time, checks the node counts agree,
# and prints the ratio knightwatch/stockfish (the goal is <= 1.5, the floor 2.0).
#
# Times exclude process start-up: knightwatch reports the time of the perft call itself
# (`perft --time`), and Stockfish's time is the whole run minus a run of `go perft 1` from
# the same position. Each measurement is the best of RUNS (default 3) to tame a shared machine.
#
# Usage: bench/perft_vs_stockfish.sh            (RUNS=5 bench/perft_vs_stockfish.sh)
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS=${RUNS:-3}

find_stockfish() {
  command -v stockfish 2>/dev/null || { [ -x /usr/games/stockfish ] && echo /usr/games/stockfish; } || true
}
SF=${STOCKFISH:-$(find_stockfish)}
if [ -z "$SF" ]; then
  echo "installing stockfish (apt-get)..." >&2
  SUDO=""
  [ "$(id -u)" -ne 0 ] && SUDO=sudo
  $SUDO apt-get update -qq >&2
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq stockfish >&2
  SF=$(find_stockfish)
  [ -n "$SF" ] || { echo "stockfish not found after installing it" >&2; exit 1; }
fi

mkdir -p bench/out
KW=bench/out/knightwatch
go build -o "$KW" .

now() { date +%s.%N; }

# sf_run POSITION DEPTH -> prints "nodes seconds" for one Stockfish run.
sf_run() {
  local pos=$1 depth=$2 t0 t1 out
  t0=$(now)
  out=$(printf 'setoption name Threads value 1\n%s\ngo perft %s\nquit\n' "$pos" "$depth" | "$SF" 2>&1)
  t1=$(now)
  local nodes
  nodes=$(printf '%s\n' "$out" | awk -F': ' '/^Nodes searched/ {print $2}')
  echo "$nodes $(awk -v a="$t0" -v b="$t1" 'BEGIN {printf "%.4f", b - a}')"
}

# kw_run FEN DEPTH -> prints "nodes seconds" for one knightwatch run.
kw_run() {
  local fen=$1 depth=$2 out err
  err=$(mktemp)
  out=$("$KW" perft --fen "$fen" --depth "$depth" --time 2>"$err")
  local nodes secs
  nodes=$(printf '%s\n' "$out" | awk -F': ' '/^Nodes searched/ {print $2}')
  secs=$(awk '/^time / {sub("s,", "", $2); print $2}' "$err")
  rm -f "$err"
  echo "$nodes $secs"
}

min() { awk 'NR == 1 || $1 < m {m = $1} END {printf "%.4f", m}'; }

status=0
compare() {
  local name=$1 fen=$2 sfpos=$3 depth=$4
  local kw_times="" sf_times="" kw_nodes="" sf_nodes="" base
  base=$(for _ in $(seq "$RUNS"); do sf_run "$sfpos" 1 | cut -d' ' -f2; done | min)
  for _ in $(seq "$RUNS"); do
    read -r n s < <(kw_run "$fen" "$depth"); kw_nodes=$n; kw_times+="$s"$'\n'
    read -r n s < <(sf_run "$sfpos" "$depth"); sf_nodes=$n; sf_times+="$(awk -v a="$s" -v b="$base" 'BEGIN {printf "%.4f", a - b}')"$'\n'
  done
  local kw sf
  kw=$(printf '%s' "$kw_times" | min)
  sf=$(printf '%s' "$sf_times" | min)
  if [ "$kw_nodes" != "$sf_nodes" ] || [ -z "$kw_nodes" ]; then
    echo "$name depth $depth: NODE COUNTS DIFFER: knightwatch $kw_nodes, stockfish $sf_nodes"
    status=1
  fi
  awk -v n="$name" -v d="$depth" -v nodes="$kw_nodes" -v kw="$kw" -v sf="$sf" 'BEGIN {
    printf "%-9s depth %d  nodes %11d  knightwatch %7.3fs (%4.0f Mnps)  stockfish %7.3fs (%4.0f Mnps)  ratio %.2f\n",
      n, d, nodes, kw, nodes / kw / 1e6, sf, nodes / sf / 1e6, kw / sf }'
}

echo "machine: $(lscpu | awk -F': *' '/^Model name/ {print $2; exit}'), $(nproc) cores; $("$SF" <<< quit 2>/dev/null | head -n 1); $(go version)"
compare startpos "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1" "position startpos" 6
KIWI="r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
compare kiwipete "$KIWI" "position fen $KIWI" 5
exit $status
