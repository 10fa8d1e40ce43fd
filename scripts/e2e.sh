#!/usr/bin/env bash
# Browser end-to-end tests (e2e/): installs Debian's chromium when it is
# missing, then runs the chromedp tests against the real server.
# Screenshots of every step land in e2e/artifacts/<TestName>/ (gitignored).
#
#   bash scripts/e2e.sh                 # everything (make e2e)
#   bash scripts/e2e.sh -run TestPhone  # extra arguments go to `go test`
#   KNIGHTWATCH_E2E_CONSOLE=1 bash scripts/e2e.sh -v   # also log every console message
set -euo pipefail
cd "$(dirname "$0")/.."

CHROME=${KNIGHTWATCH_E2E_CHROME:-/usr/bin/chromium}
if [ ! -x "$CHROME" ]; then
  echo "e2e: $CHROME missing; installing Debian's chromium" >&2
  SUDO=""
  if [ "$(id -u)" != 0 ]; then SUDO="sudo -n"; fi
  # Non-interactive so it also works in CI (CI=true, no stdin).
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -q </dev/null
  $SUDO apt-get install -y -q chromium </dev/null
  CHROME=/usr/bin/chromium
fi
"$CHROME" --version >&2 || { echo "e2e: $CHROME does not run" >&2; exit 1; }

export KNIGHTWATCH_E2E_CHROME="$CHROME"
# Keep the run well under five minutes; the go test timeout is a backstop.
exec go test -count=1 -timeout 15m "$@" ./e2e/
