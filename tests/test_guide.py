"""The `guide` request (protocol 1.2): the board leads the hands through one given move, on the
real firmware of a virtual board, and flags anything else the hands do until it is put right."""
import os
import random

import pytest

from sowlight.board.view import VIRTUAL_SETTINGS, open_board
from sowlight.board.link import BoardError
from sowlight.simulation.robot import Robot
from sowlight.simulation.virtual import VirtualBoard

pytestmark = pytest.mark.skipif(not hasattr(os, "openpty"), reason="virtual boards need pseudo-terminals")


@pytest.fixture
def board():
    vb = VirtualBoard(preset="2x6-stores", settings=VIRTUAL_SETTINGS)
    conn = open_board(port=vb.start())
    try:
        conn.link.request("new_game", {"variant": "kalah", "options": {"seeds": 2}})
        robot = Robot(conn.view, rng=random.Random(1))
        robot.set_up()
        yield conn, robot
    finally:
        conn.close()
        vb.stop()


def test_the_hands_following_the_leds_make_the_guided_move_and_a_wrong_lift_is_flagged_until_put_back(board):
    conn, robot = board
    view = conn.view
    robot.play_move()                                   # player 0, any move
    state = view.refresh()
    game = view.game(state)
    legal = list(game.legal_moves())
    target = legal[-1]
    gmap = view.cells_of(game)
    assert conn.link.request("guide", {"ply": state["ply"] + 1, "move": target})["ply"] == state["ply"] + 1
    view.wait_for(lambda: view.cells("lift") == [gmap[target]], 3)
    assert view.cells("lift") == [gmap[target]]         # the one pit to lift, none of the others
    # Lifted elsewhere: a mismatch, shown until the seeds are back.
    view.sim("lift", cell=gmap[legal[0]])
    assert view.wait_for(lambda: bool(view.cells("error")), 5)
    assert view.refresh()["phase"] == "mismatch"
    robot.put_right()
    assert view.wait_for(lambda: not view.cells("error"), 5)
    # A repeat of the request (a host that reconnected) changes nothing.
    conn.link.request("guide", {"ply": state["ply"] + 1, "move": target})
    m = robot.play_move()                               # the LEDs lead: only the guided move
    assert m["move"] == target and m["ply"] == state["ply"] + 1
    # The move is made: the next one is free again, and an old ply is refused.
    with pytest.raises(BoardError) as e:
        conn.link.request("guide", {"ply": state["ply"] + 1, "move": target})
    assert e.value.code == "out_of_range"
    state = view.refresh()
    game = view.game(state)
    with pytest.raises(BoardError) as e:
        conn.link.request("guide", {"ply": state["ply"] + 1, "move": 99})
    assert e.value.code == "bad_payload" and "not a legal move" in e.value.msg
    gmap = view.cells_of(game)
    pits = {gmap[m] for m in game.legal_moves()}

    def offered():      # (a pit whose trail seed goes in first is lit `trail`, then `lift`)
        return set(view.cells("lift")) | (set(view.cells("trail")) & pits)
    assert len(pits) > 1 and view.wait_for(lambda: offered() == pits, 3), view.lit


def test_a_board_told_to_wait_lights_no_pit_and_flags_a_lift_until_the_seeds_are_back(board):
    conn, robot = board
    view = conn.view
    state = view.refresh()
    assert conn.link.request("guide", {"ply": state["ply"] + 1, "wait": True})["ply"] == state["ply"] + 1
    assert view.wait_for(lambda: not view.cells("lift"), 3), view.lit
    game = view.game(state)
    gmap = view.cells_of(game)
    move = list(game.legal_moves())[2]
    view.sim("lift", cell=gmap[move])                  # hands that do not wait
    assert view.wait_for(lambda: bool(view.cells("error")), 5)
    assert view.refresh()["phase"] == "mismatch"
    robot.put_right()
    assert view.wait_for(lambda: not view.cells("error"), 5)
    assert view.refresh()["ply"] == state["ply"]        # nothing was journalled
    conn.link.request("guide", {"ply": state["ply"] + 1, "move": move})
    assert robot.play_move()["move"] == move


GUIDED = """
import json
from sowlight_fw import config
import hands
board = config.check(json.load(open("/boards/2x6-stores.json")))
h = hands.start(board, "kalah", seed=%d, options={"seeds": 2})
c = h.c
guides = 0
n = 0
while c.state != "over":
    n += 1
    assert n < 20000
    if c.game.to_move == 1 and c.follower.only is None and c.state in ("await_lift", "turn_over"):
        r = c.command({"type": "guide", "ply": c.ply + 1, "move": list(c.game.legal_moves())[-1]})
        assert r["type"] == "ok", r
        guides += 1
    if not h.step():
        break
print(json.dumps([guides, c.records]))
"""


def test_on_micropython_the_hands_following_the_leds_make_every_guided_move(micropython):
    """The firmware on the MicroPython VM: player 1's every move is guided (the last legal pit), the
    simulated hands follow the lights, and the journal holds exactly the guided moves."""
    import json

    import mancala
    from test_firmware_vm import MOUNTS

    out = micropython.run(GUIDED % 5, mounts=MOUNTS, timeout=300)
    guides, records = json.loads(out.strip().splitlines()[-1])
    g = mancala.Game("kalah", seeds=2)
    ones = 0
    for r in records:
        if r["kind"] != "move":
            continue
        if r["player"] == 1:
            assert r["move"] == list(g.legal_moves())[-1]
            ones += 1
        g.play(r["move"])
    assert records[-1]["kind"] == "end" and g.is_over() and ones == guides > 3
