#!/usr/bin/env bash
# What the reviews of finished games cost (bench/review): a 40-move game's
# review time on one core, and what reviews running on every searcher add
# to another player's level-1 reply. The real server, the engine on,
# loopback only.
#
#   bash bench/review.sh                 # 5 games in the backlog, 40 replies timed each way
#   bash bench/review.sh -replies 60
set -euo pipefail
cd "$(dirname "$0")/.."
exec go run ./bench/review "$@"
