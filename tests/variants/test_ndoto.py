"""Ndoto (Kilinje): docs/variants/ndoto.md, source 004, 13 - KILINJE, NDOTO.

Board 2x8: player 0 owns pits 0..7, player 1 pits 8..15; pit i faces 15-i.
"""
import pytest

import mancala
from tracesteps import board, dropped as drops, kinds, relays, takes

STORE0, STORE1 = 16, 17


def test_start_position():
    g = mancala.Game("ndoto")
    assert g.pits == [2] * 16
    assert g.stores == [0, 0]
    assert g.legal_moves() == list(range(8))


def test_opening_from_the_left_end():
    g = mancala.Game("ndoto")
    trace = g.play(g.parse_move("A"))
    assert drops(trace) == [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 0, 1, 2, 3, 4, 5]
    assert relays(trace) == [(2, 3), (5, 3), (8, 3), (11, 3), (14, 3), (1, 4)]
    # The last seed falls into the emptied pit 5; pit 10 facing it holds three: captured.
    assert takes(trace) == [(10, 3, STORE0)]
    assert g.pits == board([1, 0, 1, 4, 4, 1, 3, 3], [0, 3, 0, 0, 3, 3, 0, 3])
    assert g.stores == [3, 0]
    assert g.to_move == 1


def test_capture_takes_the_facing_seeds_only_and_ends_the_turn():
    g = mancala.Game("ndoto", pits=board([2, 0, 1, 0, 0, 0, 0, 0], [1, 1, 0, 4, 0, 0, 0, 0]))
    trace = g.play(0)
    assert drops(trace) == [1, 2, 3, 4]
    assert relays(trace) == [(2, 2)]
    # Ends in pit 4 (empty, own): pit 11 facing it holds 4; the capturing seed stays.
    assert takes(trace) == [(11, 4, STORE0)]
    assert g.pits == board([0, 1, 0, 1, 1, 0, 0, 0], [1, 1, 0, 0, 0, 0, 0, 0])
    assert g.stores == [4, 0]
    assert g.to_move == 1


def test_no_capture_when_the_facing_pit_is_empty():
    g = mancala.Game("ndoto", pits=board([0, 2, 0, 0, 0, 0, 0, 0], [1, 0, 0, 0, 0, 0, 0, 0]))
    trace = g.play(1)
    assert drops(trace) == [2, 3]
    assert takes(trace) == []
    assert g.to_move == 1


def test_ending_in_the_opponents_empty_pit_captures_nothing():
    g = mancala.Game("ndoto", pits=board([0, 0, 0, 0, 0, 0, 2, 0], [1, 0, 0, 0, 0, 0, 3, 3]))
    trace = g.play(6)
    assert drops(trace) == [7, 8, 9, 10]
    assert relays(trace) == [(8, 2)]
    assert takes(trace) == []
    assert g.pits == board([0, 0, 0, 0, 0, 0, 0, 1], [0, 1, 1, 0, 0, 0, 3, 3])
    assert g.to_move == 1


def test_single_seed_only_into_an_empty_pit():
    g = mancala.Game("ndoto", pits=board([1, 2, 1, 0, 0, 0, 0, 1], [1, 1, 1, 2, 0, 1, 1, 1]))
    # Singles: pit 0 is followed by an occupied pit, pit 2 by an empty one, pit 7 by player 1's pit 8 (occupied).
    assert g.legal_moves() == [1, 2]
    with pytest.raises(mancala.IllegalMoveError) as e:
        g.play(0)
    assert "single" in str(e.value)


def test_single_seed_can_capture():
    g = mancala.Game("ndoto", pits=board([0, 0, 1, 0, 0, 0, 0, 0], [0, 0, 0, 0, 2, 0, 0, 2]))
    trace = g.play(2)
    assert drops(trace) == [3]
    assert takes(trace) == [(12, 2, STORE0)]      # pit 3 faces pit 12
    assert g.pits == board([0, 0, 0, 1, 0, 0, 0, 0], [0, 0, 0, 0, 0, 0, 0, 2])
    assert g.to_move == 1 and not g.is_over()


def test_single_seed_steps_over_to_the_opponents_empty_pit():
    g = mancala.Game("ndoto", pits=board([0, 0, 0, 0, 0, 0, 2, 1], [0, 0, 0, 0, 0, 0, 0, 3]))
    assert g.legal_moves() == [6, 7]
    trace = g.play(7)
    assert drops(trace) == [8]
    assert takes(trace) == []
    assert g.to_move == 1


def test_game_ends_when_the_player_to_move_cannot_move():
    # After player 0's move, player 1 holds only single seeds each followed by an
    # occupied pit (pit 15's next pit is player 0's pit 0): the game is over and each
    # keeps the seeds of his row.
    g = mancala.Game("ndoto", pits=board([1, 0, 0, 0, 0, 0, 2, 0], [0, 1, 1, 1, 1, 1, 1, 1]), stores=[10, 10])
    trace = g.play(6)
    assert drops(trace) == [7, 8]
    assert g.is_over()
    assert kinds(trace)[-1] == "end"
    assert sorted(takes(trace)) == [(0, 1, STORE0), (7, 1, STORE0)] + [(p, 1, STORE1) for p in range(8, 16)]
    assert g.outcome().scores == [12, 18]
    assert g.outcome().winner == 1


def test_game_ends_when_the_player_to_move_has_no_seeds():
    g = mancala.Game("ndoto", pits=board([0, 0, 0, 0, 1, 0, 0, 0], [0] * 8), stores=[15, 15])
    trace = g.play(4)
    assert drops(trace) == [5]
    assert takes(trace) == [(5, 1, STORE0)]         # no capture (pit 10 is empty); then the leftover
    assert g.is_over()
    assert g.outcome().scores == [16, 15]
    assert g.outcome().winner == 0


def test_an_empty_row_of_the_player_not_to_move_does_not_end_the_game():
    g = mancala.Game("ndoto", pits=board([0, 0, 0, 0, 0, 0, 0, 2], [0] * 8), stores=[15, 15])
    trace = g.play(7)
    assert drops(trace) == [8, 9]
    assert g.pits == board([0] * 8, [1, 1, 0, 0, 0, 0, 0, 0])
    assert not g.is_over()
    assert g.legal_moves() == [9]                  # 8 is followed by 9 (occupied); 9 by 10 (empty)


def test_illegal_moves_and_notation():
    g = mancala.Game("ndoto")
    with pytest.raises(mancala.IllegalMoveError):
        g.play(8)
    with pytest.raises(mancala.IllegalMoveError):
        g.play(16)
    assert [g.move_name(p) for p in (0, 7, 8, 15)] == ["A", "H", "a", "h"]
    for p in range(16):
        assert g.parse_move(g.move_name(p)) == p
    assert mancala.Game("Kilinje").id == "ndoto"
    with pytest.raises(mancala.RulesError):
        mancala.Game("ndoto", pits_per_row=10)
