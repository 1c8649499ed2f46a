"""Egyptian Mankalah, advanced mode: seeds uncounted in corresponding beyts of both rows, a free
choice of beyt, otherwise the simple mode's rules.

Rules and decisions: docs/variants/egyptian-advanced.md (source 000 · EGYPTIAN MANKALAH, B).
Board: pits 0-5 player 0 (A-F), 6-11 player 1 (a-f); captures are counted in cells 12, 13.
"""
from functools import partial

import pytest

import mancala
from tracesteps import checked_play as play, new_game, of_kind as steps, place_all, takes

S0, S1 = 12, 13

game = partial(new_game, "egyptian-advanced")


# --- setup -----------------------------------------------------------------------------------

def test_new_game_starts_with_the_distributor():
    g = mancala.Game("egyptian-advanced")
    assert g.phase == "setup" and g.to_move == 1 and g.outside() == 72
    moves = g.legal_moves()
    assert len(moves) == 12 * 71  # any beyt; its corresponding beyt keeps one seed back
    assert ("place", 0, 71) in moves and ("place", 0, 72) not in moves


def test_the_usual_middle_arrangement():
    g = mancala.Game("egyptian-advanced")
    place_all(g, [(q, 9) for q in (1, 2, 3, 4, 7, 8, 9, 10)])
    play(g, ("keep",))
    assert g.pits == [0, 9, 9, 9, 9, 0, 0, 9, 9, 9, 9, 0]
    assert g.to_move == 0
    assert g.legal_moves() == [1, 2, 3, 4]  # any beyt: no forced origin


def test_corresponding_beyts_are_counted_from_each_players_left():
    # B's partner is b (pit 7), not the facing beyt e (pit 10).
    g = mancala.Game("egyptian-advanced")
    play(g, ("place", 1, 20))
    play(g, ("place", 10, 50))  # e: its partner E must be filled too, and b still must
    assert sorted(g.legal_moves()) == [("place", 4, 1), ("place", 7, 1)]
    place_all(g, [(4, 1), (7, 1)])
    play(g, ("keep",))
    assert g.pits == [0, 20, 0, 0, 1, 0, 0, 1, 0, 0, 50, 0]


def test_one_pair_only():
    g = mancala.Game("egyptian-advanced")
    place_all(g, [(0, 36), (6, 36)])
    assert g.legal_moves() == [("keep",), ("turn",)]


def test_turning_forfeits_the_first_move():
    g = mancala.Game("egyptian-advanced")
    place_all(g, [(2, 30), (8, 42)])
    trace = play(g, ("turn",))
    assert takes(trace) == [(2, 30, mancala.OFF), (8, 42, mancala.OFF)]
    assert g.pits == [0, 0, 42, 0, 0, 0, 0, 0, 30, 0, 0, 0]
    assert g.to_move == 1 and g.legal_moves() == [8]


def test_options():
    g = mancala.Game("egyptian-advanced", setup="even")
    assert g.phase == "play" and g.pits == [6] * 12 and g.legal_moves() == [0, 1, 2, 3, 4, 5]
    for bad in ("ignorant", "lane"):
        with pytest.raises(ValueError):
            mancala.Game("egyptian-advanced", setup=bad)


def test_setup_position_text():
    g = mancala.Game("egyptian-advanced")
    play(g, ("place", 5, 10))
    text = mancala.to_text(g)
    assert text.startswith("egyptian-advanced setup=wise ") and "setup=place" in text
    h = mancala.from_text(text)
    assert h.legal_moves() == g.legal_moves() and h.outside() == 62


# --- play ------------------------------------------------------------------------------------

def test_free_choice_of_beyt():
    g = game([2, 0, 2, 0, 0, 1, 3, 3, 3, 3, 3, 3], stores=[25, 23])
    assert g.legal_moves() == [0, 2, 5]
    trace = play(g, 0)  # A -> B, C (3): relay 3 -> D, E, F (2): F and its opposite a are taken
    assert steps(trace, "relay") == [(2, 3)]
    assert takes(trace) == [(5, 2, S0), (6, 3, S0)]
    assert g.pits == [0, 1, 0, 1, 1, 0, 0, 3, 3, 3, 3, 3]
    assert g.to_move == 1


def test_two_seeds_in_one_row_are_fed():
    g = game([0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 1], stores=[35, 35], to_move=1)
    play(g, 11)
    assert not g.is_over() and g.legal_moves() == [("feed", 0), ("feed", 4)]


@pytest.mark.parametrize("name", ["Egyptian Mankalah advanced mode", "game of the wise",
                                  "EGYPTIAN-ADVANCED"])
def test_aliases(name):
    assert mancala.Game(name).id == "egyptian-advanced"
