#!/usr/bin/env bash
# Another player's level-1 reply latency alone and under engine floods
# (32 sockets of level-8 searches; 32 sockets offering draws): see
# bench/starvation/main.go. Any arguments go to the program, for example
#
#   bash bench/starvation.sh -samples 20
#   bash bench/starvation.sh -bin /tmp/knightwatch-old     # an older build, for a before/after
set -euo pipefail
cd "$(dirname "$0")/.."
exec go run ./bench/starvation "$@"
