"""Chuba (Milton Bradley, 1891): docs/variants/chuba.md, source 001 (Wagner 1916), Chuba.

Holes as in Maruba (tests/variants/test_maruba.py) on a 4x11 board: a/b are P's
(player 0) outer/inner rows, c/d Q's (player 1) inner/outer rows; column 1 at P's right.
Stores: cell 44 (P), 45 (Q).
"""
import mancala
from tracesteps import cell_name as name, pit_of


def test_board_and_start_fig7_i():
    g = mancala.Game("chuba")
    assert (g.rows, g.pits_per_row, g.n_pits) == (4, 11, 44)
    assert sum(g.pits) == 60                         # sixty beads
    for c in range(1, 12):
        assert g.pits[g.parse_move("a%d" % c)] == 1 and g.pits[g.parse_move("d%d" % c)] == 1
    # Inner rows as in Maruba: empty on the owner's far left, one next to it, two elsewhere.
    assert [g.pits[g.parse_move("b%d" % c)] for c in range(1, 12)] == [2] * 9 + [1, 0]
    assert [g.pits[g.parse_move("c%d" % c)] for c in range(1, 12)] == [0, 1] + [2] * 9
    info = mancala.variant_info("chuba")
    assert (info["rows"], info["pits_per_row"]) == (4, 11)


def test_fig7_ii_last_man_in_c4_takes_b4_a4_and_any_other_pair():
    # Fig. 7, II is not in the text; a position where Q's move ends in the empty c-4.
    g = mancala.Game("chuba")
    pits = g.pits
    pits[g.parse_move("c4")] = 0
    pits[g.parse_move("c6")] = 2
    pits[g.parse_move("c5")] = 0
    g = mancala.Game("chuba", pits=pits, to_move=1)
    c6 = g.parse_move("c6")
    choices = sorted(g.move_name(m) for m in g.legal_moves() if pit_of(m) == c6)
    # Every other column of P's holding men: b-1..b-11 but b-4.
    assert choices == sorted("c6xb%d" % c for c in range(1, 12) if c != 4)
    t = g.play(g.parse_move("c6xb9"))                # "such as b-9 and a-9"
    assert [(s.kind, name(g, s.pit)) for s in t] == [
        ("lift", "c6"), ("drop", "c5"), ("drop", "c4"),
        ("take", "b4"), ("take", "a4"), ("take", "b9"), ("take", "a9")]
    assert g.stores == [0, 6]


def test_second_form_rules():
    assert mancala.Game("chuba").form == 2
    assert mancala.Game("chuba").options == ()


def test_notation_round_trip():
    g = mancala.Game("chuba")
    assert any(isinstance(m, tuple) for m in g.legal_moves())
    for m in g.legal_moves():
        assert g.parse_move(g.move_name(m)) == m
