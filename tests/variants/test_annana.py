"""Annana (Djamo, Kale): docs/variants/annana.md, source 001 (Wagner 1916), Annana.

Wagner's holes: b-1..b-6 are pits 0..5 (Q, player 0), a-6..a-1 are pits 6..11 (P, player 1).
"""
import pytest

import mancala
from tracesteps import board, dropped as drops, kinds, relays, takes

STORE0, STORE1 = 12, 13


AFTER_RECORD_MOVE_1 = [0, 1, 6, 6, 2, 7, 1, 6, 1, 6, 6, 6]


def test_start_position():
    g = mancala.Game("annana")
    assert g.pits == [4] * 12
    assert g.stores == [0, 0]
    assert g.to_move == 0
    assert g.legal_moves() == [0, 1, 2, 3, 4, 5]


# ----- the record (Fig. 8) ---------------------------------------------------

def test_record_move_1_q_opens_from_b5():
    g = mancala.Game("annana")
    move = g.parse_move("E")                      # b-5
    assert move == 4
    trace = g.play(move)
    steps = list(trace)
    assert (steps[0].kind, steps[0].pit, steps[0].count) == ("lift", 4, 4)
    # b-6 a-6 a-5 a-4 | a-3 a-2 a-1 b-1 b-2 | b-3 b-4 b-5 b-6 a-6 | a-5 .. b-1 | b-2 .. a-6
    assert drops(trace) == [5, 6, 7, 8, 9, 10, 11, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 0, 1, 2, 3, 4, 5, 6]
    assert relays(trace) == [(8, 5), (1, 5), (6, 6), (0, 6)]
    assert takes(trace) == []
    assert g.pits == AFTER_RECORD_MOVE_1
    assert g.stores == [0, 0]
    assert g.to_move == 1


def test_record_literal_reading_contradicts_rules():
    """The record ends Q's move in a-6 after three laps, calling it empty; it holds six there."""
    g = mancala.Game("annana")
    trace = g.play(4)
    cells = [4] * 12
    laps_done = 0
    for s in trace:
        if s.kind in ("lift", "relay"):
            if laps_done == 3:
                break
            cells[s.pit] = 0
            laps_done += 1
        elif s.kind == "drop":
            cells[s.pit] += 1
    # After the three recorded laps the last seed is in a-6 (pit 6), which holds 6: not empty,
    # so the rules make Q relay it - as the engine does (relay (6, 6) above).
    assert cells[6] == 6
    assert relays(trace)[2] == (6, 6)
    # The literal three-lap position would give P five seeds in a-1, six in b-6 and none in b-2,
    # yet the record has P lift six from a-1, then eight from b-6, then three from b-2.
    assert cells[11] == 5 and cells[5] == 6 and cells[1] == 0
    assert g.pits[11] == 6 and g.pits[5] == 7 and g.pits[1] == 1


def test_record_move_2_p_captures_four_in_b5():
    g = mancala.Game("annana", pits=AFTER_RECORD_MOVE_1, stores=[0, 0], to_move=1)
    move = g.parse_move("f")                      # a-1
    assert move == 11
    trace = g.play(move)
    steps = list(trace)
    assert (steps[0].kind, steps[0].pit, steps[0].count) == ("lift", 11, 6)
    assert drops(trace) == [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 0, 1, 2, 3, 4]
    assert relays(trace) == [(5, 8), (1, 3)]      # eight from b-6, three from b-2
    assert takes(trace) == [(4, 4, STORE1)]       # four in b-5, on Q's row, go to P
    assert kinds(trace)[-1] == "take"
    assert g.pits == [2, 0, 8, 8, 0, 0, 2, 7, 2, 7, 7, 1]
    assert g.stores == [0, 4]
    assert g.to_move == 0


def test_record_replayed_from_the_start_and_undone():
    g = mancala.Game("annana")
    g.play(4)
    g.play(11)
    assert g.stores == [0, 4]
    assert g.undo() == 11
    assert g.pits == AFTER_RECORD_MOVE_1 and g.to_move == 1
    assert g.undo() == 4
    assert g.pits == [4] * 12 and g.to_move == 0


# ----- rules -----------------------------------------------------------------

def test_relay_on_occupied_hole_and_stop_on_empty_hole():
    g = mancala.Game("annana", pits=board([2, 0, 1, 0, 0, 0], [0, 0, 0, 0, 0, 1]))
    trace = g.play(0)
    assert drops(trace) == [1, 2, 3, 4]
    assert relays(trace) == [(2, 2)]
    assert g.pits == board([0, 1, 0, 1, 1, 0], [0, 0, 0, 0, 0, 1])
    assert g.to_move == 1


def test_relay_from_the_opponents_row():
    g = mancala.Game("annana", pits=board([0, 0, 0, 0, 0, 1], [1, 0, 0, 0, 0, 0]))
    trace = g.play(5)
    assert relays(trace) == [(6, 2)]
    assert drops(trace) == [6, 7, 8]
    assert g.pits == board([0, 0, 0, 0, 0, 0], [0, 1, 1, 0, 0, 0])


def test_last_seed_making_four_on_opponents_row_goes_to_mover():
    g = mancala.Game("annana", pits=board([1, 0, 0, 0, 0, 2], [0, 3, 0, 0, 0, 1]))
    trace = g.play(5)
    assert drops(trace) == [6, 7]
    assert takes(trace) == [(7, 4, STORE0)]
    assert relays(trace) == []
    assert g.pits == board([1, 0, 0, 0, 0, 0], [1, 0, 0, 0, 0, 1])
    assert g.stores == [4, 0]
    assert g.to_move == 1


def test_last_seed_making_four_on_own_row_goes_to_mover():
    g = mancala.Game("annana", pits=board([1, 3, 0, 0, 0, 0], [0, 0, 0, 0, 0, 2]), to_move=0)
    trace = g.play(0)
    assert takes(trace) == [(1, 4, STORE0)]
    assert g.stores == [4, 0]


def test_last_seed_making_five_relays():
    g = mancala.Game("annana", pits=board([1, 4, 0, 0, 0, 0], [0, 0, 0, 0, 0, 2]))
    trace = g.play(0)
    assert takes(trace) == []
    assert relays(trace) == [(1, 5)]
    assert drops(trace) == [1, 2, 3, 4, 5, 6]
    assert g.pits == board([0, 0, 1, 1, 1, 1], [1, 0, 0, 0, 0, 2])


def test_four_on_the_way_in_own_row_goes_to_mover():
    g = mancala.Game("annana", pits=board([3, 3, 0, 0, 0, 0], [0, 0, 0, 0, 0, 1]))
    trace = g.play(0)
    assert drops(trace) == [1, 2, 3]
    assert takes(trace) == [(1, 4, STORE0)]
    assert g.pits == board([0, 0, 1, 1, 0, 0], [0, 0, 0, 0, 0, 1])
    assert g.stores == [4, 0]
    assert g.to_move == 1


def test_four_on_the_way_in_opponents_row_goes_to_opponent():
    g = mancala.Game("annana", pits=board([0, 0, 0, 0, 3, 0], [3, 0, 0, 0, 0, 0]))
    trace = g.play(4)
    assert drops(trace) == [5, 6, 7]
    assert takes(trace) == [(6, 4, STORE1)]
    assert g.pits == board([0, 0, 0, 0, 0, 1], [0, 1, 0, 0, 0, 0])
    assert g.stores == [0, 4]
    assert g.to_move == 1


def test_four_on_the_way_is_taken_at_once_and_origin_is_not_skipped():
    # 17 seeds from pit 0: pit 5 reaches four with the 5th seed and is taken at once;
    # the 12th seed falls into the emptied origin; the 17th into pit 5, empty again: the move ends.
    g = mancala.Game("annana", pits=board([17, 0, 0, 0, 0, 3], [0] * 6))
    trace = g.play(0)
    assert drops(trace) == [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 0, 1, 2, 3, 4, 5]
    assert takes(trace) == [(5, 4, STORE0)]
    steps = [(s.kind, s.pit) for s in trace]
    assert steps.index(("take", 5)) == steps.index(("drop", 5)) + 1
    assert g.pits == board([1, 2, 2, 2, 2, 1], [1] * 6)
    assert g.stores == [4, 0]


def test_twelve_seeds_come_back_to_the_origin():
    g = mancala.Game("annana", pits=board([12, 0, 0, 0, 0, 0], [0] * 6))
    trace = g.play(0)
    assert drops(trace) == [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 0]
    assert g.pits == [1] * 12


def test_single_seed_may_start_a_move():
    g = mancala.Game("annana", pits=board([1, 0, 0, 5, 0, 0], [4] * 6))
    assert g.legal_moves() == [0, 3]
    g.play(0)
    assert g.pits[:2] == [0, 1]


def test_player_with_empty_row_passes():
    g = mancala.Game("annana", pits=board([1, 0, 0, 2, 0, 0], [0] * 6))
    trace = g.play(0)
    assert kinds(trace)[-1] == "pass"
    assert g.to_move == 0
    assert not g.is_over()
    assert g.legal_moves() == [1, 3]


def test_game_ends_when_the_board_is_cleared_draw():
    g = mancala.Game("annana", pits=board([1, 3, 0, 0, 0, 0], [0] * 6), stores=[20, 24])
    trace = g.play(0)
    assert takes(trace) == [(1, 4, STORE0)]
    assert kinds(trace)[-1] == "end"
    assert g.is_over()
    out = g.outcome()
    assert out.scores == [24, 24]
    assert out.winner is None
    assert g.legal_moves() == []


def test_game_ends_when_the_board_is_cleared_winner():
    g = mancala.Game("annana", pits=board([0] * 6, [0, 0, 0, 0, 1, 3]), stores=[16, 28], to_move=1)
    trace = g.play(10)
    assert takes(trace) == [(11, 4, STORE1)]
    assert g.is_over()
    assert g.outcome().scores == [16, 32]
    assert g.outcome().winner == 1


def test_illegal_moves():
    g = mancala.Game("annana", pits=board([0, 2, 0, 0, 0, 0], [4] * 6))
    with pytest.raises(mancala.IllegalMoveError):
        g.play(0)                                # empty
    with pytest.raises(mancala.IllegalMoveError):
        g.play(7)                                # the opponent's
    with pytest.raises(mancala.IllegalMoveError):
        g.play(12)                               # not a pit
    with pytest.raises(mancala.IllegalMoveError):
        g.play((1, 1))                           # no direction in Annana


def test_names_and_aliases():
    for name in ("annana", "Annana", "Djamo", "kale", "Djamo Poo Kale", "djamo-poo-kale"):
        assert mancala.Game(name).id == "annana"
    info = mancala.variant_info("annana")
    assert (info["rows"], info["pits_per_row"], info["stores_sown"]) == (2, 6, False)


def test_no_options():
    with pytest.raises(mancala.RulesError):
        mancala.Game("annana", seeds=5)


def test_notation_round_trip():
    g = mancala.Game("annana")
    names = [g.move_name(p) for p in range(12)]
    assert names == ["A", "B", "C", "D", "E", "F", "a", "b", "c", "d", "e", "f"]
    for p in range(12):
        assert g.parse_move(g.move_name(p)) == p
    with pytest.raises(mancala.NotationError):
        g.parse_move("G")
