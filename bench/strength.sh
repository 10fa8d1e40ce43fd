#!/usr/bin/env bash
# Playing strength of the engine, measured with `knightwatch match`:
#   1. level 8 against Debian's Stockfish 15.1 limited with UCI_Elo=E, for
#      each E in ELOS (the headline is the highest E level 8 holds 50% against);
#   2. level 1 against Stockfish at LOW_ELO (1350, its weakest setting), the
#      anchor at the bottom of the ladder;
#   3. level N against level N-1 for each N in LEVELS (each level must score
#      >= 60% against the one below), chained into an Elo estimate per level.
#      Self-play gaps between two copies of one engine come out far wider
#      than the same levels measure against a different opponent (measured:
#      the chain spans about 2,200 points, the Stockfish anchors about 1,000),
#      so when both anchors are there the chain is scaled to fit them.
# Prints one row per match and a table for the README.
#
# The figures in docs/strength.md use 200 games at 10+0.1 per match. On this 2-core
# machine one 200-game match of level 8 against Stockfish takes 60 minutes
# with CONCURRENCY=2 (two games at once; only the side to move thinks, so
# two engines busy), about 2 hours one game at a time. The ladder is much
# quicker because levels 1-7 stop at their depth caps: levels 2-6 took about
# a minute per 200-game match. A bench, never a CI job. Everything is
# overridable:
#
#   bash bench/strength.sh                                    # full run (hours)
#   GAMES=8 TC=2+0.05 ELOS="1800 2200" LEVELS="2 8" bash bench/strength.sh   # smoke
#   PART=levels bash bench/strength.sh                        # only the level ladder
#
# Environment: GAMES (200), TC (10+0.1), ELOS ("1800 2000 2200 2400 2600"),
# LOW_ELO (1350; empty skips the level 1 anchor),
# LEVELS ("2 3 4 5 6 7 8"), PART (all|stockfish|levels), CONCURRENCY (1),
# GRACE (50ms), HASH (64, MB for both engines), OUT (directory for PGN and logs),
# STOCKFISH (/usr/games/stockfish).
set -euo pipefail
cd "$(dirname "$0")/.."

GAMES=${GAMES:-200}
TC=${TC:-10+0.1}
ELOS=${ELOS:-1800 2000 2200 2400 2600}
LOW_ELO=${LOW_ELO-1350}
LEVELS=${LEVELS:-2 3 4 5 6 7 8}
PART=${PART:-all}
CONCURRENCY=${CONCURRENCY:-1}
GRACE=${GRACE:-50ms}
HASH=${HASH:-64}
STOCKFISH=${STOCKFISH:-/usr/games/stockfish}
OUT=${OUT:-$(mktemp -d /tmp/knightwatch-strength.XXXXXX)}
mkdir -p "$OUT"

case "$PART" in all|stockfish|levels) ;; *) echo "strength: PART must be all, stockfish or levels" >&2; exit 2 ;; esac

if [ "$PART" != levels ] && [ ! -x "$STOCKFISH" ]; then
  echo "strength: $STOCKFISH missing; installing Debian's stockfish" >&2
  SUDO=""
  [ "$(id -u)" -ne 0 ] && SUDO=sudo
  $SUDO apt-get update -qq && $SUDO apt-get install -y -qq stockfish >/dev/null
fi

BIN="$OUT/knightwatch"
go build -o "$BIN" .

echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(uname -sr), load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "settings: GAMES=$GAMES TC=$TC CONCURRENCY=$CONCURRENCY GRACE=$GRACE HASH=$HASH; PGN and logs in $OUT"
[ "$PART" != levels ] && echo "stockfish: $("$STOCKFISH" <<<quit | head -1)"

# play NAME ARGS...: runs one match, keeps its log, prints "NAME key=value..."
# from the RESULT line so the tables below can be built from it.
play() {
  local name=$1
  shift
  local log="$OUT/$name.log"
  "$BIN" match --games "$GAMES" --tc "$TC" --concurrency "$CONCURRENCY" --grace "$GRACE" \
    --pgn "$OUT/$name.pgn" --event "strength $name" "$@" >"$log" 2>&1 || {
    echo "strength: match $name failed, see $log:" >&2
    tail -5 "$log" >&2
    exit 1
  }
  local result
  result=$(grep '^RESULT ' "$log" | tail -1 | cut -d' ' -f2-)
  local forfeits
  forfeits=$(grep -c 'lost on time\|illegal move\|crashed' "$log" || true)
  echo "$name $result forfeits=$forfeits" | tee -a "$OUT/results.txt"
}

# field KEY LINE: the value of KEY=... in a results line.
field() { tr ' ' '\n' <<<"$2" | sed -n "s/^$1=//p"; }

: >"$OUT/results.txt"
if [ "$PART" != levels ]; then
  for e in $ELOS; do
    play "L8-vs-sf$e" --level1 8 --option1 "Hash=$HASH" \
      --engine2 "$STOCKFISH" --name2 "stockfish-elo$e" \
      --option2 UCI_LimitStrength=true --option2 "UCI_Elo=$e" --option2 "Hash=$HASH"
  done
  if [ -n "$LOW_ELO" ]; then
    play "L1-vs-sf$LOW_ELO" --level1 1 --option1 "Hash=$HASH" \
      --engine2 "$STOCKFISH" --name2 "stockfish-elo$LOW_ELO" \
      --option2 UCI_LimitStrength=true --option2 "UCI_Elo=$LOW_ELO" --option2 "Hash=$HASH"
  fi
fi
if [ "$PART" != stockfish ]; then
  for n in $LEVELS; do
    play "L$n-vs-L$((n - 1))" --level1 "$n" --option1 "Hash=$HASH" --level2 "$((n - 1))" --option2 "Hash=$HASH"
  done
fi

echo
echo "| match | games | W / D / L | score | Elo diff (95%) | time forfeits |"
echo "|---|---|---|---|---|---|"
while read -r name rest; do
  printf '| %s | %s | %s / %s / %s | %.1f%% | %+.0f ± %.0f | %s |\n' "$name" \
    "$(field games "$rest")" "$(field wins "$rest")" "$(field draws "$rest")" "$(field losses "$rest")" \
    "$(awk -v s="$(field score "$rest")" 'BEGIN{print 100*s}')" \
    "$(field elo "$rest")" "$(field margin "$rest")" "$(field forfeits "$rest")"
done <"$OUT/results.txt"

# Headline and per-level estimates. Level 8's rating is anchored on the
# Stockfish match whose score is closest to 50% (where the logistic model is
# most accurate): rating = UCI_Elo + measured difference. Lower levels follow
# by subtracting each level-vs-level difference down the ladder; with the
# level 1 anchor as well, those differences are scaled by one factor so the
# chain ends on it (the "scaled" column), which is what levels.go uses.
awk '
  /^L8-vs-sf/ {
    e = substr($1, 9) + 0
    for (i = 2; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
    if (v["score"] + 0 >= 0.5 && e > held) held = e
    d = v["score"] - 0.5; if (d < 0) d = -d
    if (v["elo"] !~ /Inf/ && (best == "" || d < best)) { best = d; anchor = e + v["elo"]; anchorFrom = e }
  }
  /^L1-vs-sf/ {
    e = substr($1, 9) + 0
    for (i = 2; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
    if (v["elo"] !~ /Inf/) low = e + v["elo"]
  }
  /^L[0-9]-vs-L[0-9]/ {
    n = substr($1, 2, 1) + 0
    for (i = 2; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
    diff[n] = v["elo"]; score[n] = v["score"]
  }
  END {
    print ""
    if (held != "") printf "headline: level 8 holds >= 50%% against Stockfish UCI_Elo %d (highest tested)\n", held
    else if (anchorFrom != "") print "headline: level 8 scored below 50% against every UCI_Elo tested"
    if (anchor == "") { print "(no finite Stockfish result to anchor level ratings on)"; exit }
    # raw[n]: the unscaled chain down from level 8.
    raw[8] = anchor; lowest = 8
    for (n = 8; n >= 2; n--) {
      if (!(n in diff) || diff[n] ~ /Inf/) break
      raw[n - 1] = raw[n] - diff[n]; lowest = n - 1
    }
    scale = 0
    if (low != "" && lowest == 1 && anchor != raw[1]) scale = (anchor - low) / (anchor - raw[1])
    printf "\n| level | score vs level below | chained Elo (L8 vs UCI_Elo %d) | scaled to L1 anchor |\n|---|---|---|---|\n", anchorFrom
    for (n = 8; n >= lowest; n--) {
      printf "| %d | %s | %.0f | %s |\n", n, (n in score ? sprintf("%.1f%%", 100 * score[n]) : "-"), raw[n],
        (scale ? sprintf("%.0f", anchor - (anchor - raw[n]) * scale) : "-")
    }
    if (scale) printf "(level 1 anchor: %.0f; scale factor %.2f)\n", low, scale
  }' "$OUT/results.txt"
