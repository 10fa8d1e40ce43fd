#!/usr/bin/env bash
# Reconnaissance Chess strength for the README: the knightwatch bot against
# the reference's bots and its own weaker levels, at 60 s + 1 s a side.
# Prints each match's summary (rbc-match prints a line per game, with the
# bot's belief sizes, times and how often the true board was in its set);
# asserts nothing. Takes hours with the defaults.
#
# Usage: bash bench/rbc-strength.sh
#   PART     all | trout | stockfish | simple | ladder   (default all)
#   GAMES    games per match (100)
#   CLOCK, INCREMENT     seconds per side and added per turn (60, 1)
#   CONCURRENCY          games at once (1)
#   SEED                 (1)
#   SAVE=1   pack each match's histories into bench/results/rbc/NAME.jsonl.gz
#            (one reference-format history per line)
set -euo pipefail
cd "$(dirname "$0")/.."
PART=${PART:-all}
GAMES=${GAMES:-100}
SECONDS_=${CLOCK:-60}
INCREMENT=${INCREMENT:-1}
CONCURRENCY=${CONCURRENCY:-1}
SEED=${SEED:-1}
STOCKFISH=${STOCKFISH:-/usr/games/stockfish}
go build -o /tmp/knightwatch-rbc .
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), load $(cut -d' ' -f1-3 /proc/loadavg), $(date -u +%F)"
match() { # NAME WHITE BLACK
  local name=$1 dir
  dir=$(mktemp -d)
  echo; echo "=== $name: $2 vs $3, $GAMES games, ${SECONDS_}s+${INCREMENT}s, concurrency $CONCURRENCY, seed $SEED"
  /tmp/knightwatch-rbc rbc-match "$2" "$3" --games "$GAMES" --seconds "$SECONDS_" --increment "$INCREMENT" \
    --concurrency "$CONCURRENCY" --seed "$SEED" --out "$dir" | tee "$dir.log"
  if [ "${SAVE:-0}" = 1 ]; then
    mkdir -p bench/results/rbc
    for f in "$dir"/*.json; do cat "$f"; echo; done | gzip -9 > "bench/results/rbc/$name.jsonl.gz"
    echo "saved bench/results/rbc/$name.jsonl.gz"
  fi
  rm -rf "$dir"
}
case "$PART" in all|trout|stockfish|simple|ladder) ;; *) echo "rbc-strength: PART must be all, trout, stockfish, simple or ladder" >&2; exit 2 ;; esac
if [ "$PART" = all ] || [ "$PART" = trout ]; then
  match "knightwatch-vs-trout-${SECONDS_}s-${GAMES}games" knightwatch trout:engine=knightwatch
fi
if [ "$PART" = all ] || [ "$PART" = stockfish ]; then
  if [ ! -x "$STOCKFISH" ]; then
    echo "rbc-strength: $STOCKFISH missing; installing Debian's stockfish" >&2
    SUDO=""; [ "$(id -u)" = 0 ] || SUDO=sudo
    $SUDO apt-get install -y -qq stockfish >/dev/null || { $SUDO apt-get update -qq && $SUDO apt-get install -y -qq stockfish >/dev/null; }
  fi
  STOCKFISH_EXECUTABLE=$STOCKFISH match "knightwatch-vs-trout-stockfish-${SECONDS_}s-${GAMES}games" knightwatch trout:engine=stockfish
fi
if [ "$PART" = all ] || [ "$PART" = simple ]; then
  match "knightwatch-vs-attacker-${SECONDS_}s-${GAMES}games" knightwatch attacker
  match "knightwatch-vs-random-${SECONDS_}s-${GAMES}games" knightwatch random
fi
if [ "$PART" = all ] || [ "$PART" = ladder ]; then
  match "knightwatch-level4-vs-level3-${SECONDS_}s-${GAMES}games" knightwatch:level=4 knightwatch:level=3
  match "knightwatch-level3-vs-level2-${SECONDS_}s-${GAMES}games" knightwatch:level=3 knightwatch:level=2
  match "knightwatch-level2-vs-level1-${SECONDS_}s-${GAMES}games" knightwatch:level=2 knightwatch:level=1
fi
