#!/usr/bin/env bash
# Installs the Debian packages the tests use when they are missing, so a
# fresh machine needs nothing done by hand: gnuchess-book (a real Polyglot
# book for the engine's book reader test) and stockfish (the Reconnaissance
# Chess trout bot's other engine, tested in recon/bots) and postgresql
# (initdb and pg_ctl, for the throwaway cluster of pgtest, on which the
# store's tests run a second time) and gaviotatb (the 3-piece Gaviota
# tables the gaviota package is checked against). e2e.sh installs
# chromium itself.
set -euo pipefail
need=()
[ -f /usr/share/games/gnuchess/book.bin ] || need+=(gnuchess-book)
[ -x /usr/games/stockfish ] || need+=(stockfish)
[ -f /usr/share/gaviotatb/gtb4/kpk.gtb.cp4 ] || need+=(gaviotatb)
# pgtest looks in PATH, then in /usr/lib/postgresql/*/bin (where Debian
# puts them, out of PATH).
command -v initdb >/dev/null || compgen -G '/usr/lib/postgresql/*/bin/initdb' >/dev/null || need+=(postgresql)
[ ${#need[@]} -eq 0 ] && exit 0
if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null; then
  echo "deps: missing ${need[*]} and cannot apt-get here; the tests that need them will say so" >&2
  exit 0
fi
export DEBIAN_FRONTEND=noninteractive
apt-get install -y "${need[@]}" >/dev/null 2>&1 || { apt-get update >/dev/null && apt-get install -y "${need[@]}" >/dev/null; }
