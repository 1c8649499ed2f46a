"""Lukho (Bukuso): the opening chosen by the players (take stones off, place some in
one hole of the opponent, race with the rest), then the forced execution phase with
Enkeshui's captures and knives; the 2/4-point scoring of a round.

Rules and decisions: docs/variants/lukho.md (source 004 · 15 - BUKUSO, LUKHO).
Board 2x8: pits 0-7 player 0 (A-H), 8-15 player 1 (a-h); pit i faces 15-i; captured
stones are counted in the stores, cells 16 and 17.
"""
import pytest

import mancala
from tracesteps import END, drop, drops, lift, place, play_steps as play, relay, take

S0, S1 = 16, 17
OFF = mancala.OFF


def game(pits, stores=(0, 0), to_move=0, state=""):
    """An execution-phase position; `state` adds fields such as 'knives0=C'."""
    text = "lukho - %s/%s %d,%d %d %s" % (
        ",".join(map(str, pits[:8])), ",".join(map(str, pits[8:])), stores[0], stores[1], to_move, state)
    return mancala.from_text(text.strip())


def remove(g, counts, side):
    """Take counts[i] stones off pit side[i], one move each, then say done."""
    for pit, k in zip(side, counts):
        for _ in range(k):
            assert play(g, ("remove", pit)) == [take(pit, 1, OFF)]
    play(g, ("done",))


# ----- board and the opening ---------------------------------------------------

def test_start_three_in_every_pit_and_the_opening_begins():
    g = mancala.Game("lukho")
    assert g.pits == [3] * 16 and g.stores == [0, 0]
    assert g.phase == "setup" and g.to_move == 0
    assert g.legal_moves() == [("done",)] + [("remove", i) for i in range(8)]


@pytest.mark.parametrize("n", [10, 12])
def test_other_board_sizes(n):
    g = mancala.Game("lukho", pits_per_row=n)
    assert g.pits == [3] * (2 * n)


@pytest.mark.parametrize("name", ["Lukho", "bukuso"])
def test_aliases(name):
    assert mancala.Game(name).id == "lukho"


# Diagram n (one possible result of the first opening move), as player 0 sees it:
#   top    2 1 3 1 0 2 1 1      -> pits 15..8
#   bottom 1 1 2 2 2 2 3 3      -> pits 0..7
DIAGRAM_N = [1, 1, 2, 2, 2, 2, 3, 3] + [1, 1, 2, 0, 1, 3, 1, 2]


def opened():
    g = mancala.Game("lukho")
    remove(g, [2, 2, 1, 1, 1, 1, 0, 0], range(8))
    assert g.to_move == 1 and g.phase == "setup"
    remove(g, [2, 2, 1, 3, 2, 0, 2, 1], range(8, 16))
    return g


def test_diagram_n_each_player_takes_stones_off_his_side():
    g = opened()
    assert g.pits == DIAGRAM_N
    assert g.outside() == 21                      # 8 in player 0's hand, 13 in player 1's
    assert "hand=8,13" in mancala.to_text(g).split()
    # Move two of the opening: player 0 puts stones in one hole of player 1's side.
    assert g.to_move == 0
    assert g.legal_moves() == [("done",)] + [("place", i) for i in range(8, 16)]


def placed():
    g = opened()
    assert play(g, ("place", 11)) == [place(11)]
    assert g.legal_moves() == [("done",), ("place", 11)]     # the same hole only
    play(g, ("place", 11))
    play(g, ("place", 11))
    play(g, ("done",))
    assert g.to_move == 1
    assert g.legal_moves() == [("done",)] + [("place", i) for i in range(8)]
    play(g, ("place", 4))
    play(g, ("place", 4))
    play(g, ("done",))
    return g


def test_placing_in_one_hole_of_the_opponent():
    g = placed()
    assert g.pits == [1, 1, 2, 2, 4, 2, 3, 3] + [1, 1, 2, 3, 1, 3, 1, 2]
    assert g.outside() == 16 and g.legal_moves() == [("race",)]


def test_the_racing_move_from_diagram_n():
    g = placed()
    tr = play(g, ("race",))
    # Player 0 sows his five from a (the far left of the opponent's side), player 1
    # his eleven from A; one stone each per tick, player 0's first.
    assert tr == [place(8), place(0), place(9), place(1), place(10), place(2), place(11), place(3),
                  place(12), relay(12, 2), place(4),                    # tick 5
                  drop(13), place(5),
                  drop(14), relay(14, 2), place(6),
                  drop(15), place(7),
                  drop(0), relay(0, 3), place(8),                       # tick 9
                  drop(1), place(9),
                  drop(2), place(10), relay(10, 4),                     # tick 11
                  drop(3), relay(3, 4), drop(11),
                  drop(4), drop(12),
                  drop(5), drop(13),
                  # tick 15: player 1 ends alone in his empty pit g: captures B opposite
                  drop(6), drop(14), take(14, 1, S1), take(1, 3, S1),
                  drop(7), relay(7, 5),
                  drop(8), drop(9), drop(10), drop(11), drop(12), relay(12, 2),
                  drop(13), drop(14)]                                   # tick 23: player 0 sleeps
    assert g.pits == [0, 0, 4, 0, 6, 4, 5, 0] + [4, 4, 1, 6, 0, 6, 1, 3]
    assert g.stores == [0, 4] and g.outside() == 0
    # Player 1 slept first (tick 15): he begins the execution phase, from his leftmost pit.
    assert g.phase == "play" and g.to_move == 1
    assert g.legal_moves() == [8]


def test_a_player_may_place_his_whole_hand_and_then_sleeps_first():
    g = mancala.Game("lukho")
    remove(g, [1], [0])
    remove(g, [1], [8])
    play(g, ("place", 8))          # player 0's hand is empty: his placing is over
    assert g.to_move == 1
    play(g, ("done",))             # player 1 keeps his stone for the race
    tr = play(g, ("race",))
    assert tr[0] == place(0)       # only player 1 sows
    assert g.phase == "play" and g.to_move == 0


def test_empty_hands_skip_the_placing_and_tie_the_race():
    g = mancala.Game("lukho", to_move=1)
    play(g, ("done",))
    assert g.to_move == 0
    play(g, ("done",))
    assert g.legal_moves() == [("race",)]
    assert play(g, ("race",)) == []
    assert g.phase == "play" and g.to_move == 1 and g.pits == [3] * 16


def test_opening_moves_that_are_not_allowed():
    g = mancala.Game("lukho")
    for bad in [("remove", 8), ("place", 9), 0, ("race",)]:
        with pytest.raises(mancala.IllegalMoveError, match="setup"):
            g.play(bad)
    g = opened()
    with pytest.raises(mancala.IllegalMoveError):
        g.play(("place", 3))       # his own side
    g.play(("place", 9))
    with pytest.raises(mancala.IllegalMoveError):
        g.play(("place", 10))      # a second hole


# ----- the execution phase -------------------------------------------------------

def test_every_move_starts_at_the_leftmost_pit_holding_stones():
    g = game([0, 0, 2, 0, 5, 0, 0, 0] + [0, 0, 0, 1, 0, 0, 0, 0])
    assert g.legal_moves() == [2]
    with pytest.raises(mancala.IllegalMoveError, match="leftmost"):
        g.play(4)
    assert play(g, 2) == [lift(2, 2), drop(3), drop(4), relay(4, 6)] + drops(5, 6, 7, 8, 9, 10)
    assert g.to_move == 1 and g.legal_moves() == [8]


def test_a_capture_takes_the_pit_opposite_and_the_string_and_is_not_optional():
    g = game([1, 0, 0, 0, 0, 0, 0, 0] + [1, 0, 0, 0, 0, 1, 2, 0])
    assert g.legal_moves() == [0]
    tr = play(g, 0)
    assert tr == [lift(0, 1), drop(1), take(1, 1, S0), take(14, 2, S0), take(13, 1, S0), END]
    # Player 0 has nothing left on his side: the game is over.  Player 1's stone in
    # a is no one's capture and stays on the board.
    assert g.is_over() and g.pits == [0] * 8 + [1, 0, 0, 0, 0, 0, 0, 0]
    o = g.outcome()
    assert o.scores == [4, 0] and o.winner == 0
    assert g.round_points() == 4 and "4 points to player 0" in o.reason


def test_a_knife_after_the_first_capture():
    # Player 0 has captured before: his handful ending on C's single stone makes C his knife.
    g = game([2, 0, 1, 0, 0, 0, 0, 0] + [1, 0, 0, 0, 0, 0, 0, 0], stores=(2, 0))
    assert play(g, 0) == [lift(0, 2), drop(1), drop(2)]
    assert g.pits[:3] == [0, 1, 2] and g.to_move == 1
    assert "knives0=C" in mancala.to_text(g).split()


def test_no_knife_before_a_capture():
    g = game([2, 0, 1, 0, 0, 0, 0, 0] + [1, 0, 0, 0, 0, 0, 0, 0])
    assert play(g, 0) == [lift(0, 2), drop(1), drop(2), relay(2, 2), drop(3), drop(4)]
    assert "knives" not in mancala.to_text(g)


def test_a_knife_is_never_moved_or_captured_and_a_handful_ending_there_sleeps():
    g = game([0, 1, 2, 1, 0, 0, 0, 0] + [1, 0, 0, 0, 0, 0, 0, 0], stores=(2, 0), state="knives0=C")
    assert g.legal_moves() == [1]
    assert play(g, 1) == [lift(1, 1), drop(2)]           # into the knife: sleep
    assert g.pits[2] == 3
    # Player 1 lands in his own empty pit b, facing player 0's knife F: no capture.
    g = game([1, 0, 0, 0, 0, 3, 0, 0] + [0, 1, 0, 0, 0, 0, 0, 0], to_move=1, state="knives0=F")
    assert play(g, 9) == [lift(9, 1), drop(10)]
    assert g.pits[5] == 3 and g.pits[10] == 1 and g.stores == [0, 0]


def test_knives_go_to_their_owners_at_the_end():
    g = game([1, 0, 0, 0, 0, 0, 0, 0] + [0, 0, 3, 0, 0, 0, 1, 0], stores=(5, 1), state="knives1=c")
    tr = play(g, 0)
    assert tr == [lift(0, 1), drop(1), take(1, 1, S0), take(14, 1, S0), take(10, 3, S1), END]
    assert g.outcome().scores == [7, 4]


# ----- scoring a round ------------------------------------------------------------

@pytest.mark.parametrize("stores,scores,winner,points", [
    ((3, 6), [5, 6], 1, 2),      # both captured, the most wins: 2 points
    ((2, 6), [4, 6], 1, 4),      # won by exactly two stones, a 'bull': 4 points
    ((1, 0), [3, 0], 0, 4),      # only one player captured at all: 4 points
    ((4, 6), [6, 6], None, 0),   # a draw
])
def test_round_points(stores, scores, winner, points):
    g = game([1, 0, 0, 0, 0, 0, 0, 0] + [1, 0, 0, 0, 0, 0, 1, 0], stores=stores)
    play(g, 0)
    assert g.is_over()
    assert g.outcome().scores == scores and g.outcome().winner == winner
    assert g.round_points() == points


# ----- notation and position text ----------------------------------------------

@pytest.mark.parametrize("move,name", [
    (0, "A"), (12, "e"), (("done",), "done"), (("remove", 2), "remove:C"), (("place", 11), "place:d"),
    (("race",), "race"),
])
def test_notation_round_trip(move, name):
    g = mancala.Game("lukho")
    assert g.move_name(move) == name and g.parse_move(name) == move


def test_position_text_round_trip_through_the_opening():
    g = opened()
    g.play(("place", 9))
    text = mancala.to_text(g)
    h = mancala.from_text(text)
    assert mancala.to_text(h) == text
    assert h.legal_moves() == [("done",), ("place", 9)] and h.outside() == 20


def test_the_game_ends_at_once_when_the_race_leaves_a_side_empty():
    # Player 0 took every stone off his side and sowed none back (stage 4: the race).
    g = mancala.from_text("lukho - 0,0,0,0,0,0,0,0/3,3,3,3,3,3,3,3 0,0 0 setup=4.0 first=0")
    assert g.legal_moves() == [("race",)]
    assert play(g, ("race",)) == [END]
    assert g.is_over() and "player 0 has no stones" in g.outcome().reason
    assert g.outcome().winner is None and g.round_points() == 0


@pytest.mark.parametrize("n", [8, 10, 12])
def test_random_games_with_each_board(n):
    import random
    rnd = random.Random(n)
    for _ in range(3):
        g = mancala.Game("lukho", pits_per_row=n)
        start = mancala.to_text(g)
        while not g.is_over():
            play(g, rnd.choice(g.legal_moves()))
            assert sum(g.cells()) + g.outside() == 6 * n
        assert g.round_points() in (0, 2, 4)
        while g.ply:
            g.undo()
        assert mancala.to_text(g) == start
