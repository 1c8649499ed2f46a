"""Mbothe (Pokomo): docs/variants/mbothe.md, source 004, 11 - POKOME, MBOTHE.

Board 2x10: player 0 owns pits 0..9, player 1 pits 10..19; pit i faces 19-i.
"""
import pytest

import mancala
from tracesteps import board, dropped as drops, kinds, relays, skipped as skips, takes

STORE0, STORE1 = 20, 21


AFTER_OPENING = board([0, 3, 3, 0, 3, 3, 0, 3, 3, 1], [3, 0, 3, 3, 0, 3, 3, 0, 3, 3])


def test_opening_must_be_the_rightmost_pit():
    g = mancala.Game("mbothe")
    assert g.pits == [2] * 20
    assert g.legal_moves() == [9]
    with pytest.raises(mancala.IllegalMoveError) as e:
        g.play(0)
    assert "two" in str(e.value)


def test_opening_turn():
    g = mancala.Game("mbothe")
    trace = g.play(g.parse_move("J"))
    steps = list(trace)
    assert (steps[0].kind, steps[0].pit, steps[0].count) == ("lift", 9, 2)
    # Nothing is passed over in the opening turn, though every pit of player 1 holds two.
    assert skips(trace) == []
    assert drops(trace) == [10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9]
    assert relays(trace) == [(11, 3), (14, 3), (17, 3), (0, 3), (3, 3), (6, 3)]
    # The turn ends in the emptied pit 9; pit 10 facing it holds three: no capture.
    assert takes(trace) == []
    assert g.pits == AFTER_OPENING
    assert g.to_move == 1


def test_exemption_handful_covers_the_first_handful_only():
    # Decision 2, the glossary's reading (004, 2 - COMMON FEATURES: a move is one handful): the
    # first handful (J's two) passes over nothing; from the first relay on player 1's twos are
    # passed over: 11's three stones go past 12 ... 19 into 0, 1, 2.
    g = mancala.Game("mbothe", exemption="handful")
    assert g.legal_moves() == [9]
    trace = g.play(9)
    assert drops(trace)[:2] == [10, 11] and skips(trace) == list(range(12, 20))
    assert relays(trace) == [(11, 3), (2, 3), (5, 3), (8, 3)]
    assert drops(trace)[2:] == [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]
    assert g.pits == board([3, 3, 0, 3, 3, 0, 3, 3, 0, 1], [4, 1, 2, 2, 2, 2, 2, 2, 2, 2])
    assert g.to_move == 1 and g.pits != AFTER_OPENING
    # Later turns are the same under either reading.
    h = mancala.Game("mbothe", pits=AFTER_OPENING, to_move=1, exemption="handful")
    k = mancala.Game("mbothe", pits=AFTER_OPENING, to_move=1)
    for m in h.legal_moves():
        assert list(h.copy().play(m)) == list(k.copy().play(m))
    assert "exemption=handful" in mancala.to_text(g)
    with pytest.raises(mancala.PositionError, match="exemption"):
        mancala.Game("mbothe", exemption="move")


def test_opening_exemption_is_state_that_undo_and_position_text_keep():
    g = mancala.Game("mbothe")
    assert mancala.to_text(g).endswith("opening=1")
    g.play(9)
    assert "opening" not in mancala.to_text(g)
    g.undo()
    assert mancala.to_text(g).endswith("opening=1")
    again = mancala.from_text(mancala.to_text(g))
    trace = again.play(9)
    assert skips(trace) == [] and again.pits == AFTER_OPENING
    # A position given as counts is never an opening: player 1's twos are passed over.
    h = mancala.Game("mbothe", pits=[2] * 20)
    trace = h.play(9)
    assert skips(trace)[:10] == list(range(10, 20))


def test_opponents_twos_are_passed_over():
    g = mancala.Game("mbothe", pits=board([1, 0, 0, 0, 0, 0, 0, 0, 0, 3], [2, 1, 2, 0, 0, 1, 1, 1, 1, 1]))
    trace = g.play(9)
    assert [(s.kind, s.pit) for s in trace][1:] == [("skip", 10), ("drop", 11), ("skip", 12), ("drop", 13), ("drop", 14)]
    assert g.pits == board([1, 0, 0, 0, 0, 0, 0, 0, 0, 0], [2, 2, 2, 1, 1, 1, 1, 1, 1, 1])
    assert g.to_move == 1


def test_own_twos_are_sown():
    g = mancala.Game("mbothe", pits=board([0, 0, 0, 0, 0, 0, 0, 3, 2, 2], [1] * 10))
    trace = g.play(7)
    assert skips(trace) == []
    assert drops(trace)[:3] == [8, 9, 10]
    assert relays(trace)[0] == (10, 2)


def test_a_pit_brought_to_two_during_the_move_is_passed_over_later():
    g = mancala.Game("mbothe", pits=board([0] * 9 + [21], [1] + [0] * 9))
    trace = g.play(9)
    steps = [(s.kind, s.pit) for s in trace]
    # The first lap brings pit 10 from one to two; the 21st seed passes over it.
    assert steps[1:22] == [("drop", p) for p in list(range(10, 20)) + list(range(0, 10))] + [("skip", 10)]
    assert steps[22] == ("drop", 11)
    assert relays(trace) == [(11, 2), (13, 2), (15, 2), (17, 2), (19, 2), (1, 2), (3, 2), (5, 2), (7, 2), (9, 2)]
    assert steps[-4:] == [("skip", 10), ("drop", 11), ("skip", 12), ("drop", 13)]
    assert g.pits == board([2, 0, 2, 0, 2, 0, 2, 0, 2, 0], [2, 1, 2, 1, 2, 0, 2, 0, 2, 0])
    assert g.to_move == 1


def test_no_start_from_a_two_while_another_pit_can_start():
    g = mancala.Game("mbothe", pits=board([1, 2, 3, 0, 2, 0, 0, 0, 0, 0], [1] * 10))
    assert g.legal_moves() == [0, 2]
    with pytest.raises(mancala.IllegalMoveError):
        g.play(1)


def test_only_twos_left_the_rightmost_must_be_played():
    g = mancala.Game("mbothe", pits=board([2, 0, 2, 0, 0, 2, 0, 0, 0, 0], [1] * 10))
    assert g.legal_moves() == [5]
    with pytest.raises(mancala.IllegalMoveError):
        g.play(0)


def test_capture_of_two_gives_a_free_move():
    g = mancala.Game("mbothe", pits=board([0, 0, 0, 1, 0, 3, 0, 0, 0, 0], [1, 1, 1, 1, 1, 2, 1, 1, 1, 1]))
    trace = g.play(3)
    assert drops(trace) == [4]
    assert takes(trace) == [(15, 2, STORE0)]      # pit 4 faces pit 15
    assert kinds(trace)[-1] == "extra_turn"
    assert g.pits[4] == 1                         # the capturing stone stays
    assert g.stores == [2, 0]
    assert g.to_move == 0
    assert g.legal_moves() == [4, 5]


def test_no_capture_when_the_facing_pit_does_not_hold_two():
    for facing in (1, 3):
        g = mancala.Game("mbothe", pits=board([0, 0, 0, 1, 0, 3, 0, 0, 0, 0], [1, 1, 1, 1, 1, facing, 1, 1, 1, 1]))
        trace = g.play(3)
        assert takes(trace) == []
        assert g.to_move == 1


def test_must_feed_an_empty_opponent():
    # Player 1 plays his last stone over to player 0's side; player 0 must give some back.
    g = mancala.Game("mbothe", pits=board([0, 0, 0, 0, 0, 3, 0, 0, 0, 1], [0] * 9 + [1]), to_move=1)
    g.play(19)
    assert g.pits == board([1, 0, 0, 0, 0, 3, 0, 0, 0, 1], [0] * 10)
    assert g.to_move == 0
    assert g.legal_moves() == [9]
    with pytest.raises(mancala.IllegalMoveError) as e:
        g.play(5)                                  # 6, 7, 8: stays at home
    assert "give" in str(e.value)
    g.play(9)
    assert g.pits[10] == 1


def test_game_ends_when_the_empty_opponent_cannot_be_fed():
    g = mancala.Game("mbothe", pits=board([0, 0, 0, 0, 0, 0, 3, 0, 0, 0], [0] * 9 + [1]), stores=[10, 12], to_move=1)
    trace = g.play(19)
    assert g.is_over()
    assert kinds(trace)[-1] == "end"
    # Captures plus the stones left on one's own row.
    assert sorted(takes(trace)) == [(0, 1, STORE0), (6, 3, STORE0)]
    assert g.outcome().scores == [14, 12]
    assert g.outcome().winner == 0


def test_player_with_no_stones_passes_to_a_player_who_can_feed():
    g = mancala.Game("mbothe", pits=board([0, 0, 0, 0, 0, 0, 0, 0, 0, 3], [0] * 10), to_move=1)
    assert not g.is_over()
    assert g.to_move == 0
    assert g.legal_moves() == [9]


def test_names_and_notation():
    assert mancala.Game("Pokomo").id == "mbothe"
    g = mancala.Game("mbothe")
    assert g.move_name(9) == "J" and g.move_name(10) == "a" and g.move_name(19) == "j"
    for p in range(20):
        assert g.parse_move(g.move_name(p)) == p
    with pytest.raises(mancala.RulesError):
        mancala.Game("mbothe", seeds=3)
