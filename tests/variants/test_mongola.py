"""Mongola (Count and Capture): docs/variants/mongola.md, source 000, MONGOLA.

The source's houses: Player X (player 0) has rows D (outer) and C (inner), Player Y
(player 1) rows B (inner) and A (outer); columns 1..7 from X's right (Y's left).
Canonical pits (4x7): D7..D1 = 0..6, C1..C7 = 7..13, A1..A7 = 14..20, B7..B1 = 21..27.
"""
import pytest

import mancala
from mancala import MoveInProgress
from tracesteps import cell_name as name


def steps(g, trace):
    out = []
    for s in trace:
        if s.kind in ("drop", "skip"):
            out.append((s.kind, name(g, s.pit)))
        elif s.kind in ("lift", "relay", "take", "place"):
            out.append((s.kind, name(g, s.pit), s.count))
        else:
            out.append((s.kind,))
    return out


def position(rows):
    """Pits from the source's diagram layout: {"D": [7 counts, columns 1..7], ...}."""
    g = mancala.Game("mongola")
    pits = [0] * 28
    for row, counts in rows.items():
        for col, men in enumerate(counts, 1):
            pits[g.parse_move("%s%d" % (row, col))] = men
    return pits


def holes(spec):
    g = mancala.Game("mongola")
    pits = [0] * 28
    for hole, men in spec.items():
        pits[g.parse_move(hole)] = men
    return pits


def game(spec, to_move=0):
    return mancala.Game("mongola", pits=holes(spec), to_move=to_move)


# The diagram of rule 5, as printed: Y's last man has just made B-3 three.
DIAGRAM = {
    "D": [5, 2, 7, 2, 4, 1, 0],
    "C": [1, 4, 2, 0, 0, 0, 4],
    "B": [6, 1, 3, 2, 1, 2, 0],
    "A": [0, 0, 0, 3, 0, 6, 0],
}


# ----- board and setup ---------------------------------------------------------


def test_board_and_numbering():
    g = mancala.Game("mongola")
    assert (g.rows, g.pits_per_row, g.n_pits) == (4, 7, 28)
    assert [g.parse_move(h) for h in ("D7", "D1", "C1", "C7", "A1", "A7", "B7", "B1")] == [0, 6, 7, 13, 14, 20, 21, 27]
    assert g.opposite(g.parse_move("C4")) == g.parse_move("B4")
    assert g.behind(g.parse_move("B4")) == g.parse_move("A4")
    assert mancala.Game("Congo").pits == g.pits
    assert mancala.variant_info("mongola")["pits_per_row"] == 7


def test_setup_two_each_then_each_player_arranges_by_fours():
    g = mancala.Game("mongola")
    assert g.phase == "setup" and g.pits == [2] * 28 and g.to_move == 0
    assert [g.move_name(m) for m in g.legal_moves()] == ["arrange:D7", "arrange:D6"]
    t = g.play(g.parse_move("arrange:D7"))
    # Every other house of X's circuit from D-7: D-7, D-5, D-3, D-1, C-2, C-4, C-6.
    assert steps(g, t) == [
        ("take", "D6", 2), ("place", "D5", 2), ("take", "D4", 2), ("place", "D3", 2),
        ("take", "D2", 2), ("place", "D1", 2), ("take", "C1", 2), ("place", "C2", 2),
        ("take", "C3", 2), ("place", "C4", 2), ("take", "C5", 2), ("place", "C6", 2),
        ("take", "C7", 2), ("place", "D7", 2)]
    assert all(s.to == mancala.OFF for s in t if s.kind == "take")
    assert g.phase == "setup" and g.to_move == 1
    assert [g.move_name(m) for m in g.legal_moves()] == ["arrange:A1", "arrange:A2"]
    g.play(g.parse_move("arrange:A2"))
    assert g.phase == "play" and g.to_move == 0
    assert g.pits == position({
        "D": [4, 0, 4, 0, 4, 0, 4], "C": [0, 4, 0, 4, 0, 4, 0],
        "B": [4, 0, 4, 0, 4, 0, 4], "A": [0, 4, 0, 4, 0, 4, 0]})
    assert g.outside() == 0 and sum(g.pits) == 56
    # X "picks up any four of his men": every house of four.
    assert sorted(name(g, m) for m in g.legal_moves()) == ["C2", "C4", "C6", "D1", "D3", "D5", "D7"]
    g.undo()
    g.undo()
    assert g.phase == "setup" and g.pits == [2] * 28 and g.to_move == 0


def test_setup_position_text_round_trip():
    g = mancala.Game("mongola")
    g.play(g.parse_move("arrange:D6"))
    text = mancala.to_text(g)
    assert "arranged=1" in text
    h = mancala.from_text(text)
    assert h.phase == "setup" and h.to_move == 1 and h.legal_moves() == g.legal_moves()
    with pytest.raises(mancala.PositionError, match="arranged"):
        mancala.from_text(text.replace("arranged=1", "arranged=x"))


def test_setup_choice_is_a_step_of_the_hands():
    g = mancala.Game("mongola")
    mv = MoveInProgress(g)
    assert sorted(name(g, s.pit) for s in mv.options()) == ["D6", "D7"]    # the first house emptied
    mv.advance([s for s in mv.options() if name(g, s.pit) == "D7"][0])
    assert mv.moves() == [("arrange", g.parse_move("D6"))]


# ----- the worked example (rule 5) ------------------------------------------------


def test_worked_example_y_claims_c3_d3_and_resows_from_b6():
    # The diagram shows the board just after Y's last man fell into B-3 (which had
    # two men).  Before that, Y's handful of four was in B-7 (empty in the diagram):
    # B-7 sown into B-6, B-5, B-4, B-3 gives exactly the diagram.
    before = dict((k, list(v)) for k, v in DIAGRAM.items())
    before["B"] = [6, 1, 2, 1, 0, 1, 4]
    g = mancala.Game("mongola", pits=position(before), to_move=1)
    t = g.play(g.parse_move("B7"))
    s = steps(g, t)
    assert s[:5] == [("lift", "B7", 4), ("drop", "B6"), ("drop", "B5"), ("drop", "B4"), ("drop", "B3")]
    # Claims C-3 and D-3 (nine men), adds B-3's three: twelve, sown from B-6, the
    # house after B-7, the nearest empty house back from B-3.
    assert s[5:8] == [("take", "C3", 2), ("take", "D3", 7), ("relay", "B3", 3)]
    assert s[8:20] == [("drop", h) for h in ("B6", "B5", "B4", "B3", "B2", "B1", "A1", "A2", "A3", "A4", "A5", "A6")]
    # A-6 held six, now seven: lifted and sown from A-7; the last falls in B-2, which
    # holds two (one from the illustration, one added in the last round).
    assert s[20] == ("relay", "A6", 7)
    assert s[21:28] == [("drop", h) for h in ("A7", "B7", "B6", "B5", "B4", "B3", "B2")]
    # C-2 and D-2 both hold men: six more, with B-2's three, nine.
    assert s[28:31] == [("take", "C2", 4), ("take", "D2", 2), ("relay", "B2", 3)]
    # The nearest empty house back from B-2 is now A-6 (just lifted), so the nine go
    # from A-7; the ninth would fall into A-1, which holds one: Y is exhausted, the
    # man passes A-1 and stays in A-2.
    assert s[31:] == [("drop", h) for h in ("A7", "B7", "B6", "B5", "B4", "B3", "B2", "B1")] + [
        ("skip", "A1"), ("drop", "A2")]
    assert g.pits == position({
        "D": [5, 0, 0, 2, 4, 1, 0],
        "C": [1, 0, 0, 0, 0, 0, 4],
        "B": [8, 1, 3, 5, 4, 5, 2],
        "A": [1, 2, 1, 4, 1, 0, 2],
    })
    assert sum(g.pits) == 56 and g.stores == [0, 0]
    assert g.to_move == 0


# ----- rules -----------------------------------------------------------------


def test_occupied_house_relays_from_the_next_house():
    g = game({"D7": 2, "D5": 2, "A1": 2})
    t = g.play(g.parse_move("D7"))
    assert steps(g, t) == [("lift", "D7", 2), ("drop", "D6"), ("drop", "D5"),
                           ("relay", "D5", 3), ("drop", "D4"), ("drop", "D3"), ("skip", "D2"), ("drop", "D1")]


def test_exhausted_man_passes_an_empty_or_single_house():
    for men in (0, 1):
        g = game({"D7": 2, "D5": men, "A1": 2})
        t = g.play(g.parse_move("D7"))
        assert steps(g, t) == [("lift", "D7", 2), ("drop", "D6"), ("skip", "D5"), ("drop", "D4")]
        assert g.pits[g.parse_move("D5")] == men and g.to_move == 1


def test_exhausted_man_captures_nothing():
    # Rule 6: the man passed on from C-3 lands in C-4 (two there, B-4 and A-4 full): no claim.
    g = game({"C1": 2, "C3": 1, "C4": 2, "B4": 1, "A4": 1, "A7": 2})
    t = g.play(g.parse_move("C1"))
    assert steps(g, t) == [("lift", "C1", 2), ("drop", "C2"), ("skip", "C3"), ("drop", "C4")]
    assert g.pits[g.parse_move("B4")] == 1


def test_capture_needs_both_houses_of_the_column():
    g = game({"C2": 2, "C4": 2, "B4": 1, "A4": 3, "A7": 2})
    t = g.play(g.parse_move("C2"))
    assert steps(g, t)[:6] == [("lift", "C2", 2), ("drop", "C3"), ("drop", "C4"),
                               ("take", "B4", 1), ("take", "A4", 3), ("relay", "C4", 3)]
    # The twin: A-4 empty, so C-4 is lifted and sown on from C-5 instead.
    g = game({"C2": 2, "C4": 2, "B4": 1, "A7": 2})
    t = g.play(g.parse_move("C2"))
    assert steps(g, t) == [("lift", "C2", 2), ("drop", "C3"), ("drop", "C4"),
                           ("relay", "C4", 3), ("drop", "C5"), ("drop", "C6"), ("skip", "C7"), ("drop", "D7")]
    assert g.pits[g.parse_move("B4")] == 1


def test_capture_needs_two_men_already_in_the_house():
    g = game({"C2": 2, "C4": 1, "B4": 1, "A4": 3})
    t = g.play(g.parse_move("C2"))
    assert ("take", "B4", 1) not in steps(g, t)


def test_outer_row_house_never_captures():
    g = game({"D3": 2, "D1": 2, "B1": 1, "A1": 1})
    t = g.play(g.parse_move("D3"))
    assert [x for x in steps(g, t) if x[0] == "take"] == []


def test_resowing_starts_after_the_nearest_empty_house_back():
    # Back from C-4: C-3 and C-2 got men from this handful, C-1 was just emptied; so
    # the claimed men go from C-2, where the handful's first man went.
    g = game({"C1": 3, "C4": 2, "B4": 1, "A4": 1, "A7": 2})
    t = g.play(g.parse_move("C1"))
    s = steps(g, t)
    assert s[:7] == [("lift", "C1", 3), ("drop", "C2"), ("drop", "C3"), ("drop", "C4"),
                     ("take", "B4", 1), ("take", "A4", 1), ("relay", "C4", 3)]
    assert s[7] == ("drop", "C2")


def test_resowing_with_no_empty_house_starts_after_the_capturing_house():
    # Twenty-four men from D-7 go once round X's circuit and on to C-4, which then
    # holds three: every house of X's holds men, so the search back comes round to
    # C-4 itself (just lifted) and the claimed men go from C-5.
    g = game({"D7": 24, "C4": 1, "B4": 1, "A4": 1, "A7": 2})
    t = g.play(g.parse_move("D7"))
    s = steps(g, t)
    i = s.index(("relay", "C4", 3))
    assert s[i - 2:i] == [("take", "B4", 1), ("take", "A4", 1)]
    assert s[i + 1] == ("drop", "C5")


def test_single_men_are_never_lifted_and_a_dead_player_loses():
    g = game({"C1": 1, "D7": 2, "A1": 1, "B7": 1})
    assert g.legal_moves() == [g.parse_move("D7")]
    with pytest.raises(mancala.IllegalMoveError, match="two or more"):
        g.play(g.parse_move("C1"))
    with pytest.raises(mancala.IllegalMoveError, match="belongs to player 1"):
        g.play(g.parse_move("A1"))
    g.play(g.parse_move("D7"))
    out = g.outcome()
    assert out.winner == 0 and "player 1" in out.reason and "dead" in out.reason
    assert out.scores == [3, 2]


def test_men_never_leave_the_board():
    with pytest.raises(mancala.PositionError, match="stores"):
        mancala.Game("mongola", pits=[1] * 28, stores=[2, 0])
    with pytest.raises(mancala.PositionError):
        mancala.Game("mongola", pits=[3] * 28)


def test_notation_round_trip():
    g = mancala.Game("mongola")
    while g.phase == "setup":
        for m in g.legal_moves():
            assert g.parse_move(g.move_name(m)) == m
        g.play(g.legal_moves()[0])
    for m in g.legal_moves():
        assert g.parse_move(g.move_name(m)) == m
    assert g.parse_move("c-4") == g.parse_move("C4") == 10
    with pytest.raises(mancala.NotationError):
        g.parse_move("E1")
    with pytest.raises(mancala.NotationError):
        g.parse_move("sow:C4")
    with pytest.raises(mancala.IllegalMoveError, match="already arranged"):
        g.play(("arrange", 0))
