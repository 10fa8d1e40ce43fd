#!/usr/bin/env bash
# What the engine pool's quick lane costs a level-8 search: the nodes it
# reaches in its 3 s with one level-8 search per core, alone and with a
# third engine searching short requests beside them (level 1 paced and back
# to back, draw evaluations back to back): see bench/quicklane/main.go. Any arguments go to the program, for example
#
#   bash bench/quicklane.sh -rounds 10
set -euo pipefail
cd "$(dirname "$0")/.."
exec go run ./bench/quicklane "$@"
