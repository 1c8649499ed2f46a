"""Dakon (Java): relay sowing through one's own shed, another move from the shed,
capture across an empty cup of one's own row, an opening of both players at once.

Rules and decisions: docs/variants/dakon.md (source 000 · THE STORY OF DAKON).
Board: pits 0-6 player 0 (A-G), 7-13 player 1 (a-g); sheds are cells 14 (after pit 6)
and 15 (after pit 13).
"""
from functools import partial

import pytest

import mancala
from tracesteps import END, EXTRA, PASS, drop, lift, make_play, relay, replay_cells, steps, take

S0, S1 = 14, 15

replay = partial(replay_cells, into=(S0, S1))   # Dakon takes seeds only into a shed
play = make_play("dakon", into=(S0, S1))


# ----- the board -------------------------------------------------------------

def test_start_position():
    g = mancala.Game("dakon")
    assert g.pits == [7] * 14
    assert g.stores == [0, 0]
    assert g.players == 2
    assert g.to_move == 0
    assert [g.owner(p) for p in range(14)] == [0] * 7 + [1] * 7
    assert sum(g.cells()) == 98
    assert not g.is_over()


def test_names_resolve():
    assert "dakon" in mancala.variants()
    assert mancala.variant_info("dakon")["playable"]
    for name in ("Dakon", "DAKON", " dakon "):
        assert mancala.Game(name.strip()).pits == [7] * 14


# ----- the opening: both players at once ---------------------------------------

def test_opening_is_the_only_move_from_the_start():
    g = mancala.Game("dakon")
    assert g.legal_moves() == [0]
    with pytest.raises(mancala.IllegalMoveError):
        g.play(3)
    with pytest.raises(mancala.IllegalMoveError):
        g.play(7)


def test_opening_both_players_sow_at_once():
    # Source: both lift their starting cups; seven seeds fill the six other cups of
    # the row and the last drops in the shed, so both may go on.
    g = mancala.Game("dakon")
    tr = g.play(0)
    assert replay([7] * 14 + [0, 0], tr) == g.cells()
    assert steps(tr) == (
        [lift(0, 7), lift(7, 7)]
        + [drop(p) for p in (1, 2, 3, 4, 5, 6, S0)]
        + [drop(p) for p in (8, 9, 10, 11, 12, 13, S1)]
        + [EXTRA])
    assert g.pits == [0, 8, 8, 8, 8, 8, 8, 0, 8, 8, 8, 8, 8, 8]
    assert g.stores == [1, 1]
    assert g.to_move == 0
    assert g.legal_moves() == [1, 2, 3, 4, 5, 6]


def test_opening_with_player_1_first():
    g = mancala.Game("dakon", to_move=1)
    assert g.legal_moves() == [7]
    tr = g.play(7)
    assert steps(tr) == (
        [lift(7, 7), lift(0, 7)]
        + [drop(p) for p in (8, 9, 10, 11, 12, 13, S1)]
        + [drop(p) for p in (1, 2, 3, 4, 5, 6, S0)]
        + [EXTRA])
    assert g.to_move == 1


def test_opening_undone_gives_the_start_back():
    g = mancala.Game("dakon")
    g.play(0)
    assert g.undo() == 0
    assert g.pits == [7] * 14 and g.stores == [0, 0] and g.to_move == 0
    assert g.legal_moves() == [0]


def test_opening_when_both_handfuls_stop():
    # 4 cups of 2 seeds: player 0's relay drops a seed into player 1's (lifted) starting
    # cup and stops there; player 1's relay does the same on player 0's side. Both
    # stopped: player 0, first in the serial order, moves next (decision 3).
    g = mancala.Game("dakon", pits_per_row=4, seeds=2)
    assert g.legal_moves() == [0]
    tr = g.play(0)
    s0, s1 = 8, 9
    assert steps(tr) == [
        lift(0, 2), lift(4, 2),
        drop(1), drop(2), relay(2, 3), drop(3), drop(s0), drop(4),
        drop(5), drop(6), relay(6, 3), drop(7), drop(s1), drop(0),
        EXTRA]
    assert g.pits == [1, 3, 0, 3, 1, 3, 0, 3]
    assert g.stores == [1, 1]
    assert g.to_move == 0


def test_opening_when_only_player_1_goes_on():
    # 6 cups of 2 seeds: player 0's handful relays round the board and stops in his own
    # empty cup 5, capturing the seed across (in player 1's starting cup); player 1's
    # handful then ends in his shed, so player 1 moves next (decision 3).
    g = mancala.Game("dakon", pits_per_row=6, seeds=2)
    s0, s1 = 12, 13
    tr = g.play(0)
    assert steps(tr) == [
        lift(0, 2), lift(6, 2),
        drop(1), drop(2), relay(2, 3), drop(3), drop(4), drop(5), relay(5, 3),
        drop(s0), drop(6), drop(7), relay(7, 3), drop(8), drop(9), drop(10), relay(10, 3),
        drop(11), drop(0), drop(1), relay(1, 4), drop(2), drop(3), drop(4), drop(5),
        take(6, 1, s0),
        drop(7), drop(8), relay(8, 4), drop(9), drop(10), drop(11), drop(s1)]
    assert g.pits == [1, 0, 1, 4, 4, 1, 0, 1, 0, 4, 1, 4]
    assert g.stores == [2, 1]
    assert g.to_move == 1


def test_a_full_board_with_something_stored_is_not_the_opening():
    g = mancala.Game("dakon", pits=[7] * 14, stores=[0, 0], to_move=0)
    assert g.legal_moves() == [0]
    g = mancala.Game("dakon", pits=[7] * 13 + [6], stores=[0, 1])
    assert g.legal_moves() == [0, 1, 2, 3, 4, 5, 6]


# ----- the grandmother's hint ---------------------------------------------------

def test_hint_one_seed_next_to_the_shed_goes_on():
    pits = [0, 0, 2, 0, 0, 0, 1, 0, 0, 3, 0, 0, 0, 0]
    g, s = play(pits, 6)
    assert s == [lift(6, 1), drop(S0), EXTRA]
    assert g.to_move == 0
    assert g.stores == [1, 0]
    assert g.legal_moves() == [2]


def test_hint_seven_seeds_end_in_the_shed():
    pits = [7, 0, 0, 0, 0, 0, 1, 0, 0, 3, 0, 0, 0, 0]
    g, s = play(pits, 0)
    assert s == [lift(0, 7)] + [drop(p) for p in (1, 2, 3, 4, 5, 6, S0)] + [EXTRA]
    assert g.pits == [0, 1, 1, 1, 1, 1, 2, 0, 0, 3, 0, 0, 0, 0]
    assert g.stores == [1, 0]
    assert g.to_move == 0


# ----- relays, captures, turns ----------------------------------------------------

def test_relay_on_own_side_then_capture_across():
    pits = [2, 0, 1, 0, 0, 0, 0, 0, 0, 3, 0, 0, 0, 5]
    g, s = play(pits, 0)
    assert s == [lift(0, 2), drop(1), drop(2), relay(2, 2), drop(3), drop(4), take(9, 3, S0)]
    assert g.pits == [0, 1, 0, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 5]
    assert g.stores == [3, 0]
    assert g.to_move == 1


def test_capture_with_nothing_across_takes_nothing_and_ends_the_turn():
    pits = [1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2]
    g, s = play(pits, 0)
    assert s == [lift(0, 1), drop(1)]
    assert g.pits == [0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2]
    assert g.stores == [0, 0]
    assert g.to_move == 1


def test_relay_on_the_opponents_side_and_no_capture_there():
    # The relay from cup 7 ends in the empty cup 10 of player 1: the turn is over, and
    # the four seeds across (pit 3) stay.
    pits = [0, 0, 0, 4, 0, 3, 0, 2, 0, 0, 0, 0, 0, 0]
    g, s = play(pits, 5)
    assert s == [lift(5, 3), drop(6), drop(S0), drop(7), relay(7, 3), drop(8), drop(9), drop(10)]
    assert g.pits == [0, 0, 0, 4, 0, 0, 1, 0, 1, 1, 1, 0, 0, 0]
    assert g.stores == [1, 0]
    assert g.to_move == 1


def test_opponents_shed_is_passed_over():
    # Ten seeds from G: own shed, the seven cups of player 1, (his shed skipped), A, B.
    # B was empty: the seed dropped across it, in cup 12, is captured.
    pits = [0, 0, 0, 0, 0, 0, 10, 0, 0, 0, 0, 0, 0, 0]
    g, s = play(pits, 6)
    assert s == ([lift(6, 10), drop(S0)] + [drop(p) for p in range(7, 14)]
                 + [drop(0), drop(1), take(12, 1, S0)])
    assert S1 not in [st[1] for st in s]
    assert g.pits == [1, 1, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 0, 1]
    assert g.stores == [2, 0]


def test_the_emptied_cup_is_sown_on_a_long_lap():
    # Fifteen seeds: a full lap of 14 cups and the own shed ends in the starting cup,
    # which is empty again: a capture across it.
    pits = [15] + [0] * 13
    g, s = play(pits, 0)
    assert s == ([lift(0, 15)] + [drop(p) for p in (1, 2, 3, 4, 5, 6, S0)]
                 + [drop(p) for p in range(7, 14)] + [drop(0), take(13, 1, S0)])
    assert g.pits == [1] * 13 + [0]
    assert g.stores == [2, 0]


def test_player_1_captures_into_his_own_shed():
    pits = [1, 0, 4, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0]
    g, s = play(pits, 10, to_move=1)
    assert s == [lift(10, 1), drop(11), take(2, 4, S1)]
    assert g.stores == [0, 4]
    assert g.to_move == 0


# ----- stuck players, the end ------------------------------------------------------

def test_extra_move_with_an_empty_row_passes():
    pits = [0, 0, 0, 0, 0, 0, 1, 3, 0, 0, 0, 0, 0, 0]
    g, s = play(pits, 6)
    assert s == [lift(6, 1), drop(S0), EXTRA, PASS]
    assert g.to_move == 1
    assert not g.is_over()


def test_a_stuck_player_passes_and_plays_again_once_fed():
    pits = [0] * 7 + [0, 0, 0, 0, 1, 0, 1]
    g, s = play(pits, 11, to_move=1)
    assert s == [lift(11, 1), drop(12), PASS]      # nothing across cup 12 to take
    assert g.to_move == 1
    tr = g.play(12)
    assert steps(tr) == [lift(12, 1), drop(13), relay(13, 2), drop(S1), drop(0)]
    assert g.to_move == 0                            # fed: player 0 plays again
    assert g.legal_moves() == [0]


def test_the_round_ends_when_every_seed_is_in_a_shed():
    pits = [0, 0, 0, 0, 0, 0, 1] + [0] * 7
    g, s = play(pits, 6, stores=(50, 47))
    assert s == [lift(6, 1), drop(S0), EXTRA, END]
    assert g.is_over()
    assert g.legal_moves() == []
    out = g.outcome()
    assert out.winner == 0
    assert out.scores == [51, 47]
    assert out.reason == "every seed is in a store"


def test_equal_sheds_are_a_draw():
    pits = [0, 0, 0, 0, 0, 0, 1] + [0] * 7
    g, _ = play(pits, 6, stores=(48, 49))
    assert g.outcome().winner is None
    assert g.outcome().scores == [49, 49]


def test_player_1_can_win():
    pits = [0] * 13 + [1]
    g, s = play(pits, 13, stores=(40, 57), to_move=1)
    assert s == [lift(13, 1), drop(S1), EXTRA, END]
    assert g.outcome().winner == 1


def test_finishing_last_does_not_win_the_round():
    # Siti lost the round (and two fields) although she finished last (decision 8):
    # the round is won on seeds; the last move only matters for the next round.
    pits = [0, 0, 0, 0, 0, 0, 1] + [0] * 7
    g, _ = play(pits, 6, stores=(40, 57))
    assert g.moves_played() == [6]           # player 0 made the last move
    assert g.outcome().winner == 1
    assert g.outcome().scores == [41, 57]


# ----- options, notation, errors ---------------------------------------------------

def test_options_change_the_board():
    g = mancala.Game("dakon", pits_per_row=5, seeds=5)
    assert g.pits == [5] * 10
    tr = g.play(0)
    # Five seeds from the first cup: the four others and the shed (cell 10).
    assert steps(tr) == ([lift(0, 5), lift(5, 5)] + [drop(p) for p in (1, 2, 3, 4, 10)]
                         + [drop(p) for p in (6, 7, 8, 9, 11)] + [EXTRA])
    with pytest.raises(mancala.PositionError):
        mancala.Game("dakon", seeds=12)
    with pytest.raises(mancala.PositionError):
        mancala.Game("dakon", pits_per_row=2)


def test_notation_round_trip():
    g = mancala.Game("dakon")
    assert g.move_name(0) == "A"
    g.play(0)
    for m in g.legal_moves():
        assert g.parse_move(g.move_name(m)) == m
    assert [g.move_name(m) for m in g.legal_moves()] == ["B", "C", "D", "E", "F", "G"]
    g2 = mancala.Game("dakon", pits=[0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 7], to_move=1)
    assert g2.parse_move("a") == 7 and g2.parse_move("g") == 13
    with pytest.raises(mancala.NotationError):
        g2.parse_move("h")


def test_illegal_moves_say_why():
    g = mancala.Game("dakon", pits=[0, 3, 0, 0, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0])
    with pytest.raises(mancala.IllegalMoveError, match="empty"):
        g.play(0)
    with pytest.raises(mancala.IllegalMoveError, match="belongs to player 1"):
        g.play(7)
    with pytest.raises(mancala.IllegalMoveError):
        g.play((1, 1))


def test_too_many_seeds_is_refused():
    with pytest.raises(mancala.PositionError):
        mancala.Game("dakon", pits=[8] * 14)


def test_position_text_round_trip_after_the_opening():
    g = mancala.Game("dakon")
    g.play(0)
    g.play(3)
    text = mancala.to_text(g)
    h = mancala.from_text(text)
    assert h.cells() == g.cells() and h.to_move == g.to_move
    assert h.legal_moves() == g.legal_moves()
