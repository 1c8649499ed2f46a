"""Mankaleh (Lebanon, Syria): captures on 2, 4, 6 with runs; no single-pebble move before two in home.

Rules and decisions: docs/variants/mankaleh.md (source 000 · MANKALEH).
Board: pits 0-6 player 0 (A-G = wells No. 1-7), 7-13 player 1 (a-g); homes are cells 14, 15.
"""
import pytest

import mancala
from tracesteps import END, PASS, drop, lift, make_play, relay, steps, take

H0, H1 = 14, 15

play = make_play("mankaleh", into=(H0, H1))   # Mankaleh takes pebbles only into a home


# ----- the board ---------------------------------------------------------

def test_start_position():
    g = mancala.Game("mankaleh")
    assert g.pits == [7] * 14
    assert g.stores == [0, 0]
    assert sum(g.pits) == 98
    assert g.players == 2
    assert g.to_move == 0
    assert g.legal_moves() == [0, 1, 2, 3, 4, 5, 6]
    assert [g.owner(p) for p in range(14)] == [0] * 7 + [1] * 7


def test_names_resolve():
    assert "mankaleh" in mancala.variants()
    for name in ("Mankaleh", "MANKALEH", "mankaleh"):
        assert mancala.Game(name).pits == [7] * 14


def test_opening_move_stops_in_the_opponents_well():
    g = mancala.Game("mankaleh")
    tr = g.play(0)
    # Homes are not sown: the seventh pebble goes from well G (pit 6) straight to a (pit 7).
    assert steps(tr) == [lift(0, 7)] + [drop(p) for p in range(1, 8)]
    assert g.pits == [0, 8, 8, 8, 8, 8, 8, 8, 7, 7, 7, 7, 7, 7]
    assert g.stores == [0, 0]  # 8 is even but not 2, 4 or 6: no capture
    assert g.to_move == 1


# ----- the source's worked examples --------------------------------------

def test_source_example_run_of_twos():
    # Player 0 ends with 2 in each of his wells No. 4-7 (pits 3-6) and eats them all.
    pits = [3, 0, 4, 1, 1, 1, 1, 5, 5, 5, 5, 5, 5, 5]
    g, s = play(pits, 2)
    assert s == [lift(2, 4), drop(3), drop(4), drop(5), drop(6),
                 take(6, 2, H0), take(5, 2, H0), take(4, 2, H0), take(3, 2, H0)]
    assert g.pits == [3, 0, 0, 0, 0, 0, 0, 5, 5, 5, 5, 5, 5, 5]
    assert g.stores == [8, 0]
    assert g.to_move == 1


def test_source_example_run_across_the_board():
    # Ends with 6, 2 in his wells No. 6, 7 and 2, 4, 2 in the opponent's wells No. 1-3:
    # all five wells are taken, the run crossing from a (pit 7) back to G (pit 6).
    pits = [3, 3, 3, 3, 5, 5, 1, 1, 3, 1, 5, 5, 5, 5]
    g, s = play(pits, 4)
    assert s == [lift(4, 5), drop(5), drop(6), drop(7), drop(8), drop(9),
                 take(9, 2, H0), take(8, 4, H0), take(7, 2, H0), take(6, 2, H0), take(5, 6, H0)]
    assert g.pits == [3, 3, 3, 3, 0, 0, 0, 0, 0, 0, 5, 5, 5, 5]
    assert g.stores == [16, 0]


def test_source_example_odd_well_stops_the_run():
    # As above, but the opponent's well No. 1 ends with 3: taken only up to it.
    pits = [3, 3, 3, 3, 5, 5, 1, 2, 3, 1, 5, 5, 5, 5]
    g, s = play(pits, 4)
    assert s == [lift(4, 5), drop(5), drop(6), drop(7), drop(8), drop(9),
                 take(9, 2, H0), take(8, 4, H0)]
    assert g.pits == [3, 3, 3, 3, 0, 6, 2, 3, 0, 0, 5, 5, 5, 5]
    assert g.stores == [6, 0]


# ----- captures ------------------------------------------------------------

def test_capture_on_own_side_with_six_and_four():
    pits = [2, 3, 5, 0, 0, 0, 0, 5, 5, 5, 5, 5, 5, 5]
    g, s = play(pits, 0)
    assert s == [lift(0, 2), drop(1), drop(2), take(2, 6, H0), take(1, 4, H0)]
    assert g.stores == [10, 0]
    assert g.to_move == 1


def test_a_well_of_eight_stops_the_run():
    pits = [0, 0, 0, 0, 0, 2, 7, 1, 5, 5, 5, 5, 5, 5]
    g, s = play(pits, 5)
    assert s == [lift(5, 2), drop(6), drop(7), take(7, 2, H0)]
    assert g.pits == [0, 0, 0, 0, 0, 0, 8, 0, 5, 5, 5, 5, 5, 5]
    assert g.stores == [2, 0]


def test_run_wraps_round_the_end_of_the_ring():
    # Player 1 sows from f (pit 12) into g, A, B; the run goes back B, A, g.
    pits = [1, 1, 0, 3, 0, 0, 0, 5, 5, 5, 5, 5, 3, 1]
    g, s = play(pits, 12, to_move=1)
    assert s == [lift(12, 3), drop(13), drop(0), drop(1),
                 take(1, 2, H1), take(0, 2, H1), take(13, 2, H1)]
    assert g.pits == [0, 0, 0, 3, 0, 0, 0, 5, 5, 5, 5, 5, 0, 0]
    assert g.stores == [0, 6]
    assert g.to_move == 0


def test_odd_last_well_on_the_opponents_side_ends_the_turn():
    pits = [0, 0, 0, 0, 0, 0, 2, 2, 2, 5, 5, 5, 5, 5]
    g, s = play(pits, 6)
    assert s == [lift(6, 2), drop(7), drop(8)]
    assert g.pits == [0, 0, 0, 0, 0, 0, 0, 3, 3, 5, 5, 5, 5, 5]
    assert g.stores == [0, 0]
    assert g.to_move == 1


# ----- going on from one's own well ---------------------------------------

def test_ending_in_an_occupied_own_well_continues_from_it():
    pits = [2, 0, 2, 0, 0, 0, 0, 5, 5, 5, 5, 5, 5, 5]
    g, s = play(pits, 0)
    assert s == [lift(0, 2), drop(1), drop(2), relay(2, 3), drop(3), drop(4), drop(5)]
    assert g.pits == [0, 1, 0, 1, 1, 1, 0, 5, 5, 5, 5, 5, 5, 5]
    assert g.to_move == 1  # the relay ended in his own empty well


def test_a_relay_can_end_in_a_capture_run():
    pits = [0, 0, 0, 0, 2, 0, 2, 1, 5, 5, 5, 5, 5, 5]
    g, s = play(pits, 4)
    assert s == [lift(4, 2), drop(5), drop(6), relay(6, 3), drop(7), drop(8), drop(9),
                 take(9, 6, H0), take(8, 6, H0), take(7, 2, H0)]
    assert g.pits == [0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 5, 5, 5, 5]
    assert g.stores == [14, 0]
    assert g.to_move == 1


def test_an_own_well_of_eight_continues_rather_than_captures():
    pits = [2, 0, 7, 0, 0, 0, 0, 5, 5, 5, 0, 5, 5, 5]
    g, s = play(pits, 0)
    assert s == ([lift(0, 2), drop(1), drop(2), relay(2, 8)]
                 + [drop(p) for p in (3, 4, 5, 6, 7, 8, 9, 10)])
    assert g.pits == [0, 1, 0, 1, 1, 1, 1, 6, 6, 6, 1, 5, 5, 5]
    assert g.stores == [0, 0]
    assert g.to_move == 1


def test_the_emptied_well_is_sown_on_a_long_lap():
    pits = [14] + [0] * 13
    g, s = play(pits, 0, stores=(2, 2))
    assert s == [lift(0, 14)] + [drop(p) for p in range(1, 14)] + [drop(0)]
    assert g.pits == [1] * 14
    assert g.to_move == 1


# ----- the single-pebble rule ----------------------------------------------

def test_no_single_pebble_move_before_two_in_home():
    pits = [1, 0, 0, 0, 0, 0, 3, 5, 5, 5, 5, 5, 5, 5]
    g = mancala.Game("mankaleh", pits=pits, stores=[1, 0])
    assert g.legal_moves() == [6]
    with pytest.raises(mancala.IllegalMoveError) as e:
        g.play(0)
    assert "single pebble" in str(e.value)
    assert g.pits == pits


def test_single_pebble_moves_allowed_with_two_in_home():
    pits = [1, 0, 0, 0, 0, 0, 3, 5, 5, 5, 5, 5, 5, 5]
    g = mancala.Game("mankaleh", pits=pits, stores=[2, 0])
    assert g.legal_moves() == [0, 6]
    g2, s = play(pits, 0, stores=(2, 0))
    assert s == [lift(0, 1), drop(1)]
    assert g2.to_move == 1


def test_the_rule_looks_at_the_movers_own_home():
    pits = [5, 5, 5, 5, 5, 5, 5, 1, 0, 0, 0, 0, 0, 3]
    g = mancala.Game("mankaleh", pits=pits, stores=[10, 0], to_move=1)
    assert g.legal_moves() == [13]


# ----- passing and the end -------------------------------------------------

def test_a_player_who_cannot_move_passes():
    # After player 1's move, player 0 has only single pebbles and nothing in his home.
    pits = [1, 0, 1, 0, 0, 0, 0, 2, 0, 0, 3, 0, 0, 0]
    g, s = play(pits, 10, to_move=1)
    assert s == [lift(10, 3), drop(11), drop(12), drop(13), PASS]
    assert g.to_move == 1
    assert not g.is_over()
    assert g.legal_moves() == [7]


def test_game_ends_when_neither_player_can_move():
    pits = [1, 0, 1, 0, 0, 0, 0, 0, 0, 0, 3, 0, 0, 0]
    # Both are left with single pebbles only and fewer than two in their homes.
    g, s = play(pits, 10, stores=(1, 1), to_move=1)
    assert s == [lift(10, 3), drop(11), drop(12), drop(13),
                 take(0, 1, H0), take(2, 1, H0), take(11, 1, H1), take(12, 1, H1), take(13, 1, H1), END]
    assert g.is_over()
    assert g.stores == [3, 4]
    assert g.outcome().winner == 1
    assert g.outcome().scores == [3, 4]


def test_game_ends_when_fewer_than_two_pebbles_remain():
    pits = [0, 0, 0, 0, 0, 0, 2, 0, 1, 0, 0, 0, 0, 0]
    g, s = play(pits, 6, stores=(48, 47))
    assert s == [lift(6, 2), drop(7), drop(8), take(8, 2, H0), take(7, 1, H1), END]
    assert g.pits == [0] * 14
    assert g.stores == [50, 48]
    assert g.outcome().winner == 0


def test_equal_homes_are_a_draw():
    g = mancala.Game("mankaleh", pits=[0] * 14, stores=[49, 49])
    assert g.is_over()
    assert g.outcome().winner is None


# ----- illegal moves, notation, undo --------------------------------------

def test_illegal_moves_are_refused():
    g = mancala.Game("mankaleh", pits=[0, 2, 3, 0, 5, 0, 0, 0, 5, 0, 5, 0, 0, 0])
    for bad in (0, 3, 7, 8, 14, -1, (1, 1), "B"):
        with pytest.raises(mancala.IllegalMoveError):
            g.play(bad)


def test_notation():
    g = mancala.Game("mankaleh")
    assert [g.move_name(m) for m in g.legal_moves()] == ["A", "B", "C", "D", "E", "F", "G"]
    h = mancala.Game("mankaleh", to_move=1)
    assert [h.move_name(m) for m in h.legal_moves()] == ["a", "b", "c", "d", "e", "f", "g"]
    assert h.parse_move("a") == 7
    assert g.parse_move("G") == 6
    for x in (g, h):
        for m in x.legal_moves():
            assert x.parse_move(x.move_name(m)) == m


def test_undo_restores_the_position():
    pits = [3, 0, 4, 1, 1, 1, 1, 5, 5, 5, 5, 5, 5, 5]
    g = mancala.Game("mankaleh", pits=pits)
    g.play(2)
    assert g.undo() == 2
    assert g.pits == pits
    assert g.stores == [0, 0]
    assert g.to_move == 0
