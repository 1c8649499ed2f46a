"""Kiothi (Meru): the opening redeployment, moves that may not end in an own occupied
boma, relays, unmoved bomas that cannot be captured, the left-end boma's capture of four,
and the leftovers going to the player who can still move.

Rules and decisions: docs/variants/kiothi.md (source 004 · 14 - MERU, KIOTHI).
Board: pits 0-9 player 0 (A-J), 10-19 player 1 (a-j); pit i faces 19-i; the prisons
(stores, not sown) are cells 20 and 21.
"""
import pytest

import mancala
from tracesteps import END, PASS, drop, drops, lift, place, play_steps as play, relay, take

S0, S1 = 20, 21
OFF = mancala.OFF
START = [0, 0, 0, 0, 5, 5, 5, 5, 5, 5] * 2


def game(p0, p1, stores=(0, 0), to_move=0, unmoved=""):
    """A position in play; `unmoved` names the pits that cannot be captured yet."""
    text = "kiothi redeploy=no %s/%s %d,%d %d" % (
        ",".join(map(str, p0)), ",".join(map(str, p1)), stores[0], stores[1], to_move)
    if unmoved:
        text += " unmoved=" + unmoved
    return mancala.from_text(text)


# ----- board, start and the opening redeployment --------------------------------

def test_start_five_warriors_in_each_of_the_six_right_hand_bomas():
    g = mancala.Game("kiothi")
    assert g.pits == START and g.stores == [0, 0]
    assert sum(g.pits) == 60
    assert g.phase == "setup" and g.to_move == 0
    assert g.legal_moves() == [("pass",)] + [("lift", i) for i in range(4, 10)]


@pytest.mark.parametrize("name", ["Kiothi", "meru", "KIOTHI"])
def test_aliases(name):
    assert mancala.Game(name).id == "kiothi"


def test_redeployment_takes_two_bomas_and_places_them_anywhere():
    g = mancala.Game("kiothi")
    assert play(g, ("lift", 4)) == [take(4, 5, OFF)]
    assert g.outside() == 5
    assert g.legal_moves() == [("lift", i) for i in range(5, 10)] + [("place", i) for i in range(20)]
    play(g, ("lift", 5))
    assert g.legal_moves() == [("place", i) for i in range(20)]    # no third boma, no pass
    with pytest.raises(mancala.IllegalMoveError):
        g.play(("pass",))
    for pit in [14] * 4 + [0] * 3 + [19] * 3:                        # enemy bomas are allowed
        assert play(g, ("place", pit)) == [place(pit)]
    assert g.outside() == 0 and g.phase == "setup" and g.to_move == 1
    assert g.pits == [3, 0, 0, 0, 0, 0, 5, 5, 5, 5] + [0, 0, 0, 0, 9, 5, 5, 5, 5, 8]
    # Player 1 lifts his boma holding nine (five of his and four placed there).
    assert play(g, ("lift", 14)) == [take(14, 9, OFF)]
    for _ in range(9):
        play(g, ("place", 10))
    assert g.phase == "play" and g.to_move == 0
    assert sum(g.pits) == 60


def test_both_players_may_pass_and_the_starting_player_moves_first():
    g = mancala.Game("kiothi", to_move=1)
    assert g.legal_moves()[1:] == [("lift", i) for i in range(14, 20)]
    assert play(g, ("pass",)) == [PASS]
    assert g.to_move == 0
    play(g, ("pass",))
    assert g.phase == "play" and g.to_move == 1 and g.pits == START


def test_without_redeployment_play_starts_at_once():
    g = mancala.Game("kiothi", redeploy="no")
    assert g.phase == "play" and g.pits == START
    # All the filled bomas are unmoved.
    assert "unmoved=E,F,G,H,I,J,e,f,g,h,i,j" in mancala.to_text(g).split()


# ----- moves: never ending in an own occupied boma ----------------------------

def test_a_move_may_not_end_in_an_occupied_boma_of_the_mover():
    g = mancala.Game("kiothi", redeploy="no")
    # E's five end in J, which holds five: not allowed.  The others reach enemy bomas.
    assert g.legal_moves() == [5, 6, 7, 8, 9]
    with pytest.raises(mancala.IllegalMoveError, match="own boma J"):
        g.play(4)


def test_a_single_warrior_may_step_into_an_empty_boma_of_its_own():
    g = game([1, 1, 0, 0, 0, 0, 0, 0, 0, 0], [0, 0, 0, 0, 0, 0, 0, 0, 0, 1])
    assert g.legal_moves() == [1]          # A's warrior would land on B's
    assert play(g, 1) == [lift(1, 1), drop(2)]
    assert g.to_move == 1


# ----- the opening move, relays and immunity -------------------------------------

def test_the_first_move_relays_and_cannot_capture_unmoved_bomas():
    g = mancala.Game("kiothi", redeploy="no")
    tr = play(g, 9)
    # J's five end in e (five): picked up, six more go round to A, which is
    # empty: A is the left-end boma, but j opposite has not been moved.
    assert tr == [lift(9, 5)] + drops(10, 11, 12, 13, 14) + [relay(14, 6)] + drops(15, 16, 17, 18, 19, 0)
    assert g.pits == [1, 0, 0, 0, 5, 5, 5, 5, 5, 0] + [1, 1, 1, 1, 0, 6, 6, 6, 6, 6]
    assert g.stores == [0, 0] and g.to_move == 1
    assert "unmoved=E,F,G,H,I,f,g,h,i,j" in mancala.to_text(g).split()
    # Player 1's replies: a, b and c would land on his own occupied bomas.
    assert g.legal_moves() == [13, 15, 16, 17, 18, 19]


def test_a_relay_landing_in_an_occupied_boma_of_the_mover_goes_on():
    g = game([0, 2, 0, 0, 0, 0, 0, 0, 0, 9], [0, 0, 0, 0, 0, 0, 0, 0, 2, 0])
    tr = play(g, 9)
    assert tr == ([lift(9, 9)] + drops(*range(10, 19)) + [relay(18, 3), drop(19), drop(0), drop(1),
                  relay(1, 3), drop(2), drop(3), drop(4), take(4, 1, S0), take(15, 1, S0)])
    assert g.pits == [1, 0, 1, 1, 0, 0, 0, 0, 0, 0] + [1, 1, 1, 1, 1, 0, 1, 1, 0, 1]
    assert g.stores == [2, 0]


def test_the_emptied_boma_is_passed_over_when_a_handful_comes_round():
    g = game([0] * 9 + [20], [0] * 10)
    tr = play(g, 9)
    assert tr[:21] == [lift(9, 20)] + drops(*range(10, 20)) + drops(*range(0, 9)) + [drop(10)]
    assert sum(g.pits) + sum(g.stores) == 20


# ----- captures -----------------------------------------------------------

def test_landing_alone_in_an_own_boma_captures_the_boma_opposite():
    g = game([0, 0, 1, 0, 0, 0, 0, 0, 0, 0], [0, 0, 0, 0, 0, 3, 4, 0, 0, 0])
    assert play(g, 2) == [lift(2, 1), drop(3), take(3, 1, S0), take(16, 4, S0)]
    assert g.pits[15] == 3          # only the boma opposite (no string outside the left end)
    assert g.stores == [5, 0]


def test_an_unmoved_boma_cannot_be_captured():
    g = game([0, 0, 1, 0, 0, 0, 0, 0, 0, 0], [0, 0, 0, 0, 0, 3, 4, 0, 0, 0], unmoved="g")
    assert play(g, 2) == [lift(2, 1), drop(3)]
    assert g.pits[3] == 1 and g.pits[16] == 4 and g.stores == [0, 0]


def test_nothing_is_captured_opposite_an_empty_boma():
    g = game([0, 0, 1, 0, 0, 0, 0, 0, 0, 0], [0, 0, 0, 0, 0, 3, 0, 0, 0, 0])
    assert play(g, 2) == [lift(2, 1), drop(3)]
    assert g.stores == [0, 0]


LEFT_END = ([0] * 9 + [11], [0, 0, 0, 0, 0, 0, 2, 0, 3, 1])


def test_the_left_end_boma_captures_the_boma_opposite_and_three_more():
    g = game(*LEFT_END)
    # Eleven warriors from J: one into each enemy boma, the last into A (empty).
    assert play(g, 9) == ([lift(9, 11)] + drops(*range(10, 20)) + [drop(0),
                          take(0, 1, S0), take(19, 2, S0), take(18, 4, S0), take(17, 1, S0), take(16, 3, S0)])
    assert g.pits == [0] * 10 + [1, 1, 1, 1, 1, 1, 0, 0, 0, 0]     # f is the fifth: not taken
    assert g.stores == [11, 0]


def test_the_left_end_chain_stops_at_an_unmoved_boma():
    g = game(*LEFT_END, unmoved="h")
    assert play(g, 9)[-3:] == [take(0, 1, S0), take(19, 2, S0), take(18, 4, S0)]
    assert g.pits[16:18] == [3, 1]


def test_the_left_end_chain_stops_at_an_empty_boma():
    g = game([0] * 9 + [8], [0, 0, 0, 0, 0, 0, 5, 2, 0, 0])
    tr = play(g, 9)
    # Eight warriors end in h (three): lifted, they go on to i, j and A.
    assert tr == ([lift(9, 8)] + drops(*range(10, 18)) + [relay(17, 3), drop(18), drop(19), drop(0),
                  take(0, 1, S0), take(19, 1, S0), take(18, 1, S0)])
    assert g.pits[16] == 6 and g.stores == [3, 0]      # beyond the emptied h: not taken


def test_no_left_end_capture_when_the_boma_opposite_is_unmoved():
    g = game(*LEFT_END, unmoved="j")
    assert play(g, 9) == [lift(9, 11)] + drops(*range(10, 20)) + [drop(0)]
    assert g.stores == [0, 0]


def test_player_1s_left_end_boma_is_a():
    g = game([0, 0, 0, 0, 0, 0, 3, 1, 2, 2], [0] * 9 + [11], to_move=1)
    tr = play(g, 19)
    assert tr[-5:] == [take(10, 1, S1), take(9, 3, S1), take(8, 3, S1), take(7, 2, S1), take(6, 4, S1)]


# ----- the end ------------------------------------------------------------

def test_the_warriors_left_go_to_the_player_who_can_still_move():
    g = game([2, 0, 1, 0, 0, 0, 0, 0, 0, 4], [0, 0, 0, 0, 0, 0, 3, 0, 0, 0], stores=(10, 12))
    tr = play(g, 2)
    assert tr == [lift(2, 1), drop(3), take(3, 1, S0), take(16, 3, S0),
                  take(0, 2, S0), take(9, 4, S0), END]
    o = g.outcome()
    assert g.is_over() and o.winner == 0 and o.scores == [20, 12]
    assert "player 1 cannot move" in o.reason


def test_winning_by_two_is_the_supreme_victory():
    g = game([0, 0, 1, 0, 0, 0, 0, 0, 0, 0], [0, 0, 0, 0, 0, 0, 1, 0, 0, 0], stores=(27, 31))
    play(g, 2)
    o = g.outcome()
    assert o.scores == [29, 31] and o.winner == 1
    assert "supreme victory" in o.reason


def test_a_draw():
    g = game([0, 0, 1, 0, 0, 0, 0, 0, 0, 0], [0, 0, 0, 0, 0, 0, 1, 0, 0, 0], stores=(28, 30))
    play(g, 2)
    assert g.outcome().scores == [30, 30] and g.outcome().winner is None


# ----- notation and position text ----------------------------------------------

@pytest.mark.parametrize("move,name", [
    (5, "F"), (13, "d"), (("pass",), "pass"), (("lift", 4), "lift:E"), (("place", 14), "place:e"),
])
def test_notation_round_trip(move, name):
    g = mancala.Game("kiothi")
    assert g.move_name(move) == name and g.parse_move(name) == move


def test_position_text_round_trip_in_the_setup():
    g = mancala.Game("kiothi")
    g.play(("lift", 6))
    g.play(("place", 0))
    text = mancala.to_text(g)
    h = mancala.from_text(text)
    assert mancala.to_text(h) == text and h.outside() == 4 and h.legal_moves() == g.legal_moves()


def test_illegal_moves_say_why():
    g = mancala.Game("kiothi", redeploy="no")
    for bad, why in [(0, "empty"), (14, "belongs to player 1"), ((5, 1), "pit numbers"), (("lift", 5), "setup")]:
        with pytest.raises(mancala.IllegalMoveError, match=why):
            g.play(bad)


@pytest.mark.parametrize("redeploy", ["yes", "no"])
def test_random_games_end_with_every_warrior_in_a_prison(redeploy):
    import random
    rnd = random.Random(5)
    for _ in range(3):
        g = mancala.Game("kiothi", redeploy=redeploy)
        start = mancala.to_text(g)
        while not g.is_over():
            play(g, rnd.choice(g.legal_moves()))
        assert sum(g.outcome().scores) == 60 and sum(g.pits) == 0
        while g.ply:
            g.undo()
        assert mancala.to_text(g) == start


def test_a_setup_position_text_must_name_the_right_player():
    with pytest.raises(mancala.PositionError, match="player 0 is to move"):
        mancala.from_text("kiothi - 0,0,0,0,5,5,5,5,5,5/0,0,0,0,5,5,5,5,5,5 0,0 1 setup=0.0 first=0")
    with pytest.raises(mancala.PositionError, match="malformed"):
        mancala.from_text("kiothi - 0,0,0,0,5,5,5,5,5,5/0,0,0,0,5,5,5,5,5,5 0,0 0 setup=7.0 first=0")
