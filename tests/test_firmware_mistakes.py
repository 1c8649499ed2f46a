"""What the board does when the hands or the sensors go wrong (firmware/sowlight_fw/controller.py).

Each mistake has a defined behaviour: the cells at fault flash (what they
should hold, NEED or REMOVE, alternating with red) once the board is still,
and the board recovers by itself when the seeds are put right, or by confirm
(the sensors of those cells are overruled), or by undo.
"""
import json
from pathlib import Path
from fakeload import load_fake

import pytest

from sowlight_fw import colours as C
from sowlight_fw import config

ROOT = Path(__file__).resolve().parent.parent




hands = load_fake("hands")


def board(kind):
    if kind == "load-cells":
        return config.check(json.loads((ROOT / "hardware" / "examples" / "2x6-stores-hx711.json").read_text()))
    return config.check(json.loads((ROOT / "hardware" / "boards" / "2x6-stores.json").read_text()))


KINDS = ["load-cells", "occupancy"]


def logs(c):
    return [m["msg"] for m in c.outbox if m["type"] == "log"]


def put(h, cell, n):
    """Move n seeds from the hand (then the bag) into cell in one act, outside what the LEDs asked."""
    def change():
        k = min(n, h.seeds.hand)
        if k:
            h.seeds.drop(cell, k)
        if n > k:
            h.seeds.add(cell, n - k)
    h._act(cell, change)


def pick(h, cell, n):
    """Take n seeds out of cell into the hand."""
    h._act(cell, lambda: h.seeds.lift(cell, n))


@pytest.mark.parametrize("kind", KINDS)
def test_a_pit_lifted_out_of_turn_flashes_until_its_seeds_are_back(kind):
    h = hands.start(board(kind), "oware")
    c = h.c
    h.patience_ms = 0
    h.lift(8)                       # player 1's pit; player 0 is to move
    assert not c.mismatch           # hands may still be moving: nothing flashes yet
    h.wait(1000)                    # the board has been still for settle_ms
    assert c.mismatch and c.wrong == [8]
    assert hands.watch(c, h.now)[8] == (C.NEED, C.ERROR, 1)
    assert c.state_message()["phase"] == "mismatch"
    assert any("belongs to player 1" in m for m in logs(c))
    assert any(m["type"] == "step" and m["ev"] == "mismatch" and m["cell"] == 8 for m in c.outbox)
    put(h, 8, 4)                    # the seeds go back
    assert not c.mismatch and c.state == "await_lift"
    assert hands.watch(c, h.now)[8][0] == C.OFF
    assert c.records[-1]["kind"] == "start"     # nothing was journalled


def test_a_seed_dropped_in_the_wrong_pit_is_shown_and_the_move_goes_on_once_it_is_moved():
    h = hands.start(board("load-cells"), "oware")
    c = h.c
    h.lift(2)
    h.drop(3)
    h.drop(7)                       # should have gone into 4
    h.wait(1000)
    assert c.mismatch and c.wrong == [7]
    view = hands.watch(c, h.now)
    assert view[7] == (C.REMOVE, C.ERROR, 1)
    assert view[4] == (C.DROP, None, 1)         # still where the seed should go
    pick(h, 7, 1)
    assert not c.mismatch
    h.drop(4)
    assert c.follower.index == 3 and hands.watch(c, h.now)[5] == (C.DROP, None, 1)


def test_a_seed_dropped_in_a_wrong_empty_pit_is_seen_by_occupancy_sensors():
    h = hands.start(board("occupancy"), "oware")
    c = h.c
    pos = {"pits": [4, 4, 4, 4, 4, 4, 0, 4, 4, 0, 4, 4], "stores": [0, 0], "to_move": 0}
    assert c.command({"type": "set_pos", "pos": pos}, h.now)["type"] == "ok"
    hands.arrange(h, hands.expected_counts(c))
    h.lift(3)
    view = hands.watch(c, h.now)
    assert view[4][0] == C.TRAIL and view[5][0] == C.TRAIL and view[6] == (C.DROP, None, 1)
    h.drop(4)
    h.drop(5)
    h.drop(9)                       # the empty pit across, not pit 6
    h.wait(1000)
    assert c.mismatch and c.wrong == [9]
    assert hands.watch(c, h.now)[9] == (C.REMOVE, C.ERROR, 1)
    pick(h, 9, 1)
    h.drop(6)
    assert not c.mismatch
    assert c.records[-1]["kind"] == "move" and c.records[-1]["move"] == 3


def test_a_capture_not_taken_keeps_its_lights_and_the_next_lift_is_refused():
    h = hands.start(board("load-cells"), "oware")
    c = h.c
    pos = {"pits": [0, 0, 0, 0, 2, 1, 1, 3, 0, 0, 0, 0], "stores": [18, 23], "to_move": 0}
    c.command({"type": "set_pos", "pos": pos}, h.now)
    hands.arrange(h, hands.expected_counts(c))
    h.lift(5)
    h.drop(6)
    h.lift(7)                       # player 1 starts before the capture was taken
    h.wait(1000)
    assert c.mismatch and c.wrong == [7]
    view = hands.watch(c, h.now)
    assert view[6] == (C.TAKE, None, 1) and view[12] == (C.DEST, None, 1)
    assert view[7] == (C.NEED, C.ERROR, 1)
    assert any("take the captured seeds first" in m for m in logs(c))
    put(h, 7, 3)
    assert not c.mismatch
    h.take(6, 12)
    assert c.records[-1]["kind"] == "move" and c.game.stores == [20, 23]
    h.lift(7)
    assert c.state == "sowing"


@pytest.mark.parametrize("kind", KINDS)
def test_a_stuck_sensor_is_overruled_with_confirm_and_trusted_again_when_it_agrees(kind):
    h = hands.start(board(kind), "oware")
    c = h.c
    h.sensors.stuck[8] = 0          # pit 8's sensor now reads "empty" whatever is in it
    h.wait(1000)
    assert c.mismatch and c.wrong == [8]
    assert hands.watch(c, h.now)[8] == (C.NEED, C.ERROR, 1)
    h.press("confirm")              # "the seeds are there: trust me"
    assert not c.mismatch and c.masked[8]
    assert hands.watch(c, h.now)[8] == (C.FAULT, None, 1)
    assert any("overruled" in m for m in logs(c))
    if kind == "load-cells":
        h.lift(0)
        while c.state != "await_lift":
            h.step()
        h.lift(8)                   # unseen: its sensor is overruled ...
        h.drop(9)                   # ... but the drops that follow are seen
        assert c.state == "sowing" and c.follower.mv.moves() == [8]
        assert c.masked[8] == 0     # pit 8 is empty now, as its sensor says: trusted again
        del h.sensors.stuck[8]
    else:
        del h.sensors.stuck[8]      # the sensor works again: it agrees, so it is trusted again
        h.wait(300)
        assert c.masked[8] == 0 and hands.watch(c, h.now)[8][0] == C.OFF
    h.play(5000)
    assert c.state == "over" and h.seeds.counts == hands.expected_counts(c)


def test_a_sensor_stuck_empty_under_a_legal_pit_looks_like_a_lift_until_undo():
    h = hands.start(board("load-cells"), "oware")
    c = h.c
    h.sensors.stuck[4] = 0
    h.wait(1000)
    # Nothing distinguishes it from lifting pit 4: the board asks for the next drop.
    assert c.state == "sowing" and hands.watch(c, h.now)[5] == (C.DROP, None, 1)
    h.press("undo")                 # the player knows they lifted nothing
    h.wait(1000)
    assert c.mismatch and c.wrong == [4]
    h.press("confirm")
    assert c.masked[4] and not c.mismatch and c.state == "await_lift"


def test_a_flapping_sensor_is_ignored_and_the_game_goes_on():
    h = hands.start(board("load-cells"), "oware", seed=2)
    c = h.c
    h.sensors.flapping.append(9)
    h.wait(1000)
    assert not c.observer.noisy[9]     # not yet: it has changed for less than noisy_ms
    h.wait(1000)
    assert c.observer.noisy[9]
    assert any("keeps changing" in m for m in logs(c))
    h.play(5000)
    assert c.state == "over" and h.seeds.counts == hands.expected_counts(c)
    h.sensors.flapping.remove(9)
    h.wait(400)
    assert not c.observer.noisy[9]
    assert any("holds still again" in m for m in logs(c))


@pytest.mark.parametrize("kind", KINDS)
def test_sensor_noise_shorter_than_the_debounce_changes_nothing(kind):
    clean = hands.start(board(kind), "oware", seed=7)
    clean.play(5000)
    noisy = hands.start(board(kind), "oware", seed=7)
    noisy.sensors.flicker = 60          # 6 % of readings wrong, each for one scan
    noisy.play(5000)
    assert [r for r in noisy.c.records if r["kind"] == "move"] == [r for r in clean.c.records if r["kind"] == "move"]
    assert not any(m["type"] == "step" and m["ev"] == "mismatch" for m in noisy.c.outbox)


def test_a_lift_shorter_than_the_debounce_is_not_a_move():
    h = hands.start(board("load-cells"), "oware")
    c = h.c
    s = h.seeds
    s.hand, s.counts[1] = s.counts[1], 0
    h.scan()
    h.now += 100                        # back within 100 ms (debounce is 150)
    s.counts[1], s.hand = s.hand, 0
    h.scan()
    h.wait(1000)
    assert c.state == "await_lift" and not c.mismatch and c.follower.index == 0
    assert not any(m["type"] == "step" for m in c.outbox if m.get("ev") == "lifted")


@pytest.mark.parametrize("kind", KINDS)
def test_undo_during_a_move_takes_it_back_and_shows_where_the_seeds_go(kind):
    h = hands.start(board(kind), "oware")
    c = h.c
    pos = {"pits": [4, 4, 4, 4, 4, 4, 0, 4, 4, 4, 4, 4], "stores": [0, 0], "to_move": 0}
    c.command({"type": "set_pos", "pos": pos}, h.now)
    hands.arrange(h, hands.expected_counts(c))
    n = len(c.records)
    h.lift(2)
    h.drop(3)
    h.drop(4)
    assert c.state == "sowing"          # the drop into empty pit 6 is still to come (and seen)
    h.press("undo")
    assert c.state == "await_lift"
    h.wait(1000)
    # Pit 2 should be full again (and, where sensors count, pits 3 and 4 hold one too many).
    assert c.mismatch
    assert c.wrong == ([2, 3, 4] if kind == "load-cells" else [2])
    view = hands.watch(c, h.now)
    assert view[2] == (C.NEED, C.ERROR, 1)
    if kind == "load-cells":
        assert view[3] == (C.REMOVE, C.ERROR, 1)
    hands.arrange(h, hands.expected_counts(c))
    assert not c.mismatch and c.state == "await_lift"
    assert len(c.records) == n                  # nothing to journal: the move was never made


def test_undo_after_a_move_is_journalled_and_the_board_is_guided_back():
    h = hands.start(board("load-cells"), "oware")
    c = h.c
    h.lift(2)
    for p in (3, 4, 5, 6):
        h.drop(p)
    assert c.game.to_move == 1
    h.press("undo")
    assert c.records[-1] == {"kind": "undo", "game": 1, "ply": 2}
    assert c.game.to_move == 0 and c.game.ply == 0
    h.wait(1000)
    assert sorted(c.wrong) == [2, 3, 4, 5, 6]
    view = hands.watch(c, h.now)
    assert view[2] == (C.NEED, C.ERROR, 1) and view[3] == (C.REMOVE, C.ERROR, 1)
    hands.arrange(h, hands.expected_counts(c))
    assert not c.mismatch and c.state == "await_lift"


def test_seeds_put_back_without_undo_take_the_move_back():
    h = hands.start(board("load-cells"), "oware")
    c = h.c
    h.lift(2)
    h.drop(3)
    pick(h, 3, 1)
    put(h, 2, 4)
    assert c.state == "await_lift" and c.follower.index == 0 and not c.mismatch
    assert any("back where the move started" in m for m in logs(c))


def test_undo_when_nothing_was_played_only_says_so():
    h = hands.start(board("load-cells"), "oware")
    c = h.c
    h.press("undo")
    assert c.state == "await_lift"
    assert any("no move to take back" in m for m in logs(c))


def test_confirm_takes_the_drops_the_sensors_cannot_see_as_made():
    h = hands.start(board("occupancy"), "oware")
    c = h.c
    pos = {"pits": [4, 4, 4, 4, 4, 4, 0, 4, 4, 4, 4, 4], "stores": [0, 0], "to_move": 0}
    c.command({"type": "set_pos", "pos": pos}, h.now)
    hands.arrange(h, hands.expected_counts(c))
    h.lift(2)
    assert c.follower.index == 1
    h.drop(3)
    h.drop(4)
    h.press("confirm")              # the trail 3, 4, 5 taken as done
    assert c.follower.index == 4
    assert hands.watch(c, h.now)[5][0] == C.OFF and hands.watch(c, h.now)[6] == (C.DROP, None, 1)
