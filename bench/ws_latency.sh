#!/usr/bin/env bash
# Move acknowledgement latency (validate + commit + send; engine off) with
# 500 concurrent games on loopback, and memory per idle open game.
#
#   bash bench/ws_latency.sh                     # 500 games, 20 rounds
#   bash bench/ws_latency.sh -games 100 -rounds 5
#   bash bench/ws_latency.sh -review             # engine on: a 40-move game's review time, and
#                                                # what reviews on every core add to level-1 replies
set -euo pipefail
cd "$(dirname "$0")/.."
ulimit -n 4096 2>/dev/null || true
exec go run ./bench/ws_latency "$@"
