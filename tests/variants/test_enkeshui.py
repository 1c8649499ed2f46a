"""Enkeshui (Maasai): relay sowing, bulls, string captures, the turn after a circuit,
the advance move and the racing start.

Rules and decisions: docs/variants/enkeshui.md (source 004 · 9 - MAASI, ENKESHUI).
Board 2x8 unless said: pits 0-7 player 0 (A-H), 8-15 player 1 (a-h); pit i faces
15-i; stores (captures kept off the board) are cells 16 and 17.
"""
import pytest

import mancala
from tracesteps import END, drop, drops, lift, place, play_steps as play, relay, take

S0, S1 = 16, 17
OFF = mancala.OFF
PLAIN = dict(race="none")   # start straight into play, player 0 first


def game(pits, stores=(0, 0), to_move=0, state="", **options):
    """A position; `state` adds position-text fields such as 'bulls0=a'."""
    options = dict(PLAIN, **options)
    if not state:
        return mancala.Game("enkeshui", pits=list(pits), stores=list(stores), to_move=to_move, **options)
    n = len(pits) // 2
    opts = ",".join("%s=%s" % kv for kv in sorted(options.items()))
    text = "enkeshui %s %s/%s %d,%d %d %s" % (
        opts, ",".join(map(str, pits[:n])), ",".join(map(str, pits[n:])), stores[0], stores[1], to_move, state)
    return mancala.from_text(text)


# ----- board and start (Diagrams I and j) -----------------------------------

def test_start_is_diagram_j_on_the_2x8_board():
    g = mancala.Game("enkeshui", race="none")
    # Diagram j: each row starts with two empty pits at its owner's left.
    assert g.pits == [0, 0, 4, 4, 4, 4, 4, 4] + [0, 0, 4, 4, 4, 4, 4, 4]
    assert g.stores == [0, 0] and g.phase == "play" and g.to_move == 0
    # C, D and H end (after relays) in an empty pit of player 0 facing seeds: the
    # capture may be declined.  G's relays pass player 1's whole side and come
    # back (4+5 seeds, then the third handful enters A): it may turn clockwise.
    assert g.legal_moves() == [2, (2, 1, 0), 3, (3, 1, 0), 4, 5, 6, (6, -1), 7, (7, 1, 0)]
    h = g.copy()
    assert play(h, 7) == ([lift(7, 4)] + drops(8, 9, 10, 11) + [relay(11, 5)] + drops(12, 13, 14, 15, 0)
                          + [take(0, 1, S0), take(15, 5, S0), take(14, 5, S0)])


def test_start_is_diagram_i_on_the_2x12_board():
    g = mancala.Game("enkeshui", pits_per_row=12, race="none")
    row = [0, 3, 3, 0, 3, 3, 0, 3, 3, 0, 3, 3]
    assert g.pits == row + row
    assert sum(g.pits) == 48


def test_the_2x10_board_keeps_48_seeds():
    g = mancala.Game("enkeshui", pits_per_row=10, race="none")
    row = [0, 0, 3, 3, 3, 3, 3, 3, 3, 3]
    assert g.pits == row + row


def test_the_zeros_may_be_at_the_other_end():
    g = mancala.Game("enkeshui", zeros="right", race="none")
    assert g.pits == [4, 4, 4, 4, 4, 4, 0, 0] * 2
    g = mancala.Game("enkeshui", pits_per_row=12, zeros="right", race="none")
    assert g.pits == [3, 3, 0, 3, 3, 0, 3, 3, 0, 3, 3, 0] * 2


def test_bad_options_are_refused():
    with pytest.raises(mancala.PositionError):
        mancala.Game("enkeshui", pits_per_row=9)
    with pytest.raises(mancala.PositionError):
        mancala.Game("enkeshui", race="fastest")


@pytest.mark.parametrize("name", ["Enkeshui", "maasai", "Maasi", "EN-KESHUI"])
def test_aliases(name):
    assert mancala.Game(name, race="none").id == "enkeshui"


# ----- rule 1: relay sowing; sleeping in the opponent's empty pit ----------

def test_a_handful_ending_in_an_empty_pit_of_the_opponent_sleeps():
    g = game([0, 0, 0, 0, 0, 0, 0, 1] + [0, 2, 0, 0, 0, 0, 0, 0])
    assert play(g, 7) == [lift(7, 1), drop(8)]
    assert g.pits[8] == 1 and g.to_move == 1


def test_a_handful_ending_in_an_occupied_pit_of_either_side_is_lifted_again():
    g = game([0, 0, 0, 0, 0, 0, 2, 0] + [1, 0, 0, 0, 0, 0, 0, 1])
    assert play(g, 6) == [lift(6, 2), drop(7), drop(8), relay(8, 2), drop(9), drop(10)]
    assert g.pits == [0, 0, 0, 0, 0, 0, 0, 1] + [0, 1, 1, 0, 0, 0, 0, 1]
    # On the mover's own side too.
    g = game([1, 1, 0, 0, 0, 0, 0, 0] + [0, 0, 0, 0, 0, 0, 0, 1])
    assert play(g, 0) == [lift(0, 1), drop(1), relay(1, 2), drop(2), drop(3)]
    assert g.pits[:4] == [0, 0, 1, 1] and g.stores == [0, 0]   # pit 12 opposite is empty


def test_the_origin_is_sown_when_a_handful_comes_round():
    g = game([0, 0, 0, 0, 0, 0, 0, 17] + [0] * 8)
    tr = play(g, 7)
    assert tr[:18] == [lift(7, 17)] + drops(*range(8, 16)) + drops(*range(0, 8)) + [drop(8)]


# ----- rule 2: bulls ---------------------------------------------------------

def test_ending_on_three_makes_a_bull_for_the_mover_even_on_the_opponents_side():
    g = game([0, 0, 0, 0, 0, 3, 0, 0] + [3, 0, 0, 0, 0, 0, 0, 1])
    assert play(g, 5) == [lift(5, 3), drop(6), drop(7), drop(8)]
    assert g.pits[8] == 4 and g.to_move == 1
    assert "bulls0=a" in mancala.to_text(g).split()
    # Player 1 may not move the bull on his side.
    assert g.legal_moves() == [15]
    with pytest.raises(mancala.IllegalMoveError, match="bull"):
        g.play(8)


def test_seeds_falling_into_a_bull_stay_and_a_handful_ending_there_sleeps():
    g = game([0, 0, 0, 0, 0, 0, 0, 2] + [4, 0, 0, 0, 0, 0, 0, 1], state="bulls0=a")
    assert play(g, 7) == [lift(7, 2), drop(8), drop(9)]
    assert g.pits[8] == 5
    g = game([0, 0, 0, 0, 0, 0, 0, 1] + [4, 0, 0, 0, 0, 0, 0, 1], state="bulls1=a")
    assert play(g, 7) == [lift(7, 1), drop(8)]      # occupied, but a bull: no relay
    assert g.pits[8] == 5 and g.to_move == 1


def test_the_last_two_seeds_making_four_then_three_form_a_pair_of_bulls():
    g = game([0, 0, 0, 0, 2, 3, 2, 0] + [1, 0, 0, 0, 0, 0, 0, 0])
    assert play(g, 4) == [lift(4, 2), drop(5), drop(6)]   # no relay from the three
    assert g.pits[5:7] == [4, 3]
    assert "bulls0=F,G" in mancala.to_text(g).split()


def test_the_last_two_seeds_making_three_then_four_form_a_pair_of_bulls():
    g = game([0, 0, 0, 0, 2, 2, 3, 0] + [1, 0, 0, 0, 0, 0, 0, 0])
    assert play(g, 4) == [lift(4, 2), drop(5), drop(6)]
    assert "bulls0=F,G" in mancala.to_text(g).split()


def test_no_pair_when_the_four_is_in_a_bull_already():
    # Pit F is player 1's bull (a pair bull holding three); its fourth seed
    # makes nothing new, and the three in G is lifted again.
    g = game([0, 0, 0, 0, 2, 3, 2, 0] + [0, 0, 0, 0, 0, 0, 0, 1], state="bulls1=F")
    assert play(g, 4) == [lift(4, 2), drop(5), drop(6), relay(6, 3), drop(7), drop(8), drop(9)]
    assert "bulls1=F" in mancala.to_text(g).split() and "bulls0" not in mancala.to_text(g)


# ----- rules 3, 4 and 6: captures -----------------------------------------

# Diagram k (2x8, player A = player 0 at the bottom; '.' pits given arbitrary counts):
#   top    .  .  .  .  2  1  3  2      -> pits 15..8
#   bottom .  .  2* 1  0* 0  0  1      -> pits 0..7
DIAGRAM_K = [3, 0, 2, 1, 0, 0, 0, 1] + [2, 3, 1, 2, 1, 0, 2, 1]


def test_diagram_k_string_capture():
    g = game(DIAGRAM_K)
    assert play(g, 2) == [lift(2, 2), drop(3), drop(4),
                          take(4, 1, S0), take(11, 2, S0),        # the pit it ended in and the one opposite
                          take(10, 1, S0), take(9, 3, S0)]        # the string: E and F empty, opposites full
    assert g.pits == [3, 0, 0, 2, 0, 0, 0, 1] + [2, 0, 0, 0, 1, 0, 2, 1]
    assert g.stores == [7, 0] and g.to_move == 1


def test_a_capture_may_be_declined():
    g = game(DIAGRAM_K)
    assert (2, 1, 0) in g.legal_moves()
    assert play(g, (2, 1, 0)) == [lift(2, 2), drop(3), drop(4)]
    assert g.pits == [3, 0, 0, 2, 1, 0, 0, 1] + DIAGRAM_K[8:]
    assert g.stores == [0, 0] and g.to_move == 1


def test_no_capture_opposite_an_empty_pit_and_nothing_to_decline():
    g = game([0, 0, 0, 1, 0, 0, 0, 0] + [1, 0, 0, 0, 0, 0, 0, 0])
    assert g.legal_moves() == [3]
    assert play(g, 3) == [lift(3, 1), drop(4)]
    assert g.stores == [0, 0]
    g = game([0, 0, 0, 1, 0, 0, 0, 0] + [1, 0, 0, 0, 0, 0, 0, 0])
    with pytest.raises(mancala.IllegalMoveError, match="no capture|decline"):
        g.play((3, 1, 0))


def test_no_capture_opposite_a_bull():
    g = game([0, 0, 0, 1, 0, 0, 0, 0] + [0, 0, 0, 5, 0, 0, 0, 1], state="bulls1=d")
    assert play(g, 3) == [lift(3, 1), drop(4)]
    assert g.pits[11] == 5 and g.stores == [0, 0]


def test_the_string_stops_at_an_empty_pit_whose_opposite_is_empty():
    g = game([0, 0, 0, 1, 0, 0, 0, 0] + [0, 5, 0, 2, 0, 0, 0, 0])
    assert play(g, 3) == [lift(3, 1), drop(4), take(4, 1, S0), take(11, 2, S0)]
    assert g.pits[9] == 5          # beyond the break: not taken


def test_the_string_stops_at_an_opposite_bull():
    g = game([0, 0, 0, 1, 0, 0, 0, 0] + [0, 3, 4, 2, 0, 0, 0, 0], state="bulls1=c")
    assert play(g, 3) == [lift(3, 1), drop(4), take(4, 1, S0), take(11, 2, S0)]
    assert g.pits[9:11] == [3, 4]


def test_the_string_does_not_go_round_the_end_of_the_row():
    g = game([0, 0, 0, 0, 0, 1, 0, 0] + [2, 1, 0, 0, 0, 0, 3, 3])
    assert play(g, 5) == [lift(5, 1), drop(6), take(6, 1, S0), take(9, 1, S0), take(8, 2, S0)]
    assert g.pits[14:] == [3, 3] and g.stores == [4, 0]


# ----- rule 5: either direction after a full circuit ------------------------

CIRCUIT = [1, 0, 0, 0, 0, 0, 0, 9] + [0] * 8


def test_a_circuit_round_the_opponents_side_offers_a_direction():
    g = game(CIRCUIT)
    # Pit A goes nowhere near a circuit; pit H's nine seeds reach A again.
    assert g.legal_moves() == [0, 7, (7, 1, 0), (7, -1), (7, -1, 0)]


def test_going_on_counter_clockwise_after_the_circuit():
    g = game(CIRCUIT)
    tr = play(g, 7)
    assert tr == ([lift(7, 9)] + drops(*range(8, 16)) + [drop(0), relay(0, 2), drop(1), drop(2),
                  take(2, 1, S0), take(13, 1, S0),
                  take(12, 1, S0), take(11, 1, S0), take(10, 1, S0), take(9, 1, S0), take(8, 1, S0)])
    assert g.pits == [0, 1, 0, 0, 0, 0, 0, 0] + [0, 0, 0, 0, 0, 0, 1, 1]
    assert g.stores == [7, 0]


def test_turning_clockwise_after_the_circuit():
    g = game(CIRCUIT)
    tr = play(g, (7, -1))
    assert tr == ([lift(7, 9)] + drops(*range(8, 16)) + [drop(0),
                  relay(0, 2), drop(15), drop(14), relay(14, 2), drop(13), drop(12),
                  relay(12, 2), drop(11), drop(10), relay(10, 2), drop(9), drop(8),
                  relay(8, 2), drop(7), drop(6),
                  # the string now runs clockwise: E's opposite (k) was emptied, so it stops
                  take(6, 1, S0), take(9, 2, S0)])
    assert g.pits == [0, 0, 0, 0, 0, 0, 0, 1] + [0, 0, 0, 2, 0, 2, 0, 2]
    assert g.stores == [3, 0]


def test_no_clockwise_turn_without_a_circuit():
    g = game(CIRCUIT)
    with pytest.raises(mancala.IllegalMoveError, match="clockwise"):
        g.play((0, -1))


def test_player_1_gets_the_circuit_choice_too():
    # Nine seeds from h go round player 0's side and end on the seed in a.
    g = game([0] * 8 + [1, 0, 0, 0, 0, 0, 0, 9], to_move=1)
    assert (15, -1) in g.legal_moves()


# ----- rule 9: the end --------------------------------------------------------

def test_a_player_who_cannot_move_ends_the_game_and_bulls_go_to_their_owners():
    g = game([2, 0, 0, 0, 0, 1, 0, 0] + [5, 2, 0, 0, 4, 0, 0, 0], stores=(10, 6), state="bulls0=e bulls1=a")
    tr = play(g, 5)
    assert tr == [lift(5, 1), drop(6), take(6, 1, S0), take(9, 2, S0),
                  # player 1 has only bulls left: the game is over
                  take(0, 2, S0), take(8, 5, S1), take(12, 4, S0), END]
    assert g.is_over()
    assert g.outcome().winner == 0 and g.outcome().scores == [19, 11]
    assert g.legal_moves() == []


def test_emptying_ones_own_side_does_not_end_the_game():
    g = game([0, 0, 0, 0, 0, 0, 0, 1] + [0, 0, 0, 0, 0, 0, 0, 1])
    play(g, 7)
    assert not g.is_over() and g.legal_moves() == [8, 15]
    # Player 1's single seed goes into player 0's pit A: player 0 can move again.
    play(g, 15)
    assert not g.is_over() and g.legal_moves() == [0]


def test_the_player_to_move_with_no_seeds_loses_the_rest_to_the_opponent():
    g = game([0, 0, 0, 0, 0, 0, 0, 1] + [0, 3, 0, 0, 0, 0, 0, 0], stores=(4, 2))
    tr = play(g, 7)          # into empty pit a: sleeps; player 1 still has b
    assert not g.is_over()
    tr = play(g, 9)          # b's three seeds stay on player 1's side; player 0 has none
    assert tr == [lift(9, 3), drop(10), drop(11), drop(12), take(8, 1, S1), take(10, 1, S1),
                  take(11, 1, S1), take(12, 1, S1), END]
    assert g.outcome().scores == [4, 6] and g.outcome().winner == 1


# ----- rule 7: the racing start ---------------------------------------------

def test_the_default_game_opens_with_the_racing_start():
    g = mancala.Game("enkeshui")
    assert g.phase == "setup" and g.legal_moves() == [("race",)]
    with pytest.raises(mancala.IllegalMoveError, match="racing start"):
        g.play(2)


def test_the_race_from_diagram_j_is_sown_in_lockstep():
    g = mancala.Game("enkeshui")
    tr = play(g, ("race",))
    # Both far right-hand pits (H and h) are lifted; then one seed each per tick,
    # player 0's first.  The board is symmetric, so the racers mirror each other.
    assert tr == [lift(7, 4), lift(15, 4),
                  drop(8), drop(0), drop(9), drop(1), drop(10), drop(2),
                  drop(11), relay(11, 5), drop(3), relay(3, 5),
                  drop(12), drop(4), drop(13), drop(5), drop(14), drop(6), drop(15), drop(7),
                  drop(0), relay(0, 2), drop(8), relay(8, 2),
                  drop(1), drop(9), drop(2), relay(2, 6), drop(10), relay(10, 6),
                  drop(3), drop(11), drop(4), drop(12), drop(5), drop(13), drop(6), drop(14),
                  drop(7), drop(15), drop(8), drop(0)]
    assert g.pits == [1, 2, 0, 1, 6, 6, 6, 2] * 2
    # Both slept on the same tick: the first player begins.
    assert g.phase == "play" and g.to_move == 0


RACE = [0, 0, 0, 0, 0, 0, 3, 1] + [0, 0, 0, 0, 0, 0, 3, 2]


def race_game(race):
    return mancala.from_text("enkeshui race=%s %s/%s 0,0 0 setup=0.0 first=0" % (
        race, ",".join(map(str, RACE[:8])), ",".join(map(str, RACE[8:]))))


def test_first_to_sleep_wins_the_race():
    g = race_game("first-to-sleep")
    assert g.legal_moves() == [("race",)]
    assert play(g, ("race",)) == [lift(7, 1), lift(15, 2), drop(8), drop(0), drop(1)]
    assert g.pits == [1, 1, 0, 0, 0, 0, 3, 0] + [1, 0, 0, 0, 0, 0, 3, 0]
    assert g.phase == "play" and g.to_move == 0     # player 0 slept on tick 1, player 1 on tick 2


def test_going_farthest_wins_the_race():
    g = race_game("farthest")
    play(g, ("race",))
    assert g.to_move == 1


def test_a_racer_whose_right_hand_pit_is_empty_starts_from_the_next_one():
    g = mancala.from_text("enkeshui - 0,0,0,0,0,0,2,0/0,0,0,0,0,0,0,1 0,0 1 setup=0.0 first=1")
    assert play(g, ("race",)) == [lift(6, 2), lift(15, 1), drop(7), drop(0), drop(8)]
    assert g.to_move == 1      # player 1 slept first (tick 1)


# ----- rule 8: the advance move ----------------------------------------------

def test_the_advance_move_redeploys_two_pits_on_the_own_side():
    g = mancala.Game("enkeshui", advance="yes", race="none")
    assert g.phase == "setup" and g.to_move == 0
    assert g.legal_moves() == [("pass",)] + [("lift", i) for i in range(2, 8)]
    assert play(g, ("lift", 2)) == [take(2, 4, OFF)]
    assert g.outside() == 4
    assert g.legal_moves() == [("lift", i) for i in range(3, 8)] + [("place", i) for i in range(8)]
    play(g, ("lift", 3))
    assert g.legal_moves() == [("place", i) for i in range(8)]      # two pits at most
    with pytest.raises(mancala.IllegalMoveError):
        g.play(("place", 8))                                         # own side only
    for _ in range(7):
        assert play(g, ("place", 0)) == [place(0)]
    assert g.to_move == 0
    play(g, ("place", 1))
    assert g.outside() == 0 and g.to_move == 1 and g.phase == "setup"
    assert g.pits[:8] == [7, 1, 0, 0, 4, 4, 4, 4]
    play(g, ("pass",))
    assert g.phase == "play" and g.to_move == 0
    assert g.pits[8:] == [0, 0, 4, 4, 4, 4, 4, 4]


def test_the_advance_move_comes_before_the_race():
    g = mancala.Game("enkeshui", advance="yes")
    play(g, ("pass",))
    play(g, ("pass",))
    assert g.phase == "setup" and g.legal_moves() == [("race",)]


def test_undo_goes_back_through_the_setup():
    g = mancala.Game("enkeshui", advance="yes")
    start = mancala.to_text(g)
    for m in [("lift", 2), ("place", 7), ("place", 7), ("place", 7), ("place", 7), ("pass",), ("race",)]:
        g.play(m)
    assert g.phase == "play"
    for _ in range(7):
        g.undo()
    assert mancala.to_text(g) == start and g.phase == "setup" and g.outside() == 0


# ----- notation and position text ----------------------------------------------

@pytest.mark.parametrize("move,name", [
    (2, "C"), ((7, -1), "H-"), ((7, 1, 0), "H+0"), ((7, -1, 0), "H-0"), (9, "b"),
    (("race",), "race"), (("pass",), "pass"), (("lift", 2), "lift:C"), (("place", 0), "place:A"),
])
def test_notation_round_trip(move, name):
    g = mancala.Game("enkeshui")
    assert g.move_name(move) == name
    assert g.parse_move(name) == move


def test_notation_errors():
    g = mancala.Game("enkeshui")
    assert g.parse_move("C+") == 2          # counter-clockwise is the plain move
    for bad in ("Z", "lift:Q", ""):
        with pytest.raises(mancala.NotationError):
            g.parse_move(bad)


def test_position_text_keeps_bulls_and_the_setup():
    g = game([0, 0, 0, 0, 0, 3, 0, 0] + [3, 0, 0, 0, 0, 0, 0, 1])
    g.play(5)
    text = mancala.to_text(g)
    assert mancala.to_text(mancala.from_text(text)) == text
    assert mancala.from_text(text).legal_moves() == [15]
    g = mancala.Game("enkeshui", advance="yes")
    g.play(("lift", 4))
    text = mancala.to_text(g)
    h = mancala.from_text(text)
    assert h.outside() == 4 and h.legal_moves() == g.legal_moves()
    with pytest.raises(mancala.PositionError):
        mancala.from_text(text.replace("bulls", "cows") + " cows0=A")


def test_illegal_moves_say_why():
    g = game([0, 0, 0, 1, 0, 0, 0, 0] + [1, 0, 0, 0, 0, 0, 0, 0])
    for bad, why in [(0, "empty"), (8, "belongs to player 1"), (("race",), "setup"), ((3, 1), "written 3")]:
        with pytest.raises(mancala.IllegalMoveError, match=why):
            g.play(bad)


# ----- every option plays whole games -----------------------------------------

@pytest.mark.parametrize("options", [
    dict(pits_per_row=10, zeros="right", advance="yes"),
    dict(pits_per_row=12, race="farthest"),
    dict(race="none", zeros="right"),
])
def test_random_games_with_each_option(options):
    import random
    rnd = random.Random(11)
    for _ in range(3):
        g = mancala.Game("enkeshui", **options)
        start = mancala.to_text(g)
        while not g.is_over():
            play(g, rnd.choice(g.legal_moves()))
            assert sum(g.cells()) + g.outside() == 48
        assert g.outcome().scores[0] + g.outcome().scores[1] == 48
        while g.ply:
            g.undo()
        assert mancala.to_text(g) == start
