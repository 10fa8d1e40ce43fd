#!/usr/bin/env bash
# Gaviota probing speed: DTM probes per second, one goroutine, over 4096
# random positions of Debian's 3-piece tables (scripts/deps.sh installs
# them), with a warm cache (every block decoded already: the default cache
# holds them all) and a cold one (a cache of one block and each probe in
# another table than the last, so every probe reads and decodes a 16 KiB
# LZMA block). Each benchmark runs COUNT times; the best run is the figure
# (the least disturbed on a shared machine), the median beside it. Prints
# figures; asserts nothing.
# Usage: bash bench/gaviota.sh [benchtime] [count]   (default 1s, 5)
set -euo pipefail
cd "$(dirname "$0")/.."
BENCHTIME=${1:-1s}
COUNT=${2:-5}
bash scripts/deps.sh
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "commit: $(git rev-parse --short HEAD)$(git diff --quiet HEAD -- gaviota || echo ' (modified)')"
go test -run '^$' -bench 'BenchmarkProbeDTM(Warm|Cold)$' -benchtime "$BENCHTIME" -count "$COUNT" ./gaviota/ |
	awk '/^BenchmarkProbeDTM/ {
		name = $1; sub(/^BenchmarkProbeDTM/, "", name); sub(/-[0-9]+$/, "", name)
		for (i = 1; i <= NF; i++) if ($(i) == "probes/s") r[name] = r[name] " " $(i-1)
	}
	END {
		for (name in r) {
			n = split(substr(r[name], 2), v, " ")
			for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (v[j] + 0 < v[i] + 0) { t = v[i]; v[i] = v[j]; v[j] = t }
			printf "%s cache: %.0f DTM probes/s best of %d (median %.0f)\n", tolower(name), v[n], n, v[int((n + 1) / 2)]
		}
	}' | sort -r
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
