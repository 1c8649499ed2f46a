"""Mongola (Congo, after Driedger): Omweso on four rows of seven, where a last seed only
drops into a pit already holding two (else it goes into the next pit and the player
sleeps), so a capture needs two seeds already in the pit.

Rules and decisions: docs/variants/mongola-driedger.md (source 004 · 8 - CONGO, MONGOLA).
Board 4x7: player 0's back row A-G = pits 0-6 (from his left), front row H-N = 7-13
(from his right); player 1's a-n = 14-27; front pit i faces 34-i.
"""
from functools import partial

import mancala
from tracesteps import drops, lift, play_steps as play, relay, side_of, skip, steps, take

side = partial(side_of, 14)   # one player's pits from letters: side(H=2, J=1), either case


def game(p0, p1, **options):
    return mancala.Game("mongola-driedger", pits=p0 + p1, **options)


def test_diagram_h_start():
    rows = ((4, 0, 4, 0, 4, 0, 4),
            (0, 4, 0, 4, 0, 4, 0),
            (0, 4, 0, 4, 0, 4, 0),
            (4, 0, 4, 0, 4, 0, 4))
    back1, front1, front0, back0 = rows
    printed = list(back0) + list(reversed(front0)) + list(reversed(back1)) + list(front1)
    g = mancala.Game("mongola-driedger", race="none")
    assert (g.rows, g.pits_per_row, g.n_pits) == (4, 7, 28)
    assert g.pits == printed and sum(g.pits) == 56
    assert g.pits[:14] == side(A=4, C=4, E=4, G=4, I=4, K=4, M=4)
    assert mancala.Game("congo mongola", race="none").id == "mongola-driedger"
    assert g.opposite(7) == 27 and g.behind(7) == 6


def test_a_last_seed_passes_an_empty_pit_and_the_player_sleeps():
    g = game(side(A=2, D=3), side(A=2))
    assert play(g, 0) == [lift(0, 2)] + drops(1) + [skip(2)] + drops(3)
    assert g.pits[:14] == side(B=1, D=4) and g.to_move == 1     # D held 3: no relay all the same


def test_a_last_seed_passes_a_pit_of_one():
    g = game(side(A=2, C=1, D=2), side(A=2))
    assert play(g, 0) == [lift(0, 2)] + drops(1) + [skip(2)] + drops(3)
    assert g.pits[:14] == side(B=1, C=1, D=3)


def test_a_last_seed_into_a_pit_of_two_relays():
    g = game(side(A=2, C=2), side(A=2))
    assert play(g, 0) == [lift(0, 2)] + drops(1, 2) + [relay(2, 3)] + drops(3, 4) + [skip(5)] + drops(6)


def test_capture_from_a_pit_that_held_two():
    # G -> H, I; I held 2 and faces m (pit 26), behind it b (pit 15): both taken, sown from H.
    g = game(side(G=2, I=2), side(M=1, B=1, A=2))
    assert g.opposite(8) == 26 and g.behind(26) == 15
    assert g.legal_moves() == [6, (6, "n"), 8, ("pass",)]
    assert game(side(G=2, I=2), side(M=1, B=1, A=2), declined="sleep").legal_moves() == [6, (6, "s"), 8, ("pass",)]
    assert play(g, 6) == ([lift(6, 2)] + drops(7, 8) + [take(26, 1), take(15, 1)] + drops(7, 8)
                          + [relay(8, 4)] + drops(9, 10, 11) + [skip(12)] + drops(13))


def test_no_capture_with_a_moved_on_seed():
    # F -> G, then H holds 1: the last seed passes it into I (2 -> 3), facing a full column,
    # but a moved-on seed never captures: the player sleeps.
    g = game(side(F=2, H=1, I=2), side(M=1, B=1, A=2))
    assert play(g, 5) == [lift(5, 2)] + drops(6) + [skip(7)] + drops(8)
    assert g.pits[14:] == side(M=1, B=1, A=2) and g.to_move == 1


def test_race_from_diagram_h():
    g = mancala.Game("mongola-driedger")
    assert g.legal_moves() == [("race",)]
    tr = steps(g.play(("race",)))
    assert tr[:2] == [lift(6, 4), lift(20, 4)]
    assert g.phase == "play" and sum(g.pits) == 56
