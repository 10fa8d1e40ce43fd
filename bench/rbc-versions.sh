#!/usr/bin/env bash
# Reconnaissance Chess self-play ladder of versions (issue 46): today's
# knightwatch bot against the knightwatch of an earlier commit, the way
# bench/strength.sh plays the chess engine against its earlier builds.
#
# How the earlier bot plays in today's arena: the script copies today's
# tree (git archive HEAD) to a temporary folder, puts REV's recon/bots in it
# as package recon/prevbots (tests left out), registers that package's
# knightwatch as the bot "knightwatch@REV" beside today's, builds the
# binary there and runs `rbc-match knightwatch knightwatch@REV`. Both bots
# then meet the same arbiter, clocks and seeds; only the bot code differs.
# This works while REV's bots compile against today's recon, game, engine
# and match packages (the script stops with the compiler's error when they
# do not). Nothing of the copy is kept but the match's output and the
# histories: in -out DIR when given (kept whatever happens, so a stopped
# match goes on with -first), else only with -save.
#
# Prints rbc-match's lines (one per game, then the totals: today's score
# against REV with its 95% margin); asserts nothing. Hours at the defaults.
#
# Usage: bash bench/rbc-versions.sh [-rev REV] [-games N] [-clock SECONDS+INC]
#                                   [-concurrency C] [-seed N] [-first N]
#                                   [-out DIR] [-save]
#   -rev          the earlier commit (default f9568ec, the bot of the README's
#                 RBC figures)
#   -games        games (default 100; colours alternate)
#   -clock        each side's clock (default 60+1)
#   -concurrency  games at once (default 1)
#   -first        the first game's number (default 1): game n's colours and
#                 seeds depend on n alone, so `-first 41 -games 60 -out DIR`
#                 plays on a match stopped after 40 games into DIR
#   -out          keep the histories in DIR (default: a temporary folder)
#   -save         pack every history in the folder (earlier runs' too) into
#                 bench/results/rbc/knightwatch-vs-REV-Ss-Ngames.jsonl.gz,
#                 N the number of histories
set -euo pipefail
cd "$(dirname "$0")/.."
rev=f9568ec games=100 clock=60+1 concurrency=1 seed=1 first=1 out="" save=0
while [ $# -gt 0 ]; do
  case "$1" in
    -rev) rev=$2; shift 2 ;;
    -games) games=$2; shift 2 ;;
    -clock) clock=$2; shift 2 ;;
    -concurrency) concurrency=$2; shift 2 ;;
    -seed) seed=$2; shift 2 ;;
    -first) first=$2; shift 2 ;;
    -out) out=$2; shift 2 ;;
    -save) save=1; shift ;;
    *) echo "usage: $0 [-rev REV] [-games N] [-clock SECONDS+INC] [-concurrency C] [-seed N] [-first N] [-out DIR] [-save]" >&2; exit 2 ;;
  esac
done
case "$clock" in
  *+*) seconds=${clock%+*} increment=${clock#*+} ;;
  *) echo "rbc-versions: -clock wants SECONDS+INC, e.g. 60+1; got $clock" >&2; exit 2 ;;
esac
full=$(git rev-parse --verify --quiet "$rev^{commit}") || { echo "rbc-versions: no commit $rev" >&2; exit 2; }
short=$(git rev-parse --short "$full")
git cat-file -e "$full:recon/bots/bots.go" 2>/dev/null || { echo "rbc-versions: $short has no recon/bots" >&2; exit 2; }

out=${out:+$(mkdir -p "$out" && cd "$out" && pwd)}
tmp=$(mktemp -d /tmp/kw-rbc-versions-XXXXXX)
out=${out:-$tmp/games}
trap 'rm -rf "$tmp"' EXIT
git archive HEAD | tar -x -C "$tmp"
mkdir -p "$tmp/recon/prevbots"
git archive "$full" recon/bots | tar -x -C "$tmp/recon/prevbots" --strip-components=2
rm -rf "$tmp/recon/prevbots/testdata"
rm -f "$tmp/recon/prevbots/"*_test.go
sed -i 's/^package bots$/package prevbots/' "$tmp/recon/prevbots/"*.go
# The earlier bot, by its own spec parser, under the name knightwatch@REV.
cat >"$tmp/recon/bots/zz_previous_version.go" <<EOF
package bots

import (
	"sort"
	"strings"

	"knightwatch/recon"
	"knightwatch/recon/prevbots"
)

func init() {
	today := makers["knightwatch"]
	makers["knightwatch@$short"] = maker{
		summary: "the knightwatch bot as of commit $short (bench/rbc-versions.sh); the same options",
		keys:    today.keys,
		make: func(opts map[string]string, seed uint64) (recon.Player, error) {
			kv := make([]string, 0, len(opts))
			for k, v := range opts {
				kv = append(kv, k+"="+v)
			}
			sort.Strings(kv)
			spec := "knightwatch"
			if len(kv) > 0 {
				spec += ":" + strings.Join(kv, ",")
			}
			return prevbots.New(spec, seed)
		},
	}
}
EOF
(cd "$tmp" && go build -o "$tmp/knightwatch" .) || { echo "rbc-versions: $short's recon/bots does not build against today's tree (above)" >&2; exit 1; }

echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), load $(cut -d' ' -f1-3 /proc/loadavg), $(date -u +%F)"
echo "=== games $first to $((first + games - 1)): knightwatch at $(git rev-parse --short HEAD) vs knightwatch@$short, ${seconds}s+${increment}s, concurrency $concurrency, seed $seed"
mkdir -p "$out"
"$tmp/knightwatch" rbc-match knightwatch "knightwatch@$short" --games "$games" --first "$first" --seconds "$seconds" \
  --increment "$increment" --concurrency "$concurrency" --seed "$seed" --out "$out"
echo "histories in $out"
if [ "$save" = 1 ]; then
  files=("$out"/game*.json)
  name="knightwatch-vs-$short-${seconds}s-${#files[@]}games"
  mkdir -p bench/results/rbc
  for f in "${files[@]}"; do cat "$f"; echo; done | gzip -9 >"bench/results/rbc/$name.jsonl.gz"
  echo "saved bench/results/rbc/$name.jsonl.gz"
fi
