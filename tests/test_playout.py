"""game.playout(): random playouts on the shared engine give the same games as the push() loop.

The fast path skips what only undo needs; everything a rule can see must be
the same, so for every variant a playout and the loop
`g.push(rng.choice(g.legal_moves()))` driven by equal random sources must
make the same moves and end with the same outcome.
"""
import json
import random

import pytest

from testgames import LCG

import mancala

VARIANTS = mancala.variants()
# Options that change what the engine does on the search path (board size,
# grand-slam treatment, players, races, setups).
OPTIONS = [
    ("oware", {"grand_slam": "illegal"}), ("oware", {"grand_slam": "sow-again"}),
    ("kalah", {"pits_per_row": 3, "seeds": 2}), ("kalah", {"pits_per_row": 12, "seeds": 12}),
    ("kpo", {"players": 3}), ("kpo", {"players": 4}), ("lane", {"setup": "even"}),
    ("enkeshui", {"race": "none", "advance": "yes"}), ("giuthi", {"pits_per_row": 4}),
    ("omweso", {"race": "none"}),
]
CASES = [(name, {}) for name in VARIANTS] + OPTIONS
MAX_PLIES = 3000


def state(g):
    o = g.outcome()
    return (g.cells(), g.to_move, g.outside(), g.ply, g.moves_played(), g.legal_moves(),
            None if o is None else (o.winner, list(o.scores), o.reason))


def push_loop(g, rng, max_plies=MAX_PLIES):
    """The reference: the public per-ply API on a copy; returns (moves, outcome)."""
    g = g.copy()
    moves = []
    while not g.is_over() and len(moves) < max_plies:
        m = rng.choice(g.legal_moves())
        moves.append(m)
        g.push(m)
    return moves, g.outcome()


def same_outcome(a, b):
    if a is None or b is None:
        return a is b
    return (a.winner, list(a.scores), a.reason) == (b.winner, list(b.scores), b.reason)


@pytest.mark.parametrize("name, options", CASES, ids=["%s%s" % (n, "-" + "-".join(map(str, o.values())) if o else "")
                                                     for n, o in CASES])
def test_playout_makes_the_push_loops_moves_and_outcome(name, options):
    for seed in range(4):
        g = mancala.Game(name, **options)
        # From the start, and from a position some moves into the game (state
        # such as phases, hands and move counts is then under way).
        walk = random.Random(1000 + seed)
        for _ in range(seed * 7):
            if g.is_over():
                break
            g.push(walk.choice(g.legal_moves()))
        before = state(g)
        expect_moves, expect = push_loop(g, random.Random(seed))
        moves = []
        outcome = g.playout(random.Random(seed), max_plies=MAX_PLIES, moves=moves)
        assert moves == expect_moves, "%s seed %d: the playout's moves differ from the push loop's" % (name, seed)
        assert same_outcome(outcome, expect), "%s seed %d: %r != %r" % (name, seed, outcome, expect)
        assert state(g) == before, "%s: playout changed the game it was asked on" % name
        if expect_moves and outcome is None:
            assert len(moves) == MAX_PLIES


@pytest.mark.parametrize("name, seed", [("dakon", 11), ("pandi", 11), ("giuthi", 11), ("adi", 0)])
def test_playout_on_a_later_round_of_a_match(name, seed):
    # Later rounds have closed pits (tracks of their own) or bought houses (other owners).
    m = mancala.Match(name)
    walk = random.Random(seed)
    changed = False
    for _ in range(3):
        g = m.game
        while not g.is_over():
            g.push(walk.choice(g.legal_moves()))
        if m.is_over():
            break
        g = m.next_round()
        changed = changed or bool(getattr(g, "closed", ()) or (name == "adi" and (g.bought(0) or g.bought(1))))
        expect_moves, expect = push_loop(g, random.Random(4))
        moves = []
        assert same_outcome(g.playout(random.Random(4), moves=moves), expect) and moves == expect_moves
    assert changed or name == "giuthi", "%s: no round with closed pits or bought houses was reached" % name


@pytest.mark.parametrize("name", ["oware", "kalah", "sitas-solitaire", "dakon", "kiothi", "maruba"])
def test_playout_moves_are_legal_with_the_default_random_source(name):
    # rng=None uses the random module: replaying the moves through play()
    # (which checks each one) reaches the same end.
    g = mancala.Game(name)
    moves = []
    outcome = g.playout(max_plies=MAX_PLIES, moves=moves)
    assert outcome is not None, "%s: no end in %d moves" % (name, MAX_PLIES)
    for m in moves:
        g.play(m)
    assert g.is_over() and same_outcome(g.outcome(), outcome)


def test_max_plies_stops_early_and_says_the_game_goes_on():
    g = mancala.Game("oware")
    moves = []
    assert g.playout(random.Random(5), max_plies=10, moves=moves) is None
    assert len(moves) == 10
    assert g.playout(random.Random(5), max_plies=0) is None
    expect_moves, _ = push_loop(g, random.Random(5), max_plies=10)
    assert moves == expect_moves


def test_a_finished_game_plays_no_move_and_returns_its_outcome():
    g = mancala.Game("oware", pits=[0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0], stores=[20, 27], to_move=0)
    assert g.is_over()
    moves = []
    assert g.playout(random.Random(1), moves=moves) is g.outcome()
    assert moves == []


def test_the_game_can_go_on_after_a_playout():
    # The game a playout was asked on keeps its move stack, repetition record and move list.
    g = mancala.Game("oware")
    ref = g.copy()
    rnd = random.Random(3)
    for _ in range(20):
        g.playout(random.Random(rnd.random()))
        m = rnd.choice(g.legal_moves())
        g.push(m)
        ref.push(m)
        assert state(g) == state(ref)
    while g.ply:
        g.undo()
        ref.undo()
        assert state(g) == state(ref)


# ----- on MicroPython (LCG: the same choices on both interpreters) -----------------

def _lcg_playouts(names, plies):
    ns = {}
    exec(LCG, ns)
    out = []
    for name in names:
        moves = []
        o = mancala.Game(name).playout(ns["Lcg"](7), plies, moves)
        out.append([name, [repr(m) for m in moves],
                    None if o is None else [o.winner, list(o.scores), o.reason]])
    return out


def test_playouts_are_the_same_on_micropython(micropython):
    names = VARIANTS
    code = LCG + (
        "import json, mancala\n"
        "out = []\n"
        "for name in %r:\n"
        "    moves = []\n"
        "    o = mancala.Game(name).playout(Lcg(7), 150, moves)\n"
        "    out.append([name, [repr(m) for m in moves],\n"
        "                None if o is None else [o.winner, list(o.scores), o.reason]])\n"
        "print(json.dumps(out))\n") % (names,)
    on_vm = json.loads(micropython.run(code, timeout=600).strip().splitlines()[-1])
    on_cpython = json.loads(json.dumps(_lcg_playouts(names, 150)))
    assert on_vm == on_cpython


def test_bad_arguments_are_refused_clearly():
    g = mancala.Game("kalah")
    with pytest.raises(TypeError, match="choice"):
        g.playout(rng=42)
    with pytest.raises(ValueError, match="max_plies"):
        g.playout(random.Random(1), max_plies=-1)
