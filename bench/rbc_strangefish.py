"""StrangeFish against the built-in knightwatch over Knightwatch's
reconchess HTTP API: the player side and the score of bench/rbc-strangefish.sh.

  rbc_strangefish.py play URL GAMES DIR [FIRST]
                                          plays GAMES games numbered from FIRST
                                          (1), StrangeFish white in the odd ones,
                                          histories into DIR
  rbc_strangefish.py score MODE FILE...   knightwatch's score over the
                                          histories (each re-refereed before)
"""
import collections.abc
import json
import math
import os
import random
import sys
import traceback


def allow_set_samples():
    """StrangeFish (2019) draws random.sample from sets, which Python 3.11
    refuses; before, a set was taken as tuple(set) (with a warning). The
    same here, so that it runs on Debian's Python as it ran then."""
    sample = random.sample

    def compat(population, k, *, counts=None):
        if isinstance(population, (collections.abc.Set, dict)):
            population = tuple(population)
        return sample(population, k, counts=counts)

    random.sample = compat


def hide_illegal_en_passant():
    """python-chess 1.11 hands Stockfish a board's en-passant square even when
    no en-passant capture is legal there (StrangeFish's boards are RBC
    guesses: a king may stand in check from a knight), Stockfish trusts it and
    may answer that capture, python-chess calls the answer illegal, and
    StrangeFish's scoring worker dies in engine.analyse and never answers: the
    game hangs. The python-chess StrangeFish was written for did not pass such
    a square, so drop it before the engine sees the board."""
    import chess.engine
    analyse = chess.engine.SimpleEngine.analyse

    def compat(self, board, *args, **kwargs):
        if board.ep_square is not None and not board.has_legal_en_passant():
            board = board.copy(stack=False)
            board.ep_square = None
        return analyse(self, board, *args, **kwargs)

    chess.engine.SimpleEngine.analyse = compat


def finished_meanwhile(url, gid, auth, player):
    """The result of a game that ended while StrangeFish was acting (its
    clock ran out in the middle of a turn): the reference client raises on
    the server's refusal, and the server has the result and the record.
    None when the game is not over (the error was something else)."""
    from reconchess import RemoteGame
    game = RemoteGame(url, gid, auth)
    if not game.is_over():
        return None
    winner, reason, history = game.get_winner_color(), game.get_win_reason(), game.get_game_history()
    try:
        player.handle_game_end(winner, reason, history)  # stops its pool
    except Exception:
        traceback.print_exc()
    return winner, reason, history


def play(url, games, out, first=1):
    allow_set_samples()
    hide_illegal_en_passant()
    import requests
    from strangefish import StrangeFish
    from strangefish.strategies import multiprocessing_strategies
    from strangefish.utilities.modified_rc_connect import our_play_remote_game

    os.makedirs(out, exist_ok=True)
    auth = ("strangefish", "strangefish-password")
    requests.post(url + "/api/users/", json={"username": auth[0], "email": "", "affiliation": "bench", "password": auth[1]})
    for n in range(first - 1, first - 1 + games):
        sf_white = n % 2 == 0
        r = requests.post(url + "/api/invitations/", json={"opponent": "knightwatch", "color": sf_white}, auth=auth)
        r.raise_for_status()
        gid = r.json()["game_id"]
        player = StrangeFish(*multiprocessing_strategies.create_strategy(num_workers=1, rc_disable_pbar=True),
                             pool_size=1, log_to_file=False, rc_disable_pbar=True)
        try:
            winner, reason, history = our_play_remote_game(url, gid, auth, player)
        except ValueError:
            traceback.print_exc()
            got = finished_meanwhile(url, gid, auth, player)
            if got is None:
                raise
            winner, reason, history = got
        name = "strangefish-vs-knightwatch" if sf_white else "knightwatch-vs-strangefish"
        history.save(os.path.join(out, "game%04d-%s.json" % (n + 1, name)))
        if winner is None:
            what = "draw"
        elif winner == sf_white:
            what = "StrangeFish won"
        else:
            what = "knightwatch won"
        print("game %d: StrangeFish %s, %s (%s)" % (n + 1, "white" if sf_white else "black", what, reason), flush=True)


def score(mode, paths):
    points = []
    ends = collections.Counter()  # (knightwatch's result, reason)
    turns = []
    for p in paths:
        with open(p) as f:
            h = json.load(f)
        kw_white = "knightwatch-vs-strangefish" in os.path.basename(p)
        w = h.get("winner_color")
        points.append(0.5 if w is None else 1.0 if w == kw_white else 0.0)
        reason = (h.get("win_reason") or {}).get("value", "none")
        ends[("drew" if w is None else "won" if w == kw_white else "lost", reason)] += 1
        turns.append(max(len(m) for m in h["requested_moves"].values()))
    n = len(points)
    if n == 0:
        print("%s: no game re-refereed" % mode)
        return
    s = sum(points) / n
    sd = math.sqrt(sum((x - s) ** 2 for x in points) / n / n)
    print("%s: knightwatch %.1f%% (+%d =%d -%d) in %d games, each re-refereed ok; 95%% margin +-%.1f%%" % (
        mode, 100 * s, points.count(1.0), points.count(0.5), points.count(0.0), n, 196 * sd))
    print("%s: knightwatch %s; full turns min %d, median %d, max %d" % (
        mode, ", ".join("%s by %s %d" % (r, why, c) for (r, why), c in sorted(ends.items())),
        min(turns), sorted(turns)[len(turns) // 2], max(turns)))


if __name__ == "__main__":
    if sys.argv[1] == "play":
        try:
            play(sys.argv[2], int(sys.argv[3]), sys.argv[4], int(sys.argv[5]) if len(sys.argv) > 5 else 1)
        except BaseException:
            traceback.print_exc()
            os._exit(1)  # StrangeFish's pool and engines would keep the process alive
        os._exit(0)
    elif sys.argv[1] == "score":
        score(sys.argv[2], sys.argv[3:])
    else:
        sys.exit(__doc__)
