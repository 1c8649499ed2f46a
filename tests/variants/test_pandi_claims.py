"""Pandi and Pallam Kuzhi with claims="chosen": each calf (a hole brought to four) is a choice of
its owner's hands, taken or left as it forms (docs/variants/pandi.md decision 4 and
pallam-kuzhi.md decision 3; source 000 PANDI, continued, and PALLAM KUZHI rule 5).

A move is the pit (every calf taken) or (pit, letters), one letter a calf in the order they form,
"t" taken, "l" left.  The traces of a calf taken and left part at the step after the drop that
made it: the take, or the next drop.
"""
import pytest

import mancala
from mancala import MoveInProgress, Step
from tracesteps import drop, lift, make_play, steps, take

S0, S1 = 14, 15
CHOSEN = {"claims": "chosen"}

# A sows through B's pit 7 (3 -> 4, B's calf), then 8; 9 is empty: A wins 10 and its opposite 3.
ON_THE_WAY = [0, 0, 0, 0, 0, 3, 0, 3, 0, 0, 1, 0, 0, 0]


@pytest.mark.parametrize("variant", ["pandi", "pallam-kuzhi"])
def test_a_calf_left_stays_in_its_hole_and_the_sowing_goes_on(variant):
    play = make_play(variant, into=(S0, S1), never_sown=(S0, S1))
    g, s = play(ON_THE_WAY, 5, **CHOSEN)                 # the plain pit: the calf taken
    assert s == [lift(5, 3), drop(6), drop(7), take(7, 4, S1), drop(8), take(10, 1, S0)]
    g, s = play(ON_THE_WAY, (5, "l"), **CHOSEN)
    assert s == [lift(5, 3), drop(6), drop(7), drop(8), take(10, 1, S0)]
    assert g.pits == [0, 0, 0, 0, 0, 0, 1, 4, 1, 0, 0, 0, 0, 0]
    assert g.stores == [1, 0] and g.to_move == 1
    assert mancala.Game(variant, pits=ON_THE_WAY, **CHOSEN).legal_moves() == [5, (5, "l")]


def test_a_calf_made_by_the_last_stone_may_be_left():
    # The last stone makes A's calf in pit 2; left, the next hole (3) is empty and so is the one
    # beyond it: nothing is won.
    play = make_play("pandi", into=(S0, S1), never_sown=(S0, S1))
    g, s = play([2, 0, 3, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1], (0, "l"), **CHOSEN)
    assert s == [lift(0, 2), drop(1), drop(2)]
    assert g.pits[2] == 4 and g.stores == [0, 0]


def test_a_left_calf_that_grows_is_no_calf_any_more():
    # 15 stones from A: pit 1 (3 -> 4) is A's calf; left, the lap brings a fifth stone to it.
    g = mancala.Game("pandi", pits=[15, 3] + [0] * 12, **CHOSEN)
    t = steps(g.play((0, "l")))
    assert t[:3] == [lift(0, 15), drop(1), drop(2)]
    assert t[15] == drop(1) and all(x[0] != "take" or x[1] != 1 for x in t)   # the 15th stone: five, never taken


def test_every_way_through_the_calves_is_a_move_and_names_round_trip():
    # Two calves on the way (B's pits 7 and 8): four moves from pit 5.
    g = mancala.Game("pandi", pits=[0, 0, 0, 0, 0, 4, 0, 3, 3, 0, 0, 0, 0, 2], **CHOSEN)
    assert g.legal_moves() == [5, (5, "lt"), (5, "ll"), (5, "tl")]
    ends = set()
    for m in g.legal_moves():
        assert g.parse_move(g.move_name(m)) == m
        h = g.copy()
        h.play(m)
        ends.add(tuple(h.cells()))
    assert len(ends) == 4
    assert g.move_name((5, "tl")) == "F/tl" and g.parse_move("F/l") == (5, "lt")   # (a calf not named is taken)
    assert g.parse_move("F/tt") == 5
    with pytest.raises(mancala.IllegalMoveError, match="calves"):
        g.play((5, "lll"))
    with pytest.raises(mancala.NotationError, match="t .taken. or l .left."):
        g.parse_move("F/x")


def test_the_hands_settle_the_claim_by_the_step_after_the_four():
    g = mancala.Game("pandi", pits=ON_THE_WAY, **CHOSEN)
    mv = MoveInProgress(g)
    for s in (lift(5, 3), drop(6), drop(7)):
        mv.advance(Step(*s))
    assert sorted(mv.options()) == sorted([Step(*take(7, 4, S1)), Step(*drop(8))])
    assert mv.forced() is None and not mv.can_stop()
    mv.advance(Step(*drop(8)))                            # B's hands left the calf
    while mv.forced() is not None:
        mv.advance(mv.forced())
    assert mv.done() and mv.move() == (5, "l")
    assert steps(mv.finish()) == [lift(5, 3), drop(6), drop(7), drop(8), take(10, 1, S0)]


def test_automatic_claims_stay_the_default():
    g = mancala.Game("pandi", pits=ON_THE_WAY)
    assert g.claims == "automatic" and g.legal_moves() == [5]
    with pytest.raises(mancala.NotationError, match="claims=chosen"):
        g.parse_move("F/l")
    with pytest.raises(mancala.PositionError, match="claims"):
        mancala.Game("pallam-kuzhi", claims="sometimes")


def test_the_option_is_in_the_position_text_and_carried_through_a_match():
    g = mancala.Game("pallam-kuzhi", **CHOSEN)
    assert "claims=chosen" in mancala.to_text(g)
    assert mancala.from_text(mancala.to_text(g)).claims == "chosen"
    m = mancala.Match("pandi", **CHOSEN)
    while not m.game.is_over():
        m.game.play(m.game.legal_moves()[-1])
    assert m.next_round().claims == "chosen"


def test_on_the_board_the_hands_leave_a_calf_and_the_move_is_the_one_they_made():
    # The 2x7 board with stores, simulated hands doing what the LEDs ask (tests/micropython/fakes).
    import json
    from pathlib import Path
    from fakeload import load_fake
    from sowlight_fw import config
    hands = load_fake("hands")
    root = Path(__file__).resolve().parents[2]
    board = config.check(json.loads((root / "hardware" / "boards" / "2x7-stores.json").read_text()))
    h = hands.start(board, "pandi", seed=1, options=CHOSEN)
    c = h.c
    pos = {"pits": ON_THE_WAY, "stores": [35, 28], "to_move": 0}
    assert c.command({"type": "set_pos", "pos": pos}, h.now)["type"] == "ok"
    hands.arrange(h, hands.expected_counts(c))
    h.wait(500)
    g = c.gmap
    h.lift(g[5])
    h.drop(g[6])
    h.drop(g[7])                       # B's calf: four in pit 7
    h.drop(g[8])                       # ... left: the next stone goes on
    n = 0
    while c.state == "sowing":         # the capture beyond the empty hole, as the lights ask
        h.step()
        n += 1
        assert n < 50 and not c.mismatch
    moves = [r["move"] for r in c.records if r["kind"] == "move"]
    assert moves[-1] == [5, "l"] or moves[-1] == (5, "l")
    want = mancala.Game("pandi", pits=ON_THE_WAY, stores=[35, 28], **CHOSEN)
    want.play((5, "l"))
    assert c.game.cells() == want.cells() and h.seeds.counts == hands.expected_counts(c)
