#!/usr/bin/env bash
# Reconnaissance Chess arbiter speed for the README: whole random-vs-random
# games on one core (GOMAXPROCS=1, pinned with taskset), as turns per second
# (a turn is one player's sense and move). If the reference package is
# importable (pip install reconchess), it is timed the same way for
# comparison: 200 games of its RandomBot against itself through
# play_local_game, no clock. Prints figures; asserts nothing.
# Usage: bash bench/rbc-speed.sh
set -euo pipefail
cd "$(dirname "$0")/.."
pin=""
command -v taskset >/dev/null && pin="taskset -c 0"
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "== Knightwatch: BenchmarkRandomGame (arbiter and two trivial random players), one core"
GOMAXPROCS=1 $pin go test -run '^$' -bench 'BenchmarkRandomGame$' -benchtime 5s -count 3 ./recon/ | grep Benchmark
echo "== Knightwatch: rbc-match random random, 2000 games, one core (bots, arbiter, no files)"
go build -o /tmp/knightwatch-rbc .
start=$(date +%s.%N)
out=$(GOMAXPROCS=1 $pin /tmp/knightwatch-rbc rbc-match random random --games 2000 --seconds 0 --quiet)
end=$(date +%s.%N)
turns=$(awk '/^turns:/{print $2}' <<<"$out")
awk -v t="$turns" -v a="$start" -v b="$end" 'BEGIN{printf "%d turns in %.2f s: %.0f turns/s\n", t, b-a, t/(b-a)}'
if python3 -c 'import reconchess' 2>/dev/null; then
  echo "== reference reconchess $(python3 -c 'import reconchess; print(reconchess.__version__)'), RandomBot vs RandomBot, 200 games, one core"
  $pin python3 - <<'PY'
import random, time
import chess
from reconchess import LocalGame, play_local_game
from reconchess.bots.random_bot import RandomBot
random.seed(0)
turns, start = 0, time.time()
for _ in range(200):
    _, _, h = play_local_game(RandomBot(), RandomBot(), game=LocalGame(seconds_per_player=None))
    turns += h.num_turns()
el = time.time() - start
print("%d turns in %.2f s: %.0f turns/s (python-chess %s)" % (turns, el, turns / el, chess.__version__))
PY
else
  echo "(reconchess not importable: pip install reconchess to time the reference too)"
fi
