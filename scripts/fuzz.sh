#!/usr/bin/env bash
# Runs each Go fuzz target in the module for FUZZTIME (default 3s).
# Targets are found by name, so a new `func FuzzXxx` is picked up without edits here.
set -euo pipefail
cd "$(dirname "$0")/.."
FUZZTIME=${FUZZTIME:-3s}
status=0
for dir in $(grep -rl --include='*_test.go' '^func Fuzz' . | xargs -n1 dirname | sort -u); do
  for target in $(grep -h '^func Fuzz' "$dir"/*_test.go | sed -E 's/^func (Fuzz[A-Za-z0-9_]*).*/\1/' | sort -u); do
    echo "fuzz $dir $target ($FUZZTIME)"
    if ! go test -run='^$' -fuzz="^${target}\$" -fuzztime="$FUZZTIME" "$dir" >/tmp/fuzz.$$.log 2>&1; then
      cat /tmp/fuzz.$$.log
      status=1
    fi
  done
done
rm -f /tmp/fuzz.$$.log
exit $status
