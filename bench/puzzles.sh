#!/usr/bin/env bash
# What the puzzle generator (package training) finds in recorded games, and
# the engine time it takes (bench/puzzles): the games are reviewed first,
# then searched on one searcher.
#
#   bash bench/puzzles.sh                # 20 games of the level-1 vs Stockfish 1350 match
#   bash bench/puzzles.sh -games 40 -pgn FILE.pgn.gz
#   bash bench/puzzles.sh -games 10 -tries 20   # and how to judge a tried move (tries.go)
set -euo pipefail
cd "$(dirname "$0")/.."
exec go run ./bench/puzzles "$@"
