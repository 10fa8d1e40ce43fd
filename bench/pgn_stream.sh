#!/usr/bin/env bash
# Streaming PGN reading on a large file: full games (PGNReader.Next) and the
# header-only scan (PGNReader.NextHeaders), with games/s, MB/s and the peak
# resident memory (/usr/bin/time -v). The file is made by repeating the
# games of bench/results/*.pgn.gz up to SIZE_MB and is left in /tmp (never
# commit it).
#
#   bash bench/pgn_stream.sh             # 300 MB in /tmp/knightwatch-big.pgn
#   SIZE_MB=50 bash bench/pgn_stream.sh
set -euo pipefail
cd "$(dirname "$0")/.."
SIZE_MB=${SIZE_MB:-300}
BIG=${BIG:-/tmp/knightwatch-big.pgn}
want=$((SIZE_MB * 1000 * 1000))
if [ ! -f "$BIG" ] || [ "$(stat -c %s "$BIG")" -lt "$want" ]; then
  seed=$(mktemp)
  for f in bench/results/*.pgn.gz; do zcat "$f"; echo; done > "$seed"
  : > "$BIG"
  while [ "$(stat -c %s "$BIG")" -lt "$want" ]; do cat "$seed" >> "$BIG"; done
  rm -f "$seed"
fi
if [ ! -x /usr/bin/time ]; then # Debian's "time" package: the peak memory figure needs GNU time
  SUDO=""; [ "$(id -u)" != 0 ] && SUDO="sudo -n"
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q time </dev/null
fi
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(uname -sr), $(go version | cut -d' ' -f3)"
echo "file: $BIG, $(stat -c %s "$BIG") bytes"
bin=$(mktemp -d)/pgn_stream
go build -o "$bin" ./bench/pgn_stream
for mode in headers next; do
  /usr/bin/time -v "$bin" -mode "$mode" "$BIG" 2> "$bin.time"
  grep -E 'Maximum resident|Elapsed' "$bin.time" | sed 's/^\s*/  /'
done
rm -rf "$(dirname "$bin")"
