"""Sita's Solitaire: one player, the hole after the last marble is lifted next, the game
ends when the start pattern is back.

Rules and decisions: docs/variants/sitas-solitaire.md (source 000 · "SITA'S SOLITAIRE").
Board: the Pandi board, pits 0-6 the near row (A-G), 7-13 the far row (a-g). Each row
holds 7, 6, ..., 1 marbles in the sowing (counter-clockwise) order.
"""
import pytest

import mancala
from tracesteps import END, drop, lift, steps

START = [7, 6, 5, 4, 3, 2, 1, 7, 6, 5, 4, 3, 2, 1]


def test_start_position():
    g = mancala.Game("sitas-solitaire")
    assert g.pits == START
    assert g.stores == [0]
    assert g.players == 1
    assert g.to_move == 0
    assert g.legal_moves() == [0]
    assert all(g.owner(p) == 0 for p in range(14))
    assert sum(g.cells()) == 56


def test_names_resolve():
    assert "sitas-solitaire" in mancala.variants()
    for name in ("sitas-solitaire", "Sita's Solitaire", "SITA'S SOLITAIRE", "sita", "Sita"):
        assert mancala.variant_info(name)["id"] == "sitas-solitaire"
        assert mancala.Game(name).pits == START


def test_source_first_three_handfuls():
    g = mancala.Game("sita")
    # 1. The 7 marbles into 6, 5, 4, 3, 2, 1 and the other row's 7.
    tr = g.play(0)
    assert steps(tr) == [lift(0, 7)] + [drop(p) for p in (1, 2, 3, 4, 5, 6, 7)]
    assert g.pits == [0, 7, 6, 5, 4, 3, 2, 8, 6, 5, 4, 3, 2, 1]
    # 2. The 6 of the other side into its 5, 4, 3, 2, 1 and our 7.
    assert g.legal_moves() == [8]
    tr = g.play(8)
    assert steps(tr) == [lift(8, 6)] + [drop(p) for p in (9, 10, 11, 12, 13, 0)]
    assert g.pits == [1, 7, 6, 5, 4, 3, 2, 8, 0, 6, 5, 4, 3, 2]
    # 3. "The 6 from your own side": hole No. 6 of the near row, pit 1, now seven marbles.
    assert g.legal_moves() == [1]
    tr = g.play(1)
    assert steps(tr) == [lift(1, 7)] + [drop(p) for p in (2, 3, 4, 5, 6, 7, 8)]
    assert g.pits == [1, 0, 7, 6, 5, 4, 3, 9, 1, 6, 5, 4, 3, 2]
    assert g.legal_moves() == [9]
    assert not g.is_over()


def test_pattern_returns_after_105_handfuls():
    g = mancala.Game("sita")
    for i in range(104):
        g.play(g.legal_moves()[0])
        assert not g.is_over(), "the start pattern came back after %d handfuls" % (i + 1)
        assert g.pits != START
    tr = g.play(g.legal_moves()[0])
    assert steps(tr)[-1] == END
    assert g.pits == START
    assert g.is_over()
    assert g.legal_moves() == []
    out = g.outcome()
    assert out.winner == 0
    assert out.scores == [105]
    assert out.reason == "the start pattern is back"


def test_shifted_patterns_do_not_end_the_game():
    # After 15 handfuls the board shows 1, 2, 3, ... starting in another hole: not the end.
    g = mancala.Game("sita")
    for _ in range(15):
        g.play(g.legal_moves()[0])
    p = g.pits
    assert any(p[i:] + p[:i] == START for i in range(1, 14))
    assert not g.is_over()


def test_only_the_next_hole_may_be_lifted():
    g = mancala.Game("sita")
    with pytest.raises(mancala.IllegalMoveError, match="lifts the hole after the last marble"):
        g.play(7)
    g.play(0)
    with pytest.raises(mancala.IllegalMoveError):
        g.play(0)            # empty now


def test_undo_restores_the_next_hole():
    g = mancala.Game("sita")
    g.play(0)
    g.play(8)
    assert g.legal_moves() == [1]
    assert g.undo() == 8
    assert g.legal_moves() == [8]
    assert g.undo() == 0
    assert g.pits == START and g.legal_moves() == [0]


def test_next_hole_given_with_the_position():
    pits = [0, 7, 6, 5, 4, 3, 2, 8, 6, 5, 4, 3, 2, 1]
    g = mancala.Game("sita", pits=pits, next_pit=8)
    assert g.legal_moves() == [8]
    with pytest.raises(mancala.PositionError):
        mancala.Game("sita", pits=pits, next_pit=14)


def test_position_text_keeps_the_next_hole():
    g = mancala.Game("sita")
    g.play(0)
    text = mancala.to_text(g)
    assert text.endswith("next=8")
    h = mancala.from_text(text)
    assert h.pits == g.pits and h.legal_moves() == [8]
    with pytest.raises(mancala.PositionError):
        mancala.from_text(text.replace("next=8", "next=x"))
    with pytest.raises(mancala.PositionError):
        mancala.from_text(text.replace("next=8", "hole=8"))


def test_stuck_when_the_next_hole_is_empty():
    # Not reachable from the start: two marbles into pits 1 and 2, and pit 3 is empty.
    g = mancala.Game("sita", pits=[2] + [0] * 13)
    tr = g.play(0)
    assert steps(tr) == [lift(0, 2), drop(1), drop(2), END]
    assert g.is_over()
    out = g.outcome()
    assert out.winner is None
    assert out.reason.startswith("stuck")
    assert g.pits == [0, 1, 1] + [0] * 11      # the marbles stay where they are


def test_a_position_off_the_cycle_ends_after_the_full_period():
    # Three holes a row (period 21): this position cycles forever without the pattern.
    g = mancala.Game("sita", pits=[0, 1, 0, 1, 2, 1], pits_per_row=3, next_pit=4)
    for _ in range(20):
        g.play(g.legal_moves()[0])
        assert not g.is_over()
    g.play(g.legal_moves()[0])
    assert g.is_over()
    assert g.outcome().winner is None
    assert "cannot come back" in g.outcome().reason


def test_smaller_board_option():
    g = mancala.Game("sita", pits_per_row=3)
    assert g.pits == [3, 2, 1, 3, 2, 1]
    n = 0
    while not g.is_over():
        g.play(g.legal_moves()[0])
        n += 1
    assert n == 21
    assert g.outcome().winner == 0
    with pytest.raises(mancala.PositionError):
        mancala.Game("sita", pits_per_row=1)


def test_too_many_marbles_or_a_stored_one_is_refused():
    with pytest.raises(mancala.PositionError):
        mancala.Game("sita", pits=[7] * 14)
    with pytest.raises(mancala.PositionError):
        mancala.Game("sita", pits=START[:-1] + [0], stores=[1])


def test_notation():
    g = mancala.Game("sita")
    assert g.move_name(0) == "A" and g.move_name(7) == "a" and g.move_name(13) == "g"
    for p in range(14):
        assert g.parse_move(g.move_name(p)) == p
    with pytest.raises(mancala.NotationError):
        g.parse_move("H")
