"""The board follows a capture declined in the Omweso family (docs/variants/omweso.md,
decision 4): simulated hands play the turn on the board, step by step, as the LEDs ask.

By default a capture declined sows on: at the capture point the board lights both ways on
(take the opposing column, or lift the landing pit again) and narrows on the one the hands
take.  With declined="sleep" the turn may stop there instead: the hands press confirm.
"""
import pytest
from fakeload import load_fake
from test_firmware_follow_lazy import followed_on_both
from testgames import board_4x8

import mancala
from sowlight_fw import colours as C

hands = load_fake("hands")

# Player 0 to move.  H (2 seeds) sows I, J; J held one, and the column facing it (o 3, b 2)
# is full: a capture point.  Declined, J's two seeds go on to K and L (empty): he sleeps.
P0 = [0] * 16
P1 = [0] * 16
P0[7], P0[9], P0[0] = 2, 1, 2          # H, J, A
P1[14], P1[1], P1[5] = 3, 2, 2         # o, b, f
PITS = P0 + P1


def game_on_the_board(kind, variant, declined):
    h = hands.start(board_4x8(kind), variant, seed=1, options={"race": "none", "declined": declined})
    c = h.c
    pos = {"pits": PITS, "stores": [0, 0], "to_move": 0}
    assert c.command({"type": "set_pos", "pos": pos}, h.now)["type"] == "ok"
    hands.arrange(h, hands.expected_counts(c))
    h.wait(500)
    return h, c


def sow_to_the_capture_point(h, c):
    h.lift(c.gmap[7])
    h.drop(c.gmap[8])
    h.drop(c.gmap[9])
    h.wait(500)
    assert not c.mismatch and c.state == "sowing"


def last_move(c):
    m = [r for r in c.records if r["kind"] == "move"][-1]["move"]
    return m if isinstance(m, int) else tuple(m)


@pytest.mark.parametrize("variant", ["omweso", "coro"])
@pytest.mark.parametrize("kind", ["load-cells", "occupancy"])
def test_the_hands_decline_a_capture_and_sow_on(kind, variant):
    h, c = game_on_the_board(kind, variant, "sow-on")
    sow_to_the_capture_point(h, c)
    # Both ways on blink as a choice, each a pit to lift into the hand: the opposing front
    # pit o (the capture), or J again (declined).  Stopping is no move.
    view = hands.watch(c, h.now)
    assert not c.follower.mv.can_stop()
    assert view[c.gmap[9]][:2] == (C.RELAY, C.OFF) and view[c.gmap[30]][:2] == (C.RELAY, C.OFF)
    h.lift(c.gmap[9])                  # declined: J's seeds go on
    h.drop(c.gmap[10])
    h.drop(c.gmap[11])
    h.wait(1500)
    assert not c.mismatch and c.state == "await_lift" and c.game.to_move == 1
    assert last_move(c) == (7, "n")
    want = mancala.Game(variant, pits=PITS, race="none")
    want.play((7, "n"))
    assert c.game.cells() == want.cells()
    assert h.seeds.counts == hands.expected_counts(c)


@pytest.mark.parametrize("kind", ["load-cells", "occupancy"])
def test_the_hands_take_the_capture_where_they_could_decline_it(kind):
    h, c = game_on_the_board(kind, "omweso", "sow-on")
    sow_to_the_capture_point(h, c)
    h.lift(c.gmap[30])                 # the capture: o's seeds into the hand
    n = 0
    while c.state == "sowing":         # then the hands do what the lights ask (b, the sowing)
        h.step()
        n += 1
        assert n < 100 and not c.mismatch
    assert last_move(c) == 7
    want = mancala.Game("omweso", pits=PITS, race="none")
    want.play(7)
    assert c.game.cells() == want.cells() and h.seeds.counts == hands.expected_counts(c)


@pytest.mark.parametrize("kind", ["load-cells", "occupancy"])
def test_with_declined_sleep_the_hands_stop_at_the_capture_and_confirm(kind):
    h, c = game_on_the_board(kind, "omweso", "sleep")
    sow_to_the_capture_point(h, c)
    # Only the capture is lit (blinking: it may be left); stopping here declines it.
    view = hands.watch(c, h.now)
    assert view[c.gmap[30]][:2] == (C.RELAY, C.OFF) and view[c.gmap[9]][0] != C.RELAY
    if kind == "load-cells":
        assert c.follower.mv.can_stop()   # (occupancy sensors cannot see J's second seed: confirm says it)
    h.press("confirm")
    h.wait(500)
    assert c.state == "await_lift" and c.game.to_move == 1 and last_move(c) == (7, "s")
    assert h.seeds.counts == hands.expected_counts(c)



@pytest.mark.parametrize("declined,move", [("sow-on", (7, "n")), ("sow-on", 7), ("sleep", (7, "s"))])
def test_the_follower_narrows_on_the_declined_capture_the_same_on_micropython(micropython, declined, move):
    steps, m, can_stop, unlisted = followed_on_both(micropython, "omweso", {"declined": declined}, PITS, [], move)
    assert (tuple(m) if isinstance(m, list) else m) == move and can_stop and unlisted
    assert all(depth == 1 for depth, _, _ in steps)      # every step found as the hands made it
    found = [st[0] for _, st, _ in steps]
    want = [[s.kind, s.pit, s.count, s.to] for s in mancala.Game("omweso", pits=PITS, race="none",
                                                                   declined=declined).play(move)]
    assert found == want
    # After the drop into J both ways on are still possible (two traces); the hands' next step
    # (a take of o, or a relay of J) settles it.  With declined="sleep" the turn may stop there.
    assert steps[2][2] == 2
