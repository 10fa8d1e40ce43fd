#!/usr/bin/env bash
# The analysis board's figures (issue 47): the time from a position change
# to the engine's first line, the engine seconds a session costs, and a
# level-1 reply while 20 people analyse: see bench/analysis/main.go. Then
# the first line timed on the screen, in headless Chromium: see
# bench/analysis_page/main.go. Any arguments go to the first program; a
# first argument "socket" or "page" runs that one alone, with the rest:
#
#   bash bench/analysis.sh -positions 20 -dwell 3s -analysts 20
#   bash bench/analysis.sh page -changes 30 -dwell 2s -v
set -euo pipefail
cd "$(dirname "$0")/.."
page() {
  export KNIGHTWATCH_E2E_CHROME=${KNIGHTWATCH_E2E_CHROME:-/usr/bin/chromium}
  if [ ! -x "$KNIGHTWATCH_E2E_CHROME" ]; then
    echo "analysis: $KNIGHTWATCH_E2E_CHROME missing; 'make e2e' (scripts/e2e.sh) installs Debian's chromium" >&2
    exit 1
  fi
  go run ./bench/analysis_page "$@"
}
case "${1:-}" in
  socket) shift; exec go run ./bench/analysis "$@" ;;
  page) shift; page "$@" ;;
  *) go run ./bench/analysis "$@"; echo; page ;;
esac
