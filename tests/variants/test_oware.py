"""Oware: 2/3 captures on the opponent's row with a backward chain, origin skipped on 12+,
must feed, grand slam handled three ways.

Rules and decisions: docs/variants/oware.md (source 003 · OWARE).
Board: pits 0-5 player 0 (A-F = a1..f1), 6-11 player 1 (a-f = f2..a2); stores are cells 12, 13
(not sown: captures only).
"""
from functools import partial

import pytest

import mancala
from tracesteps import checked_play, dropped as drops, kinds, new_game, takes

S0, S1 = 12, 13

game = partial(new_game, "oware")
play = partial(checked_play, into=(S0, S1))   # Oware takes seeds only into a store


# --- the source's worked example -------------------------------------------------------------

def test_source_capture_example():
    # 003 · OWARE "A capture example": before 21.113/1.2.5[eEeexX] (top a2..f2 / bottom a1..f1).
    before = [1, 0, 2, 0, 5, 6, 3, 1, 1, 0, 1, 2]
    g = game(before, stores=[13, 13])
    trace = play(g, 5)  # f1
    assert kinds(trace) == ["lift"] + ["drop"] * 6 + ["take", "take"]
    assert (trace[0].pit, trace[0].count) == (5, 6)
    assert drops(trace) == [6, 7, 8, 9, 10, 11]  # f2, e2, d2, c2, b2, a2
    # a2 holds 3, then b2 holds 2; c2 (1) stops the chain: five seeds.
    assert takes(trace) == [(11, 3, S0), (10, 2, S0)]
    # After: ..1224/1.2.5.
    assert g.pits == [1, 0, 2, 0, 5, 0, 4, 2, 2, 1, 0, 0]
    assert g.stores == [18, 13]
    assert g.to_move == 1
    assert not g.is_over()


# --- start, moves, notation ------------------------------------------------------------------

def test_start_position():
    g = mancala.Game("oware")
    assert g.pits == [4] * 12
    assert g.stores == [0, 0]
    assert g.to_move == 0 and g.players == 2 and g.phase == "play"
    assert [g.owner(p) for p in range(12)] == [0] * 6 + [1] * 6
    assert sorted(g.legal_moves()) == [0, 1, 2, 3, 4, 5]


def test_plain_sowing_passes_the_turn():
    g = mancala.Game("oware")
    trace = play(g, 2)
    assert drops(trace) == [3, 4, 5, 6]
    assert takes(trace) == []
    assert g.pits == [4, 4, 0, 5, 5, 5, 5, 4, 4, 4, 4, 4]
    assert g.to_move == 1
    assert sorted(g.legal_moves()) == [6, 7, 8, 9, 10, 11]


@pytest.mark.parametrize("move", [6, 11])
def test_opponents_pit_is_illegal(move):
    g = mancala.Game("oware")
    with pytest.raises(mancala.IllegalMoveError):
        g.play(move)


def test_empty_pit_is_illegal():
    g = game([0, 3, 0, 0, 0, 0, 4, 4, 4, 4, 4, 4], stores=[11, 10])
    with pytest.raises(mancala.IllegalMoveError):
        g.play(0)
    assert g.pits == [0, 3, 0, 0, 0, 0, 4, 4, 4, 4, 4, 4]  # nothing changed


def test_notation_round_trip():
    g = mancala.Game("oware")
    assert g.move_name(0) == "A" and g.move_name(5) == "F"
    assert g.parse_move("F") == 5
    for m in g.legal_moves():
        assert g.parse_move(g.move_name(m)) == m
    g.play(0)
    assert g.move_name(6) == "a" and g.move_name(11) == "f"
    for m in g.legal_moves():
        assert g.parse_move(g.move_name(m)) == m
    with pytest.raises(ValueError):
        g.parse_move("Z")


@pytest.mark.parametrize("name", ["Wari", "AWELE", "awale", "Ayo", "Ourri", "O-ware", "wa_ri"])
def test_aliases_resolve_to_oware(name):
    # The grand_slam option only exists in Oware: a position with one non-grand-slam move shows it.
    g = mancala.Game(name, pits=[0, 0, 0, 3, 0, 2, 1, 1, 0, 0, 0, 0], stores=[20, 21],
                     to_move=0, grand_slam="illegal")
    assert g.legal_moves() == [3]


def test_unknown_name():
    with pytest.raises(mancala.UnknownVariantError):
        mancala.Game("owarex")


def test_undo_restores():
    g = mancala.Game("oware")
    g.play(5)
    g.play(8)
    assert g.undo() == 8
    assert g.undo() == 5
    assert g.pits == [4] * 12 and g.stores == [0, 0] and g.to_move == 0


# --- captures --------------------------------------------------------------------------------

def test_capture_making_two():
    # Last seed into pit 7 holding 1: 2 there; pit 6 holds 1 after the drop: chain stops.
    g = game([0, 0, 0, 0, 0, 2, 0, 1, 4, 4, 4, 4], stores=[14, 15])
    trace = play(g, 5)
    assert takes(trace) == [(7, 2, S0)]
    assert g.pits == [0, 0, 0, 0, 0, 0, 1, 0, 4, 4, 4, 4]
    assert g.stores == [16, 15]


def test_no_capture_making_four_or_one():
    g = game([0, 0, 0, 0, 0, 2, 0, 3, 4, 4, 4, 4], stores=[14, 13])
    trace = play(g, 5)
    assert takes(trace) == []
    assert g.pits[6:8] == [1, 4]
    g = game([0, 0, 0, 0, 0, 2, 1, 0, 4, 4, 4, 4], stores=[15, 14])
    trace = play(g, 5)
    assert takes(trace) == []
    assert g.pits[6:8] == [2, 1]  # a 2 that is not the last pit is not taken


def test_no_capture_in_own_row():
    # Pit 2 -> 3, 4; pit 4 then holds 2 but it is the mover's own pit.
    g = game([0, 0, 2, 1, 1, 0, 4, 4, 4, 4, 4, 4], stores=[10, 10])
    trace = play(g, 2)
    assert takes(trace) == []
    assert g.pits[:6] == [0, 0, 0, 2, 2, 0]
    assert g.stores == [10, 10]


def test_chain_backwards_stops_at_own_row():
    # Pit 4 (4 seeds) -> 5, 6, 7, 8: 6, 7, 8 hold 2, 3, 2 and are taken; pit 5 holds 2 but is
    # the mover's own: the chain stops there.
    g = game([0, 0, 0, 0, 4, 1, 1, 2, 1, 4, 0, 1], stores=[17, 17])
    trace = play(g, 4)
    assert takes(trace) == [(8, 2, S0), (7, 3, S0), (6, 2, S0)]
    assert g.pits == [0, 0, 0, 0, 0, 2, 0, 0, 0, 4, 0, 1]
    assert g.stores == [24, 17]


def test_chain_stops_at_other_count():
    # 6, 7, 8 become 2, 4, 3: 8 is taken, 7 (four) stops the chain, 6 is kept.
    # (Pit 0's seed keeps player 0's row from emptying: player 1 could not feed it.)
    g = game([1, 0, 0, 0, 0, 3, 1, 3, 2, 1, 0, 0], stores=[19, 18])
    trace = play(g, 5)
    assert takes(trace) == [(8, 3, S0)]
    assert g.pits == [1, 0, 0, 0, 0, 0, 2, 4, 0, 1, 0, 0]
    assert not g.is_over()


def test_player_one_captures_into_own_store():
    # Player 1 plays pit 11 (2 seeds) -> 0, 1: pit 1 holds 3, pit 0 holds 2: both taken.
    g = game([1, 2, 0, 4, 0, 0, 4, 0, 0, 0, 0, 2], stores=[17, 18], to_move=1)
    trace = play(g, 11)
    assert takes(trace) == [(1, 3, S1), (0, 2, S1)]
    assert g.pits == [0, 0, 0, 4, 0, 0, 4, 0, 0, 0, 0, 0]
    assert g.stores == [17, 23]
    assert g.to_move == 0


# --- sowing: the origin is skipped on 12+ ----------------------------------------------------

def test_twelve_seeds_skip_the_origin():
    g = game([12, 0, 0, 0, 0, 0, 3, 3, 3, 3, 3, 3], stores=[9, 9])
    trace = play(g, 0)
    assert drops(trace) == [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 1]  # pit 0 jumped over
    assert g.pits == [0, 2, 1, 1, 1, 1, 4, 4, 4, 4, 4, 4]
    assert takes(trace) == []


def test_eleven_seeds_do_not_reach_the_origin():
    g = game([11, 0, 0, 0, 0, 0, 3, 3, 3, 3, 3, 3], stores=[10, 9])
    trace = play(g, 0)
    assert drops(trace) == [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]
    assert g.pits[0] == 0


# --- feeding ---------------------------------------------------------------------------------

def test_must_feed_an_empty_opponent():
    # Player 1 has nothing; only pit 4 (3 seeds -> 5, 6, 7) reaches him.
    g = game([1, 0, 0, 0, 3, 0, 0, 0, 0, 0, 0, 0], stores=[22, 22])
    assert g.legal_moves() == [4]
    with pytest.raises(mancala.IllegalMoveError):
        g.play(0)
    play(g, 4)
    assert g.pits == [1, 0, 0, 0, 0, 1, 1, 1, 0, 0, 0, 0]
    assert not g.is_over()


def test_game_ends_when_feeding_is_impossible():
    # Player 1 sows his last seed into pit 0; player 0 (pits 0, 3, 4: one seed each) cannot reach
    # player 1's row: the game ends and player 0 takes the three seeds left.
    g = game([0, 0, 0, 1, 1, 0, 0, 0, 0, 0, 0, 1], stores=[20, 25], to_move=1)
    trace = play(g, 11)
    assert drops(trace) == [0]
    assert sorted(takes(trace)) == [(0, 1, S0), (3, 1, S0), (4, 1, S0)]
    assert kinds(trace)[-1] == "end"
    assert g.pits == [0] * 12
    assert g.stores == [23, 25]
    assert g.is_over()
    out = g.outcome()
    assert out.winner == 1 and out.scores == [23, 25]
    assert g.legal_moves() == []


def test_game_goes_on_while_feeding_is_possible():
    g = game([0, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 1], stores=[22, 23], to_move=1)
    play(g, 11)
    assert not g.is_over() and g.outcome() is None
    assert g.legal_moves() == [4]  # 4 -> 5, 6 feeds; pit 0 -> 1 does not


# --- grand slam ------------------------------------------------------------------------------

# Player 0: pit 3 (3 seeds) and pit 5 (2 seeds); player 1: pits 6 and 7, one seed each.
# Pit 5 -> 6, 7 makes 2 and 2: taking both would leave player 1 nothing (a grand slam).
SLAM = [0, 0, 0, 3, 0, 2, 1, 1, 0, 0, 0, 0]


def test_grand_slam_default_is_no_capture():
    g = game(SLAM, stores=[20, 21])
    assert sorted(g.legal_moves()) == [3, 5]
    trace = play(g, 5)
    assert takes(trace) == []
    assert g.pits == [0, 0, 0, 3, 0, 0, 2, 2, 0, 0, 0, 0]
    assert g.stores == [20, 21]
    assert g.to_move == 1


def test_grand_slam_no_capture_named_explicitly():
    g = game(SLAM, stores=[20, 21], grand_slam="no-capture")
    trace = play(g, 5)
    assert takes(trace) == []
    assert g.stores == [20, 21]


def test_grand_slam_illegal():
    g = game(SLAM, stores=[20, 21], grand_slam="illegal")
    assert g.legal_moves() == [3]
    with pytest.raises(mancala.IllegalMoveError):
        g.play(5)
    # The other move captures normally: 3 -> 4, 5, 6 makes 2 in pit 6 (pit 7 keeps one seed).
    trace = play(g, 3)
    assert takes(trace) == [(6, 2, S0)]
    assert g.pits == [0, 0, 0, 0, 1, 3, 0, 1, 0, 0, 0, 0]


def test_grand_slam_illegal_when_every_move_is_one_captures_nothing():
    # Both moves (E: 3 seeds, F: 2 seeds) would take pits a and b, all the opponent has.
    # Player 0 keeps seeds after F, so the opponent need not be fed and play goes on.
    g = game([0, 0, 0, 0, 3, 2, 1, 1, 0, 0, 0, 0], stores=[20, 21], grand_slam="illegal")
    assert g.legal_moves() == [4, 5]
    trace = play(g, 5)
    assert takes(trace) == []
    assert g.pits == [0, 0, 0, 0, 3, 0, 2, 2, 0, 0, 0, 0]
    assert not g.is_over()


def test_grand_slam_sow_again():
    # SLAM plus one seed in pit 0, which cannot reach player 1's row.
    g = game([1, 0, 0, 3, 0, 2, 1, 1, 0, 0, 0, 0], stores=[20, 20], grand_slam="sow-again")
    assert sorted(g.legal_moves()) == [0, 3, 5]
    trace = play(g, 5)
    assert takes(trace) == [(7, 2, S0), (6, 2, S0)]
    assert kinds(trace)[-1] == "extra_turn"
    assert g.stores == [24, 20]
    assert g.to_move == 0
    assert g.legal_moves() == [3]  # the second sowing must reach the emptied row
    with pytest.raises(mancala.IllegalMoveError):
        g.play(0)
    trace = play(g, 3)
    assert drops(trace) == [4, 5, 6]
    assert takes(trace) == []
    assert g.pits == [1, 0, 0, 0, 1, 1, 1, 0, 0, 0, 0, 0]
    assert g.to_move == 1


def test_grand_slam_sow_again_without_a_feeding_move_ends_the_game():
    g = game([1, 0, 0, 0, 0, 2, 1, 1, 0, 0, 0, 0], stores=[21, 22], grand_slam="sow-again")
    trace = play(g, 5)
    assert takes(trace)[:2] == [(7, 2, S0), (6, 2, S0)]
    assert takes(trace)[2:] == [(0, 1, S0)]  # the mover collects what is left
    assert kinds(trace)[-1] == "end"
    assert g.is_over()
    assert g.stores == [26, 22]
    assert g.outcome().winner == 0


def test_grand_slam_bad_value():
    with pytest.raises(ValueError):
        mancala.Game("oware", grand_slam="maybe")
