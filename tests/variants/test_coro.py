"""Coro (Lango): Omweso in which a capture also takes the capturing pit's own seeds.

Rules and decisions: docs/variants/coro.md (source 004 · 5 - LANGO (UGANDA), CORO).
Board 4x8 numbered as Omweso: A-H = pits 0-7 (back), I-P = 8-15 (front, from the right);
player 1's a-p = 16-31.
"""
from functools import partial

import mancala
from tracesteps import drops, lift, relay, side_of, steps, take

side = partial(side_of, 16)   # one player's pits from letters: side(H=2, J=1), either case


def game(p0, p1, name="coro", **options):
    return mancala.Game(name, pits=p0 + p1, **options)


def test_start_and_aliases():
    g = mancala.Game("Lango", race="none")
    assert g.id == "coro" and g.pits == [2] * 32
    assert mancala.Game("coro", start="b", race="none").pits == mancala.Game("omweso", start="b", race="none").pits


def test_capture_takes_the_own_pit_too():
    g = game(side(H=2, J=1, A=2), side(O=3, B=2, F=2))
    assert steps(g.play(7)) == [lift(7, 2)] + drops(8, 9) + [take(30, 3), take(17, 2), take(9, 2)] + drops(8, 9, 10, 11, 12, 13, 14)
    assert g.pits[:16] == side(A=2, I=2, J=1, K=1, L=1, M=1, N=1, O=1)
    # Omweso keeps the capturing pit's seeds.
    o = game(side(H=2, J=1, A=2), side(O=3, B=2, F=2), name="omweso")
    o.play(7)
    assert o.pits[:16] == side(A=2, I=2, J=3, K=1, L=1, M=1)


def test_no_capture_twin_and_decline():
    g = game(side(H=2, J=1, A=2), side(O=3, F=2))
    assert steps(g.play(7)) == [lift(7, 2)] + drops(8, 9) + [relay(9, 2)] + drops(10, 11)
    g = game(side(H=2, J=1, A=2), side(O=3, B=2, F=2))
    assert (7, "n") in g.legal_moves()        # declined, J is sown on (K, L: empty, sleep)
    assert steps(g.play((7, "n"))) == [lift(7, 2)] + drops(8, 9) + [relay(9, 2)] + drops(10, 11)
    g = game(side(H=2, J=1, A=2), side(O=3, B=2, F=2), declined="sleep")
    assert (7, "s") in g.legal_moves()
    assert steps(g.play((7, "s"))) == [lift(7, 2)] + drops(8, 9)


def test_reverse_capture_takes_the_own_pit_too():
    g = game(side(L=4, P=2, A=2), side(L=2, E=1, H=2))
    assert steps(g.play((11, "r"))) == ([lift(11, 4)] + drops(12, 13, 14, 15) + [relay(15, 3)] + drops(14, 13, 12)
                                         + [take(27, 2), take(20, 1), take(12, 2)] + drops(14, 15, 0, 1, 2))
    assert g.pits[:16] == side(A=3, B=1, C=1, N=2, O=3, P=1)
