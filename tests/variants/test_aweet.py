"""Aweet (Dinka): Coro on a four-by-ten board.

Rules and decisions: docs/variants/aweet.md (source 004 · 10 - DINKA (SUDAN), AWEET).
Board 4x10: player 0's back row A-J = pits 0-9 (from his left), front row K-T = 10-19
(from his right); player 1's a-t = 20-39; front pit i faces 49-i.
"""
from functools import partial

import pytest

import mancala
from tracesteps import side_of, steps

HAND = mancala.HAND
side = partial(side_of, 20)   # one player's pits from letters: side(H=2, J=1), either case


def test_board_and_starts():
    g = mancala.Game("aweet", race="none")
    assert (g.rows, g.pits_per_row, g.n_pits) == (4, 10, 40)
    assert g.pits == [2] * 40 and sum(g.pits) == 80
    b = mancala.Game("aweet", start="b", race="none")
    assert b.pits[:20] == [0, 4] * 10 and b.pits[20:] == b.pits[:20]
    f = mancala.Game("aweet", start="free", race="none")
    assert f.outside() == 80 and f.legal_moves() == [("place", i) for i in range(20)]
    assert mancala.Game("Dinka", race="none").id == "aweet"
    assert g.opposite(10) == 39 and g.behind(39) == 20 and g.move_name(19) == "T"


def test_coro_capture_on_ten_columns():
    # J (back right) -> K, L; L held 1 and faces s (pit 38), behind it b (pit 21).
    g = mancala.Game("aweet", pits=side(J=2, L=1, A=2) + side(S=2, B=1, F=2))
    assert g.opposite(11) == 38 and g.behind(38) == 21
    tr = steps(g.play(9))
    assert tr == ([("lift", 9, 2, -1), ("drop", 10, 1, -1), ("drop", 11, 1, -1),
                   ("take", 38, 2, HAND), ("take", 21, 1, HAND), ("take", 11, 2, HAND)]
                  + [("drop", p, 1, -1) for p in range(10, 15)])
    assert g.pits[20:] == side(F=2)


def test_reverse_from_the_left_hand_front_pits():
    # The marked pits on ten columns are S and T (18, 19).
    # P (15) -> Q, R, S, T; T held 2; clockwise S, R, Q ends in Q (1 -> 2) facing n and g.
    g = mancala.Game("aweet", pits=side(P=4, T=2, A=2) + side(N=2, G=1, H=2))
    assert g.opposite(16) == 33 and g.behind(33) == 26
    assert (15, "r") in g.legal_moves()
    tr = steps(g.play((15, "r")))
    assert tr[5:9] == [("relay", 19, 3, -1), ("drop", 18, 1, -1), ("drop", 17, 1, -1), ("drop", 16, 1, -1)]


def test_bad_start():
    with pytest.raises(mancala.PositionError):
        mancala.Game("aweet", start="f")
