"""Kombe (Lamu): Omweso with captures of the opponent's front pit only, indirect reverse
captures (clockwise relays until a capture), and moves that may begin in reverse.

Rules and decisions: docs/variants/kombe.md (source 004 · 6 - LAMU, KOMBE).
Board 4x8 numbered as Omweso: player 0's A-H = pits 0-7 (back, from his left), I-P =
pits 8-15 (front, from his right); player 1's a-p = 16-31.  Marked pits: O, P, o, p.
"""
from functools import partial

import pytest

import mancala
from mancala import MoveInProgress, Step
from tracesteps import drop, drops, lift, play_steps as play, printed, relay, side_of, take

side = partial(side_of, 16)   # one player's pits from letters: side(H=2, J=1), either case


def game(p0, p1, name="kombe"):
    return mancala.Game(name, pits=p0 + p1)


def test_diagram_f_start():
    rows = ((5, 5, 5, 5, 0, 0, 0, 0),
            (2, 2, 2, 6, 0, 0, 0, 0),
            (0, 0, 0, 0, 6, 2, 2, 2),
            (0, 0, 0, 0, 5, 5, 5, 5))
    g = mancala.Game("kombe", race="none")
    assert g.pits == printed(rows) and sum(g.pits) == 64
    assert g.pits[:16] == side(E=5, F=5, G=5, H=5, I=2, J=2, K=2, L=6)
    assert g.pits[16:] == g.pits[:16]
    assert mancala.Game("Lamu", race="none").id == "kombe"
    with pytest.raises(mancala.PositionError, match="start"):
        mancala.Game("kombe", start="c")


def test_capture_takes_the_front_pit_only():
    g = game(side(H=2, J=1, A=2), side(O=3, B=2, F=2))
    assert play(g, 7) == [lift(7, 2)] + drops(8, 9) + [take(30, 3)] + drops(8, 9, 10)
    assert g.pits[16:] == side(B=2, F=2)          # the back pit keeps its seeds
    # The same position in Omweso takes b too.
    o = game(side(H=2, J=1, A=2), side(O=3, B=2, F=2), name="omweso")
    assert take(17, 2) in play(o, 7)


def test_capture_conditions_unchanged_back_pit_must_hold_seeds():
    g = game(side(H=2, J=1, A=2), side(O=3, F=2))
    assert play(g, 7) == [lift(7, 2)] + drops(8, 9) + [relay(9, 2)] + drops(10, 11)


INDIRECT = (side(L=4, P=2, K=1, A=2), side(N=1, C=1, H=2))


def test_indirect_reverse_capture_in_the_middle_of_a_move():
    g = game(*INDIRECT)
    assert g.legal_moves() == [0, 11, (11, "r"), 15, ("pass",)]
    # Clockwise from P: O, N, M (1 -> 2, facing l, empty: no capture), relay M clockwise:
    # L, K (1 -> 2, facing n and c): capture n, sown from L counter-clockwise.
    assert play(g, (11, "r")) == (
        [lift(11, 4)] + drops(12, 13, 14, 15) + [relay(15, 3)] + drops(14, 13, 12) + [relay(12, 2)] + drops(11, 10)
        + [take(29, 1)] + drops(11) + [relay(11, 2)] + drops(12, 13) + [relay(13, 3)] + drops(14, 15, 0)
        + [relay(0, 3)] + drops(1, 2, 3))
    assert g.pits[16:] == side(C=1, H=2)


def test_omweso_allows_only_direct_reverse_captures():
    g = game(*INDIRECT, name="omweso")
    assert (11, "r") not in g.legal_moves()


def test_a_move_may_begin_in_reverse():
    g = game(side(P=3, M=1, A=2), side(L=2, E=1, H=2))
    assert g.legal_moves() == [0, 15, (15, "r"), ("pass",)]
    assert play(g, (15, "r")) == [lift(15, 3)] + drops(14, 13, 12) + [take(27, 2)] + drops(14, 15)
    g = game(side(P=3, M=1, A=2), side(L=2, E=1, H=2))
    assert play(g, 15) == [lift(15, 3)] + drops(0, 1, 2)


def test_no_reverse_that_sleeps():
    g = game(side(P=3, A=2), side(L=2, E=1, H=2))        # M empty: clockwise ends in it
    assert (15, "r") not in g.legal_moves()
    with pytest.raises(mancala.IllegalMoveError):
        g.play((15, "r"))


def test_no_reverse_round_the_left_hand_end():
    # Clockwise from P: 9 seeds end in G (1 -> 2); relays G -> F, E; E -> D, C; C -> B, A;
    # A (2) would go round the left-hand end into P, O, where O (3 by then) faces j and g,
    # both full - a capture the rule forbids reaching.
    g = game(side(P=9, G=1, E=1, C=1, A=1, O=1), side(J=1, G=1, A=2))
    assert g.opposite(14) == 25 and g.behind(25) == 22
    assert g.legal_moves() == [15, ("pass",)]


def test_stepping_through_the_start_choice():
    g = game(side(P=3, M=1, A=2), side(L=2, E=1, H=2))
    mv = MoveInProgress(g)
    mv.advance(Step(*lift(15, 3)))
    assert sorted(mv.options()) == sorted([Step(*drop(0)), Step(*drop(14))])
    mv.advance(Step(*drop(14)))
    assert mv.moves() == [(15, "r")]
    while not mv.done():
        mv.advance(mv.forced())
    assert mv.finish()[-1] == Step(*drop(15))


def test_notation():
    g = game(*INDIRECT)
    assert g.move_name((11, "r")) == "L/r" and g.parse_move("L/r") == (11, "r")
    assert g.parse_move("L/n") == 11
