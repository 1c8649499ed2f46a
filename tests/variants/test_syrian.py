"""Syrian Mancala: Lane's game on two rows of seven, 98 seeds, Wagner's two setups.

Rules and decisions: docs/variants/syrian.md (source 001 · The Syrian Game of Mancala, with
lane.md). Board: pits 0-6 player 0 (A-G), 7-13 player 1 (a-g); pit i faces 13 - i; captures are
counted in cells 14, 15.
"""
from functools import partial

import pytest

import mancala
from tracesteps import checked_play as play, dropped as drops, new_game, of_kind as steps, takes

S0, S1 = 14, 15

game = partial(new_game, "syrian")


def test_board_and_seeds():
    g = mancala.Game("syrian")
    assert g.phase == "setup" and g.to_move == 1
    assert g.pits == [0] * 14 and g.outside() == 98
    assert [g.owner(p) for p in range(14)] == [0] * 7 + [1] * 7
    assert g.opposite(0) == 13 and g.opposite(6) == 7
    assert len(g.legal_moves()) == 14 * 97  # the wise game by default


def test_even_start():
    g = mancala.Game("syrian", setup="even")
    assert g.phase == "play" and g.pits == [7] * 14 and g.stores == [0, 0]
    assert g.legal_moves() == [0, 1, 2, 3, 4, 5, 6]


def test_wise_setup_pairs_pit_i_with_pit_i_plus_7():
    g = mancala.Game("syrian")
    play(g, ("place", 0, 50))
    moves = g.legal_moves()
    assert ("place", 7, 48) in moves and ("place", 1, 47) not in moves
    play(g, ("place", 7, 48))
    assert g.legal_moves() == [("keep",), ("turn",)]
    play(g, ("keep",))
    assert g.pits == [50, 0, 0, 0, 0, 0, 0, 48, 0, 0, 0, 0, 0, 0]


def test_ignorant_setup():
    g = mancala.Game("syrian", setup="ignorant")
    moves = g.legal_moves()
    assert ("place", 6, 85) in moves and ("place", 6, 86) not in moves
    with pytest.raises(ValueError):
        mancala.Game("syrian", setup="lane")


def test_sowing_crosses_into_the_seven_pit_row():
    g = game([0, 0, 0, 0, 0, 0, 2, 0, 0, 3, 3, 3, 3, 3], stores=[40, 41])
    trace = play(g, 6)  # G -> a, b (empty)
    assert drops(trace) == [7, 8]
    assert g.pits == [0, 0, 0, 0, 0, 0, 0, 1, 1, 3, 3, 3, 3, 3]


def test_capture_takes_the_pit_opposite_on_seven_pits():
    # F (2) -> G (2), a (2): a and its opposite G; then G (two when the sowing ended) links the
    # chain but is already empty; F (emptied) stops it.
    g = game([1, 0, 0, 0, 0, 2, 1, 1, 3, 3, 3, 3, 3, 3], stores=[35, 36])
    trace = play(g, 5)
    assert takes(trace) == [(7, 2, S0), (6, 2, S0)]
    assert g.pits == [1, 0, 0, 0, 0, 0, 0, 0, 3, 3, 3, 3, 3, 3]
    assert g.stores == [39, 36]


def test_relay_on_three():
    g = game([0, 0, 0, 0, 0, 1, 2, 0, 0, 0, 3, 3, 3, 3], stores=[40, 40])
    trace = play(g, 5)  # F -> G (3): relay 3 -> a, b, c
    assert steps(trace, "relay") == [(6, 3)]
    assert g.pits == [0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 3, 3, 3, 3]


def test_feeding_goes_into_pit_a():
    g = game([0, 0, 3, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0], stores=[47, 48])
    assert g.legal_moves() == [("feed", 2)]
    assert g.move_name(("feed", 2)) == "C>a"
    play(g, ("feed", 2))
    assert g.pits[7] == 1 and g.to_move == 1


def test_two_seeds_in_one_row_end_the_round():
    g = game([0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 1], stores=[48, 48], to_move=1)
    trace = play(g, 13)  # g -> A: both seeds in player 0's row
    assert sorted(takes(trace)) == [(0, 1, S0), (6, 1, S0)]
    assert g.is_over() and g.stores == [50, 48]


def test_notation():
    g = mancala.Game("syrian", setup="even")
    assert g.move_name(6) == "G" and g.move_name(13) == "g"
    assert g.parse_move("9G") == ("place", 6, 9)
    for m in g.legal_moves():
        assert g.parse_move(g.move_name(m)) == m


@pytest.mark.parametrize("name", ["Syrian Mancala", "Syrian game of Mancala", "Manqala", "syrian"])
def test_aliases(name):
    assert mancala.Game(name).id == "syrian"
