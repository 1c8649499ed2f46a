"""Properties every playable variant must have, checked by random play.

- seeds are conserved (cells + seeds outside any cell);
- a move's trace, replayed step by step on the position before it, gives the position after it;
- undo restores every earlier position exactly;
- a random legal move never raises, and every game ends (or is declared over by repetition);
- the notation and the position text round-trip.
"""
import random

import pytest
from hypothesis import given, settings, HealthCheck
from hypothesis import strategies as st

import mancala
from variants.tracesteps import replay

VARIANTS = mancala.variants()
MAX_PLIES = 3000

slow = settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def total(g):
    return sum(g.cells()) + g.outside()


def random_game(name, seed, plies=MAX_PLIES, **options):
    g = mancala.Game(name, **options)
    rnd = random.Random(seed)
    for _ in range(plies):
        if g.is_over():
            break
        g.play(rnd.choice(g.legal_moves()))
    return g


@pytest.mark.parametrize("name", VARIANTS)
@slow
@given(seed=st.integers(0, 2**32))
def test_seeds_conserved_and_traces_exact(name, seed):
    g = mancala.Game(name)
    rnd = random.Random(seed)
    start = total(g)
    for _ in range(MAX_PLIES):
        if g.is_over():
            break
        moves = g.legal_moves()
        assert moves, "a game that is not over has legal moves"
        before, outside_before = g.cells(), g.outside()
        trace = g.play(rnd.choice(moves))
        cells, outside = replay(before, trace, outside_before)     # (every seed accounted for)
        assert cells == g.cells(), "the trace does not lead to the position after the move"
        assert outside == g.outside()
        assert total(g) == start
    assert g.is_over(), "%s: no end after %d plies" % (name, MAX_PLIES)
    out = g.outcome()
    assert out.reason
    assert out.winner is None or 0 <= out.winner < g.players
    assert g.legal_moves() == []


@pytest.mark.parametrize("name", VARIANTS)
@slow
@given(seed=st.integers(0, 2**32))
def test_undo_restores_every_position(name, seed):
    g = mancala.Game(name)
    rnd = random.Random(seed)
    seen = []
    for _ in range(200):
        if g.is_over():
            break
        seen.append((g.cells(), g.to_move, g.phase, mancala.to_text(g)))
        g.play(rnd.choice(g.legal_moves()))
    while seen:
        g.undo()
        assert (g.cells(), g.to_move, g.phase, mancala.to_text(g)) == seen.pop()
        assert not g.is_over()
    with pytest.raises(mancala.IllegalMoveError):
        g.undo()


@pytest.mark.parametrize("name", VARIANTS)
@slow
@given(seed=st.integers(0, 2**32))
def test_push_agrees_with_play(name, seed):
    a = mancala.Game(name)
    b = mancala.Game(name)
    rnd = random.Random(seed)
    for _ in range(300):
        if a.is_over():
            break
        moves = a.legal_moves()
        assert moves == b.legal_moves()
        m = rnd.choice(moves)
        a.play(m)
        b.push(m)
        assert a.cells() == b.cells() and a.to_move == b.to_move and a.is_over() == b.is_over()
    assert a.outcome() == b.outcome()


def near_moves(g, legal, rnd, most=12):
    """Moves to ask is_legal() about: some legal ones and moves that look like them."""
    out = [("pass",), (0,), 0.0, True]
    for m in legal:
        if isinstance(m, int):
            out += [m, m + 1, m - 1]
        elif isinstance(m, tuple) and len(m) == 2 and isinstance(m[1], str):
            w = m[1]
            out += [m, (m[0], w[:-1]), (m[0] + 1, w)] + [(m[0], w + x) for x in "cnrs"] + [
                (m[0], w[:i] + x + w[i + 1:]) for i in range(len(w)) for x in "cnrs"]
        elif isinstance(m, tuple) and m and all(isinstance(x, int) for x in m):
            out += [m, m[:1] + (-m[1],) + m[2:] if len(m) > 1 else m, m + (0,), m[:-1]]
            out += [m[:i] + (m[i] + 1,) + m[i + 1:] for i in range(len(m))]
        else:
            out.append(m)
    out += list(range(g.n_pits))
    rnd.shuffle(out)
    return out[:most]


@pytest.mark.parametrize("name", VARIANTS)
@slow
@given(seed=st.integers(0, 2**32))
def test_is_legal_and_play_agree_with_the_move_list(name, seed):
    # Variants whose move list is costly (Omweso's family, Enkeshui, Maruba's)
    # build it only when asked: is_legal() and play() then answer without it,
    # and must say exactly what the list says.  A refused move changes nothing.
    g = mancala.Game(name)
    rnd = random.Random(seed)
    for _ in range(80):
        if g.is_over():
            break
        unlisted = g.copy()           # a copy made before the list is asked for
        legal = g.legal_moves()
        for m in near_moves(g, legal, rnd):
            assert unlisted.copy().is_legal(m) == (m in legal), m
            if m not in legal:
                c = unlisted.copy()
                before = (c.cells(), c.to_move, c.ply, mancala.to_text(c))
                with pytest.raises(mancala.IllegalMoveError):
                    c.play(m)
                assert (c.cells(), c.to_move, c.ply, mancala.to_text(c)) == before
                assert c.legal_moves() == legal
        m = rnd.choice(legal)
        assert unlisted.play(m).kinds() == g.copy().play(m).kinds()
        g.play(m)


@pytest.mark.parametrize("name", VARIANTS)
def test_notation_and_position_text_round_trip(name):
    g = mancala.Game(name)
    rnd = random.Random(7)
    for _ in range(120):
        if g.is_over():
            break
        for m in g.legal_moves():
            assert g.parse_move(g.move_name(m)) == m
        text = mancala.to_text(g)
        h = mancala.from_text(text)
        assert mancala.to_text(h) == text
        assert h.cells() == g.cells() and h.to_move == g.to_move and h.legal_moves() == g.legal_moves()
        g.play(rnd.choice(g.legal_moves()))


@pytest.mark.parametrize("name", VARIANTS)
def test_copy_is_independent(name):
    g = random_game(name, 3, plies=10)
    c = g.copy()
    before = g.cells()
    if not c.is_over():
        c.play(c.legal_moves()[0])
        assert g.cells() == before
        c.undo()
    assert c.cells() == g.cells() and c.to_move == g.to_move


@pytest.mark.parametrize("name", VARIANTS)
def test_illegal_moves_say_why(name):
    g = mancala.Game(name)
    legal = g.legal_moves()
    for bad in (-1, g.n_pits, 10**6, "x", None, (0,), ()):
        if bad in legal:
            continue
        with pytest.raises(mancala.IllegalMoveError) as e:
            g.play(bad)
        assert str(e.value)
    with pytest.raises(mancala.NotationError):
        g.parse_move("??")
