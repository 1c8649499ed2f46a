"""Adi (Gold Coast): relay sowing, fours won by the side's owner, the eight-left rule.

Rules and decisions: docs/variants/adi.md (source 000 · THE AFRICAN GAME OF ADI).
Board: pits 0-5 player 0 (A-F), 6-11 player 1 (a-f); treasuries are cells 12 and 13.
"""
import pytest

import mancala
from tracesteps import END, PASS, drop, lift, make_play, relay, steps, take

S0, S1 = 12, 13

play = make_play("adi", into=(S0, S1))   # Adi takes seeds only into a treasury


# ----- the board ---------------------------------------------------------

def test_start_position():
    g = mancala.Game("adi")
    assert g.pits == [4] * 12
    assert g.stores == [0, 0]
    assert g.players == 2
    assert g.to_move == 0
    assert g.legal_moves() == [0, 1, 2, 3, 4, 5]
    assert [g.owner(p) for p in range(12)] == [0] * 6 + [1] * 6
    assert not g.is_over()


def test_either_player_may_begin():
    g = mancala.Game("adi", to_move=1)
    assert g.legal_moves() == [6, 7, 8, 9, 10, 11]


def test_names_resolve():
    assert "adi" in mancala.variants()
    for name in ("Adi", "ADI", "african game of adi", "African-Game-of-Adi"):
        assert mancala.Game(name).pits == [4] * 12


# ----- sowing and relays -------------------------------------------------

def test_opening_move_relays_until_an_empty_house():
    g = mancala.Game("adi")
    tr = g.play(0)
    assert steps(tr) == (
        [lift(0, 4)] + [drop(p) for p in (1, 2, 3, 4)]
        + [relay(4, 5)] + [drop(p) for p in (5, 6, 7, 8, 9)]
        + [relay(9, 5)] + [drop(p) for p in (10, 11, 0, 1, 2)]
        + [relay(2, 6)] + [drop(p) for p in (3, 4, 5, 6, 7, 8)]
        + [relay(8, 6)] + [drop(p) for p in (9, 10, 11, 0, 1, 2)])
    assert g.pits == [2, 7, 1, 6, 1, 6, 6, 6, 0, 1, 6, 6]
    assert g.stores == [0, 0]
    assert g.to_move == 1


def test_last_seed_in_an_empty_house_ends_the_turn():
    pits = [2, 0, 0, 0, 0, 0, 0, 0, 5, 0, 5, 0]
    g, s = play(pits, 0)
    assert s == [lift(0, 2), drop(1), drop(2)]
    assert g.pits == [0, 1, 1, 0, 0, 0, 0, 0, 5, 0, 5, 0]
    assert g.to_move == 1


def test_last_seed_in_an_occupied_house_relays():
    pits = [2, 0, 1, 0, 0, 0, 0, 0, 5, 0, 5, 0]
    g, s = play(pits, 0)
    assert s == [lift(0, 2), drop(1), drop(2), relay(2, 2), drop(3), drop(4)]
    assert g.pits == [0, 1, 0, 1, 1, 0, 0, 0, 5, 0, 5, 0]
    assert g.to_move == 1


def test_the_emptied_house_is_sown_on_a_long_lap():
    pits = [12] + [0] * 11
    g, s = play(pits, 0)
    assert s == [lift(0, 12)] + [drop(p) for p in range(1, 12)] + [drop(0)]
    assert g.pits == [1] * 12
    assert g.to_move == 1


def test_single_seeds_may_be_played():
    g = mancala.Game("adi", pits=[1, 2, 3, 0, 5, 0, 0, 0, 5, 0, 5, 0])
    assert g.legal_moves() == [0, 1, 2, 4]


# ----- fours ---------------------------------------------------------------

def test_four_made_by_the_last_seed_goes_to_the_sower_even_on_the_opponents_side():
    pits = [0, 0, 0, 0, 0, 1, 3, 0, 5, 0, 5, 0]
    g, s = play(pits, 5)
    assert s == [lift(5, 1), drop(6), take(6, 4, S0)]
    assert g.stores == [4, 0]
    assert g.pits == [0, 0, 0, 0, 0, 0, 0, 0, 5, 0, 5, 0]
    assert g.to_move == 1  # the four ends the turn: no relay from the emptied house


def test_four_made_on_the_way_goes_to_the_houses_owner():
    # Player 0 sows; the four appears on player 1's side, so player 1 takes it.
    pits = [0, 0, 0, 0, 0, 2, 3, 0, 5, 0, 5, 0]
    g, s = play(pits, 5)
    assert s == [lift(5, 2), drop(6), take(6, 4, S1), drop(7)]
    assert g.stores == [0, 4]
    assert g.pits == [0, 0, 0, 0, 0, 0, 0, 1, 5, 0, 5, 0]
    assert g.to_move == 1


def test_four_made_on_the_way_on_the_movers_side_goes_to_the_mover():
    pits = [2, 3, 0, 0, 0, 0, 0, 0, 5, 0, 5, 0]
    g, s = play(pits, 0)
    assert s == [lift(0, 2), drop(1), take(1, 4, S0), drop(2)]
    assert g.stores == [4, 0]
    assert g.pits == [0, 0, 1, 0, 0, 0, 0, 0, 5, 0, 5, 0]


def test_four_made_on_the_way_during_player_1s_turn_goes_to_player_0():
    pits = [3, 0, 0, 0, 5, 0, 0, 0, 5, 0, 0, 2]
    g, s = play(pits, 11, to_move=1)
    assert s == [lift(11, 2), drop(0), take(0, 4, S0), drop(1)]
    assert g.stores == [4, 0]
    assert g.to_move == 0


def test_four_made_by_the_last_seed_of_a_relay():
    pits = [0, 0, 0, 0, 2, 1, 1, 0, 3, 0, 5, 5]
    g, s = play(pits, 4)
    assert s == [lift(4, 2), drop(5), drop(6), relay(6, 2), drop(7), drop(8), take(8, 4, S0)]
    assert g.pits == [0, 0, 0, 0, 0, 2, 0, 1, 0, 0, 5, 5]
    assert g.stores == [4, 0]
    assert g.to_move == 1


def test_a_house_already_holding_four_is_not_won():
    pits = [1, 4, 0, 0, 0, 0, 0, 0, 5, 0, 5, 0]
    g, s = play(pits, 0)
    assert s == [lift(0, 1), drop(1), relay(1, 5), drop(2), drop(3), drop(4), drop(5), drop(6)]
    assert g.pits == [0, 0, 1, 1, 1, 1, 1, 0, 5, 0, 5, 0]
    assert g.stores == [0, 0]


def test_a_house_is_won_once_then_sown_again_in_the_same_handful():
    # 13 seeds from pit 2: pit 3 reaches four at the first drop and is taken by player 0;
    # the lap comes round and drops the 13th seed into the now empty pit 3.
    pits = [0, 0, 13, 3, 0, 0, 0, 0, 0, 0, 0, 0]
    g, s = play(pits, 2)
    assert s == ([lift(2, 13), drop(3), take(3, 4, S0)]
                 + [drop(p) for p in (4, 5, 6, 7, 8, 9, 10, 11, 0, 1, 2, 3)])
    assert g.pits == [1] * 12
    assert g.stores == [4, 0]
    assert g.to_move == 1


# ----- eight left ----------------------------------------------------------

def test_eight_left_the_winner_of_a_four_takes_the_rest():
    pits = [0, 0, 2, 0, 0, 1, 3, 0, 0, 2, 0, 0]
    g, s = play(pits, 5, stores=(20, 20))
    assert s == [lift(5, 1), drop(6), take(6, 4, S0), take(2, 2, S0), take(9, 2, S0), END]
    assert g.pits == [0] * 12
    assert g.stores == [28, 20]
    assert g.is_over()
    o = g.outcome()
    assert o.winner == 0
    assert o.scores == [28, 20]
    assert g.legal_moves() == []


def test_eight_left_won_by_the_other_player_in_mid_sowing():
    # The four appears on player 1's side while player 0 still holds a seed: player 0
    # drops it as usual, then player 1 takes everything left.
    pits = [0, 0, 1, 0, 0, 2, 3, 0, 0, 0, 2, 0]
    g, s = play(pits, 5, stores=(20, 20))
    assert s == [lift(5, 2), drop(6), take(6, 4, S1), drop(7),
                 take(2, 1, S1), take(7, 1, S1), take(10, 2, S1), END]
    assert g.stores == [20, 28]
    assert g.pits == [0] * 12
    assert g.outcome().winner == 1


def test_eight_left_is_counted_when_each_four_is_won():
    # Twelve in play: the first four (on the way, player 0's side) leaves eight; the next
    # four, made by the last seed, is then won with eight left and takes the rest.
    pits = [0, 2, 0, 0, 2, 3, 3, 0, 0, 2, 0, 0]
    g, s = play(pits, 4, stores=(18, 18))
    assert s == [lift(4, 2), drop(5), take(5, 4, S0), drop(6), take(6, 4, S0),
                 take(1, 2, S0), take(9, 2, S0), END]
    assert g.stores == [30, 18]
    assert g.is_over()


def test_no_eight_left_rule_with_twelve_in_play():
    pits = [0, 0, 0, 0, 0, 1, 3, 0, 0, 5, 0, 3]
    g, s = play(pits, 5, stores=(18, 18))
    assert s == [lift(5, 1), drop(6), take(6, 4, S0)]
    assert g.pits == [0, 0, 0, 0, 0, 0, 0, 0, 0, 5, 0, 3]
    assert g.stores == [22, 18]
    assert not g.is_over()
    assert g.to_move == 1


def test_equal_treasuries_are_a_draw():
    pits = [0, 0, 0, 0, 0, 1, 3, 0, 0, 2, 0, 2]
    g, s = play(pits, 5, stores=(16, 24))
    assert g.stores == [24, 24]
    assert g.is_over()
    assert g.outcome().winner is None
    assert g.outcome().scores == [24, 24]


# ----- passing and the end -------------------------------------------------

def test_a_player_without_seeds_passes_and_the_other_plays_again():
    pits = [1, 0, 0, 0, 5, 0, 0, 0, 0, 0, 0, 0]
    g, s = play(pits, 0, stores=(21, 21))
    assert s == [lift(0, 1), drop(1), PASS]
    assert g.to_move == 0
    assert not g.is_over()
    assert g.legal_moves() == [1, 4]


def test_fewer_than_four_seeds_in_the_houses_ends_the_round():
    g = mancala.Game("adi", pits=[1, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0], stores=[20, 25])
    assert g.is_over()
    assert g.legal_moves() == []
    # Each player keeps the seeds on his side.
    assert g.outcome().scores == [21, 27]
    assert g.outcome().winner == 1
    with pytest.raises(mancala.IllegalMoveError):
        g.play(0)


# ----- illegal moves, notation, undo --------------------------------------

def test_illegal_moves_are_refused():
    g = mancala.Game("adi", pits=[0, 2, 3, 0, 5, 0, 0, 0, 5, 0, 5, 0])
    for bad in (0, 3, 6, 8, 12, -1, (1, 1), "B"):
        with pytest.raises(mancala.IllegalMoveError):
            g.play(bad)
    assert g.pits == [0, 2, 3, 0, 5, 0, 0, 0, 5, 0, 5, 0]


def test_notation():
    g = mancala.Game("adi")
    assert [g.move_name(m) for m in range(6)] == ["A", "B", "C", "D", "E", "F"]
    assert g.parse_move("C") == 2
    h = mancala.Game("adi", to_move=1)
    assert [h.move_name(m) for m in h.legal_moves()] == ["a", "b", "c", "d", "e", "f"]
    assert h.parse_move("f") == 11
    for x in (g, h):
        for m in x.legal_moves():
            assert x.parse_move(x.move_name(m)) == m
    with pytest.raises(mancala.IllegalMoveError):
        g.parse_move("Z")


def test_undo_restores_the_position():
    g = mancala.Game("adi")
    g.play(3)
    g.play(g.legal_moves()[0])
    assert g.undo() in range(6, 12)
    assert g.undo() == 3
    assert g.pits == [4] * 12
    assert g.stores == [0, 0]
    assert g.to_move == 0


def test_undo_after_the_round_ended():
    pits = [0, 0, 2, 0, 0, 1, 3, 0, 0, 2, 0, 0]
    g = mancala.Game("adi", pits=pits, stores=[20, 20])
    g.play(5)
    assert g.is_over()
    g.undo()
    assert not g.is_over()
    assert g.pits == pits
    assert g.stores == [20, 20]
    assert g.legal_moves() == [2, 5]
