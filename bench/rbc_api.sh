#!/usr/bin/env bash
# The Reconnaissance Chess HTTP API alone on loopback: games refereed per
# second between random bots, p50/p99 of an API call at rising numbers of
# games at once, and the most games held with p99 under 50 ms.
#
#   bash bench/rbc_api.sh                          # levels 1..256, 15 s each
#   bash bench/rbc_api.sh -levels 8,32 -seconds 5
set -euo pipefail
cd "$(dirname "$0")/.."
ulimit -n 8192 2>/dev/null || true
exec go run ./bench/rbc_api "$@"
