#!/usr/bin/env bash
# Engine speed figures for the README: single-thread nps from `bench`,
# the Lazy SMP time-to-depth speed-up with 2 threads, and how far searches
# overshoot their MoveTime. Prints figures; asserts nothing.
# Usage: bash bench/engine-speed.sh [depth]   (default depth 14, ~1 minute)
set -euo pipefail
cd "$(dirname "$0")/.."
DEPTH=${1:-14}
go build -o /tmp/knightwatch-bench .
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "== bench, 1 thread, depth $DEPTH"
/tmp/knightwatch-bench bench -depth "$DEPTH" -threads 1 | tee /tmp/kw-bench1.txt
echo "== bench, 2 threads, depth $DEPTH"
/tmp/knightwatch-bench bench -depth "$DEPTH" -threads 2 | tee /tmp/kw-bench2.txt
t1=$(awk '/^time/{print $2}' /tmp/kw-bench1.txt)
t2=$(awk '/^time/{print $2}' /tmp/kw-bench2.txt)
echo "Lazy SMP time-to-depth speed-up (2 threads): $(awk -v a="$t1" -v b="$t2" 'BEGIN{printf "%.2fx", a/b}')"
echo "== MoveTime overshoot"
go test -count=1 -run 'TestMoveTimeOvershoot|TestSearchCancellation' -v ./engine/ | grep -E 'overshoot|after cancel'
