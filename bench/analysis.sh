#!/usr/bin/env bash
# The analysis board's figures (issue 47): the time from a position change
# to the engine's first line, the engine seconds a session costs, and a
# level-1 reply while 20 people analyse: see bench/analysis/main.go. Any
# arguments go to the program, for example
#
#   bash bench/analysis.sh -positions 20 -dwell 3s -analysts 20
set -euo pipefail
cd "$(dirname "$0")/.."
exec go run ./bench/analysis "$@"
