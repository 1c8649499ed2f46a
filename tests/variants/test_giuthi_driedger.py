"""Giuthi as Driedger tells it: docs/variants/giuthi-driedger.md, source 004, 12 - KIKUYU, GIUTHI.

Default board 2x8: player 0 owns pits 0..7, player 1 pits 8..15; pit i faces 15-i.
"""
import pytest

import mancala
from tracesteps import board, dropped as drops, kinds, relays, takes

STORE0, STORE1 = 16, 17


def test_default_board_is_two_rows_of_eight_with_six():
    g = mancala.Game("giuthi-driedger")
    assert g.pits == [6] * 16
    assert len(g.legal_moves()) == 16
    info = mancala.variant_info("giuthi-driedger")
    assert (info["rows"], info["pits_per_row"]) == (2, 8)


def test_board_and_seed_options():
    assert mancala.Game("giuthi-driedger", pits_per_row=7).pits == [6] * 14      # the source's diagram
    assert mancala.Game("giuthi-driedger", pits_per_row=5, seeds=4).pits == [4] * 10
    assert mancala.Game("giuthi-driedger", pits_per_row=10, seeds=9).pits == [9] * 20
    for bad in ({"pits_per_row": 4}, {"pits_per_row": 11}, {"seeds": 3}, {"seeds": 10}):
        with pytest.raises(mancala.RulesError):
            mancala.Game("giuthi-driedger", **bad)


def test_about_turn_capture_and_string_on_the_default_board():
    g = mancala.Game("giuthi-driedger", pits=board([0, 0, 0, 0, 0, 0, 3, 1], [1, 3, 3, 2, 2, 2, 2, 2]))
    trace = g.play((6, 1))
    assert drops(trace) == [7, 8, 9, 8, 7, 6, 5]
    assert relays(trace) == [(9, 4)]
    assert takes(trace) == [(5, 1, STORE0), (10, 3, STORE0), (11, 2, STORE0), (12, 2, STORE0),
                            (13, 2, STORE0), (14, 2, STORE0), (15, 2, STORE0)]
    assert g.pits == board([0, 0, 0, 0, 0, 0, 1, 3], [3, 0, 0, 0, 0, 0, 0, 0])
    assert g.stores == [14, 0]
    assert g.to_move == 1
    assert not g.is_over()


def test_empty_pit_before_crossing_gives_another_turn():
    g = mancala.Game("giuthi-driedger", pits=board([0, 0, 2, 0, 1, 0, 0, 0], [3] * 8))
    trace = g.play((2, 1))
    assert drops(trace) == [3, 4, 3, 2]
    assert takes(trace) == []
    assert kinds(trace)[-1] == "extra_turn"
    assert g.to_move == 0


def test_game_over_when_movers_row_is_empty():
    g = mancala.Game("giuthi-driedger", pits=board([0] * 7 + [2], [0, 0, 0, 0, 3, 0, 0, 0]), stores=[40, 40])
    trace = g.play((7, 1))
    assert drops(trace) == [8, 9]
    assert g.is_over()
    assert g.outcome().reason == "empty row"
    assert sorted(takes(trace)) == [(8, 1, STORE1), (9, 1, STORE1), (12, 3, STORE1)]
    assert kinds(trace)[-1] == "end"
    assert g.outcome().scores == [40, 45]
    assert g.outcome().winner == 1


def test_same_position_goes_on_in_the_count_and_capture_rules():
    # The counterpart: in giuthi (source 000) a player with no seeds just cannot move.
    g = mancala.Game("giuthi", pits_per_row=6, pits=board([0] * 5 + [2], [0, 0, 0, 3, 0, 0]))
    g.play((5, 1))
    assert not g.is_over()
    g = mancala.Game("giuthi-driedger", pits_per_row=6, pits=board([0] * 5 + [2], [0, 0, 0, 3, 0, 0]))
    g.play((5, 1))
    assert g.is_over()


def test_game_over_when_a_capture_empties_the_opponents_row():
    g = mancala.Game("giuthi-driedger", pits=board([4, 0, 0, 0, 0, 0, 0, 2], [0, 1, 0, 0, 0, 0, 0, 0]), stores=[40, 40])
    trace = g.play((7, 1))
    assert drops(trace) == [8, 9, 8, 7]
    assert relays(trace) == [(9, 2)]
    assert takes(trace) == [(7, 1, STORE0), (8, 2, STORE0), (0, 4, STORE0)]   # capture, then leftovers
    assert g.is_over()
    assert g.outcome().scores == [47, 40]
    assert g.outcome().winner == 0


def test_only_single_stones_loses_the_turn():
    g = mancala.Game("giuthi-driedger", pits=board([3, 0, 0, 0, 0, 0, 0, 2], [0, 0, 1, 1, 1, 1, 1, 1]))
    trace = g.play((7, 1))
    assert kinds(trace)[-1] == "pass"
    assert g.to_move == 0
    assert not g.is_over()


def test_neither_player_can_move_ends_the_game():
    g = mancala.Game("giuthi-driedger", pits=board([1, 0, 0, 0, 0, 0, 0, 2], [0, 0, 1, 1, 1, 1, 1, 1]), stores=[30, 30])
    trace = g.play((7, 1))
    assert g.is_over()
    assert kinds(trace)[-1] == "end"
    assert g.outcome().scores == [31, 38]


def test_single_stone_never_starts():
    g = mancala.Game("giuthi-driedger", pits=board([1, 0, 0, 0, 0, 0, 0, 2], [2] * 8))
    assert sorted(g.legal_moves()) == [(7, -1), (7, 1)]
    with pytest.raises(mancala.IllegalMoveError):
        g.play((0, 1))


def test_names_and_notation():
    for name in ("giuthi-driedger", "Kikuyu", "kikuyu giuthi", "Giuthi (Driedger)"):
        assert mancala.Game(name).id == "giuthi-driedger"
    g = mancala.Game("kikuyu")
    assert g.parse_move("H+") == (7, 1)
    assert g.move_name((15, -1)) == "h-"
    for m in g.legal_moves():
        assert g.parse_move(g.move_name(m)) == m
