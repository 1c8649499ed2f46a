"""Random playouts per second: Sowlight's rules core against OpenSpiel's C++ games.

    python bench/bench_playouts.py [--games 300] [--rounds 5]

Both sides play uniformly random games from the start through their public
Python APIs (ours: legal_moves() + push(); OpenSpiel: legal_actions() +
apply_action()), alternated round by round in this one process, and the
ratio ours/OpenSpiel is printed (above 1.0 means we are faster).  OpenSpiel's
`oware` is compared with our Oware and its `mancala` (Kalah 6x4) with our
Kalah.  Games per second depend on the rules' game lengths (OpenSpiel's Oware
stops at 25 captured seeds; ours plays to the source's end), so plies per
second are printed too.  Needs `pip install -e '.[bench]'` (open_spiel).
"""
import argparse
import random
import statistics
import sys
import time

import mancala

try:
    import pyspiel
except ImportError:  # pragma: no cover
    pyspiel = None


def ours(name, games, seed):
    rnd = random.Random(seed)
    choice = rnd.choice
    Game = mancala.Game
    plies = 0
    for _ in range(games):
        g = Game(name)
        while not g.is_over():
            g.push(choice(g.legal_moves()))
        plies += g.ply
    return plies


def spiel(name, games, seed):
    game = pyspiel.load_game(name)
    rnd = random.Random(seed)
    choice = rnd.choice
    plies = 0
    for _ in range(games):
        s = game.new_initial_state()
        while not s.is_terminal():
            s.apply_action(choice(s.legal_actions()))
            plies += 1
    return plies


def measure(fn, name, games, seed):
    t = time.perf_counter()
    plies = fn(name, games, seed)
    dt = time.perf_counter() - t
    return games / dt, plies / dt


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=300)
    ap.add_argument("--rounds", type=int, default=5)
    args = ap.parse_args(argv)
    if pyspiel is None:
        print("open_spiel is not installed: pip install -e '.[bench]'", file=sys.stderr)
        return 2
    print("%-8s %12s %12s %12s %12s %8s %8s" % ("game", "ours g/s", "spiel g/s", "ours ply/s", "spiel ply/s", "games", "plies"))
    for ours_name, spiel_name in (("oware", "oware"), ("kalah", "mancala")):
        a, b = [], []
        for r in range(args.rounds):
            a.append(measure(ours, ours_name, args.games, r))
            b.append(measure(spiel, spiel_name, args.games, r))
        ag = statistics.median(x[0] for x in a)
        bg = statistics.median(x[0] for x in b)
        ap_ = statistics.median(x[1] for x in a)
        bp = statistics.median(x[1] for x in b)
        print("%-8s %12.0f %12.0f %12.0f %12.0f %7.2fx %7.2fx" % (ours_name, ag, bg, ap_, bp, ag / bg, ap_ / bp))
    return 0


if __name__ == "__main__":
    sys.exit(main())
