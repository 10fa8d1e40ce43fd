#!/usr/bin/env bash
# StrangeFish (2019) against the built-in knightwatch through Knightwatch's
# reconchess HTTP API (issue 46), with the reference client: StrangeFish's
# own wrapper of the reference's RemoteGame and play_turn
# (our_play_remote_game, as it connected in competition, thinking on its
# opponent's turn), one game at a time, colours alternating. Two ways:
#   step:  serve --rbc-bot-cores 0, the built-in bot's steps cut at 3 s
#   clock: serve at its default bot cores, the built-in bot spending its
#          clock and thinking on StrangeFish's turn
# Every history is saved and re-refereed with `knightwatch rbc-playback`;
# the score is knightwatch's, with its 95% margin. A game that ends while
# StrangeFish acts (its clock run out mid-turn: the reference client raises)
# is taken from the server and counted. -first N numbers the games from N
# (colours by number), to go on with a match in the same folder.
#
# Needs StrangeFish's, the reference reconchess's and python-chess's source
# folders (never committed), Debian's python3-numpy python3-tqdm python3-yaml
# python3-click python3-requests, and Stockfish:
#   STRANGEFISH=~/src/reconchess-strangefish RECONCHESS=~/src/reconchess \
#   PYTHON_CHESS=~/src/python-chess STOCKFISH_EXECUTABLE=/usr/games/stockfish \
#   bash bench/rbc-strangefish.sh -games 40 -clock 120+1 -modes "step clock" -out games/strangefish
set -euo pipefail
cd "$(dirname "$0")/.."
here=$PWD/bench
games=2 first=1 clock=120+1 modes="step clock" out=""
while [ $# -gt 0 ]; do
  case "$1" in
    -games) games=$2; shift 2 ;;
    -first) first=$2; shift 2 ;;
    -clock) clock=$2; shift 2 ;;
    -modes) modes=$2; shift 2 ;;
    -out) out=$2; shift 2 ;;
    *) echo "usage: $0 [-games N] [-first N] [-clock SECONDS+INC] [-modes \"step clock\"] [-out DIR]" >&2; exit 2 ;;
  esac
done
: "${STRANGEFISH:?set STRANGEFISH to the StrangeFish source folder}"
: "${RECONCHESS:?set RECONCHESS to the reference reconchess source folder}"
: "${PYTHON_CHESS:?set PYTHON_CHESS to the python-chess source folder}"
export STOCKFISH_EXECUTABLE=${STOCKFISH_EXECUTABLE:-/usr/games/stockfish}
py=/usr/bin/python3
[ -x "$py" ] || py=python3
tmp=$(mktemp -d /tmp/kw-strangefish-XXXXXX)
out=${out:-$tmp/games}
mkdir -p "$out"
go build -o "$tmp/knightwatch" .
server_pid=""
cleanup() { [ -n "$server_pid" ] && kill "$server_pid" 2>/dev/null; wait 2>/dev/null || true; rm -rf "$tmp/db"*; }
trap cleanup EXIT
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), load $(cut -d' ' -f1-3 /proc/loadavg); commit $(git rev-parse --short HEAD); clock $clock"
for mode in $modes; do
  case "$mode" in
    step) flags=(--rbc-bot-cores 0) ;;
    clock) flags=() ;;
    *) echo "unknown mode $mode (step or clock)" >&2; exit 2 ;;
  esac
  port=$($py -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
  rm -f "$tmp/db"*
  "$tmp/knightwatch" serve --addr "127.0.0.1:$port" --db "$tmp/db" --rbc-clock "$clock" --analysis-nodes 0 "${flags[@]}" >"$tmp/server-$mode.log" 2>&1 &
  server_pid=$!
  for _ in $(seq 100); do curl -fs "http://127.0.0.1:$port/api/version" >/dev/null && break; sleep 0.2; done
  echo "== $mode: serve ${flags[*]:-(default bot cores)}, $games games"
  (cd "$tmp" && PYTHONPATH="$PYTHON_CHESS:$RECONCHESS:$STRANGEFISH" "$py" "$here/rbc_strangefish.py" play "http://127.0.0.1:$port" "$games" "$out/$mode" "$first") \
    2>"$tmp/strangefish-$mode.log" || { echo "StrangeFish failed: tail of $tmp/strangefish-$mode.log:"; tail -20 "$tmp/strangefish-$mode.log"; }
  kill "$server_pid"; wait "$server_pid" 2>/dev/null || true; server_pid=""
  ok=()
  for f in "$out/$mode"/*.json; do
    [ -e "$f" ] || continue
    if "$tmp/knightwatch" rbc-playback "$f" >/dev/null; then ok+=("$f"); else echo "re-referee FAILED: $f"; fi
  done
  "$py" "$here/rbc_strangefish.py" score "$mode" "${ok[@]}"
done
echo "histories in $out"
