"""Pandi (India): sowing on from the hole after the last stone, capture beyond an
empty hole with the hole opposite, calves of four to the row's owner.

Rules and decisions: docs/variants/pandi.md (source 000 · PANDI).
Board: pits 0-6 player 0 "A" (A-G; his holes No. 1-7 = pits 0-6), pits 7-13 player 1
"B" (a-g; his holes No. 1-7 = pits 7-13). Store houses are cells 14 and 15, never sown.
"""
import pytest

import mancala
from tracesteps import END, drop, lift, make_play, relay, steps, take

S0, S1 = 14, 15

# Seeds are taken only into the store houses, which are never sown.
play = make_play("pandi", into=(S0, S1), never_sown=(S0, S1))


def test_start_position():
    g = mancala.Game("pandi")
    assert g.pits == [5] * 14
    assert g.stores == [0, 0]
    assert g.to_move == 0
    assert g.legal_moves() == [0, 1, 2, 3, 4, 5, 6]
    assert sum(g.cells()) == 70


def test_names_resolve():
    assert "pandi" in mancala.variants()
    assert mancala.variant_info("pandi")["playable"]
    assert mancala.variant_info("PANDI")["id"] == "pandi"
    assert mancala.Game("Pandi").pits == [5] * 14


# ----- the source's examples ---------------------------------------------------------

def test_source_example_empty_hole_4():
    # A's last stone falls in his No. 3 (pit 2); his No. 4 (pit 3) is empty: he wins his
    # No. 5 (pit 4) and the hole exactly opposite it, pit 9 (B's No. 3). The source's
    # example says "B's 2nd hole" (pit 8): the rule as stated - exactly opposite - is
    # followed, so pit 8 keeps its stones (decision 2).
    pits = [2, 0, 0, 0, 3, 1, 1, 1, 2, 6, 1, 1, 1, 1]
    g, s = play(pits, 0)
    assert s == [lift(0, 2), drop(1), drop(2), take(4, 3, S0), take(9, 6, S0)]
    assert g.opposite(4) == 9
    assert g.pits[8] == 2, "B's No. 2 is not the hole opposite A's No. 5"
    assert g.pits == [0, 1, 1, 0, 0, 1, 1, 1, 2, 0, 1, 1, 1, 1]
    assert g.stores == [9, 0]
    assert g.to_move == 1


def test_source_example_two_empty_holes_win_nothing():
    # No. 4 and No. 5 (pits 3, 4) both empty: the player "licks" them and wins nothing,
    # not the hole opposite No. 5 (pit 9) nor the one opposite No. 3 (pit 11).
    pits = [2, 0, 0, 0, 0, 1, 1, 1, 2, 6, 1, 1, 1, 1]
    g, s = play(pits, 0)
    assert s == [lift(0, 2), drop(1), drop(2)]
    assert g.pits == [0, 1, 1, 0, 0, 1, 1, 1, 2, 6, 1, 1, 1, 1]
    assert g.stores == [0, 0]
    assert g.to_move == 1


def test_source_example_takes_7_at_both_ends():
    # Last stone in No. 5 (pit 4), No. 6 (pit 5) empty: A takes his No. 7 (pit 6) and the
    # hole at the other end facing it, B's No. 1 (pit 7).
    pits = [0, 0, 2, 0, 0, 0, 3, 5, 1, 1, 1, 1, 1, 1]
    g, s = play(pits, 2)
    assert s == [lift(2, 2), drop(3), drop(4), take(6, 3, S0), take(7, 5, S0)]
    assert g.stores == [8, 0]


# ----- sowing ------------------------------------------------------------------------

def test_sowing_goes_on_from_the_hole_after_the_last():
    # The last stone falls in pit 1 (which keeps it); pit 2 is lifted and sown on.
    pits = [1, 0, 2, 0, 0, 0, 2, 1, 1, 1, 1, 1, 1, 1]
    g, s = play(pits, 0)
    assert s == [lift(0, 1), drop(1), relay(2, 2), drop(3), drop(4), take(6, 2, S0), take(7, 1, S0)]
    assert g.pits == [0, 1, 0, 1, 1, 0, 0, 0, 1, 1, 1, 1, 1, 1]
    assert g.stores == [3, 0]


def test_first_move_from_the_start():
    # Worked by hand: A lifts pit 0 (5): drops 1-5, pit 6 lifted (5): drops 7-11, pit 12
    # lifted (5): drops 13, 0-3, pit 4 lifted (6): drops 5-10, pit 11 lifted (6): drops
    # 12, 13, 0-3; pit 4 is empty: A wins pit 5 (7) and pit 8 opposite it (7).
    g = mancala.Game("pandi")
    tr = g.play(0)
    assert steps(tr) == (
        [lift(0, 5)] + [drop(p) for p in (1, 2, 3, 4, 5)]
        + [relay(6, 5)] + [drop(p) for p in (7, 8, 9, 10, 11)]
        + [relay(12, 5)] + [drop(p) for p in (13, 0, 1, 2, 3)]
        + [relay(4, 6)] + [drop(p) for p in (5, 6, 7, 8, 9, 10)]
        + [relay(11, 6)] + [drop(p) for p in (12, 13, 0, 1, 2, 3)]
        + [take(5, 7, S0), take(8, 7, S0)])
    assert g.pits == [2, 8, 8, 8, 0, 0, 1, 7, 0, 7, 7, 0, 1, 7]
    assert g.stores == [14, 0]
    assert g.to_move == 1


def test_capture_on_the_opponents_side():
    pits = [0, 0, 0, 2, 0, 3, 0, 0, 0, 0, 2, 0, 0, 1]
    g, s = play(pits, 5)
    assert s == [lift(5, 3), drop(6), drop(7), drop(8), take(10, 2, S0), take(3, 2, S0)]
    assert g.stores == [4, 0]


def test_capture_with_an_empty_opposite_takes_the_hole_beyond_only():
    pits = [2, 0, 0, 0, 3, 1, 1, 1, 1, 0, 1, 1, 1, 1]
    g, s = play(pits, 0)
    assert s == [lift(0, 2), drop(1), drop(2), take(4, 3, S0)]


def test_the_emptied_hole_is_sown_on_a_long_lap():
    # 14 stones: one in every hole, the last back in the lifted hole (pit 3); pit 4 had 5,
    # now 6: lifted and sown on.
    pits = [0, 1, 0, 14, 5, 0, 0, 0, 0, 0, 1, 0, 0, 0]
    g, s = play(pits, 3)
    assert s[:16] == [lift(3, 14)] + [drop(p) for p in (4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 0, 1, 2, 3)] + [relay(4, 6)]


# ----- calves ------------------------------------------------------------------------

def test_calf_on_the_way_goes_to_the_owner_of_the_row():
    # A sows through B's pit 7 (3 -> 4): B's calf, at once; the sowing goes on.
    pits = [0, 0, 0, 0, 0, 3, 0, 3, 0, 0, 1, 0, 0, 0]
    g, s = play(pits, 5)
    assert s == [lift(5, 3), drop(6), drop(7), take(7, 4, S1), drop(8), take(10, 1, S0)]
    assert g.pits == [0, 0, 0, 0, 0, 0, 1, 0, 1, 0, 0, 0, 0, 0]
    assert g.stores == [1, 4]


def test_calf_made_by_the_last_stone_on_own_side():
    pits = [2, 0, 3, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1]
    g, s = play(pits, 0)
    assert s == [lift(0, 2), drop(1), drop(2), take(2, 4, S0)]
    assert g.stores == [4, 0]
    assert g.to_move == 1


def test_calf_made_by_the_last_stone_on_the_opponents_side_is_his():
    pits = [0, 0, 0, 0, 0, 0, 2, 0, 3, 0, 0, 0, 0, 1]
    g, s = play(pits, 6)
    assert s == [lift(6, 2), drop(7), drop(8), take(8, 4, S1)]
    assert g.stores == [0, 4]


def test_calf_in_bs_move_on_as_side_goes_to_a():
    pits = [3, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 2]
    g, s = play(pits, 13, to_move=1)
    assert s == [lift(13, 2), drop(0), take(0, 4, S0), drop(1)]
    assert g.pits == [0, 1, 0, 0, 0, 0, 1] + [0] * 7
    assert g.stores == [4, 0]
    assert g.to_move == 0


def test_calf_is_taken_before_the_next_stone_and_the_hole_is_sown_again():
    # 15 stones from pit 0: pit 1 becomes four at the first drop - a calf for A, taken at
    # once; the lap comes round, the 14th stone lands in pit 0 and the 15th in the now
    # empty pit 1.
    pits = [15, 3, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]
    g, s = play(pits, 0)
    assert s[:3] == [lift(0, 15), drop(1), take(1, 4, S0)]
    assert s[3:17] == [drop(p) for p in (2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 0, 1)]


def test_a_hole_already_holding_four_is_no_calf():
    pits = [1, 4, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1]
    g, s = play(pits, 0)
    assert s == [lift(0, 1), drop(1)]
    assert g.pits[1] == 5
    assert g.stores == [0, 0]


def test_a_hole_of_four_may_be_lifted():
    g = mancala.Game("pandi", pits=[4, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1])
    assert g.legal_moves() == [0]


# ----- the end ---------------------------------------------------------------------

def test_round_ends_when_the_player_to_move_has_nothing():
    pits = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0, 1]
    g, s = play(pits, 11, stores=(10, 20), to_move=1)
    # Pit 0 after the last stone is empty, pit 1 beyond it too: nothing won. A has no
    # stones: the round is over, B keeps the stones on her side.
    assert s == [lift(11, 2), drop(12), drop(13), take(12, 1, S1), take(13, 2, S1), END]
    out = g.outcome()
    assert out.scores == [10, 23]
    assert out.winner == 1
    assert "no stones" in out.reason
    assert g.legal_moves() == []


def test_round_can_be_won_by_player_0_and_drawn():
    pits = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0, 1]
    g, _ = play(pits, 11, stores=(40, 20), to_move=1)
    assert g.outcome().winner == 0
    g, _ = play(pits, 11, stores=(33, 30), to_move=1)
    assert g.outcome().scores == [33, 33]
    assert g.outcome().winner is None


# ----- options, notation, errors ------------------------------------------------------

def test_options():
    g = mancala.Game("pandi", pits_per_row=5, seeds=3)
    assert g.pits == [3] * 10
    assert g.legal_moves() == [0, 1, 2, 3, 4]
    with pytest.raises(mancala.PositionError):
        mancala.Game("pandi", seeds=0)
    # With three a hole, the first drop of the first move makes a calf.
    tr = g.play(0)
    assert steps(tr)[:3] == [lift(0, 3), drop(1), take(1, 4, 10)]


def test_notation_and_errors():
    g = mancala.Game("pandi")
    assert [g.move_name(m) for m in g.legal_moves()] == list("ABCDEFG")
    for m in g.legal_moves():
        assert g.parse_move(g.move_name(m)) == m
    with pytest.raises(mancala.IllegalMoveError, match="player 1"):
        g.play(7)
    g = mancala.Game("pandi", pits=[0, 1, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1])
    with pytest.raises(mancala.IllegalMoveError, match="empty"):
        g.play(0)
    with pytest.raises(mancala.NotationError):
        g.parse_move("Z")
