#!/usr/bin/env bash
# Compare the web server of two commits under the same loads, binaries
# alternated (old, new, old, new, ...) so that a change in the machine's
# load falls on both: the move acknowledgement under 500 sockets
# (`bench/load ack`), a mixed load of players (`bench/load run`: level 1,
# level 8 and Reconnaissance Chess) and the level-1 reply under engine
# floods (`bench/starvation`). Both binaries are built from worktrees of
# the two revisions; the measuring tools are this tree's. Prints each
# run's report; asserts nothing. The ack and starvation runs use the
# tools' defaults; GAMES is the players of the mixed load (150 keeps 16
# cores just short of saturation; use 20 on 2 cores).
# Usage: bash bench/server-compare.sh OLD_REV NEW_REV [ROUNDS] [GAMES]   (default 2, 150)
set -euo pipefail
cd "$(dirname "$0")/.."
OLD=${1:?old revision}
NEW=${2:?new revision}
ROUNDS=${3:-2}
GAMES=${4:-150}
ulimit -n "$(ulimit -Hn)" 2>/dev/null || true
work=$(mktemp -d)
trap 'git worktree remove --force "$work/old" >/dev/null 2>&1 || true; git worktree remove --force "$work/new" >/dev/null 2>&1 || true; rm -rf "$work"' EXIT
for side in old new; do
	rev=$OLD
	[ "$side" = new ] && rev=$NEW
	git worktree add --detach "$work/$side" "$rev" >/dev/null 2>&1
	(cd "$work/$side" && go build -o "$work/kw-$side" .)
done
go build -o "$work/load" ./bench/load
go build -o "$work/starvation" ./bench/starvation
label() { git rev-parse --short "$([ "$1" = old ] && echo "$OLD" || echo "$NEW")"; }
for what in ack run starvation; do
	for i in $(seq "$ROUNDS"); do
		for side in old new; do
			echo "=== $what, $side ($(label $side)), round $i"
			case $what in
			ack) "$work/load" ack -pause 2s -rounds 10 -bin "$work/kw-$side" ;;
			run) "$work/load" run -games "$GAMES" -duration 20s -warmup 5s -bin "$work/kw-$side" ;;
			starvation) "$work/starvation" -samples 20 -bin "$work/kw-$side" ;;
			esac
		done
	done
done
