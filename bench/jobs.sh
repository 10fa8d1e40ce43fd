#!/usr/bin/env bash
# What one engine job costs PostgreSQL, and its ask-to-answer time, with 1
# to N worker processes (package enginejobs; docs/scale.md):
#
#   bash bench/jobs.sh                  # 300 tiny searches, 1-3 workers
#   bash bench/jobs.sh -jobs 500 -workers 5
set -euo pipefail
cd "$(dirname "$0")/.."
exec go run ./bench/jobs "$@"
