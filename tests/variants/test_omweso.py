"""Omweso (Baganda): relays round the player's own two rows, captures of the opposing
column re-sown from the first pit of the handful, declined captures, reverse captures
from the marked pits, passing, the single-seed rule, the end, free placement and the
racing start.

Rules and decisions: docs/variants/omweso.md (source 004 · 3 - MWESO, 4 - BAGANDA, OMWESO).
Board 4x8: player 0's back row A-H = pits 0-7 (from his left), front row I-P = pits
8-15 (from his right); player 1's a-p = pits 16-31 the same way.  Front pit i faces
39-i; the marked (reverse) pits are O, P and o, p.
"""
from functools import partial

import pytest

import mancala
from mancala import MoveInProgress, Step
from tracesteps import (
    END, PASS, board, drop, drops, lift, play_steps as play, printed, relay, side_of, steps,
    take,
)

PLAIN = dict(race="none")     # straight into play, player 0 first
side = partial(side_of, 16)   # one player's pits from letters: side(H=2, J=1), either case


def game(p0, p1, to_move=0, name="omweso", **options):
    return mancala.Game(name, pits=board(p0, p1), to_move=to_move, **options)


# ----- board, diagrams, options ---------------------------------------------


def test_diagram_c_two_in_every_pit_is_the_default():
    g = mancala.Game("omweso", **PLAIN)
    assert g.pits == [2] * 32 and sum(g.pits) == 64
    assert (g.rows, g.pits_per_row, g.n_pits) == (4, 8, 32)


def test_diagram_b_as_printed():
    rows = ((4, 0, 4, 0, 4, 0, 4, 0),
            (0, 4, 0, 4, 0, 4, 0, 4),
            (4, 0, 4, 0, 4, 0, 4, 0),
            (0, 4, 0, 4, 0, 4, 0, 4))
    g = mancala.Game("omweso", start="b", **PLAIN)
    assert g.pits == printed(rows)
    assert g.pits[15] == 4 and g.pits[31] == 4      # the front-left pits P and p
    assert sum(g.pits[:16]) == sum(g.pits[16:]) == 32


def test_geometry_columns_and_marked_pits():
    g = mancala.Game("omweso", **PLAIN)
    # J (front, seventh column from player 0's left) faces o; behind o is b.
    assert g.opposite(9) == 30 and g.behind(30) == 17 and g.behind(9) == 6
    assert [g.move_name(p) for p in (0, 7, 8, 15, 16, 24, 31)] == ["A", "H", "I", "P", "a", "i", "p"]


def test_bad_option_and_aliases():
    with pytest.raises(mancala.PositionError, match="start"):
        mancala.Game("omweso", start="a")
    for alias in ("Mweso", "baganda", "OMWESO"):
        assert mancala.Game(alias, **PLAIN).id == "omweso"


# ----- sowing, relays, the single-seed rule ----------------------------------


def test_sowing_follows_diagram_d_round_the_own_two_rows():
    # H (back right) goes up into I (front right); P (front left) goes down into A.
    g = game(side(H=2, P=2, C=2), side(A=2))
    assert play(g, 7) == [lift(7, 2)] + drops(8, 9)
    g = game(side(H=2, P=2, C=2), side(A=2))
    assert play(g, 15) == [lift(15, 2)] + drops(0, 1)
    assert g.pits[:16] == side(A=1, B=1, C=2, H=2)


def test_relay_from_an_occupied_pit_until_an_empty_one():
    g = game(side(A=2, C=1, E=1), side(A=2))
    assert play(g, 0) == [lift(0, 2)] + drops(1, 2) + [relay(2, 2)] + drops(3, 4) + [relay(4, 2)] + drops(5, 6)
    assert g.pits[:16] == side(B=1, D=1, F=1, G=1) and g.to_move == 1


def test_a_long_handful_drops_into_its_own_emptied_pit():
    g = game(side(A=17), side(A=2))
    tr = play(g, 0)
    assert tr[:2] == [lift(0, 17), drop(1)] and drop(0) in tr
    assert tr[16] == drop(0) and tr[17] == drop(1)      # 17th seed lands in B, which holds 1: relay
    assert tr[18] == relay(1, 2)


def test_a_single_seed_is_never_lifted():
    g = game(side(A=1, C=2), side(A=2))
    assert 0 not in g.legal_moves()
    with pytest.raises(mancala.IllegalMoveError, match="single seed"):
        g.play(0)
    with pytest.raises(mancala.IllegalMoveError, match="empty"):
        g.play(1)
    with pytest.raises(mancala.IllegalMoveError, match="player 1"):
        g.play(16)


# ----- captures -----------------------------------------------------------------

CAPTURE = (side(H=2, J=1, A=2), side(O=3, B=2, F=2))


def test_capture_takes_both_opposing_pits_and_sows_them_from_the_handfuls_first_pit():
    g = game(*CAPTURE)
    assert g.legal_moves() == [0, 7, (7, "n"), ("pass",)]
    assert play(g, 7) == [lift(7, 2)] + drops(8, 9) + [take(30, 3), take(17, 2)] + drops(8, 9, 10, 11, 12)
    assert g.pits[:16] == side(A=2, I=2, J=3, K=1, L=1, M=1)
    assert g.pits[16:] == side(F=2)
    assert g.stores == [0, 0] and g.to_move == 1


def test_a_declined_capture_sows_on_by_the_base_rule():
    # Decision 4: J (1 -> 2) may capture; declined, it is lifted and sown on as any occupied
    # pit is: K, L, and L was empty, so the player sleeps there.
    g = game(*CAPTURE)
    assert play(g, (7, "n")) == [lift(7, 2)] + drops(8, 9) + [relay(9, 2)] + drops(10, 11)
    assert g.pits[:16] == side(A=2, I=1, K=1, L=1) and g.pits[16:] == side(O=3, B=2, F=2)
    assert g.to_move == 1
    # Stopping there is no move of the default reading.
    h = game(*CAPTURE)
    assert not h.is_legal((7, "s"))
    with pytest.raises(mancala.IllegalMoveError, match="does not match the choices"):
        h.play((7, "s"))


def test_declined_sleep_keeps_the_reading_where_a_declined_capture_ends_the_turn():
    g = game(*CAPTURE, declined="sleep")
    assert g.legal_moves() == [0, 7, (7, "s"), ("pass",)]
    assert play(g, (7, "s")) == [lift(7, 2)] + drops(8, 9)
    assert g.pits[:16] == side(A=2, I=1, J=2) and g.pits[16:] == side(O=3, B=2, F=2)
    assert g.to_move == 1
    assert not g.copy().is_legal((7, "n")) and "declined=sleep" in mancala.to_text(g)


def test_no_capture_when_an_opposing_pit_is_empty():
    g = game(side(H=2, J=1, A=2), side(O=3, F=2))          # b (behind o) empty
    assert g.legal_moves() == [0, 7, ("pass",)]
    assert play(g, 7) == [lift(7, 2)] + drops(8, 9) + [relay(9, 2)] + drops(10, 11)
    g = game(side(H=2, J=1, A=2), side(B=2, F=2))          # o empty
    assert play(g, 7)[3] == relay(9, 2)


def test_no_capture_when_the_landing_pit_was_empty():
    g = game(side(H=2, A=2), side(O=3, B=2, F=2))
    assert play(g, 7) == [lift(7, 2)] + drops(8, 9)
    assert g.pits[16:] == side(O=3, B=2, F=2)


def test_no_capture_from_the_back_row():
    # E ends in occupied back pit G: a back pit faces nothing, so it relays.
    # I (3 by then) faces p, empty: it relays too.
    g = game(side(E=2, G=1, I=2), side(A=2, H=2))
    assert play(g, 4) == [lift(4, 2)] + drops(5, 6) + [relay(6, 2)] + drops(7, 8) + [relay(8, 3)] + drops(9, 10, 11)


def test_captured_seeds_start_in_the_first_pit_of_the_capturing_handful_not_of_the_move():
    # G relays from I; the relay ends in K facing n and c: the two seeds start in J.
    g = game(side(G=2, I=1, K=1, A=2), side(N=1, C=1, A=2))
    assert play(g, 6) == ([lift(6, 2)] + drops(7, 8) + [relay(8, 2)] + drops(9, 10)
                          + [take(29, 1), take(18, 1)] + drops(9, 10) + [relay(10, 3)] + drops(11, 12, 13))
    assert g.pits[:16] == side(A=2, H=1, J=2, L=1, M=1, N=1)


def test_two_captures_in_one_turn_each_of_which_may_be_declined():
    # H -> I, J: J (1 -> 2) faces o (2) and b (1): three seeds from I end in K (1 -> 2),
    # facing n and c: a second capture, its two seeds from I again end in J (4), whose
    # column is empty now: relay.  Either capture may be declined: the pit is then lifted
    # and sown on (decision 4), or with declined="sleep" the turn stops there.
    pos = (side(H=2, J=1, K=1, A=2), side(O=2, B=1, N=1, C=1, H=2))
    g = game(*pos)
    assert g.legal_moves() == [0, 7, (7, "cn"), (7, "n"), ("pass",)]
    head = [lift(7, 2)] + drops(8, 9) + [take(30, 2), take(17, 1)] + drops(8, 9, 10)
    assert play(g.copy(), 7) == head + [take(29, 1), take(18, 1)] + drops(8, 9) + [relay(9, 4)] + drops(10, 11, 12, 13)
    h = g.copy()
    assert play(h, (7, "cn")) == head + [relay(10, 2)] + drops(11, 12)     # K's two: L, M (empty: sleep)
    assert h.pits[16:] == side(C=1, N=1, H=2) and h.to_move == 1
    assert play(g, (7, "n")) == head[:3] + [relay(9, 2)] + drops(10, 11)   # J's two: K, L (empty: sleep)
    g = game(*pos, declined="sleep")
    assert g.legal_moves() == [0, 7, (7, "cs"), (7, "s"), ("pass",)]
    h = g.copy()
    assert play(h, (7, "cs")) == head
    assert h.pits[16:] == side(C=1, N=1, H=2) and h.to_move == 1
    assert play(g, (7, "s")) == head[:3]


# ----- reverse captures ------------------------------------------------------

REVERSE = (side(L=4, P=2, A=2), side(L=2, E=1, H=2))


def test_reverse_from_a_marked_pit_when_it_captures_at_once():
    g = game(*REVERSE)
    assert g.legal_moves() == [0, 11, (11, "r"), 15, ("pass",)]
    # L's handful ends in P (2 -> 3); P faces i, empty: no capture, but the clockwise
    # handful O, N, M ends in M (1 -> 2), facing l and e: a capture.
    assert play(g, (11, "r")) == ([lift(11, 4)] + drops(12, 13, 14, 15) + [relay(15, 3)] + drops(14, 13, 12)
                                  + [take(27, 2), take(20, 1)] + drops(14, 15, 0) + [relay(0, 3)] + drops(1, 2, 3))
    assert g.pits[:16] == side(B=1, C=1, D=1, M=2, N=2, O=3, P=1)
    assert g.pits[16:] == side(H=2)


def test_the_normal_way_from_a_marked_pit():
    g = game(*REVERSE)
    assert play(g, 11) == [lift(11, 4)] + drops(12, 13, 14, 15) + [relay(15, 3)] + drops(0, 1, 2)


def test_no_reverse_when_it_would_not_capture():
    g = game(side(L=4, P=2, A=2), side(L=2, H=2))           # e empty: the column is not full
    assert (11, "r") not in g.legal_moves()
    with pytest.raises(mancala.IllegalMoveError, match="does not match the choices"):
        g.play((11, "r"))


def test_no_reverse_round_the_left_hand_end():
    # M's handful ends in O (16 -> 17).  Clockwise, 17 seeds would go N, M, L ... I, H ... A,
    # then P (round the left-hand end), O, and end in N (holding 3 by then), facing k and f,
    # both full: it would capture, but passing from A to P is not allowed.
    g = game(side(M=2, N=1, O=16, A=2), side(K=1, F=1, H=2))
    assert g.opposite(13) == 26 and g.behind(26) == 21
    # O is no choice point: every move from M relays O's 17 counter-clockwise (into P first).
    from_m = [m for m in g.legal_moves() if m == 12 or (isinstance(m, tuple) and m[0] == 12)]
    assert from_m == [12, (12, "nn"), (12, "r")]
    for m in from_m:
        tr = steps(g.copy().play(m))
        assert tr[3:5] == [relay(14, 17), drop(15)]
    # The later choice point is P (2 seeds after the lap): clockwise O, N captures at once.
    assert steps(g.copy().play((12, "r")))[-7:] == [relay(15, 2)] + drops(14, 13) + [take(26, 1), take(21, 1)] + drops(14, 15)


def test_no_move_begins_clockwise_in_omweso():
    # P holds 3: clockwise it would end in M (1 -> 2) facing l and e, but a move may not start
    # in reverse (Kombe's difference, not Omweso's).
    g = game(side(P=3, M=1, A=2), side(L=2, E=1, H=2))
    assert [m for m in g.legal_moves() if isinstance(m, tuple) and m[0] == 15] == []


# ----- stepping through a move with choices ----------------------------------


def test_move_in_progress_settles_capture_and_decline_by_the_next_step():
    # A capture declined sows on: the hands lifting the landing pit (a relay) decline it,
    # taking the opposing pit takes it; the move cannot stop at the choice.
    g = game(*CAPTURE)
    mv = MoveInProgress(g)
    for s in [lift(7, 2)] + drops(8, 9):
        mv.advance(Step(*s))
    assert mv.options() == [Step(*take(30, 3)), Step(*relay(9, 2))]
    assert not mv.can_stop() and mv.forced() is None
    declined = MoveInProgress(g)
    for s in [lift(7, 2)] + drops(8, 9) + [relay(9, 2)] + drops(10, 11):
        declined.advance(Step(*s))
    assert declined.done() and declined.move() == (7, "n")
    assert steps(declined.finish()) == steps(game(*CAPTURE).play((7, "n")))
    # declined="sleep": stopping at the choice declines the capture.
    g = game(*CAPTURE, declined="sleep")
    mv = MoveInProgress(g)
    for s in [lift(7, 2)] + drops(8, 9):
        mv.advance(Step(*s))
    assert mv.options() == [Step(*take(30, 3))]
    assert mv.can_stop() and not mv.done()          # stopping here declines the capture
    assert mv.move() == (7, "s")
    mv.advance(Step(*take(30, 3)))
    while mv.forced() is not None:
        mv.advance(mv.forced())
    assert mv.done() and mv.move() == 7
    assert steps(mv.finish()) == steps(game(*CAPTURE).play(7))


def test_move_in_progress_settles_a_reverse_by_the_first_drop_after_the_relay():
    g = game(*REVERSE)
    mv = MoveInProgress(g)
    for s in [lift(11, 4)] + drops(12, 13, 14, 15) + [relay(15, 3)]:
        mv.advance(Step(*s))
    assert sorted(mv.options()) == sorted([Step(*drop(0)), Step(*drop(14))])
    assert mv.forced() is None
    mv.advance(Step(*drop(14)))
    assert mv.moves() == [(11, "r")]


# ----- passing, the end ----------------------------------------------------------


def test_passing_and_the_two_pass_limit():
    g = mancala.Game("omweso", **PLAIN)
    assert ("pass",) in g.legal_moves()
    assert play(g, ("pass",)) == [PASS]
    assert g.to_move == 1 and ("pass",) in g.legal_moves()
    play(g, ("pass",))
    assert g.to_move == 0 and ("pass",) not in g.legal_moves() and not g.is_over()
    with pytest.raises(mancala.IllegalMoveError, match="two passes in a row"):
        g.play(("pass",))
    assert mancala.to_text(g).endswith("passes=2")
    play(g, g.legal_moves()[0])
    assert ("pass",) in g.legal_moves()


def test_passing_back_and_forth_is_not_a_repetition_at_once():
    g = mancala.Game("omweso", **PLAIN)
    g.play(("pass",))
    g.play(("pass",))
    assert not g.is_over()


def test_a_player_with_only_single_seeds_has_lost():
    g = game(side(A=1, C=1, E=1), side(A=2, B=1))
    assert g.is_over() and g.legal_moves() == []
    o = g.outcome()
    assert o.winner == 1 and o.scores == [3, 3] and "player 0" in o.reason


def test_the_move_that_leaves_the_opponent_only_singles_wins():
    g = game(side(H=2, J=1, A=2), side(O=3, B=2, F=1))
    tr = play(g, 7)
    assert tr[-1] == END and g.is_over()
    assert g.outcome().winner == 0 and g.stores == [10, 1]


def test_undo_restores_passes():
    g = mancala.Game("omweso", **PLAIN)
    g.play(("pass",))
    g.play(("pass",))
    g.undo()
    assert ("pass",) in g.legal_moves() and g.to_move == 1


# ----- setup phase: free placement and the racing start --------------------------


def test_free_placement_one_seed_per_move_player_0_first():
    g = mancala.Game("omweso", start="free", **PLAIN)
    assert g.phase == "setup" and g.pits == [0] * 32 and g.outside() == 64
    assert g.legal_moves() == [("place", i) for i in range(16)]
    assert play(g, ("place", 3)) == [("place", 3, 1, -1)]
    for _ in range(31):
        g.play(("place", 0))
    assert g.to_move == 1 and g.legal_moves() == [("place", i) for i in range(16, 32)]
    with pytest.raises(mancala.IllegalMoveError, match="setup"):
        g.play(("place", 0))
    for _ in range(32):
        g.play(("place", 31))
    assert g.phase == "play" and g.to_move == 0 and g.outside() == 0
    assert g.pits[0] == 31 and g.pits[3] == 1 and g.pits[31] == 32


def test_the_race_is_one_setup_move_and_the_first_to_sleep_begins():
    text = "omweso start=c,race=first-to-sleep %s 0,0 0 setup=0.0 first=0" % (
        "/".join(",".join(str(c) for c in s) for s in (side(A=2, H=2, J=1), side(A=2, H=2))))
    g = mancala.from_text(text)
    assert g.phase == "setup" and g.legal_moves() == [("race",)]
    # Player 0: H -> I, J; J held 1, relay J -> K, L (asleep at tick 4).
    # Player 1: h -> i, j (asleep at tick 2): player 1 begins.
    assert play(g, ("race",)) == [lift(7, 2), lift(23, 2), drop(8), drop(24), drop(9), relay(9, 2), drop(25),
                                  drop(10), drop(11)]
    assert g.phase == "play" and g.to_move == 1


def test_a_tied_race_goes_to_the_starting_player():
    g = mancala.Game("omweso")
    assert g.phase == "setup" and g.legal_moves() == [("race",)]
    play(g, ("race",))
    assert g.phase == "play" and g.to_move == 0
    assert g.pits[:16] == g.pits[16:]           # the same race on both sides
    assert sum(g.pits) == 64


def test_race_after_free_placement():
    g = mancala.Game("omweso", start="free")
    for _ in range(32):
        g.play(("place", 7))
    for _ in range(32):
        g.play(("place", 16))
    assert g.legal_moves() == [("race",)]
    tr = g.play(("race",))
    # Player 1's race pit h is empty: he starts from the first pit after it (counter-clockwise,
    # round his circuit) holding two or more: a.
    assert tr[0] == ("lift", 7, 32, -1) and tr[1] == ("lift", 16, 32, -1)
    assert g.phase == "play" and sum(g.pits) == 64


# ----- notation and position text -------------------------------------------------


def test_notation_round_trip_and_default_letters():
    g = game(*REVERSE)
    for m in g.legal_moves():
        assert g.parse_move(g.move_name(m)) == m
    assert g.move_name((11, "r")) == "L/r" and g.parse_move("L/n") == 11
    g = game(*CAPTURE)
    assert g.parse_move("H/c") == 7 and g.parse_move("H/n") == (7, "n")
    assert game(*CAPTURE, declined="sleep").parse_move("H/s") == (7, "s")
    for bad in ("H/x", "H/", "Z"):
        with pytest.raises(mancala.NotationError):
            g.parse_move(bad)


def test_position_text_round_trip_with_passes():
    g = mancala.Game("omweso", **PLAIN)
    g.play(("pass",))
    text = mancala.to_text(g)
    assert text.endswith(" 1 passes=1")
    h = mancala.from_text(text)
    assert h.legal_moves() == g.legal_moves() and mancala.to_text(h) == text
    with pytest.raises(mancala.PositionError, match="passes"):
        mancala.from_text(text.replace("passes=1", "passes=5"))


def test_position_text_in_the_middle_of_free_placement():
    # The counts alone (one seed on the board) would be a finished game: the setup
    # fields must still make it the placement phase it is.
    g = mancala.Game("omweso", start="free")
    g.play(("place", 12))
    text = mancala.to_text(g)
    h = mancala.from_text(text)
    assert h.phase == "setup" and not h.is_over()
    assert h.pits == g.pits and h.outside() == 63 and h.legal_moves() == g.legal_moves()
    assert mancala.to_text(h) == text
