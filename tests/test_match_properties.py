"""Properties of every match, checked by random play over many rounds.

As for single games (tests/test_properties.py): seeds are conserved (now across
rounds: the cells, the seeds outside any cell and the seeds the match rules took
out of play), every trace replays exactly, undo restores every position (closed
pits and bought houses included), push agrees with play.  And for matches: closed
pits stay empty and are never sown, each round's points follow the variant's rule,
the next round is started by the player the rules name, and a match saved mid-round
and restored goes on exactly as the original.
"""
import random

import pytest
from hypothesis import given, settings, HealthCheck
from hypothesis import strategies as st

import mancala
from mancala import Match
from mancala.match import MATCH_VARIANTS

from variants.tracesteps import replay

ROUNDS = 25          # Dakon-like matches can go on for ever under random play
slow = settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])

CARRIED = ("dakon", "sunca", "pandi", "pallam-kuzhi", "giuthi", "giuthi-driedger")
SUMMED = ("egyptian-simple", "egyptian-advanced", "lane", "syrian")


def seeds_in_play(m):
    g = m.game
    return sum(g.cells()) + g.outside() + m.off


def closed_of(g):
    return set(getattr(g, "closed", ()))


def play_move(m, move):
    """Play one move of the current round, checking the trace, conservation and closed pits."""
    g = m.game
    before, outside = g.cells(), g.outside()
    total = seeds_in_play(m)
    closed = closed_of(g)
    trace = g.play(move)
    cells, outside = replay(before, trace, outside)         # (the hand empty at the end)
    assert cells == g.cells() and outside == g.outside()
    assert seeds_in_play(m) == total
    for s in trace:
        if s.kind in ("lift", "relay", "drop", "take", "place"):
            assert s.pit not in closed, "%s touches closed pit %d" % (s.kind, s.pit)
    assert all(g.cells()[i] == 0 for i in closed)


def check_round_rule(m, r, game, previous_first):
    """The finished round's result follows the variant's rule."""
    name = m.variant
    s = game.stores
    before = m.standing
    assert r.scores == s and r.first == previous_first
    if name in CARRIED:
        assert r.points == s
    elif name == "adi":
        assert sum(r.points) == 12 and r.points[0] >= 0
        if r.winner is not None:
            assert r.points[r.winner] >= before[r.winner] and r.next_first == 1 - r.winner
            assert r.points[1 - r.winner] == min(before[1 - r.winner], s[1 - r.winner] // 4)
    elif name == "enkeshui":
        assert r.points == [min(v, 24) for v in s] and r.off == sum(max(0, v - 24) for v in s)
    elif name in SUMMED:
        gained = [0, 0]
        if r.winner is not None:
            gained[r.winner] = abs(s[0] - s[1])
            assert r.next_first == r.winner
        assert r.points == [before[0] + gained[0], before[1] + gained[1]]
    else:   # lukho, kiothi: a few points to the round's winner
        won = [r.points[p] - before[p] for p in (0, 1)]
        if r.winner is None:
            assert won == [0, 0]
        else:
            assert won[1 - r.winner] == 0 and won[r.winner] in ((2, 4, 12) if name == "lukho" else (1, m.supreme))
    if name in ("dakon", "sunca"):
        assert r.next_first == game.last_mover()
    if name == "giuthi" and r.winner is not None:
        assert r.next_first == r.winner
    if name == "giuthi-driedger":
        assert r.next_first == ((1 - r.winner if r.winner is not None else 1 - previous_first)
                                if r.round == 1 else 1 - previous_first)


def lopsided(g, rnd):
    """Player 0 takes the move best for his store, player 1 the worst for his (ties at random)."""
    p = g.to_move
    sign = 1 if p == 0 else -1
    best = None
    moves = []
    for m in g.legal_moves():
        g.push(m)
        s = g.stores
        v = sign * (s[p] - s[1 - p])
        g.pop()
        if best is None or v > best:
            best, moves = v, [m]
        elif v == best:
            moves.append(m)
    return rnd.choice(moves)


def at_random(g, rnd):
    return rnd.choice(g.legal_moves())


def play_match(name, seed, save_at=None, reasons=None, choose=at_random, rounds=ROUNDS):
    """Play a whole match (at most `rounds` rounds); return it.  save_at: (round, ply)
    at which to save the match as text, restore it, and go on with the restored copy.
    reasons: a list that gets each round's end reason."""
    rnd = random.Random(seed)
    m = Match(name, first=rnd.randrange(2))
    total = seeds_in_play(m)
    while True:
        g = m.game
        while not g.is_over():
            if save_at == (m.round, g.ply):
                save_at = None      # the restored round counts its plies from 0 again
                text = m.to_text()
                m = Match.from_text(text)
                assert m.to_text() == text
                g = m.game
                if g.is_over():
                    break
            play_move(m, choose(g, rnd))
        r = m.history[-1]
        if reasons is not None:
            reasons.append(g.outcome().reason)
        check_round_rule(m, r, g, m.first)
        if m.is_over():
            assert m.outcome().winner == r.match_winner and m.outcome().scores == r.points
            return m
        if m.round >= rounds:
            return m
        n = m.round
        g2 = m.next_round()
        assert m.round == n + 1 and m.game is g2 and m.first == r.next_first
        assert m.standing == r.points and len(m.history) == n
        assert seeds_in_play(m) == total, "seeds not conserved across rounds"
        assert all(g2.cells()[i] == 0 for i in closed_of(g2))


@pytest.mark.parametrize("name", MATCH_VARIANTS)
@slow
@given(seed=st.integers(0, 2**32))
def test_random_match_keeps_every_rule(name, seed):
    m = play_match(name, seed)
    assert m.is_over() or m.round == ROUNDS
    assert len(m.history) == m.round


@pytest.mark.parametrize("name", MATCH_VARIANTS)
@slow
@given(seed=st.integers(0, 2**32), ply=st.integers(0, 40))
def test_match_saved_mid_round_goes_on_identically(name, seed, ply):
    reasons = []
    a = play_match(name, seed, reasons=reasons)
    k = min(2, a.round)
    if reasons[k - 1] == "repetition":
        # The position text keeps no earlier positions (docs/rules.md, "Matches"):
        # a restored round cannot see a repetition that began before it was saved.
        return
    b = play_match(name, seed, save_at=(k, ply))
    assert b.to_text() == a.to_text()
    assert [(r.winner, r.points, r.next_first) for r in b.history] == [(r.winner, r.points, r.next_first) for r in a.history]


@pytest.mark.parametrize("name", MATCH_VARIANTS)
def test_a_lopsided_match_ends(name):
    # One strong player and one who helps him: every match comes to its end,
    # with every rule checked on the way.
    ended = []
    for seed in range(4):
        m = play_match(name, seed, choose=lopsided, rounds=100)
        if m.is_over():
            ended.append(m.outcome().winner)
    assert ended, "%s: no match over after 100 rounds" % name


# Matches that end under random play (Dakon, Sunca and Pallam Kuzhi can last for
# ever: the crafted tests in test_match.py check their endings).
ENDING = ("pandi", "adi", "egyptian-simple", "egyptian-advanced", "lane", "syrian", "enkeshui",
          "giuthi-driedger", "lukho", "kiothi")


@pytest.mark.parametrize("name", ENDING)
def test_random_matches_end(name):
    ends = [play_match(name, seed).is_over() for seed in range(4)]
    assert any(ends), "%s: no match ended within %d rounds" % (name, ROUNDS)


def later_round(name, seed):
    """A game of round 2 or later (with its closed pits or bought houses), or None."""
    rnd = random.Random(seed)
    m = Match(name)
    for _ in range(3):
        g = m.game
        while not g.is_over():
            g.play(rnd.choice(g.legal_moves()))
        if m.is_over():
            return None
        m.next_round()
    return m.game


@pytest.mark.parametrize("name", MATCH_VARIANTS)
@slow
@given(seed=st.integers(0, 2**32))
def test_later_rounds_undo_and_push_like_first_ones(name, seed):
    g = later_round(name, seed)
    if g is None:
        return
    rnd = random.Random(seed)
    shadow = g.copy()
    seen = []
    for _ in range(150):
        if g.is_over():
            break
        seen.append((g.cells(), g.to_move, g.phase, mancala.to_text(g)))
        move = rnd.choice(g.legal_moves())
        assert g.legal_moves() == shadow.legal_moves()
        g.play(move)
        shadow.push(move)
        assert shadow.cells() == g.cells() and shadow.to_move == g.to_move
        text = mancala.to_text(g)
        assert mancala.to_text(mancala.from_text(text)) == text
    while seen:
        g.undo()
        assert (g.cells(), g.to_move, g.phase, mancala.to_text(g)) == seen.pop()
