"""Mancala after Lane: the distributor's setup, relays on 3/5+, captures on 2/4 with the opposite
pit and a backward chain, feeding, passing and the last-seed endings.

Rules and decisions: docs/variants/lane.md (sources 002 rules 1-10; 001 "The Egyptian Game of
Mankal'ah"). Board: pits 0-5 player 0 (A-F), 6-11 player 1 (a-f); stores (captures) are cells
12 and 13, not sown.
"""
from functools import partial

import pytest

import mancala
from tracesteps import (
    checked_play as play, dropped as drops, kinds, new_game, of_kind as steps, place_all,
    takes,
)

S0, S1 = 12, 13

game = partial(new_game, "lane")


# --- the setup phase (002 rule 2; 001) -------------------------------------------------------

def test_new_game_starts_with_the_distributor():
    g = mancala.Game("lane")
    assert g.phase == "setup"
    assert g.to_move == 1  # the distributor; player 0 will choose and start
    assert g.pits == [0] * 12 and g.stores == [0, 0]
    assert g.outside() == 72
    moves = g.legal_moves()
    assert {m[1] for m in moves} == {0, 1, 2, 3, 4, 6, 7, 8, 9, 10}  # never F or f
    # Ends (A, a): the other end pit must still get a seed. Middle: seven more middle pits.
    assert ("place", 0, 71) in moves and ("place", 0, 72) not in moves
    assert ("place", 1, 65) in moves and ("place", 1, 66) not in moves
    assert len(moves) == 2 * 71 + 8 * 65


def test_max_place_agrees_with_the_legal_moves():
    g = mancala.Game("lane")
    assert [g.max_place(p) for p in range(12)] == [71, 65, 65, 65, 65, 0, 71, 65, 65, 65, 65, 0]
    play(g, ("place", 8, 30))
    moves = g.legal_moves()
    for p in range(12):
        top = g.max_place(p)
        assert [m[2] for m in moves if m[1] == p] == list(range(1, top + 1))
        if top:
            assert g.is_legal(("place", p, top)) and not g.is_legal(("place", p, top + 1))
    assert not g.is_legal(("place", 8, 0)) and not g.is_legal(8) and not g.is_legal(("place", 12, 1))


def test_setup_at_the_ends_then_keep():
    g = mancala.Game("lane")
    trace = play(g, ("place", 0, 40))
    assert [(s.kind, s.pit, s.count) for s in trace] == [("place", 0, 40)]
    assert g.outside() == 32 and g.to_move == 1
    # Only the other end pit may take seeds now.
    assert {m[1] for m in g.legal_moves()} == {0, 6}
    with pytest.raises(mancala.IllegalMoveError):
        g.play(("place", 1, 1))
    with pytest.raises(mancala.IllegalMoveError):
        g.play(("place", 0, 32))  # a would stay empty
    play(g, ("place", 6, 32))
    assert g.outside() == 0
    assert g.phase == "setup" and g.to_move == 0  # the chooser
    assert sorted(g.legal_moves()) == [("keep",), ("turn",)]
    trace = play(g, ("keep",))
    assert list(trace) == []
    assert g.phase == "play" and g.to_move == 0
    assert g.pits == [40, 0, 0, 0, 0, 0, 32, 0, 0, 0, 0, 0]
    assert g.legal_moves() == [0]


def test_setup_in_the_middle_pits():
    g = mancala.Game("lane")
    play(g, ("place", 2, 9))
    with pytest.raises(mancala.IllegalMoveError):
        g.play(("place", 0, 1))  # the middle arrangement leaves the end pits empty
    with pytest.raises(mancala.IllegalMoveError):
        g.play(("place", 3, 58))  # six middle pits still need a seed each: at most 57
    place_all(g, [(1, 9), (3, 9), (4, 9), (7, 9), (8, 9), (9, 9), (10, 9)])
    assert g.to_move == 0 and g.legal_moves() == [("keep",), ("turn",)]
    play(g, ("keep",))
    assert g.pits == [0, 9, 9, 9, 9, 0, 0, 9, 9, 9, 9, 0]
    assert sorted(g.legal_moves()) == [1, 2, 3, 4]


def test_turning_the_board_gives_the_first_move_to_the_distributor():
    g = mancala.Game("lane")
    place_all(g, [(0, 40), (6, 32)])
    trace = play(g, ("turn",))
    assert takes(trace) == [(0, 40, mancala.OFF), (6, 32, mancala.OFF)]
    assert sorted(steps(trace, "place")) == [(0, 32), (6, 40)]
    assert g.pits == [32, 0, 0, 0, 0, 0, 40, 0, 0, 0, 0, 0]
    assert g.phase == "play" and g.to_move == 1
    assert g.legal_moves() == [6]


def test_setup_moves_are_illegal_after_the_setup_and_sowing_during_it():
    g = mancala.Game("lane")
    with pytest.raises(mancala.IllegalMoveError):
        g.play(1)
    with pytest.raises(mancala.IllegalMoveError):
        g.play(("keep",))
    place_all(g, [(0, 36), (6, 36)])
    with pytest.raises(mancala.IllegalMoveError):
        g.play(("place", 0, 1))
    play(g, ("keep",))
    with pytest.raises(mancala.IllegalMoveError):
        g.play(("turn",))


def test_wise_setup_uses_corresponding_pits():
    g = mancala.Game("lane", setup="wise")
    assert len(g.legal_moves()) == 12 * 71  # any pit; its partner keeps one seed back
    play(g, ("place", 2, 10))  # C: its partner c (pit 8) must get seeds too
    moves = g.legal_moves()
    assert ("place", 3, 60) in moves and ("place", 3, 61) not in moves
    assert ("place", 8, 62) in moves
    play(g, ("place", 8, 62))
    assert g.to_move == 0 and g.legal_moves() == [("keep",), ("turn",)]
    play(g, ("keep",))
    assert g.pits == [0, 0, 10, 0, 0, 0, 0, 0, 62, 0, 0, 0]


def test_ignorant_setup_fills_every_pit():
    g = mancala.Game("lane", setup="ignorant")
    moves = g.legal_moves()
    assert ("place", 5, 61) in moves and ("place", 5, 62) not in moves
    play(g, ("place", 5, 61))
    assert sorted(g.legal_moves()) == [("place", q, 1) for q in range(12) if q != 5]
    place_all(g, [(q, 1) for q in range(12) if q != 5])
    play(g, ("keep",))
    assert g.pits == [1, 1, 1, 1, 1, 61, 1, 1, 1, 1, 1, 1]


def test_even_setup_has_no_setup_phase():
    g = mancala.Game("lane", setup="even")
    assert g.phase == "play" and g.to_move == 0 and g.outside() == 0
    assert g.pits == [6] * 12
    assert g.legal_moves() == [0, 1, 2, 3, 4, 5]


def test_bad_setup_option():
    with pytest.raises(ValueError):
        mancala.Game("lane", setup="random")


def test_to_move_names_the_chooser():
    g = mancala.Game("lane", to_move=1)
    assert g.phase == "setup" and g.to_move == 0  # player 0 distributes
    place_all(g, [(0, 30), (6, 42)])
    assert g.to_move == 1
    play(g, ("keep",))
    assert g.to_move == 1


def test_undo_through_the_setup():
    g = mancala.Game("lane")
    place_all(g, [(0, 30), (6, 42)])
    play(g, ("turn",))
    g.undo()
    assert g.phase == "setup" and g.to_move == 0 and g.pits[0] == 30 and g.outside() == 0
    g.undo()
    g.undo()
    assert g.phase == "setup" and g.to_move == 1 and g.pits == [0] * 12 and g.outside() == 72


def test_setup_position_text_round_trip():
    g = mancala.Game("lane")
    play(g, ("place", 3, 20))
    text = mancala.to_text(g)
    assert "setup=place" in text and "first=0" in text
    h = mancala.from_text(text)
    assert h.phase == "setup" and h.to_move == 1 and h.outside() == 52
    assert h.cells() == g.cells() and h.legal_moves() == g.legal_moves()
    place_all(g, [(q, 1) for q in (1, 2, 4, 7, 8, 9)] + [(10, 46)])
    text = mancala.to_text(g)
    assert "setup=choose" in text
    h = mancala.from_text(text)
    assert h.to_move == 0 and h.legal_moves() == [("keep",), ("turn",)]


def test_setup_position_text_must_fit_the_arrangement():
    with pytest.raises(mancala.PositionError):
        mancala.from_text("lane setup=lane 0,0,0,0,0,9/0,0,0,0,0,0 0,0 1 setup=place first=0")


# --- sowing, relays ---------------------------------------------------------------------------

def test_last_seed_in_an_empty_pit_ends_the_turn():
    g = game([0, 0, 2, 0, 0, 0, 3, 3, 3, 3, 3, 3], stores=[25, 27])
    trace = play(g, 2)
    assert kinds(trace) == ["lift", "drop", "drop"]
    assert g.pits == [0, 0, 0, 1, 1, 0, 3, 3, 3, 3, 3, 3]
    assert g.to_move == 1


def test_relay_when_the_last_pit_makes_three():
    g = game([0, 1, 2, 0, 0, 0, 3, 3, 3, 3, 3, 3], stores=[25, 26])
    trace = play(g, 1)
    assert steps(trace, "relay") == [(2, 3)]
    assert drops(trace) == [2, 3, 4, 5]
    assert g.pits == [0, 0, 0, 1, 1, 1, 3, 3, 3, 3, 3, 3]


def test_relay_when_the_last_pit_makes_five():
    g = game([0, 1, 4, 0, 0, 0, 0, 0, 0, 0, 5, 5], stores=[28, 29])
    trace = play(g, 1)
    assert steps(trace, "relay") == [(2, 5)]
    assert drops(trace) == [2, 3, 4, 5, 6, 7]
    assert g.pits == [0, 0, 0, 1, 1, 1, 1, 1, 0, 0, 5, 5]


def test_relay_when_the_last_pit_makes_six():
    # Decision 1: a pit that held five is covered by neither Lane rule 4 nor 5; it relays.
    g = game([0, 1, 5, 0, 0, 0, 0, 0, 0, 0, 5, 5], stores=[28, 28])
    trace = play(g, 1)
    assert steps(trace, "relay") == [(2, 6)]
    assert drops(trace) == [2, 3, 4, 5, 6, 7, 8]
    assert takes(trace) == []
    assert g.pits == [0, 0, 0, 1, 1, 1, 1, 1, 1, 0, 5, 5]


def test_relay_on_the_opponents_row_and_around():
    # F (2) -> a, b; b held 2: relay 3 -> c, d, e; e empty: stop.
    g = game([1, 0, 0, 0, 0, 2, 0, 2, 0, 0, 0, 1], stores=[33, 33])
    trace = play(g, 5)
    assert steps(trace, "relay") == [(7, 3)]
    assert drops(trace) == [6, 7, 8, 9, 10]
    assert g.pits == [1, 0, 0, 0, 0, 0, 1, 0, 1, 1, 1, 1]
    assert takes(trace) == []


def test_the_emptied_pit_is_not_skipped():
    g = game([12, 0, 0, 0, 0, 0, 3, 3, 3, 3, 3, 3], stores=[20, 22])
    trace = play(g, 0)
    assert drops(trace)[:12] == [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 0]
    # Pit 0 got the twelfth seed: it was empty, so the turn ends there.
    assert g.pits == [1, 1, 1, 1, 1, 1, 4, 4, 4, 4, 4, 4]


# --- captures ---------------------------------------------------------------------------------

def test_capture_on_two_takes_the_opposite_pit():
    g = game([0, 0, 2, 0, 1, 0, 3, 3, 3, 3, 3, 3], stores=[25, 26])
    trace = play(g, 2)  # D (1), E (2): E and its opposite b (pit 7)
    assert takes(trace) == [(4, 2, S0), (7, 3, S0)]
    assert g.pits == [0, 0, 0, 1, 0, 0, 3, 0, 3, 3, 3, 3]
    assert g.stores == [30, 26]
    assert g.to_move == 1


def test_capture_on_four():
    g = game([0, 0, 2, 0, 3, 0, 3, 3, 3, 3, 3, 3], stores=[25, 24])
    trace = play(g, 2)
    assert takes(trace) == [(4, 4, S0), (7, 3, S0)]
    assert g.to_move == 1


def test_no_capture_on_three_or_one():
    g = game([0, 0, 2, 0, 2, 0, 0, 0, 0, 0, 0, 3], stores=[30, 33])
    trace = play(g, 2)  # E makes 3: relay 3 -> F, a, b (b empty)
    assert takes(trace) == []
    assert steps(trace, "relay") == [(4, 3)]


def test_capture_in_the_opponents_row():
    # F (2) -> a (1), b (2): b is taken with its opposite E, the mover's own pit.
    g = game([0, 0, 0, 0, 2, 2, 0, 1, 3, 3, 3, 3], stores=[26, 27])
    trace = play(g, 5)
    assert takes(trace) == [(7, 2, S0), (4, 2, S0)]
    assert g.pits == [0, 0, 0, 0, 0, 0, 1, 0, 3, 3, 3, 3]


def test_chain_is_judged_on_the_board_the_sowing_left():
    # C (4) -> D, E, F, a: a makes 2; before it F (2), E (4), then D (1) stops.
    # a's opposite is F, so F is emptied first - it still links the chain (decision 4): E is
    # taken with its opposite b.
    g = game([0, 0, 4, 0, 3, 1, 1, 3, 2, 2, 2, 2], stores=[24, 25])
    trace = play(g, 2)
    assert takes(trace) == [(6, 2, S0), (5, 2, S0), (4, 4, S0), (7, 3, S0)]
    assert g.pits == [0, 0, 0, 1, 0, 0, 0, 0, 2, 2, 2, 2]
    assert g.stores == [35, 25]
    assert g.to_move == 1


def test_chain_across_the_rows_with_opposites():
    # D (4) -> E (2), F (4), a (2), b (4): the whole run back to D (empty) is taken.
    g = game([0, 0, 0, 4, 1, 3, 1, 3, 5, 5, 5, 5], stores=[17, 18])
    trace = play(g, 3)
    assert takes(trace) == [(7, 4, S0), (4, 2, S0), (6, 2, S0), (5, 4, S0)]
    assert g.pits == [0, 0, 0, 0, 0, 0, 0, 0, 5, 5, 5, 5]


def test_player_one_captures_into_his_store():
    # f (2) -> A (2), B (4): B and its opposite e; A (2) and its opposite f (emptied).
    g = game([1, 3, 0, 0, 0, 0, 3, 3, 3, 3, 5, 2], stores=[24, 24], to_move=1)
    trace = play(g, 11)
    assert takes(trace) == [(1, 4, S1), (10, 5, S1), (0, 2, S1)]
    assert g.pits == [0, 0, 0, 0, 0, 0, 3, 3, 3, 3, 0, 0]
    assert g.stores == [24, 35]
    # Player 0's row is now empty: he is passed, and player 1 must feed him.
    assert kinds(trace)[-1] == "pass"
    assert g.to_move == 1 and g.legal_moves() == [("feed", 6), ("feed", 7), ("feed", 8), ("feed", 9)]


# --- feeding and passing ----------------------------------------------------------------------

def test_feeding_an_empty_row():
    g = game([0, 0, 3, 0, 2, 0, 0, 0, 0, 0, 0, 0], stores=[33, 34])
    assert g.legal_moves() == [("feed", 2), ("feed", 4)]
    with pytest.raises(mancala.IllegalMoveError):
        g.play(2)
    trace = play(g, ("feed", 4))
    assert [(s.kind, s.pit, s.count, s.to) for s in trace] == [
        ("take", 4, 1, mancala.HAND), ("drop", 6, 1, -1)]
    assert g.pits == [0, 0, 3, 0, 1, 0, 1, 0, 0, 0, 0, 0]
    assert g.to_move == 1
    assert g.legal_moves() == [6]


def test_player_one_feeds_into_a():
    g = game([0, 0, 0, 0, 0, 0, 0, 2, 0, 1, 0, 0], stores=[34, 35], to_move=1)
    assert g.legal_moves() == [("feed", 7), ("feed", 9)]
    play(g, ("feed", 9))
    assert g.pits == [1, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0, 0]
    assert g.to_move == 0


def test_feeding_is_illegal_when_the_opponent_has_seeds():
    g = game([0, 0, 3, 0, 2, 0, 0, 1, 0, 0, 0, 0], stores=[33, 33])
    with pytest.raises(mancala.IllegalMoveError):
        g.play(("feed", 2))


def test_a_move_that_empties_the_opponents_row_passes_him():
    # C (2) -> D, E: E makes 2 and is taken with b, player 1's last seeds. He is passed and
    # player 0 feeds at once.
    g = game([2, 0, 2, 0, 1, 0, 0, 3, 0, 0, 0, 0], stores=[32, 32])
    trace = play(g, 2)
    assert takes(trace) == [(4, 2, S0), (7, 3, S0)]
    assert kinds(trace)[-1] == "pass"
    assert g.to_move == 0
    assert g.legal_moves() == [("feed", 0), ("feed", 3)]
    assert not g.is_over()


def test_a_position_with_an_empty_row_to_move_is_the_opponents_turn():
    g = game([0, 0, 0, 0, 0, 0, 0, 0, 3, 0, 0, 0], stores=[34, 35], to_move=0)
    assert g.to_move == 1
    assert g.legal_moves() == [("feed", 8)]


# --- the last seeds -----------------------------------------------------------------------------

def test_two_seeds_in_one_row_go_to_its_owner():
    # f's seed goes into A: both remaining seeds are in player 0's row.
    g = game([0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 1], stores=[35, 35], to_move=1)
    trace = play(g, 11)
    assert drops(trace) == [0]
    assert sorted(takes(trace)) == [(0, 1, S0), (4, 1, S0)]
    assert kinds(trace)[-1] == "end"
    assert g.is_over()
    assert g.stores == [37, 35]
    out = g.outcome()
    assert out.winner == 0 and out.scores == [37, 35]


def test_two_seeds_go_to_the_row_that_gets_both_whoever_moved():
    g = game([0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 1], stores=[35, 35])
    trace = play(g, 5)  # F -> a: player 1 now has both
    assert sorted(takes(trace)) == [(6, 1, S1), (11, 1, S1)]
    assert g.is_over() and g.outcome().winner == 1


def test_two_seeds_split_between_the_rows_play_on():
    g = game([0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 1, 0], stores=[35, 35])
    play(g, 3)
    assert not g.is_over() and g.to_move == 1


def test_one_seed_left_goes_to_its_rows_owner():
    # C -> D (1), E (2): E and b are taken; only D's seed is left.
    g = game([0, 0, 2, 0, 1, 0, 0, 3, 0, 0, 0, 0], stores=[33, 33])
    trace = play(g, 2)
    assert takes(trace) == [(4, 2, S0), (7, 3, S0), (3, 1, S0)]
    assert kinds(trace)[-1] == "end"
    assert g.stores == [39, 33] and g.outcome().winner == 0


def test_one_seed_left_in_the_opponents_row_is_his():
    g = game([0, 0, 0, 0, 0, 2, 0, 1, 0, 0, 0, 0], stores=[34, 35])
    trace = play(g, 5)  # a (1), b (2): b taken (its opposite E is empty); a's seed is player 1's
    assert takes(trace) == [(7, 2, S0), (6, 1, S1)]
    assert g.is_over()
    assert g.stores == [36, 36]
    assert g.outcome().winner is None  # a draw


def test_board_cleared():
    g = game([0, 0, 0, 0, 0, 1, 1, 0, 0, 0, 0, 0], stores=[35, 35])
    assert not g.is_over()  # two seeds, one in each row
    trace = play(g, 5)  # F -> a, making 2: taken (its opposite F is empty)
    assert takes(trace) == [(6, 2, S0)]
    assert kinds(trace)[-1] == "end"
    assert g.pits == [0] * 12
    out = g.outcome()
    assert out.winner == 0 and out.scores == [37, 35] and out.reason == "board cleared"


# --- notation, names -------------------------------------------------------------------------

def test_notation_round_trip():
    g = game([0, 0, 3, 0, 2, 0, 0, 0, 0, 0, 0, 0], stores=[33, 34])
    assert g.move_name(("feed", 2)) == "C>a"
    assert g.parse_move("C>a") == ("feed", 2)
    assert g.move_name(("feed", 7)) == "b>A"
    assert g.move_name(("place", 2, 9)) == "9C"
    assert g.parse_move("9C") == ("place", 2, 9)
    assert g.parse_move("12e") == ("place", 10, 12)
    assert g.parse_move("keep") == ("keep",) and g.move_name(("turn",)) == "turn"
    assert g.parse_move("F") == 5 and g.move_name(11) == "f"
    for bad in ("C>b", "9", "Z", "", "C>"):
        with pytest.raises(ValueError):
            g.parse_move(bad)
    s = mancala.Game("lane")
    for m in s.legal_moves()[:80]:
        assert s.parse_move(s.move_name(m)) == m


@pytest.mark.parametrize("name", ["Mancala after Lane", "Mankalah", "Mankal'ah", "mankal-ah",
                                  "Egyptian game of Mankal'ah", "LANE"])
def test_aliases_resolve_to_lane(name):
    g = mancala.Game(name)
    assert g.id == "lane"
    assert mancala.variant_info(name)["id"] == "lane"
