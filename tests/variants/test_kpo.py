"""Kpo / Poo (Vei, Liberia) after Culin: 2, 3 or 4 players; captures of 2 or 3 in the last hole.

Rules and decisions: docs/variants/kpo.md (source 000 · MANCALA THE NATIONAL GAME OF AFRICA by
Stewart Culin). Pits 0-11 in the two-row ring; player p's store is cell 12 + p.
"""
import pytest

import mancala
from tracesteps import END, PASS, drop, lift, make_play, steps, take


OWNERS = {
    2: [0] * 6 + [1] * 6,
    3: [0, 0, 1, 1, 2, 2, 2, 2, 1, 1, 0, 0],
    4: [0, 0, 0, 1, 1, 1, 2, 2, 2, 3, 3, 3],
}


# Seeds are taken only into a store (player p's is cell 12 + p); sowing never relays.
play = make_play("kpo", into=range(12, 16), only=("lift", "drop", "take", "pass", "end"))


# ----- boards for 2, 3 and 4 players --------------------------------------

def test_two_players_start():
    g = mancala.Game("kpo")
    assert g.players == 2
    assert g.pits == [4] * 12
    assert g.stores == [0, 0]
    assert g.legal_moves() == [0, 1, 2, 3, 4, 5]  # one direction: plain pit numbers


@pytest.mark.parametrize("players", [2, 3, 4])
def test_ownership(players):
    g = mancala.Game("kpo", players=players)
    assert g.players == players
    assert [g.owner(p) for p in range(12)] == OWNERS[players]
    assert len(g.stores) == players


def test_three_players_start():
    g = mancala.Game("kpo", players=3)
    assert g.pits == [3] * 12  # three seeds a hole with three or four players
    assert g.stores == [0, 0, 0]
    assert g.to_move == 0
    assert sorted(g.legal_moves()) == sorted(
        (p, d) for p in (0, 1, 10, 11) for d in (1, -1))


def test_four_players_start():
    g = mancala.Game("kpo", players=4)
    assert g.pits == [3] * 12
    assert g.stores == [0, 0, 0, 0]
    assert sorted(g.legal_moves()) == sorted((p, d) for p in (0, 1, 2) for d in (1, -1))
    h = mancala.Game("kpo", players=4, to_move=3)
    assert sorted(h.legal_moves()) == sorted((p, d) for p in (9, 10, 11) for d in (1, -1))


def test_three_players_middle_part_is_split_across_the_rows():
    g = mancala.Game("kpo", players=3, to_move=1)
    assert sorted(m[0] for m in g.legal_moves()) == [2, 2, 3, 3, 8, 8, 9, 9]


def test_seeds_option():
    assert mancala.Game("kpo", players=2).pits == [4] * 12
    assert mancala.Game("kpo", players=4, seeds=4).pits == [4] * 12
    assert mancala.Game("kpo", seeds=2).pits == [2] * 12


@pytest.mark.parametrize("bad", [{"players": 1}, {"players": 5}, {"seeds": 0}])
def test_bad_options_are_refused(bad):
    with pytest.raises(mancala.RulesError):
        mancala.Game("kpo", **bad)


def test_names_resolve():
    assert "kpo" in mancala.variants()
    for name in ("Kpo", "KPO", "poo", "Poo", "vei"):
        assert mancala.Game(name).pits == [4] * 12
    assert mancala.Game("Poo", players=3).players == 3


# ----- two players ---------------------------------------------------------

def test_two_player_opening_is_one_lap_counter_clockwise():
    g = mancala.Game("kpo")
    tr = g.play(0)
    assert steps(tr) == [lift(0, 4), drop(1), drop(2), drop(3), drop(4)]
    assert g.pits == [0, 5, 5, 5, 5, 4, 4, 4, 4, 4, 4, 4]
    assert g.to_move == 1


def test_two_players_last_hole_made_two_is_taken_only_that_hole():
    # The next hole (8) and the opposite hole (4) are not taken.
    pits = [0, 0, 0, 0, 3, 2, 5, 1, 4, 0, 0, 0]
    g, s = play(pits, 5)
    assert s == [lift(5, 2), drop(6), drop(7), take(7, 2, 12)]
    assert g.pits == [0, 0, 0, 0, 3, 0, 6, 0, 4, 0, 0, 0]
    assert g.stores == [2, 0]
    assert g.to_move == 1


def test_two_players_three_in_own_hole_is_taken():
    pits = [1, 2, 0, 0, 0, 0, 0, 0, 0, 4, 0, 4]
    g, s = play(pits, 0)
    assert s == [lift(0, 1), drop(1), take(1, 3, 12)]
    assert g.stores == [3, 0]


def test_two_players_no_chain_of_earlier_holes():
    pits = [0, 0, 0, 0, 2, 1, 1, 0, 0, 4, 0, 4]
    g, s = play(pits, 4)
    assert s == [lift(4, 2), drop(5), drop(6), take(6, 2, 12)]
    assert g.pits[5] == 2


def test_four_in_the_last_hole_is_not_taken_and_there_is_no_relay():
    pits = [0, 0, 0, 0, 0, 1, 3, 0, 0, 4, 0, 4]
    g, s = play(pits, 5)
    assert s == [lift(5, 1), drop(6)]
    assert g.pits[6] == 4
    assert g.stores == [0, 0]
    assert g.to_move == 1


def test_two_players_move_for_player_1():
    pits = [1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 3]
    g, s = play(pits, 11, stores=(20, 24), to_move=1)
    assert s == [lift(11, 3), drop(0), drop(1), drop(2)]
    assert g.pits == [2, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0]
    assert g.stores == [20, 24]  # 2 made in hole 0 but not by the last seed


# ----- three and four players ----------------------------------------------

def test_three_players_clockwise_capture_takes_the_next_hole_forward():
    pits = [2, 2, 0, 2, 0, 0, 2, 0, 0, 0, 3, 1]
    g, s = play(pits, (1, -1), players=3)
    assert s == [lift(1, 2), drop(0), drop(11), take(11, 2, 12), take(10, 3, 12)]
    assert g.pits == [3, 0, 0, 2, 0, 0, 2, 0, 0, 0, 0, 0]
    assert g.stores == [5, 0, 0]
    assert g.to_move == 1


def test_three_players_next_hole_forward_of_another_player():
    # Player 1 is left with no seeds and passes; player 2 moves next.
    pits = [0, 1, 1, 4, 0, 0, 2, 0, 0, 0, 0, 0]
    g, s = play(pits, (1, 1), players=3)
    assert s == [lift(1, 1), drop(2), take(2, 2, 12), take(3, 4, 12), PASS]
    assert g.stores == [6, 0, 0]
    assert g.to_move == 2


def test_three_players_empty_next_hole_adds_nothing():
    pits = [0, 1, 1, 0, 0, 0, 2, 0, 0, 0, 2, 0]
    g, s = play(pits, (1, 1), players=3)
    assert s == [lift(1, 1), drop(2), take(2, 2, 12), PASS]
    assert g.stores == [2, 0, 0]
    assert g.to_move == 2


def test_three_players_no_capture_without_two_or_three():
    g = mancala.Game("kpo", players=3)
    tr = g.play((0, 1))
    assert steps(tr) == [lift(0, 3), drop(1), drop(2), drop(3)]
    assert g.pits == [0, 4, 4, 4, 3, 3, 3, 3, 3, 3, 3, 3]
    assert g.to_move == 1


def test_three_players_take_turns_in_order():
    g = mancala.Game("kpo", players=3)
    g.play((0, 1))
    assert g.to_move == 1
    g.play((2, 1))
    assert g.to_move == 2
    g.play((4, 1))
    assert g.to_move == 0
    assert g.stores == [0, 0, 0]
    assert g.pits == [0, 4, 0, 5, 0, 5, 5, 4, 4, 3, 3, 3]


def test_four_players_capture_and_next_hole():
    pits = [0, 0, 2, 0, 0, 2, 0, 0, 1, 2, 3, 0]
    g, s = play(pits, (8, 1), to_move=2, players=4)
    assert s == [lift(8, 1), drop(9), take(9, 3, 14), take(10, 3, 14), PASS]
    assert g.stores == [0, 0, 6, 0]
    assert g.to_move == 0  # player 3 had nothing left and passed


def test_four_players_clockwise():
    pits = [3, 1, 0, 2, 0, 0, 1, 0, 0, 1, 0, 0]
    g, s = play(pits, (3, -1), to_move=1, players=4)
    assert s == [lift(3, 2), drop(2), drop(1), take(1, 2, 13), take(0, 3, 13)]
    assert g.pits == [0, 0, 1, 0, 0, 0, 1, 0, 0, 1, 0, 0]
    assert g.stores == [0, 5, 0, 0]
    assert g.to_move == 2


def test_direction_is_required_with_three_players_and_refused_with_two():
    g3 = mancala.Game("kpo", players=3)
    with pytest.raises(mancala.IllegalMoveError):
        g3.play(0)
    with pytest.raises(mancala.IllegalMoveError):
        g3.play((2, 1))  # player 1's hole
    with pytest.raises(mancala.IllegalMoveError) as e:
        g3.play((0, 2))
    assert "direction" in str(e.value)
    g2 = mancala.Game("kpo")
    with pytest.raises(mancala.IllegalMoveError):
        g2.play((0, 1))
    with pytest.raises(mancala.IllegalMoveError):
        g2.play(6)


# ----- passing and the end -------------------------------------------------

def test_two_players_empty_side_passes():
    pits = [2, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]
    g, s = play(pits, 0, stores=(20, 25))
    assert s == [lift(0, 2), drop(1), drop(2), PASS]
    assert g.to_move == 0
    assert g.legal_moves() == [1, 2]


def test_game_ends_when_no_seeds_are_left():
    pits = [0, 0, 0, 0, 0, 1, 1, 0, 0, 0, 0, 0]
    g, s = play(pits, 5, stores=(23, 23))
    assert s == [lift(5, 1), drop(6), take(6, 2, 12), END]
    assert g.is_over()
    assert g.outcome().winner == 0
    assert g.outcome().scores == [25, 23]


def test_a_single_seed_left_ends_the_game_and_goes_to_its_owner():
    pits = [0, 0, 0, 0, 1, 1, 1, 0, 0, 0, 0, 0]
    g, s = play(pits, 5, stores=(22, 23))
    assert s == [lift(5, 1), drop(6), take(6, 2, 12), take(4, 1, 12), END]
    assert g.stores == [25, 23]
    assert g.pits == [0] * 12


def test_three_players_outcome():
    g = mancala.Game("kpo", players=3, pits=[0] * 12, stores=[12, 12, 12])
    assert g.is_over()
    assert g.outcome().winner is None
    h = mancala.Game("kpo", players=3, pits=[0] * 12, stores=[10, 14, 12])
    assert h.outcome().winner == 1
    assert h.outcome().scores == [10, 14, 12]


# ----- notation and undo -----------------------------------------------------

def test_notation_two_players():
    g = mancala.Game("kpo")
    assert g.move_name(2) == "C"
    assert g.parse_move("C") == 2
    h = mancala.Game("kpo", to_move=1)
    assert h.move_name(9) == "d"
    assert h.parse_move("d") == 9


def test_notation_three_and_four_players():
    g = mancala.Game("kpo", players=3)
    assert g.move_name((1, -1)) == "B-"
    assert g.move_name((10, 1)) == "e+"
    assert g.parse_move("e+") == (10, 1)
    assert g.parse_move("A-") == (0, -1)
    with pytest.raises(mancala.IllegalMoveError):
        g.parse_move("A")  # a direction is needed
    for players in (3, 4):
        for p in range(players):
            x = mancala.Game("kpo", players=players, to_move=p)
            for m in x.legal_moves():
                assert x.parse_move(x.move_name(m)) == m


def test_undo_restores_the_position():
    g = mancala.Game("kpo", players=3)
    g.play((11, -1))
    g.play((3, 1))
    assert g.undo() == (3, 1)
    assert g.undo() == (11, -1)
    assert g.pits == [3] * 12
    assert g.stores == [0, 0, 0]
    assert g.to_move == 0
