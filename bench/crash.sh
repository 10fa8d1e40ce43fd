#!/usr/bin/env bash
# The crash test's long form (package loadtest; the short form, four kills,
# is TestCrashShort in make test): players of chess and Reconnaissance
# Chess on the real server, kill -9 at random moments, restart on the same
# database, and after every kill each game checked against what its player
# saw acknowledged: nothing lost, nothing duplicated, every game replays
# (recon games through the arbiter), play goes on after the restart.
# Exits 1 if anything was found.
#
#   bash bench/crash.sh                       # 50 kills, 40 players
#   bash bench/crash.sh -kills 100 -games 60 -recon-bot knightwatch -level8 0.1
set -euo pipefail
cd "$(dirname "$0")/.."
ulimit -n 4096 2>/dev/null || true
exec go run ./bench/load crash "$@"
