"""Following a move pit by pit (firmware/sowlight_fw/follow/): at the start of a turn the
board finds only the pits that may be lifted; the traces of a pit's moves are computed once
the hands lift it.  For the Omweso family the rules core lists one pit's moves itself
(Omweso.moves_from); listing every move there plays every way through every pit's choice
points, far too long for a board's step and too big for its memory.
"""
import json
import random

from fakeload import load_fake
from testgames import board_4x8, positions, replayed

import pytest

import mancala
from mancala.trace import Step
from sowlight_fw.follow import Follower, lifts, pit_of, new_move, placing

hands = load_fake("hands")

LAZY = [v for v in mancala.variants() if getattr(mancala.Game(v), "lazy_moves", False)]
BY_PIT = [v for v in mancala.variants() if hasattr(mancala.Game(v), "moves_from")]


def test_the_variants_that_list_a_pits_moves_themselves_are_the_omweso_family():
    assert set(BY_PIT) == {"omweso", "coro", "kombe", "mongale", "aweet", "mongola-driedger"}
    assert set(BY_PIT) < set(LAZY)


def listing_counted(monkeypatch, cls):
    """A list that legal_moves() of the games of `cls` appends to each time it is asked for the
    whole list (what the board must not ask for in the Omweso family)."""
    calls = []
    whole = cls.legal_moves

    def legal_moves(self):
        calls.append(1)
        return whole(self)
    monkeypatch.setattr(cls, "legal_moves", legal_moves)
    return calls


@pytest.mark.parametrize("variant", BY_PIT)
def test_moves_from_a_pit_are_the_legal_moves_from_it_in_the_same_order(variant, monkeypatch):
    checked = 0
    for g in positions(variant, games=5):    # (random games of the family may end within 20 plies)
        fresh = mancala.from_text(mancala.to_text(g))     # (as after a move: the list not built)
        listed = listing_counted(monkeypatch, type(fresh))
        per_pit = {p: fresh.moves_from(p) for p in range(g.n_pits)}
        monkeypatch.undo()
        if fresh.phase == "play":
            assert listed == []             # one pit's moves, found without the whole list
        legal = g.legal_moves()
        for p in range(g.n_pits):
            assert per_pit[p] == [m for m in legal if pit_of(m) == p], (variant, mancala.to_text(g), p)
        # Every legal move is one of some pit's, but a pass (no step for the hands to make).
        rest = [m for m in legal if pit_of(m) is None]
        assert all(m == ("pass",) for m in rest) if g.phase == "play" else True
        checked += 1
    assert checked > 50


@pytest.mark.parametrize("variant", mancala.variants())
def test_a_turn_is_lazy_only_where_every_legal_move_begins_by_lifting_its_pit(variant):
    """The lights of a lazy turn are the lifts of `lifts`' pits, before any trace is computed:
    they must be exactly the first steps of the legal moves."""
    for g in positions(variant, games=2, plies=30):
        if placing(g):
            continue
        pits, moves = lifts(g)
        legal = g.legal_moves()
        if pits is None:
            assert any(pit_of(m) is None for m in legal)
            continue
        b = g.pits
        firsts = []
        for m in legal:
            steps = list(g.copy().play(m))
            p = pit_of(m)
            if p is None:
                # Only Omweso's pass: nothing for the hands to do, never lit (a pass may end the
                # game: the takes then give the leftovers away).
                assert m == ("pass",) and all(s.kind in ("pass", "take", "end") for s in steps), (variant, m, steps)
                continue
            assert steps[0] == Step("lift", p, b[p], -1), (variant, mancala.to_text(g), m, steps[0])
            if p not in firsts:
                firsts.append(p)
        assert pits == firsts, (variant, mancala.to_text(g))
        if moves is not None:
            assert moves == legal


@pytest.mark.parametrize("variant", LAZY)
def test_a_pits_traces_are_those_of_its_legal_moves_and_the_game_is_left_as_it_was(variant):
    for g in positions(variant, games=2, plies=30):
        if g.phase != "play":
            continue
        pits, moves = lifts(g)
        before = (mancala.to_text(g), g.ply, g.to_move, list(g.cells()))
        for p in pits:
            mv = new_move(g, pits, moves)
            mv.build_pit(p)
            mv.reach(1 << 30)               # (the Omweso family: its traces walked to their ends)
            expect = [(m, list(g.copy().play(m))) for m in g.legal_moves() if pit_of(m) == p]
            assert mv.paths() == expect, (variant, mancala.to_text(g), p)
            assert (mancala.to_text(g), g.ply, g.to_move, list(g.cells())) == before   # played and taken back


def identity_follower(g, counting=True):
    n = g.n_pits + g.players
    f = Follower(n, counting)
    for c in range(n):
        f.care[c] = 1
    f.start(g, tuple(range(n)))
    return f


@pytest.mark.parametrize("variant,seed", [("omweso", 1), ("kombe", 2), ("kombe", 3), ("coro", 4)])
def test_a_follower_on_an_omweso_turn_traces_only_the_lifted_pits_moves(variant, seed, monkeypatch):
    rnd = random.Random(seed)
    g = mancala.Game(variant, race="none")
    for _ in range(rnd.randrange(4, 20)):
        g.play(rnd.choice(g.legal_moves()))
    assert g.phase == "play" and not g.is_over()
    g = mancala.from_text(mancala.to_text(g))       # (as after a move: the list not built)
    pits = [p for p in g.side(g.to_move) if g.pits[p] >= 2]
    lifted = rnd.choice(pits)
    want = g.copy().moves_from(lifted)
    trace = list(g.copy().play(rnd.choice(want)))
    cls = type(g)
    plays = []
    walked = []
    real_play, real_walk = cls.play, cls.walk

    def play(self, move):
        plays.append(move)
        return real_play(self, move)

    def walk(self, pit, letters, w, tr, budget):
        walked.append(pit)
        return real_walk(self, pit, letters, w, tr, budget)

    monkeypatch.setattr(cls, "play", play)
    monkeypatch.setattr(cls, "walk", walk)
    listings = listing_counted(monkeypatch, cls)
    f = identity_follower(g)
    # The lights of the turn: a lift of every pit holding two seeds or more; nothing traced.
    assert [s.pit for s in f.first_steps()] == pits and plays == [] and walked == [] and listings == []
    # The hands lift a pit and sow on: the board sees each step.
    obs = list(f.counts)
    for s in trace[:4]:
        f.apply(obs, s)
        depth, steps, ambiguous = f.lookahead(obs, 400)
        assert depth == 1 and steps == [s]
        f.advance_run(steps)
    # Only that pit's turn is walked (as far as the steps need: tests/test_firmware_follow_lazy.py),
    # never played whole, and the whole list is never made.
    assert walked and set(walked) == {lifted} and plays == []
    assert listings == []


@pytest.mark.parametrize("variant", ["kombe", "omweso"])
@pytest.mark.parametrize("kind", ["load-cells", "occupancy"])
def test_a_whole_four_row_game_is_played_by_the_hands(variant, kind):
    h = hands.start(board_4x8(kind), variant, seed=2)
    h.play(40000)
    c = h.c
    assert c.state == "over" and c.game.is_over()
    assert h.seeds.counts == hands.expected_counts(c)
    g = replayed(variant, c.records)
    assert g.cells() == c.game.cells() and g.outcome() == c.game.outcome()


VM_CHECK = """
import json, mancala
from sowlight_fw.follow import lifts, pit_of, new_move
out = []
for variant, moves in json.loads(%r):
    g = mancala.Game(variant)
    for m in moves:
        g.play(m if isinstance(m, int) else tuple(m))
    g = mancala.from_text(mancala.to_text(g))    # (as after a move: the list not built)
    cls = type(g)
    whole = cls.legal_moves
    calls = []
    cls.legal_moves = lambda self: calls.append(1) or whole(self)
    pits, listed = lifts(g)
    per_pit = [[p, [list(m) if isinstance(m, tuple) else m for m in g.moves_from(p)]] for p in pits]
    untouched = calls == []
    cls.legal_moves = whole
    mv = new_move(g, pits, listed)
    mv.build_pit(pits[0])
    mv.reach(1 << 30)
    traced = [[list(m) if isinstance(m, tuple) else m, [list(s) for s in st]] for m, st in mv.paths()]
    out.append([pits, per_pit, untouched, traced])
print(json.dumps(out))
"""


def test_moves_from_and_the_lazy_follower_on_micropython(micropython):
    games = []
    expect = []
    for variant in ("kombe", "omweso", "mongola-driedger"):
        rnd = random.Random(variant)
        g = mancala.Game(variant)
        moves = []
        while len(moves) < 12 or g.phase != "play":
            m = rnd.choice(g.legal_moves())
            g.play(m)
            moves.append(list(m) if isinstance(m, tuple) else m)
        games.append([variant, moves])
        pits, listed = lifts(g)
        legal = g.legal_moves()
        per_pit = [[p, [list(m) if isinstance(m, tuple) else m for m in legal if pit_of(m) == p]] for p in pits]
        traced = [[list(m) if isinstance(m, tuple) else m, [list(s) for s in g.copy().play(m)]]
                  for m in legal if pit_of(m) == pits[0]]
        expect.append([pits, per_pit, True, traced])
    out = micropython.run(VM_CHECK % json.dumps(games), timeout=300)
    assert json.loads(out.strip().splitlines()[-1]) == expect


@pytest.mark.parametrize("counting", [True, False], ids=["load cells", "occupancy"])
def test_apply_counts_a_drop_as_a_placement_does(counting):
    # apply() changes a drop's count inline (most steps a look applies are drops): the same counts
    # as a one-seed placement (the general path) and the same count of cells that disagree as
    # bad() finds, for every reading a cell can give.
    f = identity_follower(mancala.Game("oware"), counting)
    f.care[3] = 0                                   # (a cell whose reading is not compared)
    for cell in (2, 3):
        for old in range(4):
            for seen in range(-1, 4):
                obs = [0] * len(f.care)
                obs[cell] = seen
                mine, theirs = [0] * len(f.care), [0] * len(f.care)
                mine[cell] = theirs[cell] = old
                got = f.apply(mine, Step("drop", cell, 1, -1), 5, obs)
                want = f.apply(theirs, Step("place", cell, 1, -1), 5, obs)
                assert (got, mine) == (want, theirs), (cell, old, seen)
                assert got == 5 + f.bad(obs, mine) - f.bad(obs, [old if c == cell else 0 for c in range(len(obs))])
                assert f.apply(mine, Step("drop", cell, 1, -1)) == 0 and mine[cell] == old + 2
