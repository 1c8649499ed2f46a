"""Kalah: own store sown, extra turn in the store, capture from an own empty pit.

Rules and decisions: docs/variants/kalah.md (source 003 · KALAH).
Board (6 pits per row): pits 0-5 player 0 (A-F = b1..g1), 6-11 player 1 (a-f = g2..b2);
player 0's store is cell 12 (between pits 5 and 6), player 1's cell 13 (between 11 and 0).
"""
from functools import partial

import pytest

import mancala
from tracesteps import checked_play, dropped as drops, kinds, new_game, takes

S0, S1 = 12, 13

game = partial(new_game, "kalah")
play = partial(checked_play, into=(S0, S1))   # Kalah takes seeds only into a store


# --- the source's worked example -------------------------------------------------------------

def test_source_move_sequence():
    # 003 · KALAH "A move sequence example", first diagram:
    # [EEEEEE]43..15z/z..[Eexxxx].[eexxxX].[EEEEEE]  (2x8 grid; b1..g1 = pits 0-5, g2..b2 = 6-11)
    g = game([0, 0, 4, 0, 8, 0, 5, 1, 0, 0, 3, 4], stores=[12, 11])

    trace = play(g, 2)  # d1: e1, f1, g1, own store
    assert (trace[0].kind, trace[0].pit, trace[0].count) == ("lift", 2, 4)
    assert drops(trace) == [3, 4, 5, S0]
    assert kinds(trace)[-1] == "extra_turn"
    assert g.to_move == 0
    assert g.pits == [0, 0, 0, 1, 9, 1, 5, 1, 0, 0, 3, 4]  # second diagram
    assert g.stores == [13, 11]

    trace = play(g, 5)  # g1: into the store again
    assert drops(trace) == [S0]
    assert kinds(trace)[-1] == "extra_turn"
    assert g.to_move == 0
    assert g.pits == [0, 0, 0, 1, 9, 0, 5, 1, 0, 0, 3, 4]  # third diagram
    assert g.stores == [14, 11]

    trace = play(g, 4)  # f1: nine seeds, player 1's store passed over, ends in b1
    assert drops(trace) == [5, S0, 6, 7, 8, 9, 10, 11, 0]
    assert S1 not in drops(trace)
    assert sorted(takes(trace)) == [(0, 1, S0), (11, 5, S0)]  # b1's seed and b2's five
    assert "extra_turn" not in kinds(trace)
    assert g.to_move == 1
    # Fourth diagram: [EEEEEE][eEeeee]4112[eeeexX]z/z[eEeeee]..1.1[EEEEEE]
    assert g.pits == [0, 0, 0, 1, 0, 1, 6, 2, 1, 1, 4, 0]
    assert g.stores == [21, 11]


# --- start, moves, notation, options ---------------------------------------------------------

def test_start_position():
    g = mancala.Game("kalah")
    assert g.pits == [4] * 12 and g.stores == [0, 0]
    assert g.to_move == 0 and g.players == 2 and g.phase == "play"
    assert [g.owner(p) for p in range(12)] == [0] * 6 + [1] * 6
    assert sorted(g.legal_moves()) == [0, 1, 2, 3, 4, 5]


def test_first_move_into_the_store_gives_an_extra_turn():
    g = mancala.Game("kalah")
    trace = play(g, 2)  # C: 3, 4, 5, store
    assert drops(trace) == [3, 4, 5, S0]
    assert kinds(trace)[-1] == "extra_turn"
    assert g.to_move == 0 and g.stores == [1, 0]


def test_plain_move_passes_the_turn():
    g = mancala.Game("kalah")
    trace = play(g, 0)  # A: 1, 2, 3, 4
    assert drops(trace) == [1, 2, 3, 4]
    assert "extra_turn" not in kinds(trace) and takes(trace) == []
    assert g.to_move == 1


@pytest.mark.parametrize("move", [6, 1, 12])
def test_illegal_moves(move):
    g = game([4, 0, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4], stores=[4, 0])
    with pytest.raises(mancala.IllegalMoveError):
        g.play(move)  # 6: opponent's pit; 1: empty; 12: a store


def test_options_change_the_board():
    g = mancala.Game("kalah", pits_per_row=4, seeds=3)
    assert g.pits == [3] * 8 and g.stores == [0, 0]
    assert [g.owner(p) for p in range(8)] == [0] * 4 + [1] * 4
    trace = play(g, 3)  # D: store (cell 8), then pits 4, 5
    assert drops(trace) == [8, 4, 5]
    assert g.stores == [1, 0]
    assert g.pits == [3, 3, 3, 0, 4, 4, 3, 3]
    assert g.to_move == 1


def test_options_seeds_only():
    g = mancala.Game("kalah", seeds=6)
    assert g.pits == [6] * 12


@pytest.mark.parametrize("options", [{"pits_per_row": 2}, {"pits_per_row": 13}, {"seeds": 0},
                                     {"seeds": 13}, {"seeds_per_pit": 4}, {"grand_slam": "illegal"},
                                     {"empty_capture": "keep"}])
def test_bad_options(options):
    with pytest.raises(ValueError):
        mancala.Game("kalah", **options)


def test_notation_round_trip():
    g = mancala.Game("kalah")
    assert g.move_name(2) == "C" and g.parse_move("C") == 2
    for m in g.legal_moves():
        assert g.parse_move(g.move_name(m)) == m
    g.play(0)
    assert g.move_name(6) == "a" and g.parse_move("f") == 11
    for m in g.legal_moves():
        assert g.parse_move(g.move_name(m)) == m


@pytest.mark.parametrize("name", ["Kalah", "kalaha", "Kalah Champion", "kalah-champion"])
def test_aliases_resolve_to_kalah(name):
    g = mancala.Game(name)
    trace = g.play(2)  # ends in the store: only Kalah sows one
    assert drops(trace) == [3, 4, 5, S0]
    assert g.to_move == 0


def test_undo_restores_an_extra_turn():
    g = mancala.Game("kalah")
    g.play(2)
    g.play(5)
    assert g.undo() == 5
    assert g.to_move == 0 and g.stores == [1, 0]
    assert g.undo() == 2
    assert g.pits == [4] * 12 and g.stores == [0, 0] and g.to_move == 0


# --- sowing: stores ---------------------------------------------------------------------------

def test_thirteen_seeds_skip_the_opponents_store_and_capture_in_the_origin():
    g = game([13, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 1], stores=[16, 16])
    trace = play(g, 0)
    assert drops(trace) == [1, 2, 3, 4, 5, S0, 6, 7, 8, 9, 10, 11, 0]
    # The last seed falls into the emptied origin: captured with pit 11's two seeds.
    assert sorted(takes(trace)) == [(0, 1, S0), (11, 2, S0)]
    assert g.pits == [0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 3, 0]
    assert g.stores == [20, 16]


def test_player_one_sows_his_store_and_skips_player_zeros():
    g = game([1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 1, 8], stores=[17, 16], to_move=1)
    trace = play(g, 11)  # f: store 13, then 0..5, then (skip 12) 6
    assert drops(trace) == [S1, 0, 1, 2, 3, 4, 5, 6]
    assert S0 not in drops(trace)
    # Pit 6 was empty and is player 1's: its seed and opposite pit 5's two seeds are captured.
    assert sorted(takes(trace)) == [(5, 2, S1), (6, 1, S1)]
    assert g.pits == [2, 2, 2, 2, 2, 0, 0, 0, 0, 0, 1, 0]
    assert g.stores == [17, 20]


def test_player_one_extra_turn():
    g = game([4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 0, 2], stores=[3, 3], to_move=1)
    trace = play(g, 11)  # 2 seeds: store 13, pit 0
    assert drops(trace) == [S1, 0]
    assert g.to_move == 0
    g2 = game([4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 1, 1], stores=[3, 3], to_move=1)
    trace = play(g2, 11)  # 1 seed: into store 13
    assert drops(trace) == [S1]
    assert kinds(trace)[-1] == "extra_turn"
    assert g2.to_move == 1


# --- capture ---------------------------------------------------------------------------------

def test_capture_from_own_empty_pit():
    g = game([1, 0, 4, 4, 4, 4, 4, 4, 4, 4, 3, 4], stores=[4, 4])
    trace = play(g, 0)  # A -> B (empty, own); opposite of B is pit 10
    assert sorted(takes(trace)) == [(1, 1, S0), (10, 3, S0)]
    assert g.pits[1] == 0 and g.pits[10] == 0
    assert g.stores == [8, 4]
    assert g.to_move == 1


def test_capture_with_empty_opposite_takes_the_lone_seed():
    # Decision 2: the literal rule - the last seed goes to the store even if nothing is opposite.
    g = game([1, 0, 4, 4, 4, 4, 4, 4, 4, 4, 0, 4], stores=[6, 5])
    trace = play(g, 0)
    assert takes(trace) == [(1, 1, S0)]
    assert g.pits[:2] == [0, 0]
    assert g.stores == [7, 5]


def test_empty_capture_leave_keeps_the_lone_seed():
    # empty_capture="leave": nothing opposite, nothing taken; the seed stays and the turn passes.
    g = game([1, 0, 4, 4, 4, 4, 4, 4, 4, 4, 0, 4], stores=[6, 5], empty_capture="leave")
    trace = play(g, 0)
    assert takes(trace) == [] and drops(trace) == [1]
    assert g.pits[:2] == [0, 1] and g.stores == [6, 5] and g.to_move == 1
    # With seeds opposite it captures as the source says.
    g = game([1, 0, 4, 4, 4, 4, 4, 4, 4, 4, 3, 4], stores=[4, 4], empty_capture="leave")
    trace = play(g, 0)
    assert sorted(takes(trace)) == [(1, 1, S0), (10, 3, S0)]
    assert g.stores == [8, 4]


def test_empty_capture_leave_in_a_playout():
    # game.playout plays the option as push() does: a position where the only move
    # lands in an own empty pit facing an empty pit.
    for rule, stores in (("take", [1, 0]), ("leave", [0, 0])):
        g = game([0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 2], empty_capture=rule)
        moves = []
        o = g.playout(moves=moves, max_plies=1)
        ref = game([0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 2], empty_capture=rule)
        ref.push(moves[0])
        assert moves == [2] and ref.stores == stores
        assert (o is None) == (not ref.is_over())


def test_empty_capture_is_in_the_position_text():
    g = mancala.Game("kalah", empty_capture="leave")
    text = mancala.to_text(g)
    assert "empty_capture=leave" in text
    assert mancala.from_text(text).empty_capture == "leave"
    assert mancala.Game("kalah").empty_capture == "take"     # the source's reading (decision 2)


def test_no_capture_in_own_non_empty_pit():
    g = game([1, 2, 4, 4, 4, 4, 4, 4, 4, 4, 3, 4], stores=[2, 3])
    trace = play(g, 0)
    assert takes(trace) == []
    assert g.pits[:2] == [0, 3]


def test_no_capture_in_opponents_empty_pit():
    g = game([4, 4, 4, 4, 4, 2, 4, 0, 4, 4, 4, 4], stores=[2, 4])
    trace = play(g, 5)  # store, then pit 6 (not empty, the opponent's)
    assert drops(trace) == [S0, 6]
    assert takes(trace) == [] and g.to_move == 1
    g = game([4, 4, 4, 4, 4, 3, 4, 0, 4, 4, 4, 4], stores=[2, 3])
    trace = play(g, 5)  # store, 6, 7: pit 7 was empty but is the opponent's
    assert drops(trace) == [S0, 6, 7]
    assert takes(trace) == []
    assert g.pits[7] == 1


# --- end of the game -------------------------------------------------------------------------

def test_game_ends_when_the_player_to_move_has_no_seeds():
    # Player 0's last seed goes into his store: an extra turn he cannot use. The game ends and
    # player 1's seeds go to player 1's store.
    g = game([0, 0, 0, 0, 0, 1, 2, 0, 0, 0, 0, 3], stores=[20, 22])
    trace = play(g, 5)
    assert drops(trace) == [S0]
    assert kinds(trace)[-1] == "end"
    assert sorted(takes(trace)) == [(6, 2, S1), (11, 3, S1)]
    assert g.pits == [0] * 12
    assert g.stores == [21, 27]
    assert g.is_over()
    out = g.outcome()
    assert out.winner == 1 and out.scores == [21, 27]
    assert g.legal_moves() == []


def test_game_goes_on_while_the_player_to_move_has_seeds():
    # Player 0 empties his own row without reaching the store; player 1 can still move.
    g = game([0, 0, 0, 0, 0, 2, 0, 0, 0, 0, 0, 5], stores=[20, 21])
    play(g, 5)  # store, pit 6
    assert not g.is_over() and g.outcome() is None
    assert g.to_move == 1
    assert sorted(g.legal_moves()) == [6, 11]


def test_draw():
    g = game([0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 1], stores=[23, 23])
    play(g, 5)  # store; player 0 cannot use the extra turn; player 1 takes his 1
    assert g.is_over()
    out = g.outcome()
    assert out.winner is None and out.scores == [24, 24]
