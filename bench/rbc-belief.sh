#!/usr/bin/env bash
# Belief speed (issue 46): boards expanded and filtered a second on one
# core, on knightwatch's beliefs in recorded games (the first games of
# bench/results/rbc/knightwatch-vs-trout-60s-100games.jsonl.gz, replayed
# through the bot: beliefs of at least 100 boards before the opponent's
# move is expanded, and after it before the sense's result filters them).
#   Knightwatch: BenchmarkBeliefExpand / BenchmarkBeliefFilter
#   (recon/bots), GOMAXPROCS=1, pinned with taskset.
#   StrangeFish (2019), when its source, the reference reconchess and
#   python-chess are given (STRANGEFISH, RECONCHESS, PYTHON_CHESS: source
#   folders; Debian's python3-numpy python3-tqdm python3-yaml python3-click
#   installed): its own populate_next_board_set and board_matches_sense, one
#   process (no pool), timed by the clock, on the same boards as EPDs.
#   Its progress bars count boards as they are handed to its pool of
#   processes (imap_unordered reads ahead), not as they are done: this
#   times the work.
# Prints figures; asserts nothing.
#   bash bench/rbc-belief.sh
#   STRANGEFISH=~/src/reconchess-strangefish RECONCHESS=~/src/reconchess PYTHON_CHESS=~/src/python-chess bash bench/rbc-belief.sh
set -euo pipefail
cd "$(dirname "$0")/.."
pin=""
command -v taskset >/dev/null && pin="taskset -c 0"
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), load $(cut -d' ' -f1-3 /proc/loadavg)"
dump=$(mktemp /tmp/kw-beliefs-XXXXXX.jsonl)
trap 'rm -f "$dump"' EXIT
echo "== Knightwatch, one core"
KW_BELIEF_DUMP=$dump GOMAXPROCS=1 $pin go test -run '^$' -bench 'BenchmarkBelief(Expand|Filter)$' -benchtime 5s -count 3 ./recon/bots/ | grep Benchmark
echo "$(grep -c '"expand"' "$dump") beliefs to expand, $(grep -c '"filter"' "$dump") to filter"
if [ -n "${STRANGEFISH:-}" ] && [ -n "${RECONCHESS:-}" ] && [ -n "${PYTHON_CHESS:-}" ]; then
  py=/usr/bin/python3
  [ -x "$py" ] || py=python3
  echo "== StrangeFish, one process"
  PYTHONPATH="$PYTHON_CHESS:$RECONCHESS:$STRANGEFISH" $pin "$py" - "$dump" <<'PY'
import json, sys, time
import chess
from strangefish.utilities import populate_next_board_set, board_matches_sense
expand, filt = [], []
for line in open(sys.argv[1]):
    c = json.loads(line)
    (expand if c["kind"] == "expand" else filt).append(c)
for _ in range(2):
    n, start = 0, time.perf_counter()
    children = 0
    for c in expand:
        out = populate_next_board_set(set(c["epds"]), c["color"], pool=None, rc_disable_pbar=True)
        n += len(c["epds"])
        children += sum(len(v) for v in out.values())
    el = time.perf_counter() - start
    print("expand: %d boards in %.2f s: %.0f boards expanded/s (%d children, python-chess %s)" % (n, el, n / el, children, chess.__version__))
    n, start = 0, time.perf_counter()
    for c in filt:
        sense = [(sq, chess.Piece.from_symbol(p) if p else None) for sq, p in c["sense"]]
        kept = [e for e in c["epds"] if board_matches_sense(e, sense) is not None]
        n += len(c["epds"])
    el = time.perf_counter() - start
    print("filter: %d boards in %.2f s: %.0f boards filtered/s" % (n, el, n / el))
PY
else
  echo "(StrangeFish not timed: set STRANGEFISH, RECONCHESS and PYTHON_CHESS to their source folders)"
fi
