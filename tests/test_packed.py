"""The packed playout kernel (mancala.packed) plays the push() loop's games.

game.playout() of Oware and Kalah runs on a packed board (one int) with
tables of sowings and legal moves.  It must make exactly the moves that
`g.push(rng.choice(g.legal_moves()))` makes with an equal random source and
reach the same Outcome: from the start with every option it covers, and from
given positions and positions with a history, chosen so that the rare rules
(feeding, grand slams under each option, the ends by repetition and by no
move, handfuls bigger than the table) are reached; the tests count that they
were.  Games it does not cover go to the general engine, checked too.
"""
import json
import random
from collections import Counter

import pytest

from testgames import LCG

import mancala
from mancala import packed, playout as playout_module

OWARE_OPTIONS = [{"grand_slam": v} for v in ("no-capture", "illegal", "sow-again")]
KALAH_OPTIONS = [{"pits_per_row": p, "seeds": s} for p in range(3, 13) for s in range(1, 13)]


def push_loop(g, rng, max_plies=None):
    """The reference: the public per-ply API on a copy; returns (moves, outcome, the copy at its end)."""
    g = g.copy()
    moves = []
    while not g.is_over() and (max_plies is None or len(moves) < max_plies):
        m = rng.choice(g.legal_moves())
        moves.append(m)
        g.push(m)
    return moves, g.outcome(), g


def outcome_tuple(o):
    return None if o is None else (o.winner, list(o.scores), o.reason)


def kernel(g, seed, max_plies=None):
    """The kernel itself on g: (moves, outcome); fails if it declines the game."""
    moves = []
    o = packed.playout(g, random.Random(seed).choice, -1 if max_plies is None else max_plies, moves)
    assert o is not False, "the kernel declined %r" % (g,)
    return moves, o


def check(g, seed, max_plies=None):
    """The kernel, game.playout() and the push loop agree from g; returns the reference game at its end."""
    before = (g.cells(), g.to_move, g.ply, g.moves_played(), g.legal_moves(), outcome_tuple(g.outcome()))
    expect_moves, expect, ref = push_loop(g, random.Random(seed), max_plies)
    moves, o = kernel(g, seed, max_plies)
    assert moves == expect_moves, "%r seed %d: the kernel's moves differ from the push loop's" % (g, seed)
    assert outcome_tuple(o) == outcome_tuple(expect), "%r seed %d" % (g, seed)
    moves2 = []
    o2 = g.playout(random.Random(seed), max_plies=max_plies, moves=moves2)
    assert moves2 == expect_moves and outcome_tuple(o2) == outcome_tuple(expect)
    assert (g.cells(), g.to_move, g.ply, g.moves_played(), g.legal_moves(), outcome_tuple(g.outcome())) == before
    return ref


@pytest.fixture
def paths(monkeypatch):
    """Counts the kernel's rare paths while a test runs (wrapping the module's functions)."""
    hits = Counter()

    def spy(name, note):
        real = getattr(packed, name)

        def wrapper(*args):
            out = real(*args)
            note(args, out)
            return out
        monkeypatch.setattr(packed, name, wrapper)

    def moves_note(args, out):
        game, t, x, nz, key = args
        if not key:
            hits["own side empty"] += 1
        elif key == nz:
            hits["feeding" if out else "cannot feed"] += 1
        elif t[14] == "illegal" and len(out) < len(packed._from_guards(t, key, 1 if x & t[6] else 0)):
            hits["grand slam ruled out"] += 1

    def capture_note(args, out):
        t, x, c = args
        if out == x:
            hits["grand slam takes nothing"] += 1
        elif (out ^ x) & t[6]:
            hits["grand slam, sow again"] += 1
        else:
            hits["capture"] += 1

    spy("_oware_moves", moves_note)
    spy("_oware_capture", capture_note)
    spy("_outcome", lambda args, out: hits.update(["end: " + args[2]]))
    return hits


# ----- what the kernel covers ------------------------------------------------------


@pytest.mark.parametrize("options", OWARE_OPTIONS, ids=lambda o: o["grand_slam"])
def test_oware_from_the_start(options):
    for seed in range(40):
        check(mancala.Game("oware", **options), seed)


@pytest.mark.parametrize("options", KALAH_OPTIONS, ids=lambda o: "%dx%d" % (o["pits_per_row"], o["seeds"]))
def test_kalah_from_the_start_with_every_board(options):
    for seed in range(3):
        check(mancala.Game("kalah", **options), seed)
    for seed in range(20) if options == {"pits_per_row": 6, "seeds": 4} else ():
        check(mancala.Game("kalah", **options), 100 + seed)


def random_position(name, options, r):
    """A position of the variant: some seeds in play (few or all), spread over
    both sides or one, sometimes a big pile; the rest in the stores."""
    g = mancala.Game(name, **options)
    n = g.n_pits
    k = n // 2
    total = g.total_seeds()
    pits = [0] * n
    in_play = r.choice([1, 2, 3, 4, 5, 7, 10, r.randint(1, total), total])
    spread = r.random()
    for _ in range(in_play):
        if spread < 0.6:
            pits[r.randrange(n)] += 1
        elif spread < 0.8:   # one side holds every seed
            pits[r.randrange(k) + (0 if in_play % 2 else k)] += 1
        elif spread < 0.9:   # piles
            pits[r.choice((0, k - 1, k, n - 1, r.randrange(n)))] += 1
        else:                # one big pile and a few seeds
            pits[r.randrange(n) if r.random() < 0.2 or not in_play % 3 else (in_play % n)] += 1
    rest = total - in_play - r.randint(0, 2)   # (a seed or two lost from a real board)
    s0 = r.randint(0, max(0, rest))
    g = mancala.Game(name, pits=pits, stores=[s0, max(0, rest - s0)], to_move=r.randrange(2), **options)
    for _ in range(r.choice((0, 0, 1, 3, 8))):   # a history: positions the repetition rule has seen
        if g.is_over():
            break
        g.push(r.choice(g.legal_moves()))
    return g


@pytest.mark.parametrize("options", OWARE_OPTIONS, ids=lambda o: o["grand_slam"])
def test_oware_from_given_positions_reaches_every_rule(options, paths):
    r = random.Random(2024)
    early = 0
    for i in range(700):
        g = random_position("oware", options, r)
        ref = check(g, i)
        if ref.outcome().reason == "repetition" and ref._key in g._seen:
            early += 1   # the position that came round was one from before the playout
        if i % 7 == 0:
            check(g, i, max_plies=i % 5)
    want = ["feeding", "cannot feed", "capture", "end: repetition", "end: no moves",
            {"no-capture": "grand slam takes nothing", "illegal": "grand slam ruled out",
             "sow-again": "grand slam, sow again"}[options["grand_slam"]]]
    missing = [w for w in want if not paths[w]]
    assert not missing, "not reached: %s (reached: %s)" % (missing, dict(paths))
    assert early, "no repetition of a position from before the playout"


@pytest.mark.parametrize("options", [{}, {"pits_per_row": 3, "seeds": 2}, {"pits_per_row": 12, "seeds": 12},
                                     {"pits_per_row": 5, "seeds": 9}, {"empty_capture": "leave"},
                                     {"pits_per_row": 3, "seeds": 2, "empty_capture": "leave"}],
                         ids=["6x4", "3x2", "12x12", "5x9", "6x4-leave", "3x2-leave"])
def test_kalah_from_given_positions(options, paths):
    r = random.Random(7)
    extra = 0
    for i in range(300):
        g = random_position("kalah", options, r)
        ref = check(g, i)
        hist = ref._hist
        extra += sum(1 for a, b in zip(hist, hist[1:]) if a[2] == b[2])   # the same player twice: an extra turn
        if i % 5 == 0:
            check(g, i, max_plies=i % 4)
    assert paths["end: no moves"] and extra


@pytest.mark.parametrize("name, options", [("oware", {}), ("oware", {"grand_slam": "illegal"}),
                                           ("oware", {"grand_slam": "sow-again"}), ("kalah", {}),
                                           ("kalah", {"pits_per_row": 12, "seeds": 12})])
@pytest.mark.parametrize("laps", [1, 2])
def test_handfuls_past_the_table(name, options, laps, monkeypatch):
    # The table sows handfuls of up to _LAPS laps (2 on CPython, 1 on
    # MicroPython); a bigger one adds whole laps to the table's entry.
    monkeypatch.setattr(packed, "_LAPS", laps)
    g = mancala.Game(name, **options)
    t = packed._make(g)
    monkeypatch.setitem(g._tracks, "packed", t)   # (tables of this size, for this test only)
    n = g.n_pits
    past = len(t[10]) // n - 1   # the biggest count in the table
    assert past == laps * t[15]
    total = g.total_seeds()
    played = 0
    for pit in range(n):
        pits = [1] * n
        pits[pit] = total - n - 3
        g = mancala.Game(name, pits=pits, stores=[1, 1], to_move=pit * 2 // n, **options)
        for seed in range(3):
            ref = check(g, seed)
            played += sum(1 for h in ref._hist if h[1][h[0]] > past)
    assert played >= n


def test_max_plies_stops_where_the_push_loop_does():
    for name, options in (("oware", {}), ("kalah", {}), ("oware", {"grand_slam": "sow-again"})):
        g = mancala.Game(name, **options)
        full, end, _ = push_loop(g, random.Random(3))
        for limit in (0, 1, 2, len(full) // 2, len(full) - 1, len(full), len(full) + 1):
            moves, o = kernel(g, 3, limit)
            assert moves == full[:limit]
            # The game ends with its last move, even when that move used up the limit.
            assert outcome_tuple(o) == (outcome_tuple(end) if limit >= len(full) else None)


def test_rounds_of_the_loop(monkeypatch):
    # The kernel's loop runs in rounds of at most _ROUND moves (a billion): with
    # rounds of 3, every limit and none still stop where the push loop does.
    monkeypatch.setattr(packed, "_ROUND", 3)
    for name in ("oware", "kalah"):
        for seed in range(3):
            g = mancala.Game(name)
            for limit in (None, 0, 2, 3, 4, 6, 7, 50):
                check(g, seed, max_plies=limit)


def test_legal_moves_past_the_kept_masks(monkeypatch):
    # Past _MASKS kept masks, the legal moves are worked out each time.
    monkeypatch.setattr(packed, "_MASKS", 3)
    for name, options in (("oware", {}), ("kalah", {}), ("oware", {"grand_slam": "illegal"})):
        g = mancala.Game(name, **options)
        t = packed._make(g)
        monkeypatch.setitem(g._tracks, "packed", t)
        for seed in range(5):
            check(g, seed)
        assert len(t[13]) == 3


def test_a_finished_game_returns_its_outcome():
    g = mancala.Game("oware", pits=[0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0], stores=[20, 27], to_move=0)
    assert g.is_over()
    moves, o = kernel(g, 1)
    assert o is g.outcome() and moves == []


# ----- what it does not cover: the engine plays ----------------------------------


def test_playout_uses_the_kernel_for_oware_and_kalah(monkeypatch):
    calls = []
    real = packed.playout

    def spy(*args):
        out = real(*args)
        calls.append(out is not False)
        return out
    kept = playout_module._packed[0]
    playout_module._packed[0] = spy
    try:
        for name in ("oware", "kalah", "ayoayo", "dakon"):
            mancala.Game(name).playout(random.Random(1))
    finally:
        playout_module._packed[0] = kept
    assert calls == [True, True]   # (the others are not offered to it)


class OwareNoSkip(mancala.Game("oware").__class__):
    skip_origin = False


class KalahAsIs(mancala.Game("kalah").__class__):
    pass


@pytest.mark.parametrize("cls", [OwareNoSkip, KalahAsIs])
def test_a_variant_of_its_own_goes_to_the_engine(cls):
    # A subclass (even one that changes nothing) is not the variant the kernel is written for.
    g = cls()
    assert packed.playout(g, random.Random(1).choice, -1, []) is False
    for seed in range(5):
        moves = []
        expect_moves, expect, _ = push_loop(g, random.Random(seed))
        assert outcome_tuple(g.playout(random.Random(seed), moves=moves)) == outcome_tuple(expect)
        assert moves == expect_moves


def test_an_engine_rule_the_kernel_does_not_know_sends_the_game_to_the_engine(monkeypatch):
    cls = mancala.Game("kalah").__class__
    g = mancala.Game("kalah")
    assert packed._make(g) is not None
    g.relay = 1
    assert packed._make(g) is None
    del g.relay
    assert packed._make(g) is not None
    monkeypatch.setattr(cls, "_judge", lambda self, reason: None)
    assert packed._make(g) is None


def test_handed_to_choice_are_the_legal_moves_in_order():
    # choice() sees a tuple with the legal moves' items and order, once a move.
    class Recorder:
        def __init__(self):
            self.r = random.Random(5)
            self.seen = []

        def choice(self, seq):
            self.seen.append(list(seq))
            return self.r.choice(seq)
    for name in ("oware", "kalah"):
        rec = Recorder()
        g = mancala.Game(name)
        moves = []
        g.playout(rec, moves=moves)
        ref = mancala.Game(name)
        for legal, m in zip(rec.seen, moves):
            assert legal == ref.legal_moves()
            ref.push(m)
        assert len(rec.seen) == len(moves) and ref.is_over()


# ----- on MicroPython ------------------------------------------------------------


# (name, options, pits or None, stores, to_move): from the start, and positions
# where feeding, grand slams, repetitions and big handfuls come quickly.
VM_CASES = [
    ("oware", {}, None, None, 0),
    ("oware", {"grand_slam": "illegal"}, None, None, 0),
    ("oware", {"grand_slam": "sow-again"}, None, None, 0),
    ("oware", {}, [0, 0, 0, 0, 0, 3, 1, 2, 0, 0, 0, 0], [20, 22], 0),
    ("oware", {"grand_slam": "illegal"}, [0, 0, 1, 0, 1, 2, 1, 2, 0, 0, 0, 0], [20, 21], 0),
    ("oware", {"grand_slam": "sow-again"}, [0, 0, 0, 0, 2, 2, 1, 1, 0, 0, 0, 0], [20, 22], 0),
    ("oware", {}, [30, 0, 0, 0, 0, 1, 0, 0, 2, 0, 0, 1], [6, 8], 0),
    ("oware", {}, [1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1], [23, 23], 1),
    ("kalah", {}, None, None, 0),
    ("kalah", {"pits_per_row": 12, "seeds": 12}, None, None, 0),
    ("kalah", {"pits_per_row": 3, "seeds": 2}, None, None, 1),
    ("kalah", {}, [0, 0, 0, 0, 30, 1, 2, 0, 0, 0, 0, 1], [6, 8], 0),
]


def _vm_results(cases, seeds):
    ns = {}
    exec(LCG, ns)
    out = []
    for name, options, pits, stores, to_move in cases:
        for seed in seeds:
            g = mancala.Game(name, pits=pits, stores=stores, to_move=to_move, **options)
            moves = []
            o = packed.playout(g, ns["Lcg"](seed).choice, 400, moves)
            out.append([name, moves, o is False, outcome_tuple(o) if o is not False else None])
    return out


def test_the_kernel_plays_the_same_on_micropython(micropython):
    seeds = [1, 7, 11]
    code = LCG + (
        "import json, mancala\n"
        "from mancala.packed import playout\n"
        "out = []\n"
        "for name, options, pits, stores, to_move in %r:\n"
        "    for seed in %r:\n"
        "        g = mancala.Game(name, pits=pits, stores=stores, to_move=to_move, **options)\n"
        "        moves = []\n"
        "        o = playout(g, Lcg(seed).choice, 400, moves)\n"
        "        out.append([name, moves, o is False,\n"
        "                    None if o is False or o is None else [o.winner, list(o.scores), o.reason]])\n"
        "print(json.dumps(out))\n") % (VM_CASES, seeds)
    on_vm = json.loads(micropython.run(code, timeout=600).strip().splitlines()[-1])
    on_cpython = json.loads(json.dumps(_vm_results(VM_CASES, seeds)))
    assert not any(r[2] for r in on_vm), "the kernel declined a game on MicroPython"
    assert on_vm == on_cpython
    # And both are the push loop's games.
    ns = {}
    exec(LCG, ns)
    i = 0
    for name, options, pits, stores, to_move in VM_CASES:
        for seed in seeds:
            g = mancala.Game(name, pits=pits, stores=stores, to_move=to_move, **options)
            moves, o, _ = push_loop(g, ns["Lcg"](seed), 400)
            assert on_cpython[i][1] == moves and on_cpython[i][3] == json.loads(json.dumps(outcome_tuple(o)))
            i += 1
