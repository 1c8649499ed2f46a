"""Sunca (Philippines): Dakon's game sown clockwise, homes at each player's left.

Rules and decisions: docs/variants/sunca.md (source 000 · SUNCA).
Board: pits 0-6 player 0 "A" (A-G), 7-13 player 1 "B" (a-g), each from the owner's left.
Clockwise = down the pit numbers. Player 0's home is cell 14, between pit 0 and pit 13;
player 1's home is cell 15, between pit 7 and pit 6.
"""
from functools import partial

import pytest

import mancala
from tracesteps import END, EXTRA, PASS, drop, lift, make_play, relay, replay_cells, steps, take

H0, H1 = 14, 15

replay = partial(replay_cells, into=(H0, H1))   # seeds are taken only into a home
play = make_play("sunca", into=(H0, H1))


def test_start_position():
    g = mancala.Game("sunca")
    assert g.pits == [7] * 14
    assert g.stores == [0, 0]
    assert g.to_move == 0
    assert g.legal_moves() == [6]      # A's right-hand corner


def test_names_resolve():
    assert "sunca" in mancala.variants()
    assert mancala.variant_info("sunca")["playable"]
    for name in ("Sunca", "SUNCA", "sungka", "Sungka"):
        assert mancala.Game(name).legal_moves() == [6]


# ----- the opening ----------------------------------------------------------------

def test_opening_both_players_sow_at_once():
    # Source: both pick up the seven stones of their right-hand corners and sow them
    # clockwise, dropping one in their own home: the seventh ends there.
    g = mancala.Game("sunca")
    tr = g.play(6)
    assert replay([7] * 14 + [0, 0], tr) == g.cells()
    assert steps(tr) == (
        [lift(6, 7), lift(13, 7)]
        + [drop(p) for p in (5, 4, 3, 2, 1, 0, H0)]
        + [drop(p) for p in (12, 11, 10, 9, 8, 7, H1)]
        + [EXTRA])
    assert g.pits == [8, 8, 8, 8, 8, 8, 0, 8, 8, 8, 8, 8, 8, 0]
    assert g.stores == [1, 1]
    assert g.to_move == 0
    assert g.legal_moves() == [0, 1, 2, 3, 4, 5]


def test_opening_is_the_only_move_and_written_g():
    g = mancala.Game("sunca")
    assert g.move_name(6) == "G"
    assert g.parse_move("G") == 6
    with pytest.raises(mancala.IllegalMoveError):
        g.play(0)


def test_opening_with_b_first():
    g = mancala.Game("sunca", to_move=1)
    assert g.legal_moves() == [13]
    tr = g.play(13)
    assert steps(tr)[:2] == [lift(13, 7), lift(6, 7)]
    assert g.to_move == 1
    assert g.pits == [8, 8, 8, 8, 8, 8, 0, 8, 8, 8, 8, 8, 8, 0]


# ----- play -------------------------------------------------------------------------

def test_a_stops_in_an_empty_hole_on_bs_side_and_b_plays():
    pits = [2, 0, 0, 0, 0, 0, 0, 0, 0, 3, 0, 0, 0, 0]
    g, s = play(pits, 0)
    assert s == [lift(0, 2), drop(H0), drop(13)]
    assert g.pits == [0] * 9 + [3, 0, 0, 0, 1]
    assert g.stores == [1, 0]
    assert g.to_move == 1


def test_a_collects_the_stones_opposite_her_empty_hole():
    pits = [0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 5, 0]
    g, s = play(pits, 3)
    assert s == [lift(3, 2), drop(2), drop(1), take(12, 5, H0), PASS]
    assert g.pits == [0, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]
    assert g.stores == [5, 0]
    # B has nothing left: she passes, and A plays on.
    assert g.to_move == 0


def test_empty_hole_with_nothing_opposite_just_ends_the_turn():
    pits = [0, 0, 0, 1, 0, 0, 0, 4, 0, 0, 0, 0, 0, 0]
    g, s = play(pits, 3)
    assert s == [lift(3, 1), drop(2)]
    assert g.to_move == 1


def test_relay_and_extra_move_in_the_home():
    pits = [0, 1, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 4]
    g, s = play(pits, 3)
    assert s == [lift(3, 2), drop(2), drop(1), relay(1, 2), drop(0), drop(H0), EXTRA]
    assert g.pits == [1, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 4]
    assert g.stores == [1, 0]
    assert g.to_move == 0


def test_relay_on_the_opponents_side():
    # Into the home, then B's hole 13, which held a stone: lift both and go on,
    # until the empty hole 11 on B's side.
    pits = [2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1]
    g, s = play(pits, 0)
    assert s == [lift(0, 2), drop(H0), drop(13), relay(13, 2), drop(12), drop(11)]
    assert g.to_move == 1


def test_own_home_sown_opponents_home_passed_over():
    # Ten stones from B (pit 1): A (pit 0), her home, B's seven holes, (B's home
    # skipped), her own G (pit 6) - empty, so the stone across it (pit 7) is hers.
    pits = [0, 10, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]
    g, s = play(pits, 1)
    assert s == ([lift(1, 10), drop(0), drop(H0)] + [drop(p) for p in range(13, 6, -1)]
                 + [drop(6), take(7, 1, H0)])
    assert H1 not in [st[1] for st in s]
    assert g.pits == [1, 0, 0, 0, 0, 0, 1, 0, 1, 1, 1, 1, 1, 1]
    assert g.stores == [2, 0]


def test_b_sows_into_her_own_home_at_her_left():
    pits = [3, 0, 0, 0, 0, 0, 0, 0, 4, 0, 0, 0, 0, 0]
    g, s = play(pits, 8, to_move=1)
    assert s == [lift(8, 4), drop(7), drop(H1), drop(6), drop(5)]
    assert g.stores == [0, 1]
    assert g.to_move == 0


def test_extra_move_with_an_empty_row_passes():
    pits = [1, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0, 0, 0]
    g, s = play(pits, 0)
    assert s == [lift(0, 1), drop(H0), EXTRA, PASS]
    assert g.to_move == 1


def test_the_first_game_ends_when_every_stone_is_home():
    pits = [1] + [0] * 13
    g, s = play(pits, 0, stores=(60, 37))
    assert s == [lift(0, 1), drop(H0), EXTRA, END]
    out = g.outcome()
    assert out.winner == 0 and out.scores == [61, 37]
    assert g.legal_moves() == []


def test_equal_homes_draw():
    pits = [1] + [0] * 13
    g, _ = play(pits, 0, stores=(48, 49))
    assert g.outcome().winner is None


def test_options():
    g = mancala.Game("sunca", pits_per_row=4, seeds=4)
    assert g.legal_moves() == [3]
    tr = g.play(3)
    # Homes: cell 8 (player 0, after pit 0 clockwise) and 9 (player 1, after pit 4).
    assert steps(tr) == ([lift(3, 4), lift(7, 4)] + [drop(p) for p in (2, 1, 0, 8)]
                         + [drop(p) for p in (6, 5, 4, 9)] + [EXTRA])


def test_illegal_moves():
    g = mancala.Game("sunca", pits=[0, 2, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0])
    with pytest.raises(mancala.IllegalMoveError, match="empty"):
        g.play(0)
    with pytest.raises(mancala.IllegalMoveError, match="player 1"):
        g.play(7)
    with pytest.raises(mancala.IllegalMoveError):
        g.play((1, -1))      # no direction to give: always clockwise
    assert g.parse_move("B") == 1
    with pytest.raises(mancala.NotationError):
        g.parse_move("B-")
