"""Random playouts per second: Sowlight's rules core against OpenSpiel's C++ games.

    python bench/bench_playouts.py [--games 60] [--rounds 15]

Every side plays uniformly random games from the start, with the same random
source (random.Random(seed).choice on the list of legal moves), and the
ratio ours/OpenSpiel is printed (above 1.0 means we are faster):

- "api": our public per-ply API from Python, legal_moves() + push() +
  is_over() once a ply;
- "playout": game.playout(rng), the rules core's whole-playout call: the
  engine's own steps without the undo records and the per-ply calls, the
  same moves and results as the api loop (tests/test_playout.py);
- OpenSpiel: always its per-ply Python API, legal_actions() + apply_action()
  + is_terminal(), the way OpenSpiel is driven from Python (it has no
  whole-playout call).

OpenSpiel's `oware` is compared with our Oware and its `mancala` (Kalah 6x4)
with our Kalah.  Games per second depend on each side's game lengths
(OpenSpiel's Oware stops when a player has 25 seeds; ours plays to the
source's end), so plies per second are the fairer figure and are printed too.

The sides are alternated round by round in this one process, and each is
timed in CPU time of this process (other work on the machine does not count
against either); the fastest round of each side counts.  The last two lines
of each game are floors, against OpenSpiel's whole ply: "floor" is what one
random.choice and three empty method calls cost (the per-ply API loop's
ceiling), "rng" what one random.choice and one list append cost (what any
playout with this random source and a move list pays a ply, ours included).
Needs `pip install -e '.[bench]'` (open_spiel).
"""
import argparse
import random
import sys
import time

import mancala

try:
    import pyspiel
except ImportError:  # pragma: no cover
    pyspiel = None

clock = time.process_time


def api(name, games, seed):
    rnd = random.Random(seed)
    choice = rnd.choice
    Game = mancala.Game
    plies = 0
    t = clock()
    for _ in range(games):
        g = Game(name)
        while not g.is_over():
            g.push(choice(g.legal_moves()))
        plies += g.ply
    return clock() - t, plies


def playout(name, games, seed):
    rnd = random.Random(seed)
    Game = mancala.Game
    moves = []
    t = clock()
    for _ in range(games):
        Game(name).playout(rnd, moves=moves)
    return clock() - t, len(moves)


def spiel(name, games, seed):
    game = pyspiel.load_game(name)
    rnd = random.Random(seed)
    choice = rnd.choice
    plies = 0
    t = clock()
    for _ in range(games):
        s = game.new_initial_state()
        while not s.is_terminal():
            s.apply_action(choice(s.legal_actions()))
            plies += 1
    return clock() - t, plies


class _Empty:
    """Three methods that do nothing: the cost of the per-ply calls alone."""

    def legal_moves(self):
        return _SIX

    def push(self, move):
        pass

    def is_over(self):
        return False


_SIX = [0, 1, 2, 3, 4, 5]


def calls_alone(plies, seed):
    g = _Empty()
    choice = random.Random(seed).choice
    t = clock()
    for _ in range(plies):
        g.is_over()
        g.push(choice(g.legal_moves()))
    return clock() - t, plies


def rng_alone(plies, seed):
    choice = random.Random(seed).choice
    moves = []
    record = moves.append
    t = clock()
    for _ in range(plies):
        record(choice(_SIX))
    return clock() - t, plies


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=60, help="games a round (default 60)")
    ap.add_argument("--rounds", type=int, default=15, help="rounds a side (default 15); the fastest counts")
    args = ap.parse_args(argv)
    if pyspiel is None:
        print("open_spiel is not installed: pip install -e '.[bench]'", file=sys.stderr)
        return 2
    print("%-7s %-8s %10s %10s %8s %8s %8s" % ("game", "ours", "games/s", "plies/s", "us/ply", "games x", "plies x"))
    for ours_name, spiel_name in (("oware", "oware"), ("kalah", "mancala")):
        best = {}
        for r in range(args.rounds):
            for side, fn, name in (("openspiel", spiel, spiel_name), ("api", api, ours_name),
                                   ("playout", playout, ours_name)):
                dt, plies = fn(name, args.games, r)
                old = best.get(side)
                if old is None or dt / plies < old[0] / old[1]:
                    best[side] = (dt, plies)
            for side, fn in (("calls", calls_alone), ("rng", rng_alone)):
                dt, plies = fn(best["api"][1], r)
                old = best.get(side)
                if old is None or dt < old[0]:
                    best[side] = (dt, plies)
        sdt, splies = best["openspiel"]
        for side in ("openspiel", "api", "playout"):
            dt, plies = best[side]
            print("%-7s %-8s %10.0f %10.0f %8.2f %7.2fx %7.2fx" % (
                ours_name if side == "openspiel" else "", side, args.games / dt, plies / dt, dt / plies * 1e6,
                sdt / dt, (plies / dt) / (splies / sdt)))
        for side, what, what_text in (
                ("calls", "floor", "one random.choice + 3 empty calls a ply: the per-ply API loop's ceiling"),
                ("rng", "rng", "one random.choice + 1 list append a ply: what every playout pays")):
            dt, plies = best[side]
            print("%-7s %-8s %10s %10.0f %8.2f %8s %7.2fx  (%s)" % (
                "", what, "-", plies / dt, dt / plies * 1e6, "-", (plies / dt) / (splies / sdt), what_text))
    return 0


if __name__ == "__main__":
    sys.exit(main())
