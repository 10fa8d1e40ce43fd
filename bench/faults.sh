#!/usr/bin/env bash
# The long form of the fault test: the real server's database on a 16 MB
# tmpfs that fills and empties at random moments while players play chess
# and Reconnaissance Chess; then every game is compared with what its
# player was shown. Needs root (it mounts the tmpfs). Arguments go to the
# program (bench/faults/main.go), for example
#
#   bash bench/faults.sh -seconds 300 -games 16
set -euo pipefail
cd "$(dirname "$0")/.."
exec go run ./bench/faults "$@"
