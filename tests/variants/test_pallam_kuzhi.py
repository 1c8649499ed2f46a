"""Pallam Kuzhi (Pallanguzhi): sowing on from the next cup, capture of the cup beyond
an empty cup, free fours to the row's owner.

Rules and decisions: docs/variants/pallam-kuzhi.md (source 000 · PALLAM KUZHI, rules 1-8).
Board: pits 0-6 player 0 (A-G), 7-13 player 1 (a-g); winnings cups are cells 14 and 15,
never sown.
"""
import pytest

import mancala
from tracesteps import END, drop, lift, make_play, relay, steps, take

S0, S1 = 14, 15

# Seeds are taken only into the winnings cups, which are never sown.
play = make_play("pallam-kuzhi", into=(S0, S1), never_sown=(S0, S1))


def test_start_position():
    g = mancala.Game("pallam-kuzhi")
    assert g.pits == [4] * 14
    assert g.stores == [0, 0]
    assert g.legal_moves() == [0, 1, 2, 3, 4, 5, 6]
    assert sum(g.cells()) == 56


def test_either_player_may_start():
    assert mancala.Game("pallam-kuzhi", to_move=1).legal_moves() == [7, 8, 9, 10, 11, 12, 13]


def test_names_resolve():
    assert "pallam-kuzhi" in mancala.variants()
    for name in ("pallam-kuzhi", "Pallam Kuzhi", "pallamkuzhi", "Pallanguzhi", "Pallamkurie"):
        assert mancala.variant_info(name)["id"] == "pallam-kuzhi"
        assert mancala.Game(name).pits == [4] * 14


# ----- the source's example -----------------------------------------------------------

def test_source_example_stop_in_1_capture_3():
    # Rule 3: "stop in No. 1, No. 2 is empty, capture No. 3". Eight seeds from G run
    # round B's row and stop in A's No. 1 (pit 0); No. 2 (pit 1) is empty; No. 3 (pit 2)
    # is captured, and nothing else: not the cup opposite it (pit 11).
    pits = [0, 0, 5, 0, 0, 0, 8, 1, 1, 1, 1, 1, 1, 1]
    g, s = play(pits, 6)
    assert s == [lift(6, 8)] + [drop(p) for p in (7, 8, 9, 10, 11, 12, 13, 0)] + [take(2, 5, S0)]
    assert g.pits == [1, 0, 0, 0, 0, 0, 0, 2, 2, 2, 2, 2, 2, 2]
    assert g.stores == [5, 0]
    assert g.to_move == 1


# ----- sowing and capture ---------------------------------------------------------------

def test_first_move_from_the_start_sows_on_from_the_next_cups():
    # Worked by hand. The initial fours grow to five: none is a free four (decision 4).
    g = mancala.Game("pallam-kuzhi")
    tr = g.play(0)
    assert steps(tr) == (
        [lift(0, 4)] + [drop(p) for p in (1, 2, 3, 4)]
        + [relay(5, 4)] + [drop(p) for p in (6, 7, 8, 9)]
        + [relay(10, 4)] + [drop(p) for p in (11, 12, 13, 0)]
        + [relay(1, 5)] + [drop(p) for p in (2, 3, 4, 5, 6)]
        + [relay(7, 5)] + [drop(p) for p in (8, 9, 10, 11, 12)]
        + [relay(13, 5)] + [drop(p) for p in (0, 1, 2, 3, 4)]
        + [relay(5, 1), drop(6)]
        + [take(8, 6, S0)])
    assert g.pits == [2, 1, 7, 7, 7, 0, 7, 0, 0, 6, 1, 6, 6, 0]
    assert g.stores == [6, 0]
    assert g.to_move == 1


def test_capture_of_the_cup_beyond_an_empty_cup_on_bs_side():
    # Pit 8 after the last seed is empty: pit 9 beyond it is captured; the cup opposite
    # pit 9 (pit 4) is not (decision 2).
    pits = [0, 0, 0, 0, 2, 2, 0, 0, 0, 3, 0, 0, 0, 1]
    g, s = play(pits, 5)
    assert s == [lift(5, 2), drop(6), drop(7), take(9, 3, S0)]
    assert g.pits[4] == 2 and g.stores == [3, 0]
    assert g.to_move == 1


def test_nothing_beyond_two_empty_cups():
    pits = [1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 3, 0, 1]
    g, s = play(pits, 0)
    assert s == [lift(0, 1), drop(1)]
    assert g.stores == [0, 0]
    assert g.to_move == 1


def test_the_emptied_cup_is_sown_on_a_long_lap():
    pits = [14, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]
    g, s = play(pits, 0)
    # One seed in every cup, the last back in pit 0; pit 1 (1) is lifted and sown on.
    assert s[:16] == [lift(0, 14)] + [drop(p) for p in list(range(1, 14)) + [0]] + [relay(1, 1)]


def test_player_1_captures_into_his_cup():
    pits = [0, 3, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 1, 0]
    g, s = play(pits, 12, to_move=1)
    assert s == [lift(12, 1), drop(13), take(1, 3, S1)]
    assert g.stores == [0, 3]
    assert g.to_move == 0


# ----- free fours -------------------------------------------------------------------

def test_free_four_on_the_way_in_the_opponents_move():
    # B sows through A's pit 0 (3 -> 4): A takes the four at once.
    pits = [3, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 2]
    g, s = play(pits, 13, to_move=1)
    assert s == [lift(13, 2), drop(0), take(0, 4, S0), drop(1)]
    assert g.stores == [4, 0]


def test_free_four_by_the_last_seed_goes_to_the_owner():
    pits = [0, 0, 0, 0, 0, 0, 2, 0, 3, 0, 0, 0, 0, 1]
    g, s = play(pits, 6)
    assert s == [lift(6, 2), drop(7), drop(8), take(8, 4, S1)]
    assert g.stores == [0, 4]


def test_free_four_on_own_side():
    pits = [2, 3, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1]
    g, s = play(pits, 0)
    assert s == [lift(0, 2), drop(1), take(1, 4, S0), drop(2)]
    assert g.stores == [4, 0]


def test_a_cup_already_holding_four_is_not_a_free_four():
    pits = [1, 4, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1]
    g, s = play(pits, 0)
    assert s == [lift(0, 1), drop(1)]
    assert g.pits[1] == 5


# ----- the end ------------------------------------------------------------------------

def test_round_ends_when_the_player_to_move_has_no_seed():
    pits = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0, 1]
    g, s = play(pits, 11, stores=(20, 10), to_move=1)
    # The other player keeps the seeds remaining on his side (rule 6).
    assert s == [lift(11, 2), drop(12), drop(13), take(12, 1, S1), take(13, 2, S1), END]
    out = g.outcome()
    assert out.scores == [20, 13]
    assert out.winner == 0
    assert "no seeds" in out.reason


# ----- options, notation, errors ---------------------------------------------------------

def test_options():
    g = mancala.Game("pallam-kuzhi", pits_per_row=5, seeds=3)
    assert g.pits == [3] * 10
    tr = g.play(4)
    # Three seeds from E: a, b, c, each 3 -> 4: B's free fours (store cell 11).
    assert steps(tr)[:7] == [lift(4, 3), drop(5), take(5, 4, 11), drop(6), take(6, 4, 11), drop(7), take(7, 4, 11)]
    with pytest.raises(mancala.PositionError):
        mancala.Game("pallam-kuzhi", pits_per_row=12)


def test_notation_and_errors():
    g = mancala.Game("pallam-kuzhi")
    for m in g.legal_moves():
        assert g.parse_move(g.move_name(m)) == m
    assert g.move_name(3) == "D"
    with pytest.raises(mancala.IllegalMoveError, match="player 1"):
        g.play(9)
    with pytest.raises(mancala.IllegalMoveError):
        g.play(14)
    with pytest.raises(mancala.NotationError):
        g.parse_move("")
