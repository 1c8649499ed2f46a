"""Maruba (Mofuba): docs/variants/maruba.md, source 001 (Wagner 1916), Maruba, Mofuba.

Wagner's holes a-1..a-8 (P's outer row), b-1..b-8 (P's inner row), c-1..c-8 (Q's inner
row), d-1..d-8 (Q's outer row); column 1 is at P's right.  P is player 0, Q player 1.
Canonical pits (4x8): a8..a1 = 0..7, b1..b8 = 8..15, d1..d8 = 16..23, c8..c1 = 24..31;
stores: cell 32 (P), 33 (Q).
"""
import pytest

import mancala
from mancala import MoveInProgress
from tracesteps import cell_name as name, named_steps as steps, pit_of, position

P_STORE, Q_STORE = 32, 33


def game(holes, to_move=0, variant="maruba", stores=None, **options):
    g = mancala.Game(variant, **options)
    return mancala.Game(variant, pits=position(g, holes), stores=stores, to_move=to_move, **options)


START = {}
for _c in range(1, 9):
    START["a%d" % _c] = START["d%d" % _c] = 2
for _c in range(1, 7):
    START["b%d" % _c] = START["c%d" % (_c + 2)] = 2
START["b7"] = START["c2"] = 1          # next to the empty hole on the far left (b-8, c-1)


# ----- board and start -------------------------------------------------------


def test_start_position_fig5_i():
    g = mancala.Game("maruba")
    assert g.pits == position(g, START)
    assert g.pits[g.parse_move("b8")] == 0 and g.pits[g.parse_move("c1")] == 0
    assert sum(g.pits) == 58 and g.stores == [0, 0]
    assert g.to_move == 0


def test_mofuba_alias_and_catalog():
    assert mancala.Game("Mofuba").pits == mancala.Game("maruba").pits
    info = mancala.variant_info("maruba")
    assert (info["rows"], info["pits_per_row"], info["playable"]) == (4, 8, True)


def test_board_size_option():
    g = mancala.Game("maruba", pits_per_row=6)
    assert sum(g.pits) == 2 * (12 + 12 - 3)
    assert g.pits[g.parse_move("b6")] == 0 and g.pits[g.parse_move("b5")] == 1
    with pytest.raises(mancala.PositionError, match="pits_per_row"):
        mancala.Game("maruba", pits_per_row=2)


# ----- the record (Fig. 5) -----------------------------------------------------


def test_record_fig5_moves_ii_to_v():
    g = mancala.Game("maruba")
    # II. P lifts b-6 into b-7 and the empty b-8: kills c-8 and d-8 (four) and takes d-6.
    t = g.play(g.parse_move("b6xd6"))
    assert steps(g, t) == [("lift", "b6", 2), ("drop", "b7"), ("drop", "b8"),
                           ("take", "c8", 2), ("take", "d8", 2), ("take", "d6", 2)]
    assert all(s.to == P_STORE for s in t if s.kind == "take")
    assert g.stores == [6, 0]                              # "all six pieces are removed"
    # III. Q lifts c-3 into c-2 and the empty c-1: kills b-1 and a-1 (four), takes a-2.
    t = g.play(g.parse_move("c3xa2"))
    assert steps(g, t) == [("lift", "c3", 2), ("drop", "c2"), ("drop", "c1"),
                           ("take", "b1", 2), ("take", "a1", 2), ("take", "a2", 2)]
    assert g.stores == [6, 6]
    # IV. P lifts b-4 into b-5 and b-6 (emptied in II): kills the two in c-6 (d-6 is
    # already gone) and takes the two in c-5.
    t = g.play(g.parse_move("b4xc5"))
    assert steps(g, t) == [("lift", "b4", 2), ("drop", "b5"), ("drop", "b6"),
                           ("take", "c6", 2), ("take", "c5", 2)]
    assert g.stores == [10, 6]
    # V. Q lifts c-2 and relays round his rows until d-7, empty and in his outer row.
    t = g.play(g.parse_move("c2"))
    assert steps(g, t) == [
        ("lift", "c2", 2), ("drop", "c1"), ("drop", "d1"),
        ("relay", "d1", 3), ("drop", "d2"), ("drop", "d3"), ("drop", "d4"),
        ("relay", "d4", 3), ("drop", "d5"), ("drop", "d6"), ("drop", "d7"),
        ("relay", "d7", 3), ("drop", "d8"), ("drop", "c8"), ("drop", "c7"),
        ("relay", "c7", 3), ("drop", "c6"), ("drop", "c5"), ("drop", "c4"),      # Fig. 5, V 1
        ("relay", "c4", 3), ("drop", "c3"), ("drop", "c2"), ("drop", "c1"),      # Fig. 5, V 2
        ("relay", "c1", 3), ("drop", "d1"), ("drop", "d2"), ("drop", "d3"),
        ("relay", "d3", 4), ("drop", "d4"), ("drop", "d5"), ("drop", "d6"), ("drop", "d7"),
    ]
    assert g.stores == [10, 6]
    assert g.pits == position(g, {
        "a8": 2, "a7": 2, "a6": 2, "a5": 2, "a4": 2, "a3": 2, "b2": 2, "b3": 2, "b5": 3, "b6": 1, "b7": 2, "b8": 1,
        "d1": 1, "d2": 4, "d4": 1, "d5": 4, "d6": 2, "d7": 1, "d8": 1,
        "c8": 1, "c6": 1, "c5": 1, "c3": 1, "c2": 1})
    assert g.to_move == 0


def test_record_fig5_vi_single_men():
    # Fig. 5, IX is not in the text; what the text says of it: Q to move has one man
    # in each of c-8, c-6, c-4, c-3, d-1, d-3, d-5, d-6, d-7, and may start from
    # c-8, c-6, c-3, d-1, d-3 or d-7, not from c-4, d-5 or d-6.  P's men are made up
    # (any will do as long as none faces the holes Q's single men reach).
    q = {h: 1 for h in ("c8", "c6", "c4", "c3", "d1", "d3", "d5", "d6", "d7")}
    g = game(dict(q, a8=3, a1=2), to_move=1, stores=[20, 20])
    starts = sorted(name(g, pit_of(m)) for m in g.legal_moves())
    assert starts == ["c3", "c6", "c8", "d1", "d3", "d7"]
    for hole in ("c4", "d5", "d6"):
        with pytest.raises(mancala.IllegalMoveError, match="next hole is occupied"):
            g.play(g.parse_move(hole))


# ----- rules -----------------------------------------------------------------


def test_occupied_hole_always_relays_even_facing_an_occupied_hole():
    # Unlike Hus, no capture on an occupied hole: b-4 faces c-4 (occupied) and is lifted.
    g = game({"b2": 2, "b4": 1, "c4": 2, "d4": 2, "d8": 2})
    t = g.play(g.parse_move("b2"))
    assert steps(g, t) == [("lift", "b2", 2), ("drop", "b3"), ("drop", "b4"),
                           ("relay", "b4", 2), ("drop", "b5"), ("drop", "b6")]
    assert g.stores == [0, 0]


def test_empty_inner_hole_facing_occupied_kills_and_takes_one_more_hole():
    g = game({"b2": 2, "c4": 1, "d4": 3, "d8": 2, "c7": 1})
    moves = g.legal_moves()
    assert sorted(g.move_name(m) for m in moves) == ["b2xc7", "b2xd8"]
    t = g.play(g.parse_move("b2xd8"))
    assert steps(g, t)[3:] == [("take", "c4", 1), ("take", "d4", 3), ("take", "d8", 2)]
    assert g.stores == [6, 0]


def test_empty_inner_hole_facing_an_empty_hole_kills_nothing():
    g = game({"b2": 2, "d4": 3, "d8": 2})
    assert g.legal_moves() == [g.parse_move("b2")]
    t = g.play(g.parse_move("b2"))
    assert t.kinds() == ["lift", "drop", "drop"]
    assert g.stores == [0, 0]


def test_empty_outer_hole_kills_nothing():
    g = game({"a3": 2, "b1": 3, "c1": 2, "d1": 2, "d8": 2})
    t = g.play(g.parse_move("a3"))
    assert t.kinds() == ["lift", "drop", "drop"]
    assert g.stores == [0, 0]


def test_kill_without_another_hole_to_take_is_a_plain_move():
    g = game({"b2": 2, "c4": 1, "d4": 3})
    assert g.legal_moves() == [g.parse_move("b2")]
    g.play(g.parse_move("b2"))
    assert g.stores == [4, 0]
    assert g.is_over() and g.outcome().winner == 0
    assert "player 1 has no men" in g.outcome().reason


def test_a_kill_needs_its_choice_named():
    g = game({"b2": 2, "c4": 1, "d4": 3, "d8": 2, "c7": 1})
    with pytest.raises(mancala.IllegalMoveError, match="one of b2xd8 b2xc7"):
        g.play(g.parse_move("b2"))
    with pytest.raises(mancala.IllegalMoveError, match="say which"):
        g.play(g.parse_move("b2xc4"))            # the killed column is not an "other" hole


def test_the_choice_shows_at_the_take():
    g = game({"b2": 2, "c4": 1, "d4": 3, "d8": 2, "c7": 1})
    mv = MoveInProgress(g)
    mv.advance(mv.options()[0])                     # lift b-2: the only start
    while mv.forced() is not None:
        mv.advance(mv.forced())
    # After the kill of c-4 and d-4 the hands may go to d-8 or c-7.
    assert sorted(name(g, s.pit) for s in mv.options()) == ["c7", "d8"]
    assert [s.kind for s in mv.steps[-2:]] == ["take", "take"]
    choice = [s for s in mv.options() if name(g, s.pit) == "c7"][0]
    mv.advance(choice)
    assert mv.done() and mv.move() == g.parse_move("b2xc7")
    assert list(mv.finish()) == list(game({"b2": 2, "c4": 1, "d4": 3, "d8": 2, "c7": 1}).play(g.parse_move("b2xc7")))


def test_single_men_wait_while_a_hole_holds_two():
    g = game({"b2": 1, "a5": 2, "d8": 2})
    assert [pit_of(m) for m in g.legal_moves()] == [g.parse_move("a5")]
    with pytest.raises(mancala.IllegalMoveError, match="single man"):
        g.play(g.parse_move("b2"))


def test_single_men_move_only_into_empty_holes():
    g = game({"b2": 1, "b3": 1, "b6": 1, "d8": 2})
    assert sorted(name(g, m) for m in g.legal_moves()) == ["b3", "b6"]


def test_a_player_who_cannot_move_passes():
    # P has a single man in every hole: each would move into an occupied hole, so
    # P cannot move and Q moves again after his own move.
    holes = dict(("%s%d" % (r, c), 1) for r in "ab" for c in range(1, 9))
    g = game(dict(holes, d1=2, d5=3), to_move=1)
    t = g.play(g.parse_move("d1"))
    assert t.kinds()[-1] == "pass"
    assert g.to_move == 1 and not g.is_over()


def test_cleared_side_ends_and_leftovers_are_not_counted():
    g = game({"b2": 2, "c4": 1, "a8": 5}, stores=[3, 1])
    g.play(g.parse_move("b2"))
    out = g.outcome()
    assert out.winner == 0 and out.scores == [4, 1]
    assert g.pits[g.parse_move("a8")] == 5          # P's men stay where they are


def test_notation_round_trip():
    g = mancala.Game("maruba")
    for m in g.legal_moves():
        assert g.parse_move(g.move_name(m)) == m
    assert g.parse_move("B6XD6") == g.parse_move("b-6xd-6") == (g.parse_move("b6"), g.parse_move("d6"))
    with pytest.raises(mancala.NotationError):
        g.parse_move("b6x")
    with pytest.raises(mancala.NotationError):
        g.parse_move("z9")


def test_position_text_round_trip():
    g = mancala.Game("maruba")
    g.play(g.parse_move("b6xd6"))
    h = mancala.from_text(mancala.to_text(g))
    assert h.cells() == g.cells() and h.legal_moves() == g.legal_moves()
