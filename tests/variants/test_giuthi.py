"""Giuthi (Gayothe), Count and Capture: docs/variants/giuthi.md, source 000 GIUTHI (Gayothe).

Default board 2x6: player 0 owns pits 0..5, player 1 pits 6..11; pit i faces 11-i.
"""
import pytest

import mancala
from tracesteps import board, dropped as drops, kinds, relays, takes

STORE0, STORE1 = 12, 13


def test_start_position_and_moves_need_a_direction():
    g = mancala.Game("giuthi")
    assert g.pits == [6] * 12
    assert g.stores == [0, 0]
    moves = g.legal_moves()
    assert sorted(moves) == sorted([(p, d) for p in range(6) for d in (1, -1)])
    with pytest.raises(mancala.IllegalMoveError):
        g.play(0)                                 # no direction given
    with pytest.raises(mancala.IllegalMoveError):
        g.play((0, 2))


def test_single_seed_never_starts_a_move():
    g = mancala.Game("giuthi", pits=board([1, 3, 0, 0, 0, 0], [2] * 6))
    assert sorted(g.legal_moves()) == [(1, -1), (1, 1)]
    with pytest.raises(mancala.IllegalMoveError):
        g.play((0, 1))


def test_relay_turns_round_and_ending_home_before_crossing_moves_again():
    g = mancala.Game("giuthi", pits=board([0, 0, 2, 0, 1, 0], [3] * 6))
    trace = g.play((2, 1))
    assert drops(trace) == [3, 4, 3, 2]          # out to the right, back to the left
    assert relays(trace) == [(4, 2)]
    # The last seed fell into the emptied pit 2 without ever crossing: no capture
    # (pit 9 opposite holds seeds), and player 0 moves again.
    assert takes(trace) == []
    assert kinds(trace)[-1] == "extra_turn"
    assert g.to_move == 0
    assert g.pits == board([0, 0, 1, 2, 0, 0], [3] * 6)


def test_crossed_and_ending_in_opponents_empty_pit_ends_the_turn():
    g = mancala.Game("giuthi", pits=board([2, 0, 0, 0, 0, 2], [0, 0, 0, 0, 0, 2]))
    trace = g.play((5, 1))
    assert drops(trace) == [6, 7]
    assert takes(trace) == []
    assert kinds(trace)[-1] == "drop"
    assert g.to_move == 1


def test_capture_after_crossing_with_string_stopped_by_empty_facing_pit():
    # Clockwise from pit 0 straight into the opponent's row, relay from pit 8
    # counter-clockwise back home: the last seed ends in pit 1 (empty).
    g = mancala.Game("giuthi", pits=board([4, 0, 0, 0, 5, 5], [2, 2, 4, 1, 1, 1]))
    trace = g.play((0, -1))
    assert drops(trace) == [11, 10, 9, 8, 9, 10, 11, 0, 1]
    assert relays(trace) == [(8, 5)]
    # pit 1's seed, then its facing pit 10, then pit 2's facing pit 9;
    # pit 3 is empty but its facing pit 8 was just lifted: the string stops.
    assert takes(trace) == [(1, 1, STORE0), (10, 3, STORE0), (9, 3, STORE0)]
    assert g.pits == board([1, 0, 0, 0, 5, 5], [2, 2, 0, 0, 0, 3])
    assert g.stores == [7, 0]
    assert g.to_move == 1


def test_string_stopped_by_own_occupied_pit():
    g = mancala.Game("giuthi", pits=board([4, 0, 1, 0, 5, 5], [2, 2, 4, 1, 1, 1]))
    trace = g.play((0, -1))
    assert takes(trace) == [(1, 1, STORE0), (10, 3, STORE0)]
    assert g.pits == board([1, 0, 1, 0, 5, 5], [2, 2, 0, 3, 0, 3])
    assert g.stores == [4, 0]


def test_string_follows_the_last_handfuls_direction_to_the_end_of_the_row():
    # Out counter-clockwise from pit 4, relay from pit 7 clockwise back into the
    # row: the string runs on clockwise through pits 2, 1, 0 to the end of the row.
    g = mancala.Game("giuthi", pits=board([0, 0, 0, 0, 3, 1], [1, 3, 3, 2, 2, 2]))
    trace = g.play((4, 1))
    assert drops(trace) == [5, 6, 7, 6, 5, 4, 3]
    assert relays(trace) == [(7, 4)]
    assert takes(trace) == [(3, 1, STORE0), (8, 3, STORE0), (9, 2, STORE0), (10, 2, STORE0), (11, 2, STORE0)]
    assert g.pits == board([0, 0, 0, 0, 1, 3], [3, 0, 0, 0, 0, 0])
    assert g.stores == [10, 0]
    assert g.to_move == 1


def test_no_capture_when_the_facing_pit_is_empty():
    g = mancala.Game("giuthi", pits=board([0, 0, 0, 0, 3, 1], [1, 3, 0, 2, 2, 2]))
    trace = g.play((4, 1))
    assert drops(trace) == [5, 6, 7, 6, 5, 4, 3]
    assert takes(trace) == []
    assert g.pits == board([0, 0, 0, 1, 1, 3], [3, 0, 0, 2, 2, 2])
    assert g.stores == [0, 0]
    assert g.to_move == 1


def test_player_without_a_pit_of_two_passes():
    g = mancala.Game("giuthi", pits=board([3, 0, 0, 0, 0, 2], [0, 0, 1, 1, 1, 1]))
    trace = g.play((5, 1))
    assert drops(trace) == [6, 7]
    assert kinds(trace)[-1] == "pass"
    assert g.to_move == 0
    assert not g.is_over()
    assert sorted(g.legal_moves()) == [(0, -1), (0, 1)]


def test_player_with_no_seeds_does_not_end_the_game():
    g = mancala.Game("giuthi", pits=board([0, 0, 0, 0, 0, 2], [0, 0, 3, 0, 0, 0]))
    g.play((5, 1))
    assert g.pits == board([0] * 6, [1, 1, 3, 0, 0, 0])
    assert not g.is_over()
    assert g.to_move == 1


def test_game_ends_when_neither_player_can_move():
    g = mancala.Game("giuthi", pits=board([0, 0, 0, 0, 0, 2], [0, 0, 1, 1, 1, 1]), stores=[30, 30])
    trace = g.play((5, 1))
    assert g.is_over()
    assert kinds(trace)[-1] == "end"
    # Every single seed goes to the owner of its row.
    assert sorted(takes(trace)) == [(p, 1, STORE1) for p in range(6, 12)]
    assert g.pits == [0] * 12
    assert g.outcome().scores == [30, 36]
    assert g.outcome().winner == 1
    assert g.legal_moves() == []


def test_undo_after_a_capture():
    start = board([4, 0, 0, 0, 5, 5], [2, 2, 4, 1, 1, 1])
    g = mancala.Game("giuthi", pits=start)
    g.play((0, -1))
    assert g.undo() == (0, -1)
    assert g.pits == start and g.stores == [0, 0] and g.to_move == 0


def test_options_beginners_board_and_seeds():
    g = mancala.Game("giuthi", pits_per_row=4, seeds=4)
    assert g.pits == [4] * 8
    assert len(g.legal_moves()) == 8
    assert mancala.Game("giuthi", seeds=9).pits == [9] * 12
    for bad in ({"seeds": 3}, {"seeds": 10}, {"pits_per_row": 5}, {"colour": "red"}):
        with pytest.raises(mancala.RulesError):
            mancala.Game("giuthi", **bad)


def test_capture_on_beginners_board():
    # 2x4: player 0 owns 0..3, player 1 owns 4..7, pit i faces 7-i.
    g = mancala.Game("giuthi", pits_per_row=4, seeds=4, pits=[2, 0, 0, 0, 1, 2, 0, 0])
    trace = g.play((0, -1))
    assert drops(trace) == [7, 6]
    assert takes(trace) == []                    # ended in the opponent's empty pit 6
    g = mancala.Game("giuthi", pits_per_row=4, seeds=4, pits=[2, 0, 0, 2, 1, 1, 0, 3])
    trace = g.play((3, 1))
    assert drops(trace) == [4, 5, 4, 3]
    assert relays(trace) == [(5, 2)]
    assert takes(trace) == [(3, 1, 8), (4, 3, 8)]   # the string stops: pit 2 faces the lifted pit 5
    assert g.pits == [2, 0, 0, 0, 0, 0, 0, 3]
    assert g.stores == [4, 0]


def test_names_and_notation():
    assert mancala.Game("Gayothe").id == "giuthi"
    g = mancala.Game("giuthi")
    assert g.parse_move("C+") == (2, 1)
    assert g.parse_move("C-") == (2, -1)
    assert g.move_name((6, -1)) == "a-"
    for m in g.legal_moves():
        assert g.parse_move(g.move_name(m)) == m
    with pytest.raises(mancala.NotationError):
        g.parse_move("C")
