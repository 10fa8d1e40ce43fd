#!/usr/bin/env bash
# `make bench`: every benchmark whose figures the README quotes. Each script
# prints its own figures; nothing here passes or fails on timings.
set -uo pipefail
cd "$(dirname "$0")/.."
run() { echo; echo "=== $*"; "$@" || echo "(failed: $*)"; }
run go test -run '^$' -bench . -benchtime 3x ./game/
run go test -run '^$' -bench BenchmarkHomeOpenings -benchmem ./web/
run bash bench/perft_vs_stockfish.sh
run bash bench/engine-speed.sh
run bash bench/rbc-speed.sh
for s in bench/ws_latency.sh bench/page_load.sh bench/rbc_api.sh bench/syzygy.sh bench/gaviota.sh bench/experience.sh bench/starvation.sh bench/review.sh bench/load.sh bench/crash.sh; do
  run bash "$s"
done
SIZE_MB=100 run bash bench/pgn_stream.sh
echo
echo "Strength matches take hours; run bench/strength.sh separately."
