#!/usr/bin/env bash
# Runs staticcheck on every package, installing the pinned version first
# when the one in GOBIN (or GOPATH/bin) is missing or another version, so a
# fresh machine needs nothing done by hand. v0.8.2 (2026.2.2) is the
# newest release and analyses this module's go 1.26; a go line newer than
# the pinned staticcheck knows needs STATICCHECK_VERSION bumped with it.
set -euo pipefail
cd "$(dirname "$0")/.."
GO=${GO:-go}
version=${STATICCHECK_VERSION:-v0.8.2}
gobin="$($GO env GOBIN)"
bin="${gobin:-$($GO env GOPATH)/bin}/staticcheck"
want="(${version#v})"
if ! [ -x "$bin" ] || ! "$bin" -version 2>/dev/null | grep -qF "$want"; then
  echo "staticcheck: installing honnef.co/go/tools/cmd/staticcheck@$version" >&2
  $GO install "honnef.co/go/tools/cmd/staticcheck@$version"
fi
"$bin" ./...
