#!/usr/bin/env bash
# First page load on loopback: bytes transferred and time to a usable board,
# measured in headless Chromium (see bench/page_load/main.go for what is
# counted). Prints a table for the README.
#
#   bash bench/page_load.sh            # 7 runs of each load
#   bash bench/page_load.sh -runs 15 -v
set -euo pipefail
cd "$(dirname "$0")/.."
CHROME=${KNIGHTWATCH_E2E_CHROME:-/usr/bin/chromium}
if [ ! -x "$CHROME" ]; then
  echo "page_load: $CHROME missing; 'make e2e' (scripts/e2e.sh) installs Debian's chromium" >&2
  exit 1
fi
export KNIGHTWATCH_E2E_CHROME="$CHROME"
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(uname -sr)"
exec go run ./bench/page_load "$@"
