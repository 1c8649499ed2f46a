"""Hus (Otjitoto): docs/variants/hus.md, source 001 (Wagner 1916), I. The Game of Hus.

Wagner's holes a-1..a-12 (P's outer row), b-1..b-12 (P's inner row), c-1..c-12 (Q's inner
row), d-1..d-12 (Q's outer row); column 1 is at P's right.  P is player 0, Q player 1.
Canonical pits (4x12): a12..a1 = 0..11, b1..b12 = 12..23, d1..d12 = 24..35, c12..c1 = 36..47.
"""
import pytest

import mancala
from mancala import MoveInProgress
from tracesteps import cell_name as name, position

# The whole game of the source (Fig. 1-4, moves II-XX), one move per entry.  Each
# handful: how it was picked up (lift / relay / take of the holes captured), how
# many men, and the holes its men were dropped into, as the source tells it.
# OCR repairs: "6-", "h-", "&-" read as b-; "cZ", "(?" as d-; in V the third hole
# of the relay from d-11 (lost in the text) is c-11; in VII "d-^"/"d-Q" are d-5/d-6;
# in IV "d-1" is d-7 and in XV "d-1" is d-7 (the holes next in the circuit).
RECORD = (
    ("II", "lift b6 2: b7 b8"),
    ("III", "lift c9 2: c8 c7 | take b7+a7 3: c6 c5 c4"),
    ("IV", "lift b3 2: b4 b5 | take c5+d5 3: b6 b7 b8 | take c8+d8 5: b9 b10 b11 b12 a12"
           " | relay a12 3: a11 a10 a9 | relay a9 3: a8 a7 a6 | relay a6 3: a5 a4 a3"
           " | relay a3 3: a2 a1 b1 | relay b1 3: b2 b3 b4 | take c4+d4 3: b5 b6 b7"
           " | take c7+d7 5: b8 b9 b10 b11 b12 | take c12+d12 4: a12 a11 a10 a9"),
    ("V", "lift d9 2: d10 d11 | relay d11 3: d12 c12 c11 | take b11+a11 6: c10 c9 c8 c7 c6 c5"),
    ("VI", "lift b6 2: b7 b8 | take c8 1: b9 | take c9 1: b10 | take c10+d10 6: b11 b12 a12 a11 a10 a9"
           " | relay a9 2: a8 a7 | relay a7 2: a6 a5 | relay a5 4: a4 a3 a2 a1 | relay a1 4: b1 b2 b3 b4"
           " | relay b4 5: b5 b6 b7 b8 b9 | relay b9 4: b10 b11 b12 a12 | relay a12 3: a11 a10 a9"),
    ("VII", "lift d1 2: d2 d3 | relay d3 3: d4 d5 d6 | relay d6 3: d7 d8 d9"),
    ("VIII", "lift b3 2: b4 b5 | take c5+d5 2: b6 b7 | take c7+d7 2: b8 b9"),
    ("IX", "lift d2 3: d3 d4 d5"),
    ("X", "lift b2 4: b3 b4 b5 b6 | take c6 2: b7 b8 | relay b8 7: b9 b10 b11 b12 a12 a11 a10"
          " | relay a10 7: a9 a8 a7 a6 a5 a4 a3 | relay a3 2: a2 a1"),
    ("XI", "lift d4 2: d5 d6"),
    ("XII", "lift b9 2: b10 b11 | take c11 3: b12 a12 a11 | relay a11 4: a10 a9 a8 a7"
            " | relay a7 2: a6 a5 | relay a5 2: a4 a3"),
    ("XIII", "lift d5 2: d6 d7"),
    ("XIV", "lift b5 7: b6 b7 b8 b9 b10 b11 b12 | take c12+d12 2: a12 a11"),
    ("XV", "lift d6 2: d7 d8 | relay d8 2: d9 d10"),
    ("XVI", "lift a12 3: a11 a10 a9 | relay a9 4: a8 a7 a6 a5"),
    ("XVII", "lift d7 2: d8 d9 | relay d9 3: d10 d11 d12"),
    ("XVIII", "lift a8 7: a7 a6 a5 a4 a3 a2 a1 | relay a1 2: b1 b2"),
    ("XIX", "lift d10 2: d11 d12 | relay d12 2: c12 c11"),
    ("XX", "lift b4 2: b5 b6 | relay b6 5: b7 b8 b9 b10 b11 | take c11+d11 3: b12 a12 a11"
           " | relay a11 3: a10 a9 a8"),
)

# Fig. 4, XX 2: the position the game ends in (every hole not named is empty).
FINAL = {"a12": 1, "a10": 3, "a9": 1, "a8": 1, "a7": 2, "a6": 5, "a5": 2, "a4": 7, "a3": 2, "a2": 6,
         "b1": 2, "b2": 1, "b3": 1, "b5": 1, "b7": 8, "b8": 2, "b9": 2, "b10": 8, "b11": 6, "b12": 8,
         "d3": 1, "d8": 1, "c12": 1}


def handfuls(g, trace):
    """A trace as [kind, holes, men, holes dropped into]: takes of one capture are one handful."""
    out = []
    for s in trace:
        if s.kind in ("lift", "relay"):
            out.append([s.kind, [name(g, s.pit)], s.count, []])
        elif s.kind == "take":
            assert s.to == mancala.HAND          # captured men are sown again, never removed
            if out and out[-1][0] == "take" and not out[-1][3]:
                out[-1][1].append(name(g, s.pit))
                out[-1][2] += s.count
            else:
                out.append(["take", [name(g, s.pit)], s.count, []])
        elif s.kind == "drop":
            out[-1][3].append(name(g, s.pit))
        else:
            out.append([s.kind, [], 0, []])
    return out


def expected(text):
    out = []
    for part in text.split("|"):
        head, _, drops = part.partition(":")
        kind, holes, men = head.split()
        out.append([kind, holes.split("+"), int(men), drops.split()])
    return out


def game(holes, to_move=0, **options):
    g = mancala.Game("hus", **options)
    return mancala.Game("hus", pits=position(g, holes), to_move=to_move, **options)


START = {}
for _c in range(1, 13):
    START["a%d" % _c] = START["d%d" % _c] = 2
for _c in range(1, 7):
    START["b%d" % _c] = START["c%d" % (_c + 6)] = 2


# ----- board and start -------------------------------------------------------


def test_start_position_fig1_i():
    g = mancala.Game("hus")
    assert g.rows == 4 and g.pits_per_row == 12 and g.n_pits == 48
    assert g.pits == position(g, START)
    assert sum(g.pits) == 72 and g.stores == [0, 0]
    # Canonical numbering: P's outer row from his left (a12) to right, then his inner row back.
    assert [g.parse_move(h) for h in ("a12", "a1", "b1", "b12", "d1", "d12", "c12", "c1")] == [0, 11, 12, 23, 24, 35, 36, 47]
    assert g.opposite(g.parse_move("b7")) == g.parse_move("c7")
    assert g.behind(g.parse_move("c7")) == g.parse_move("d7")


def test_aliases_and_catalog_board():
    assert mancala.Game("Otjitoto").pits == mancala.Game("hus").pits
    info = mancala.variant_info("hus")
    assert (info["rows"], info["pits_per_row"], info["playable"]) == (4, 12, True)


def test_board_size_option():
    g = mancala.Game("hus", pits_per_row=8)
    assert g.n_pits == 32 and sum(g.pits) == 48
    assert g.pits[g.parse_move("b4")] == 2 and g.pits[g.parse_move("b5")] == 0
    assert g.pits[g.parse_move("c5")] == 2 and g.pits[g.parse_move("c4")] == 0
    with pytest.raises(mancala.PositionError, match="pits_per_row"):
        mancala.Game("hus", pits_per_row=7)       # the rows hold an even number of holes


# ----- the source's whole game -----------------------------------------------


def test_record_whole_game_moves_ii_to_xx():
    g = mancala.Game("hus")
    for number, text in RECORD:
        player = g.to_move
        first = text.split()[1]
        move = g.parse_move(first)
        assert move in g.legal_moves(), number
        before = sum(g.pits)
        trace = g.play(move)
        steps = handfuls(g, trace)
        if number == "XX":
            assert steps[-1][0] == "end"
            steps = steps[:-1]
        assert steps == expected(text), number
        assert sum(g.pits) == before == 72           # men never leave the board
        assert g.stores == [0, 0]
        assert g.to_move == 1 - player or g.is_over()
    assert g.pits == position(g, FINAL)
    # Q has one man in each of his occupied holes: he cannot move and P wins.
    assert all(g.pits[g.parse_move(h)] <= 1 for h in ["c%d" % c for c in range(1, 13)] + ["d%d" % c for c in range(1, 13)])
    out = g.outcome()
    assert out.winner == 0
    assert out.scores == [69, 3]
    assert "player 1" in out.reason
    assert g.legal_moves() == []


def test_record_move_iii_capture_fig1_iii():
    # Q's last man makes c-7 three; b-7 holds one: Q takes b-7 and a-7 and sows them on.
    g = mancala.Game("hus")
    g.play(g.parse_move("b6"))
    trace = g.play(g.parse_move("c9"))
    assert [(s.kind, name(g, s.pit), s.count) for s in trace if s.kind == "take"] == [("take", "b7", 1), ("take", "a7", 2)]
    assert g.pits[g.parse_move("c7")] == 3     # the capturing hole keeps its men
    assert [g.pits[g.parse_move(h)] for h in ("c6", "c5", "c4", "b7", "a7")] == [1, 1, 1, 0, 0]


# ----- the opening move (II a) -----------------------------------------------


def test_opening_move_iia_from_the_outer_row():
    g = mancala.Game("hus")
    opening = g.parse_move("a6>b7")
    assert opening in g.legal_moves()
    assert g.move_name(opening) == "a6>b7"
    trace = g.play(opening)
    assert [(s.kind, name(g, s.pit)) for s in trace] == [("lift", "a6"), ("drop", "b7"), ("drop", "b8")]
    after = dict(START, a6=0, b7=1, b8=1)
    assert g.pits == position(g, after)
    # Q's first move may do the same: d-7 behind his last filled inner hole c-7, into c-6 and c-5.
    q_opening = g.parse_move("d7>c6")
    assert q_opening in g.legal_moves()
    g.play(q_opening)
    assert g.pits[g.parse_move("c6")] == 1 and g.pits[g.parse_move("c5")] == 1 and g.pits[g.parse_move("d7")] == 0


def test_opening_move_only_while_the_rows_are_as_set_up():
    g = mancala.Game("hus")
    g.play(g.parse_move("b6"))
    g.play(g.parse_move("c9"))
    assert not any(isinstance(m, tuple) for m in g.legal_moves())
    with pytest.raises(mancala.IllegalMoveError, match="first move"):
        g.play(g.parse_move("a6>b7"))


def test_opening_choice_shows_at_the_first_drop():
    g = mancala.Game("hus")
    mv = MoveInProgress(g)
    lift = [s for s in mv.options() if s.kind == "lift" and name(g, s.pit) == "a6"][0]
    mv.advance(lift)
    assert mv.forced() is None
    assert sorted(name(g, s.pit) for s in mv.options()) == ["a5", "b7"]
    drop = [s for s in mv.options() if name(g, s.pit) == "b7"][0]
    mv.advance(drop)
    assert mv.moves() == [g.parse_move("a6>b7")]
    mv.advance(mv.forced())
    assert mv.done()
    assert list(mv.finish()) == list(mancala.Game("hus").play(g.parse_move("a6>b7")))


# ----- rules -----------------------------------------------------------------


def test_last_man_in_an_empty_hole_ends_the_move():
    g = game({"b2": 2, "c1": 3, "d12": 2})
    trace = g.play(g.parse_move("b2"))
    assert trace.kinds() == ["lift", "drop", "drop"]
    assert g.to_move == 1


def test_inner_hole_facing_occupied_captures_inner_and_outer_and_resows():
    g = game({"b2": 2, "b4": 1, "c4": 2, "d4": 3, "d12": 2})
    trace = g.play(g.parse_move("b2"))
    assert handfuls(g, trace) == expected("lift b2 2: b3 b4 | take c4+d4 5: b5 b6 b7 b8 b9")
    assert g.pits == position(g, {"b3": 1, "b4": 2, "b5": 1, "b6": 1, "b7": 1, "b8": 1, "b9": 1, "d12": 2})


def test_inner_hole_facing_an_empty_hole_relays_instead():
    # The twin: c-4 is empty (d-4 full does not count), so b-4 is lifted and sown on.
    g = game({"b2": 2, "b4": 1, "d4": 3, "d12": 2})
    trace = g.play(g.parse_move("b2"))
    assert handfuls(g, trace) == expected("lift b2 2: b3 b4 | relay b4 2: b5 b6")
    assert g.pits[g.parse_move("d4")] == 3


def test_capture_with_empty_outer_hole_takes_the_inner_one_only():
    g = game({"b2": 2, "b4": 1, "c4": 2, "d12": 2})
    trace = g.play(g.parse_move("b2"))
    assert [(s.kind, name(g, s.pit), s.count) for s in trace if s.kind == "take"] == [("take", "c4", 2)]


def test_occupied_outer_hole_relays_even_behind_a_capture_column():
    g = game({"a5": 2, "a3": 1, "c9": 2, "d9": 2, "d12": 2})
    trace = g.play(g.parse_move("a5"))
    assert handfuls(g, trace) == expected("lift a5 2: a4 a3 | relay a3 2: a2 a1")


def test_captured_men_sown_at_the_end_of_the_board_run_into_the_outer_row():
    g = game({"b10": 2, "b12": 1, "c12": 3, "d12": 1, "d1": 2})
    trace = g.play(g.parse_move("b10"))
    assert handfuls(g, trace) == expected("lift b10 2: b11 b12 | take c12+d12 4: a12 a11 a10 a9")


def test_captures_chain_until_an_empty_hole():
    g = game({"b1": 2, "b3": 1, "c3": 1, "b4": 1, "c4": 1, "d4": 1, "d12": 2})
    trace = g.play(g.parse_move("b1"))
    assert handfuls(g, trace) == expected("lift b1 2: b2 b3 | take c3 1: b4 | take c4+d4 2: b5 b6")


def test_single_man_never_starts_a_move():
    g = game({"b2": 1, "b5": 2, "d12": 2})
    assert g.legal_moves() == [g.parse_move("b5")]
    with pytest.raises(mancala.IllegalMoveError, match="fewer than two"):
        g.play(g.parse_move("b2"))
    with pytest.raises(mancala.IllegalMoveError, match="belongs to player 1"):
        g.play(g.parse_move("d12"))


def test_a_player_with_only_single_men_loses():
    g = game({"b1": 2, "b5": 1, "d1": 1, "d3": 1, "c2": 1})
    g.play(g.parse_move("b1"))
    assert g.is_over()
    out = g.outcome()
    assert out.winner == 0 and out.scores == [3, 3]
    assert "player 1" in out.reason and "loses" in out.reason
    assert g.pits == position(g, {"b2": 1, "b3": 1, "b5": 1, "d1": 1, "d3": 1, "c2": 1})   # nothing collected


def test_capturing_every_man_wins():
    g = game({"b2": 2, "b4": 1, "c4": 2, "d4": 2})
    g.play(g.parse_move("b2"))
    assert g.is_over() and g.outcome().winner == 0
    assert g.outcome().scores == [7, 0]


def test_stores_must_stay_empty():
    with pytest.raises(mancala.PositionError, match="stores"):
        mancala.Game("hus", pits=[1] * 48, stores=[1, 0])


def test_too_many_men_refused():
    with pytest.raises(mancala.PositionError):
        mancala.Game("hus", pits=[2] * 48)


# ----- notation ----------------------------------------------------------------


def test_notation_round_trip_and_errors():
    g = mancala.Game("hus")
    for m in g.legal_moves():
        assert g.parse_move(g.move_name(m)) == m
    assert g.parse_move("b-6") == g.parse_move("B6") == g.parse_move("b6") == 17
    with pytest.raises(mancala.NotationError, match="hole"):
        g.parse_move("e3")
    with pytest.raises(mancala.NotationError):
        g.parse_move("b13")
    with pytest.raises(mancala.NotationError):
        g.parse_move("")
    with pytest.raises(mancala.IllegalMoveError, match="not a move"):
        g.play((17, 3, 4))


def test_position_text_round_trip():
    g = mancala.Game("hus", pits_per_row=8)
    g.play(g.legal_moves()[3])
    text = mancala.to_text(g)
    h = mancala.from_text(text)
    assert h.pits == g.pits and h.to_move == g.to_move and h.legal_moves() == g.legal_moves()
