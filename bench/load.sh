#!/usr/bin/env bash
# The web server under many players at once, on loopback (the load tool,
# bench/load; package loadtest): each player its own visitor, random legal
# moves against level 1, a share against level 8 and a share in
# Reconnaissance Chess (random senses and moves against a recon bot).
#
#   bash bench/load.sh                # the step search, then idle games per GiB
#   bash bench/load.sh step [FLAGS]   # the most games with the move ack p99 under 50 ms
#   bash bench/load.sh idle [FLAGS]   # memory of idle open games, in steps
#   bash bench/load.sh run [FLAGS]    # one run (-games N -duration 30s ...)
#
# FLAGS are those of `go run ./bench/load MODE -h`. The machine is shared:
# note its load (printed with every run) beside any figure.
set -euo pipefail
cd "$(dirname "$0")/.."
# Every open game is a descriptor in the server and one here.
ulimit -n "$(ulimit -Hn)" 2>/dev/null || true
mode=${1:-all}
if [ $# -gt 0 ]; then shift; fi
case "$mode" in
  step | idle | run) exec go run ./bench/load "$mode" "$@" ;;
  all)
    go run ./bench/load step "$@"
    go run ./bench/load idle -steps 1000,2000,4000,8000,16000
    go run ./bench/load idle -kind recon -recon-bot knightwatch -steps 500,1000,2000,4000
    ;;
  *) echo "usage: bash bench/load.sh [step|idle|run] [flags]" >&2; exit 2 ;;
esac
