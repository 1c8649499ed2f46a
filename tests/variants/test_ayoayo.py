"""Ayoayo: relay sowing until a last seed falls into an empty pit; capture of the opposite pit
when the move ends in the mover's own row.

Rules and decisions: docs/variants/ayoayo.md (source 003 · AYÒAYÒ).
Board: pits 0-5 player 0 (A-F = a1..f1), 6-11 player 1 (a-f = f2..a2); stores are cells 12, 13
(not sown: captures only).
"""
from functools import partial

import pytest

import mancala
from tracesteps import checked_play, dropped as drops, kinds, new_game, of_kind as lifts, takes

S0, S1 = 12, 13

game = partial(new_game, "ayoayo")
play = partial(checked_play, into=(S0, S1))   # Ayoayo takes seeds only into a store


# --- the source's worked example -------------------------------------------------------------

def test_source_relay_capture_example():
    # 003 · AYÒAYÒ "A capture example": before 214..1/3..2.[eEeexX] (top a2..f2 / bottom a1..f1).
    before = [3, 0, 0, 2, 0, 6, 1, 0, 0, 4, 1, 2]
    g = game(before, stores=[14, 15])
    trace = play(g, 5)  # f1
    assert kinds(trace) == ["lift"] + ["drop"] * 6 + ["relay"] + ["drop"] * 3 + ["take"]
    assert lifts(trace, "lift") == [(5, 6)]
    assert drops(trace) == [6, 7, 8, 9, 10, 11, 0, 1, 2]  # f2..a2, then a1, b1, c1
    assert lifts(trace, "relay") == [(11, 3)]  # a2 held 2: lift its 3
    assert takes(trace) == [(9, 5, S0)]  # c1 was empty: c2's five are taken
    # End: .2[eEeeee]112/41[eEeeex]2..
    assert g.pits == [4, 1, 1, 2, 0, 0, 2, 1, 1, 0, 2, 0]
    assert g.stores == [19, 15]
    assert g.to_move == 1


def test_source_example_first_lap_matches_second_diagram():
    # The middle diagram [eEexxx]25112/3..2.. is the board after the first six seeds; the seeds
    # dropped before the relay give exactly that row.
    before = [3, 0, 0, 2, 0, 6, 1, 0, 0, 4, 1, 2]
    g = game(before, stores=[14, 15])
    trace = g.play(5)
    cells = list(before)
    cells[5] = 0
    for s in trace:
        if s.kind == "relay":
            break
        if s.kind == "drop":
            cells[s.pit] += 1
    assert cells == [3, 0, 0, 2, 0, 0, 2, 1, 1, 5, 2, 3]


# --- start, moves, notation ------------------------------------------------------------------

def test_start_position():
    g = mancala.Game("ayoayo")
    assert g.pits == [4] * 12 and g.stores == [0, 0]
    assert g.to_move == 0 and g.players == 2 and g.phase == "play"
    assert sorted(g.legal_moves()) == [0, 1, 2, 3, 4, 5]


@pytest.mark.parametrize("move", [7, 2])
def test_illegal_moves(move):
    g = game([4, 4, 0, 4, 4, 4, 4, 4, 4, 4, 4, 4], stores=[4, 0])
    with pytest.raises(mancala.IllegalMoveError):
        g.play(move)  # 7: opponent's pit; 2: empty pit


def test_notation_round_trip():
    g = mancala.Game("ayoayo")
    assert [g.move_name(m) for m in sorted(g.legal_moves())] == ["A", "B", "C", "D", "E", "F"]
    for m in g.legal_moves():
        assert g.parse_move(g.move_name(m)) == m
    assert g.move_name(11) == "f" and g.parse_move("a") == 6


@pytest.mark.parametrize("name", ["Ayoayo", "Ayòayò", "ayo ayo", "AYO-AYO", "ayo_ayo"])
def test_aliases_resolve_to_ayoayo(name):
    # A relay shows it is Ayoayo: pit 3 -> 4 (held 1) -> relay 2 into 5, 6.
    g = mancala.Game(name, pits=[0, 0, 0, 1, 1, 0, 0, 0, 4, 4, 4, 4], stores=[15, 15], to_move=0)
    trace = g.play(3)
    assert lifts(trace, "relay") == [(4, 2)]


def test_plain_ayo_is_oware_not_ayoayo():
    g = mancala.Game("ayo", pits=[0, 0, 0, 1, 1, 0, 0, 0, 4, 4, 4, 4], stores=[15, 15], to_move=0)
    trace = g.play(3)
    assert lifts(trace, "relay") == []


def test_undo_restores():
    g = mancala.Game("ayoayo")
    g.play(0)
    g.play(6)
    g.undo()
    g.undo()
    assert g.pits == [4] * 12 and g.stores == [0, 0] and g.to_move == 0


# --- relay -----------------------------------------------------------------------------------

def test_relay_from_own_row_into_the_opponents():
    g = game([0, 0, 0, 1, 1, 0, 0, 0, 4, 4, 4, 4], stores=[15, 15])
    trace = play(g, 3)
    assert kinds(trace) == ["lift", "drop", "relay", "drop", "drop"]
    assert lifts(trace, "relay") == [(4, 2)]
    assert drops(trace) == [4, 5, 6]
    assert takes(trace) == []  # ended in the opponent's row: no capture
    assert g.pits == [0, 0, 0, 0, 0, 1, 1, 0, 4, 4, 4, 4]
    assert g.to_move == 1


def test_stop_in_empty_opponent_pit_captures_nothing():
    g = game([0, 0, 0, 0, 2, 0, 0, 0, 4, 4, 4, 4], stores=[15, 15])
    trace = play(g, 4)
    assert kinds(trace) == ["lift", "drop", "drop"]
    assert g.pits == [0, 0, 0, 0, 0, 1, 1, 0, 4, 4, 4, 4]
    assert g.stores == [15, 15]


# --- capture ---------------------------------------------------------------------------------

def test_capture_opposite_when_ending_in_own_row():
    g = game([0, 1, 0, 0, 0, 0, 0, 0, 0, 3, 0, 4], stores=[20, 20])
    trace = play(g, 1)
    assert takes(trace) == [(9, 3, S0)]
    assert g.pits == [0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 4]  # the last seed stays in pit 2
    assert g.stores == [23, 20]


def test_no_take_when_opposite_is_empty():
    g = game([0, 1, 0, 0, 0, 0, 4, 0, 0, 0, 4, 4], stores=[17, 18])
    trace = play(g, 1)
    assert kinds(trace) == ["lift", "drop"]
    assert g.pits[:3] == [0, 0, 1]
    assert g.stores == [17, 18]


def test_player_one_captures_into_own_store():
    # Player 1: pit 6 -> 7 (empty, his own): opposite pit 4 (5 seeds) is taken.
    g = game([1, 0, 0, 0, 5, 0, 1, 0, 0, 0, 0, 2], stores=[20, 19], to_move=1)
    trace = play(g, 6)
    assert takes(trace) == [(4, 5, S1)]
    assert g.pits == [1, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 2]
    assert g.stores == [20, 24]
    assert g.to_move == 0


# --- twelve or more: the origin is skipped ---------------------------------------------------

def test_twelve_seeds_skip_the_origin_then_relay():
    g = game([0, 0, 0, 0, 0, 12, 9, 0, 0, 0, 0, 0], stores=[13, 14])
    trace = play(g, 5)
    first = [6, 7, 8, 9, 10, 11, 0, 1, 2, 3, 4, 6]  # pit 5 jumped over
    relay = [7, 8, 9, 10, 11, 0, 1, 2, 3, 4, 5]  # the relay's 11 seeds end in the emptied pit 5
    assert drops(trace) == first + relay
    assert lifts(trace, "relay") == [(6, 11)]
    assert takes(trace) == []  # opposite of pit 5 is pit 6, emptied by the relay
    assert g.pits == [2, 2, 2, 2, 2, 1, 0, 2, 2, 2, 2, 2]


def test_a_relay_handful_skips_its_own_origin():
    # Decision 2: a relay of 12 from pit 5 skips pit 5 (not the move's first pit, 4).
    g = game([0, 0, 0, 0, 1, 11, 8, 0, 0, 0, 0, 0], stores=[14, 14])
    trace = play(g, 4)
    assert lifts(trace, "relay") == [(5, 12), (6, 10), (4, 2)]
    assert drops(trace) == ([5]
                            + [6, 7, 8, 9, 10, 11, 0, 1, 2, 3, 4, 6]
                            + [7, 8, 9, 10, 11, 0, 1, 2, 3, 4]
                            + [5, 6])
    assert takes(trace) == []  # ends in pit 6, the opponent's
    assert g.pits == [2, 2, 2, 2, 0, 1, 1, 2, 2, 2, 2, 2]


# --- end of the game -------------------------------------------------------------------------

def test_game_ends_when_player_to_move_has_no_seeds():
    g = game([0, 0, 0, 0, 0, 1, 0, 0, 1, 0, 0, 1], stores=[22, 23])
    play(g, 5)  # 5 -> 6: player 0's row is empty, but player 1 can move
    assert not g.is_over()
    assert g.to_move == 1
    trace = play(g, 8)  # 8 -> 9 (own, empty; opposite pit 2 is empty)
    assert kinds(trace)[-1] == "end"
    assert sorted(takes(trace)) == [(6, 1, S1), (9, 1, S1), (11, 1, S1)]
    assert g.pits == [0] * 12
    assert g.is_over()
    out = g.outcome()
    assert out.winner == 1 and out.scores == [22, 26]
    assert g.legal_moves() == []
