#!/usr/bin/env bash
# The engine's experience (docs/experience.md): the cost of its lookup per
# engine move and of learning from a finished game, in a table at its cap
# (200,000 rows), then what it does against a player who repeats a
# winning line (bench/experience, bounded by depth: the same figures on
# any machine). Each Go benchmark runs COUNT times; the best run is the
# figure (the least disturbed on a shared machine), the median beside it.
# Prints figures; asserts nothing.
# Usage: bash bench/experience.sh [count] [levels] [seeds] [replays]   (default 5, 1,3,5, 4, 3)
set -euo pipefail
cd "$(dirname "$0")/.."
COUNT=${1:-5}
LEVELS=${2:-1,3,5}
SEEDS=${3:-4}
REPLAYS=${4:-3}
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "commit: $(git rev-parse --short HEAD)$(git diff --quiet HEAD -- store web engine || echo ' (modified)')"
go test -run '^$' -bench 'Benchmark(ExperienceFor|RecordGame)' -benchtime 1s -count "$COUNT" ./store/ |
	awk '/^Benchmark/ {
		name = $1; sub(/^Benchmark/, "", name); sub(/-[0-9]+$/, "", name)
		for (i = 1; i <= NF; i++) if ($(i) == "ns/op") r[name] = r[name] " " $(i-1)
	}
	END {
		for (name in r) {
			n = split(substr(r[name], 2), v, " ")
			for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (v[j] + 0 < v[i] + 0) { t = v[i]; v[i] = v[j]; v[j] = t }
			printf "%s: %.0f us best of %d (median %.0f us)\n", name, v[1] / 1000, n, v[int((n + 1) / 2)] / 1000
		}
	}' | sort
go run ./bench/experience -levels "$LEVELS" -seeds "$SEEDS" -replays "$REPLAYS"
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
