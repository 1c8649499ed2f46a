"""Tschuba: docs/variants/tschuba.md, source 001 (Wagner 1916), Tschuba.

Holes as in Maruba (tests/variants/test_maruba.py): a/b are P's (player 0) outer/inner
rows, c/d Q's (player 1) inner/outer rows; column 1 at P's right.  4x8, two men in
every hole; stores: cell 32 (P), 33 (Q).
"""
import pytest

import mancala
from mancala import MoveInProgress
from tracesteps import cell_name as name, named_steps as steps, pit_of


# Fig. 6, II 1-2: Q's opening move from c-6, handful by handful, up to the last man
# in the emptied c-1 (OCR: "c-b" is c-5, "cl-2"/"c^-3" d-2/d-3, "d-Z" d-3, "d-Q" d-6,
# "c/-5"/"c? 6" d-5/d-6, "c/-7"/"f?-8" d-7/d-8, "c-(3" c-6, "h-\\"/"a-\\" b-1/a-1).
OPENING = [
    ("lift", "c6", 2), ("drop", "c5"), ("drop", "c4"),
    ("relay", "c4", 3), ("drop", "c3"), ("drop", "c2"), ("drop", "c1"),
    ("relay", "c1", 3), ("drop", "d1"), ("drop", "d2"), ("drop", "d3"),
    ("relay", "d3", 3), ("drop", "d4"), ("drop", "d5"), ("drop", "d6"),
    ("relay", "d6", 3), ("drop", "d7"), ("drop", "d8"), ("drop", "c8"),
    ("relay", "c8", 3), ("drop", "c7"), ("drop", "c6"), ("drop", "c5"),
    ("relay", "c5", 4), ("drop", "c4"), ("drop", "c3"), ("drop", "c2"), ("drop", "c1"),
    ("take", "b1", 2), ("take", "a1", 2),
]


def test_start_two_in_every_hole_fig6_i():
    g = mancala.Game("tschuba")
    assert g.pits == [2] * 32 and g.stores == [0, 0]
    assert (g.rows, g.pits_per_row) == (4, 8)
    assert mancala.variant_info("tschuba")["pits_per_row"] == 8


def test_worked_example_first_form():
    g = mancala.Game("tschuba", to_move=1)          # "assuming that Q starts"
    c6 = g.parse_move("c6")
    choices = [m for m in g.legal_moves() if pit_of(m) == c6]
    # Any other hole of P's: every hole but the column taken (b-1, a-1).
    assert sorted(name(g, m[1]) for m in choices) == sorted(
        "%s%d" % (r, c) for r in "ab" for c in range(1, 9) if c != 1)
    t = g.play(g.parse_move("c6xa2"))
    assert steps(g, t) == OPENING + [("take", "a2", 2)]
    assert all(s.to == 33 for s in t if s.kind == "take")
    assert g.stores == [0, 6]                       # "removes all six pieces"
    assert sum(g.pits) == 58


def test_worked_example_second_form_takes_any_pair():
    g = mancala.Game("tschuba", to_move=1, form=2)
    c6 = g.parse_move("c6")
    choices = [m for m in g.legal_moves() if pit_of(m) == c6]
    assert sorted(g.move_name(m) for m in choices) == ["c6xb%d" % c for c in range(2, 9)]
    # "... would be entitled to kill the pieces in a-2 and b-2".
    t = g.play(g.parse_move("c6xa2"))              # a column may be named by its outer hole
    assert steps(g, t) == OPENING + [("take", "b2", 2), ("take", "a2", 2)]
    assert g.stores == [0, 8]


def test_second_form_pair_with_one_empty_hole():
    pits = [0] * 32
    g = mancala.Game("tschuba", form=2)
    for hole, men in (("b2", 2), ("c4", 1), ("d4", 1), ("d6", 3), ("c8", 1)):
        pits[g.parse_move(hole)] = men
    g = mancala.Game("tschuba", form=2, pits=pits)
    assert sorted(g.move_name(m) for m in g.legal_moves()) == ["b2xc6", "b2xc8"]
    t = g.play(g.parse_move("b2xd6"))
    assert steps(g, t)[-3:] == [("take", "c4", 1), ("take", "d4", 1), ("take", "d6", 3)]


def test_choice_of_pair_is_a_step_of_the_hands():
    g = mancala.Game("tschuba", to_move=1, form=2)
    mv = MoveInProgress(g)
    mv.advance([s for s in mv.options() if s.kind == "lift" and name(g, s.pit) == "c6"][0])
    while mv.forced() is not None:
        mv.advance(mv.forced())
    assert sorted(name(g, s.pit) for s in mv.options()) == ["b%d" % c for c in range(2, 9)]
    mv.advance([s for s in mv.options() if name(g, s.pit) == "b5"][0])
    mv.advance(mv.forced())                          # then a-5, the other hole of the pair
    assert mv.done() and mv.move() == g.parse_move("c6xb5")


def test_form_option():
    assert mancala.Game("tschuba").form == 1
    with pytest.raises(mancala.PositionError, match="form"):
        mancala.Game("tschuba", form=3)


def test_notation_round_trip_both_forms():
    for form in (1, 2):
        g = mancala.Game("tschuba", to_move=1, form=form)
        for m in g.legal_moves():
            assert g.parse_move(g.move_name(m)) == m
        text = mancala.to_text(g)
        assert "form=%d" % form in text
        assert mancala.from_text(text).legal_moves() == g.legal_moves()
