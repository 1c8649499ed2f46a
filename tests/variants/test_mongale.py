"""Mongale (Mombasa): only its start is recorded (Diagram g); it is played with Kombe's rules.

Rules and decisions: docs/variants/mongale.md (source 004 · 7 - MOMBASA, MONGALE).
Board 4x8 numbered as Omweso: A-H = pits 0-7, I-P = 8-15 (front, from the right).
"""
from functools import partial

import mancala
from tracesteps import printed, side_of, steps

HAND = mancala.HAND
side = partial(side_of, 16)   # one player's pits from letters: side(H=2, J=1), either case


def test_diagram_g_start():
    rows = ((4, 4, 4, 0, 0, 0, 0, 0),
            (2, 2, 2, 0, 7, 0, 0, 7),
            (7, 0, 0, 7, 0, 2, 2, 2),
            (0, 0, 0, 0, 0, 4, 4, 4))
    g = mancala.Game("mongale", race="none")
    assert g.pits == printed(rows) and sum(g.pits) == 64
    assert g.pits[:16] == side(F=4, G=4, H=4, I=2, J=2, K=2, M=7, P=7)
    assert g.pits[16:] == g.pits[:16]
    assert mancala.Game("Mombasa", race="none").id == "mongale"


def test_first_moves_from_diagram_g():
    g = mancala.Game("mongale", race="none")
    # Every pit of two or more, none with a choice yet, and a pass.
    assert g.legal_moves() == [5, 6, 7, 8, 9, 10, 12, 15, ("pass",)]
    tr = steps(g.copy().play(7))
    assert tr[:5] == [("lift", 7, 4, -1), ("drop", 8, 1, -1), ("drop", 9, 1, -1), ("drop", 10, 1, -1), ("drop", 11, 1, -1)]


def test_kombe_rules_front_pit_only_and_reverse_start():
    g = mancala.Game("mongale", pits=side(H=2, J=1, A=2) + side(O=3, B=2, F=2))
    tr = steps(g.play(7))
    assert ("take", 30, 3, HAND) in tr and not any(s[0] == "take" and s[1] == 17 for s in tr)
    g = mancala.Game("mongale", pits=side(P=3, M=1, A=2) + side(L=2, E=1, H=2))
    assert (15, "r") in g.legal_moves()


def test_racing_start_from_diagram_g():
    g = mancala.Game("mongale")
    assert g.phase == "setup" and g.legal_moves() == [("race",)]
    tr = steps(g.play(("race",)))
    assert tr[:2] == [("lift", 7, 4, -1), ("lift", 23, 4, -1)]
    assert g.phase == "play" and sum(g.pits) == 64
