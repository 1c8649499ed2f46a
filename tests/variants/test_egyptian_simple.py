"""Egyptian Mankalah, simple mode: all 72 seeds spread uncounted over every beyt, the forced
pit (F, or the nearest non-empty one to it), relays on 3/5+, captures on 2/4, feeding, the lone seed.

Rules and decisions: docs/variants/egyptian-simple.md (source 000 · EGYPTIAN MANKALAH, A).
Board: pits 0-5 player 0 (A-F), 6-11 player 1 (a-f); captures are counted in cells 12, 13.
"""
from functools import partial

import pytest

import mancala
from tracesteps import (
    checked_play as play, dropped as drops, kinds, new_game, of_kind as steps, place_all,
    takes,
)

S0, S1 = 12, 13

game = partial(new_game, "egyptian-simple")


# --- setup -----------------------------------------------------------------------------------

def test_new_game_starts_with_the_distributor():
    g = mancala.Game("egyptian-simple")
    assert g.phase == "setup" and g.to_move == 1
    assert g.pits == [0] * 12 and g.outside() == 72
    moves = g.legal_moves()
    assert len(moves) == 12 * 61  # every other beyt keeps one seed back
    assert ("place", 3, 61) in moves and ("place", 3, 62) not in moves


def test_every_beyt_gets_a_seed():
    g = mancala.Game("egyptian-simple")
    play(g, ("place", 0, 61))
    assert sorted(g.legal_moves()) == [("place", q, 1) for q in range(1, 12)]
    with pytest.raises(mancala.IllegalMoveError):
        g.play(("place", 0, 1))
    place_all(g, [(q, 1) for q in range(1, 12)])
    assert g.to_move == 0 and g.legal_moves() == [("keep",), ("turn",)]
    play(g, ("keep",))
    assert g.phase == "play" and g.to_move == 0
    assert g.pits == [61] + [1] * 11
    assert g.legal_moves() == [5]  # the forced beyt F


def test_equal_distribution_is_allowed():
    g = mancala.Game("egyptian-simple")
    place_all(g, [(q, 6) for q in range(12)])
    play(g, ("keep",))
    assert g.pits == [6] * 12


def test_turning_the_board_lets_the_distributor_begin():
    g = mancala.Game("egyptian-simple")
    place_all(g, [(0, 50)] + [(q, 2) for q in range(1, 12)])
    trace = play(g, ("turn",))
    assert g.pits == [2, 2, 2, 2, 2, 2, 50, 2, 2, 2, 2, 2]
    assert sorted(steps(trace, "place")) == [(q, 50 if q == 6 else 2) for q in range(12)]
    assert g.to_move == 1
    assert g.legal_moves() == [11]  # player 1's forced beyt f


def test_even_option_and_bad_option():
    g = mancala.Game("egyptian-simple", setup="even")
    assert g.phase == "play" and g.pits == [6] * 12 and g.to_move == 0
    assert g.legal_moves() == [5]
    with pytest.raises(ValueError):
        mancala.Game("egyptian-simple", setup="wise")


# --- the forced beyt ---------------------------------------------------------------------------

def test_forced_beyt_is_the_nearest_non_empty_to_f():
    g = game([3, 0, 2, 0, 0, 0, 3, 3, 3, 3, 3, 3], stores=[25, 24])
    assert g.legal_moves() == [2]
    with pytest.raises(mancala.IllegalMoveError) as err:
        g.play(0)
    assert "rightmost" in str(err.value)
    g = game([4, 4, 4, 4, 4, 1, 3, 3, 3, 3, 3, 3], stores=[16, 15])
    assert g.legal_moves() == [5]


def test_forced_beyt_for_player_one():
    g = game([1, 1, 1, 1, 1, 1, 0, 2, 0, 0, 3, 0], stores=[30, 31], to_move=1)
    assert g.legal_moves() == [10]
    with pytest.raises(mancala.IllegalMoveError):
        g.play(7)


# --- play ------------------------------------------------------------------------------------

def test_relay_on_five():
    g = game([1, 0, 0, 0, 0, 1, 4, 0, 0, 0, 0, 0], stores=[33, 33])
    trace = play(g, 5)  # F -> a (5): relay 5 -> b, c, d, e, f
    assert steps(trace, "relay") == [(6, 5)]
    assert g.pits == [1, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1]
    assert g.to_move == 1


def test_capture_with_a_chain_on_the_opponents_row():
    # F (3) -> a (1), b (2), c (2): c is taken (its opposite D is empty), then b with its opposite E.
    g = game([1, 0, 0, 0, 1, 3, 0, 1, 1, 0, 0, 2], stores=[31, 32])
    trace = play(g, 5)
    assert takes(trace) == [(8, 2, S0), (7, 2, S0), (4, 1, S0)]
    assert g.pits == [1, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 2]
    assert g.stores == [36, 32]
    assert g.to_move == 1 and g.legal_moves() == [11]


def test_two_seeds_in_one_row_are_fed_not_taken():
    # f's seed goes into A: both seeds are in player 0's row. Unlike Lane's game, player 0
    # must feed one (more than one seed against none).
    g = game([0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 1], stores=[35, 35], to_move=1)
    play(g, 11)
    assert not g.is_over()
    assert g.to_move == 0
    assert g.legal_moves() == [("feed", 0), ("feed", 4)]  # any beyt: the forced beyt is for sowing
    trace = play(g, ("feed", 4))
    assert takes(trace) == [(4, 1, mancala.HAND)] and drops(trace) == [6]
    assert g.to_move == 1 and g.legal_moves() == [6]


def test_a_capture_that_empties_the_opponents_row_passes_him():
    # F -> a (2): taken. Player 1 has nothing; two seeds are left in player 0's row.
    g = game([2, 0, 0, 0, 0, 1, 1, 0, 0, 0, 0, 0], stores=[34, 34])
    trace = play(g, 5)
    assert takes(trace) == [(6, 2, S0)]
    assert kinds(trace)[-1] == "pass"
    assert g.to_move == 0 and g.legal_moves() == [("feed", 0)]
    lane = mancala.Game("lane", pits=[2, 0, 0, 0, 0, 1, 1, 0, 0, 0, 0, 0], stores=[34, 34])
    play(lane, 5)
    assert lane.is_over()  # Lane's two-seed rule, for contrast


def test_a_lone_seed_belongs_to_the_owner_of_its_side():
    # F (2) -> a (1), b (2): b and its opposite E are taken; a's single seed is player 1's.
    g = game([0, 0, 0, 0, 1, 2, 0, 1, 0, 0, 0, 0], stores=[34, 34])
    trace = play(g, 5)
    assert takes(trace) == [(7, 2, S0), (4, 1, S0), (6, 1, S1)]
    assert kinds(trace)[-1] == "end"
    assert g.is_over() and g.stores == [37, 35]
    out = g.outcome()
    assert out.winner == 0 and out.reason == "last seeds"


# --- notation, names -------------------------------------------------------------------------

def test_notation():
    g = game([3, 0, 2, 0, 0, 0, 3, 3, 3, 3, 3, 3], stores=[25, 24])
    assert [g.move_name(m) for m in g.legal_moves()] == ["C"]
    assert g.parse_move("C") == 2
    assert g.parse_move("61A") == ("place", 0, 61)
    assert g.move_name(("feed", 0)) == "A>a"


@pytest.mark.parametrize("name", ["Egyptian", "Egyptian Mankalah", "egyptian-mankalah-simple-mode",
                                  "Game of the Ignorants", "egyptian-simple"])
def test_aliases(name):
    assert mancala.Game(name).id == "egyptian-simple"
