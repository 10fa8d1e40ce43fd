#!/usr/bin/env bash
# Browser end-to-end tests (e2e/): installs Debian's chromium when it is
# missing, and axe-core (the accessibility checks, pinned) from npm, then
# runs the chromedp tests against the real server.
# Screenshots of every step land in e2e/artifacts/<TestName>/ (gitignored).
#
#   bash scripts/e2e.sh                 # everything (make e2e)
#   bash scripts/e2e.sh -run TestPhone  # extra arguments go to `go test`
#   KNIGHTWATCH_E2E_CONSOLE=1 bash scripts/e2e.sh -v   # also log every console message
set -euo pipefail
cd "$(dirname "$0")/.."

# apt_install installs Debian packages, as root or through sudo, without
# asking (so it also works in CI: CI=true, no stdin).
apt_install() {
  local sudo=""
  if [ "$(id -u)" != 0 ]; then sudo="sudo -n"; fi
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get update -q </dev/null
  $sudo apt-get install -y -q "$@" </dev/null
}

CHROME=${KNIGHTWATCH_E2E_CHROME:-/usr/bin/chromium}
if [ ! -x "$CHROME" ]; then
  echo "e2e: $CHROME missing; installing Debian's chromium" >&2
  apt_install chromium
  CHROME=/usr/bin/chromium
fi
"$CHROME" --version >&2 || { echo "e2e: $CHROME does not run" >&2; exit 1; }

# axe-core, at the version e2e/axe_test.go expects (axeVersion), in a
# folder git ignores; npm itself from Debian when it is missing. A failed
# install is not fatal here: TestAxe then fails and says why.
AXE_VERSION=4.11.0
AXE_DIR=e2e/.deps/axe-core-$AXE_VERSION
if [ ! -s "$AXE_DIR/node_modules/axe-core/axe.min.js" ]; then
  if ! command -v npm >/dev/null; then
    echo "e2e: npm missing; installing Debian's nodejs and npm" >&2
    apt_install nodejs npm || true
  fi
  echo "e2e: installing axe-core $AXE_VERSION from npm into $AXE_DIR" >&2
  npm install --prefix "$AXE_DIR" --no-audit --no-fund --no-save --silent "axe-core@$AXE_VERSION" </dev/null >&2 || true
fi

export KNIGHTWATCH_E2E_CHROME="$CHROME"
export KNIGHTWATCH_E2E_AXE="$PWD/$AXE_DIR/node_modules/axe-core/axe.min.js"
# Keep the run well under five minutes; the go test timeout is a backstop.
exec go test -count=1 -timeout 15m "$@" ./e2e/
