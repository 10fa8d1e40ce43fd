#!/usr/bin/env bash
# Move acknowledgement latency (validate + commit + send; engine off) with
# 500 concurrent games on loopback, and memory per idle open game: the
# `ack` mode of the load tool (bench/load, package loadtest).
#
#   bash bench/ws_latency.sh                     # 500 games, 20 rounds
#   bash bench/ws_latency.sh -games 100 -rounds 5
set -euo pipefail
cd "$(dirname "$0")/.."
ulimit -n 4096 2>/dev/null || true
exec go run ./bench/load ack "$@"
