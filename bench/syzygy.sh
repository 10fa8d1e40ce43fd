#!/usr/bin/env bash
# Syzygy probing speed: WDL and DTZ probes per second, one goroutine, over
# 4096 random positions of the 4-piece tables in syzygy/testdata (tables
# already mapped; WDL as the search probes it, captures and en passant
# resolved; DTZ as at the root). Each benchmark runs COUNT times; the best
# run is the figure (the least disturbed on a shared machine), the median
# is shown beside it. Prints figures; asserts nothing.
# Usage: bash bench/syzygy.sh [benchtime] [count]   (default 1s, 5)
set -euo pipefail
cd "$(dirname "$0")/.."
BENCHTIME=${1:-1s}
COUNT=${2:-5}
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "commit: $(git rev-parse --short HEAD)$(git diff --quiet HEAD -- syzygy || echo ' (modified)')"
go test -run '^$' -bench 'BenchmarkProbe(WDL|DTZ)$' -benchtime "$BENCHTIME" -count "$COUNT" ./syzygy/ |
	awk '/^BenchmarkProbe/ {
		name = $1; sub(/^BenchmarkProbe/, "", name); sub(/-[0-9]+$/, "", name)
		for (i = 1; i <= NF; i++) if ($(i) == "probes/s") r[name] = r[name] " " $(i-1)
	}
	END {
		for (name in r) {
			n = split(substr(r[name], 2), v, " ")
			for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (v[j] + 0 < v[i] + 0) { t = v[i]; v[i] = v[j]; v[j] = t }
			printf "%s: %.0f probes/s best of %d (median %.0f)\n", name, v[n], n, v[int((n + 1) / 2)]
		}
	}' | sort -r
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
