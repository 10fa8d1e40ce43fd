#!/usr/bin/env bash
# Compare the search speed of two commits: builds both, runs `bench`
# (1 thread, fixed depth) alternately RUNS times each, and prints each
# side's node count and median user CPU time, and their ratio. CPU time
# rather than wall time, and alternation, keep the comparison usable on a
# shared, loaded machine; the ratio is the figure, not the absolute times.
# Prints figures; asserts nothing.
# Usage: bash bench/bench-compare.sh OLD_REV NEW_REV [RUNS]   (default 5)
set -euo pipefail
cd "$(dirname "$0")/.."
OLD=${1:?old revision}
NEW=${2:?new revision}
RUNS=${3:-5}
work=$(mktemp -d)
trap 'git worktree remove --force "$work/old" >/dev/null 2>&1 || true; git worktree remove --force "$work/new" >/dev/null 2>&1 || true; rm -rf "$work"' EXIT
for side in old new; do
	rev=$OLD
	[ "$side" = new ] && rev=$NEW
	git worktree add --detach "$work/$side" "$rev" >/dev/null 2>&1
	(cd "$work/$side" && go build -o "$work/kw-$side" .)
done
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), load $(cut -d' ' -f1-3 /proc/loadavg)"
for i in $(seq "$RUNS"); do
	for side in old new; do
		/usr/bin/time -f "$side %U" -a -o "$work/times" "$work/kw-$side" bench >"$work/out-$side"
	done
done
for side in old new; do
	nodes=$(awk '/^nodes/{print $2}' "$work/out-$side")
	med=$(awk -v s="$side" '$1==s{print $2}' "$work/times" | sort -n | awk '{a[NR]=$1} END{print a[int((NR+1)/2)]}')
	echo "$side $(git rev-parse --short "$([ "$side" = old ] && echo "$OLD" || echo "$NEW")"): nodes $nodes, median user CPU ${med}s, $(awk -v n="$nodes" -v t="$med" 'BEGIN{printf "%.2f M nodes per CPU second", n/t/1e6}')"
	eval "med_$side=$med"
done
awk -v a="$med_old" -v b="$med_new" 'BEGIN{printf "new/old CPU time: %.3f\n", b/a}'
