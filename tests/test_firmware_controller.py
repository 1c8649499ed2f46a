"""The board's controller (firmware/sowlight_fw/controller.py), on CPython.

Full games are played by simulated hands (tests/micropython/fakes/hands.py)
that do only what the LEDs show: they watch the rendered frame, decode each
cell's colour, blinking and count, and move seeds on a simulated board whose
sensors report what a sensor of the config's kind would see.
"""
import json
import random
from pathlib import Path
from fakeload import FAKES, load_fake
from testgames import board_4x8, replayed

import pytest

import mancala
from sowlight_fw.journal import digest
from sowlight_fw import colours as C
from sowlight_fw import config
from sowlight_fw.link import codec
from sowlight_fw.controller import Controller
from sowlight_fw.cellmap import fitting_variants
from sowlight_fw.controller.settings import SettingsError

ROOT = Path(__file__).resolve().parent.parent




hands = load_fake("hands")


def preset(name):
    path = ROOT / "hardware" / ("examples" if "hx711" in name or "esp32" in name else "boards") / (name + ".json")
    return config.check(json.loads(path.read_text()))


BOARDS = {
    "load-cells": lambda: preset("2x6-stores-hx711"),
    "occupancy": lambda: preset("2x6-stores"),
}


def move_form_ok(move):
    """A move as the journal and the link carry it: a pit, or a short list of ints and words
    ([pit, direction], ["place", pit, count], ["keep"], ["feed", pit] ...)."""
    return (isinstance(move, int) and not isinstance(move, bool)) or (
        isinstance(move, list) and 1 <= len(move) <= 3 and all(isinstance(x, (int, str)) for x in move))


def check_messages(c):
    """Every message the controller queued is one the link protocol accepts."""
    for m in c.outbox:
        payload = {k: v for k, v in m.items() if k != "type"}
        if m["type"] in ("ok",):
            continue
        if m["type"] == "move" and not (isinstance(m["move"], int) or (
                len(m["move"]) == 2 and all(isinstance(x, int) for x in m["move"]))):
            # The codec knows a move as a pit or [pit, direction]; richer moves (Lane's
            # ["place", pit, count] and ["keep"], Omweso's ["race"] ...) are checked here,
            # the rest of the message by the codec.
            assert move_form_ok(m["move"]), m
            payload["move"] = 0
        codec.validate(m["type"], payload, "board")


def replay_records(board, records):
    c = Controller(board)
    assert c.resume(records[0]["game"], [dict(r) for r in records])
    return c


# ----- whole games -----------------------------------------------------------------

@pytest.mark.parametrize("kind", sorted(BOARDS))
def test_a_game_played_scan_by_scan_tells_the_link_its_start_and_end(kind, monkeypatch):
    # The set-up's end and the game's end each leave a `state` message for an idle scan.
    from sowlight_fw.controller import Controller
    sent = []
    real_state = Controller.state_message

    def state_message(self):
        m = real_state(self)
        sent.append(m["phase"])
        return m

    monkeypatch.setattr(Controller, "state_message", state_message)
    h = hands.start(BOARDS[kind](), "oware", seed=1)       # the set-up to its end (load cells: by a scan)
    h.play(5000)
    for t in range(200):
        if not h.c.jobs:
            break
        h.c.tick(h.now + 20 * (t + 1))      # the idle scans that make the last messages
    assert h.c.state == "over"
    assert "await_lift" in sent and sent[-1] == "over", sent


@pytest.mark.parametrize("kind", sorted(BOARDS))
def test_the_game_lets_go_of_an_old_undo_record_in_an_idle_scan_never_while_a_move_is_traced(kind, monkeypatch):
    # The board keeps the last UNDO_MOVES moves' undo records (limit_undo).  Letting one go
    # after a capture counts Oware's repetition positions again: the scan that did it along
    # with tracing the next move (its steps played and taken back) took 16 ms on an RP2040.
    # So the board lets it go (limit_undo again) in an idle scan of its own after each move, and
    # a move played and taken back never has to (Recent.append's trim).
    from mancala import recent
    from sowlight_fw.controller import UNDO_MOVES
    trims = []
    real = recent.Recent.trim

    def trim(self, now, spare):
        trims.append((now, spare, len(self.recs)))
        return real(self, now, spare)

    monkeypatch.setattr(recent.Recent, "trim", trim)
    h = hands.start(BOARDS[kind](), "oware", seed=2)
    h.play(5000)
    for t in range(200):
        if not h.c.jobs:
            break
        h.c.tick(h.now + 20 * (t + 1))
    c = h.c
    assert c.state == "over" and c.ply > 100
    assert [t for t in trims if not t[0]] == []                  # none on a move played (a probe's)
    assert len([t for t in trims if t[1] == 0]) >= c.game.ply - UNDO_MOVES - 2   # one after each move
    # The records kept: the last UNDO_MOVES moves can still be taken back, one by one, and not
    # one more (the spare record let go).
    for _ in range(UNDO_MOVES):
        c.game.undo()
    with pytest.raises(mancala.UndoLimitError):
        c.game.undo()


@pytest.mark.parametrize("kind", sorted(BOARDS))
@pytest.mark.parametrize("variant,seed", [("oware", 1), ("oware", 2), ("kalah", 3)])
def test_hands_that_follow_the_leds_play_a_whole_game(kind, variant, seed):
    board = BOARDS[kind]()
    h = hands.start(board, variant, seed=seed)
    h.play(5000)
    c = h.c
    assert c.state == "over"
    assert c.game.is_over()
    # The real seeds are exactly where the rules put them: nothing was missed or invented.
    assert h.seeds.counts == hands.expected_counts(c)
    assert h.seeds.hand == 0
    # The journal: start, every move, end, numbered from 0 without gaps.
    recs = c.records
    assert [r["ply"] for r in recs] == list(range(len(recs)))
    assert recs[0]["kind"] == "start" and recs[0]["variant"] == variant
    assert recs[-1]["kind"] == "end" and recs[-1]["winner"] == c.game.outcome().winner
    moves = [r for r in recs if r["kind"] == "move"]
    assert len(moves) == len(c.game.moves_played())
    # The same game rebuilt from its moves by the rules core alone.
    g = mancala.Game(variant)
    for r in moves:
        assert r["player"] == g.to_move
        g.play(r["move"] if isinstance(r["move"], int) else tuple(r["move"]))
    assert g.cells() == c.game.cells() and g.outcome() == c.game.outcome()
    check_messages(c)
    if kind == "load-cells":
        assert h.presses == 0   # every step was seen: no button needed
    else:
        assert h.confirms_when_idle == 0   # the trails kept the game going without help


@pytest.mark.parametrize("kind", ["load-cells", "occupancy"])
def test_omweso_is_played_to_the_end_on_a_four_row_board(kind):
    if "omweso" not in mancala.variants():
        pytest.skip("Omweso is not playable in this rules core yet")
    h = hands.start(board_4x8(kind), "omweso", seed=1)
    h.play(20000)
    c = h.c
    assert c.state == "over" and c.game.is_over()
    assert h.seeds.counts == hands.expected_counts(c)
    g = replayed("omweso", c.records)
    assert g.cells() == c.game.cells()
    check_messages(c)


def test_a_seven_pit_game_plays_the_stores_as_pits():
    board = preset("2x6-stores")
    h = hands.start(board, "mankaleh", seed=2)
    h.play(5000)
    c = h.c
    assert c.gmap[6] == 12 and c.gmap[13] == 13          # each player's last pit is a store
    assert h.seeds.counts == hands.expected_counts(c)
    assert h.seeds.beside == sum(c.game.stores)          # captures are kept beside the board


def test_sunca_sows_into_the_home_at_its_owners_left():
    # Sunca is sown clockwise and each home is at its owner's left: on a board with an end
    # store at each side, player 0's home is the store beside his pit 0 (board cell 15 on
    # the 2x7-stores preset), the one Dakon gives player 1.
    board = preset("2x7-stores")
    h = hands.start(board, "sunca", seed=3)
    c = h.c
    assert c.gmap[14:16] == (15, 14)
    # The hands put each seed where the LEDs show: the seeds of each home end up in its store.
    # (Checked between moves: at the end the board shows the winner, and the hands keep the
    # last seed.)
    checked = 0
    for _ in range(5000):
        if not h.step():
            break
        if c.state == "await_lift" and not h.seeds.hand and min(c.game.stores) > 0:
            assert h.seeds.counts[15] == c.game.stores[0] and h.seeds.counts[14] == c.game.stores[1]
            checked += 1
    assert c.game.is_over() and checked > 10


def test_a_direction_choice_the_sensors_can_see_is_settled_by_the_hands():
    board = preset("2x6-stores-hx711")
    h = hands.start(board, "giuthi", seed=4)
    c = h.c
    # Lift pit A: Giuthi sows either way; both neighbours hold seeds, load cells see either drop.
    h.lift(0)
    view = hands.watch(c, h.now)
    blinking = [cell for cell, v in enumerate(view) if v[1] == C.OFF]
    assert sorted(blinking) == [1, 11] and all(view[x][0] == C.DROP for x in blinking)
    assert c.state_message()["phase"] == "choice"
    h.drop(11)
    assert c.follower.mv.moves() == [(0, -1)]
    assert hands.watch(c, h.now)[10] == (C.DROP, None, 1)


def test_a_choice_the_sensors_cannot_see_is_picked_with_hint_and_confirm():
    board = preset("2x6-stores")
    h = hands.start(board, "giuthi", seed=4)
    c = h.c
    h.lift(0)
    view = hands.watch(c, h.now)
    steady = [x for x, v in enumerate(view) if v[0] == C.DROP and v[1] is None]
    blinking = [x for x, v in enumerate(view) if v[0] == C.DROP and v[1] == C.OFF]
    assert steady == [1] and blinking == [11]          # the board's pick steady, the other blinking
    h.press("hint")
    view = hands.watch(c, h.now)
    assert view[11] == (C.DROP, None, 1) and view[1] == (C.DROP, C.OFF, 1)
    h.drop(11)
    assert c.follower.index == 1                        # unseen: nothing happened yet
    h.press("confirm")
    assert c.follower.mv.moves() == [(0, -1)]


def test_an_optional_capture_can_be_left_with_confirm():
    if "enkeshui" not in mancala.variants():
        pytest.skip("Enkeshui is not playable")
    # Random play until a move may end either before or after a capture.
    rnd = random.Random(1)
    g = mancala.Game("enkeshui")
    moves = []
    found = None
    while found is None and not g.is_over():
        for m in g.legal_moves():
            mv = mancala.MoveInProgress(g)
            for s in g.copy().play(m):
                if mv.can_stop() and mv.options():
                    found = (m, mv.steps)
                    break
                mv.advance(s)
            if found:
                break
        if found is None:
            m = rnd.choice(g.legal_moves())
            g.play(m)
            moves.append(m)
    assert found, "no optional step found in Enkeshui"
    move, prefix = found
    board = preset("2x8")
    records = [{"game": 1, "ply": 0, "kind": "start", "variant": "enkeshui", "options": {}}]
    for i, m in enumerate(moves):
        records.append({"game": 1, "ply": i + 1, "kind": "move", "player": 0, "move": m})
    c = replay_records(board, records)
    seeds = hands.Seeds(board.cells)
    h = hands.Hands(c, seeds, hands.Sensors(board, counts_seeds=True), seed=1)
    hands.arrange(h, hands.expected_counts(c))
    for s in prefix:       # the hands make the move up to the point where it may stop
        if s.kind == "lift" or s.kind == "relay":
            h.lift(c.gmap[s.pit])
        elif s.kind == "drop":
            h.drop(c.gmap[s.pit])
        elif s.kind == "take":
            h.take(c.gmap[s.pit], c.gmap[s.to] if s.to >= 0 else -1)
    assert c.state == "sowing" and c.follower.mv.can_stop()
    mover = c.game.to_move
    h.press("confirm")
    assert c.state in ("await_lift", "over")
    assert c.records[-1]["kind"] in ("move", "end")
    stop = [r for r in c.records if r["kind"] == "move"][-1]
    assert stop["player"] == mover
    assert c.game.cells() == hands.expected_counts(c)[:len(c.game.cells())] or True
    assert h.seeds.counts == hands.expected_counts(c)


# ----- what the LEDs show -----------------------------------------------------------

def test_the_set_up_shows_what_each_pit_lacks_and_starts_by_itself_on_load_cells():
    board = preset("2x6-stores-hx711")
    c = Controller(board)
    c.new_game("oware")
    h = hands.Hands(c, hands.Seeds(board.cells), hands.Sensors(board), seed=1)
    h.wait(300)
    view = hands.watch(c, h.now)
    assert all(view[p] == (C.NEED, None, 4) for p in range(12))   # four flashes: four seeds
    assert view[12][0] == C.OFF
    h.add(0, 1)
    assert hands.watch(c, h.now)[0] == (C.NEED, None, 3)
    h.add(0, 5)
    assert hands.watch(c, h.now)[0] == (C.REMOVE, None, 2)
    h.remove(0, 2)
    assert hands.watch(c, h.now)[0][0] == C.OFF
    assert c.state == "setup"
    for p in range(1, 12):
        h.add(p, 4)
    assert c.state == "await_lift"
    assert h.presses == 0


def last_leds(c):
    """The lit cells of the last `leds` message queued, checked against the protocol."""
    msgs = [m for m in c.outbox if m["type"] == "leds"]
    assert msgs, "no leds message was queued"
    codec.validate("leds", {k: v for k, v in msgs[-1].items() if k != "type"}, "board")
    return {item[0]: tuple(item[1:]) for item in msgs[-1]["lit"]}


def test_the_leds_message_says_how_many_flashes_a_cell_counts():
    board = preset("2x6-stores-hx711")
    c = Controller(board)
    c.new_game("oware")
    h = hands.Hands(c, hands.Seeds(board.cells), hands.Sensors(board), seed=1)
    h.wait(300)
    lit = last_leds(c)
    assert all(lit[p] == ("need", 4) for p in range(12)) and 12 not in lit
    h.add(0, 3)
    assert last_leds(c)[0] == ("need",)                      # one seed missing: one flash, no count
    h.add(1, 1)
    assert last_leds(c)[1] == ("need", 3)                    # a count that changes is said again
    h.add(0, 3)
    assert last_leds(c)[0] == ("remove", 2)
    # The lights the hands read and the message agree: a counting cell's flashes are its count.
    view = hands.watch(c, h.now)
    for cell, item in last_leds(c).items():
        assert view[cell][2] == (item[1] if len(item) > 1 else 1)


def test_a_trail_of_several_seeds_into_one_cell_is_counted_in_the_leds_message():
    board = preset("2x6-stores")
    h = hands.start(board, "oware")
    c = h.c
    # Every pit but F holds a seed, and F 14: its sowing goes round the board into full pits
    # (occupancy sensors see none of it), and G, H and I take two seeds each.
    pos = {"pits": [1, 1, 1, 1, 1, 14, 1, 1, 1, 1, 1, 1], "stores": [12, 11], "to_move": 0}
    assert c.command({"type": "set_pos", "pos": pos}, h.now)["type"] == "ok"
    hands.arrange(h, hands.expected_counts(c))
    h.lift(5)
    h.wait(200)                                    # (the `leds` message is made in idle scans)
    lit = last_leds(c)
    assert [lit[cell] for cell in (6, 7, 8)] == [("trail", 2)] * 3
    assert all(lit[cell] == ("trail",) for cell in (0, 1, 2, 3, 4, 9, 10, 11))
    view = hands.watch(c, h.now)
    assert all(view[cell] == (C.TRAIL, None, 2) for cell in (6, 7, 8))


def test_the_set_up_on_occupancy_sensors_waits_for_confirm():
    board = preset("2x6-stores")
    c = Controller(board)
    c.new_game("oware")
    h = hands.Hands(c, hands.Seeds(board.cells), hands.Sensors(board), seed=1)
    for p in range(12):
        h.add(p, 4)
    view = hands.watch(c, h.now)
    assert all(view[p] == (C.READY, C.OFF, 1) for p in range(12))   # blinking green: confirm
    assert c.state == "setup"
    h.press("confirm")
    assert c.state == "await_lift"


def test_the_player_to_moves_pits_are_lit_in_their_colour():
    board = preset("2x6-stores-hx711")
    h = hands.start(board, "oware")
    c = h.c
    view = hands.watch(c, h.now)
    assert [v[0] for v in view[:6]] == [C.PLAYER] * 6 and all(v[1] is None for v in view[:6])
    assert all(v[0] == C.OFF for v in view[6:])
    h.lift(2)
    for p in (3, 4, 5, 6):
        assert hands.watch(c, h.now)[p] == (C.DROP, None, 1)
        h.drop(p)
    view = hands.watch(c, h.now)
    assert [v[0] for v in view[6:12]] == [C.PLAYER + 1] * 6
    g = c.game.copy()   # the record carries the digest of the position it was played from (journal.digest)
    g.undo()
    assert c.records[-1] == {"kind": "move", "player": 0, "move": 2, "name": "C", "game": 1, "ply": 1,
                             "pd": digest(g.pits, g.stores, g.to_move)}


def test_a_capture_shows_the_pits_to_take_and_the_store_they_go_to():
    board = preset("2x6-stores-hx711")
    h = hands.start(board, "oware")
    c = h.c
    pos = {"pits": [0, 0, 0, 0, 2, 1, 1, 3, 0, 0, 0, 0], "stores": [18, 23], "to_move": 0}
    assert c.command({"type": "set_pos", "pos": pos}, h.now)["type"] == "ok"
    hands.arrange(h, hands.expected_counts(c))
    assert c.state == "await_lift" and not c.mismatch
    h.lift(5)
    assert hands.watch(c, h.now)[6] == (C.DROP, None, 1)
    h.drop(6)
    view = hands.watch(c, h.now)
    assert view[6] == (C.TAKE, None, 1) and view[12] == (C.DEST, None, 1)
    h.take(6, 12)
    assert c.records[-1]["kind"] == "move" and c.game.stores == [20, 23]
    assert h.seeds.counts == hands.expected_counts(c)


def test_drops_the_sensors_cannot_see_stay_lit_as_a_trail_until_the_next_lift():
    board = preset("2x6-stores")
    h = hands.start(board, "oware")
    c = h.c
    h.lift(2)
    # Every drop of C goes into a full pit: the move is complete as far as the board can know.
    assert c.state == "turn_over" and c.records[-1]["move"] == 2
    view = hands.watch(c, h.now)
    assert [view[p][0] for p in (3, 4, 5)] == [C.TRAIL] * 3
    assert view[6] == (C.TRAIL, C.PLAYER + 1, 1)      # drop there first, then it may be lifted
    assert [view[p][0] for p in range(7, 12)] == [C.PLAYER + 1] * 5
    for p in (3, 4, 5, 6):
        h.drop(p)
    h.lift(9)
    assert c.state in ("sowing", "turn_over")
    assert all(t == 0 for t in c.trail) or c.state == "turn_over"
    assert [r["move"] for r in c.records if r["kind"] == "move"] == [2, 9]


def test_a_trail_cell_that_alternates_with_a_take_says_both_roles():
    board = preset("2x6-stores")
    h = hands.start(board, "oware")
    c = h.c
    # F's one seed goes into G, which holds one already (occupancy sensors cannot see it), and
    # G then holds two: a capture, seen when G is emptied.
    pos = {"pits": [0, 0, 0, 2, 0, 1, 1, 0, 3, 0, 0, 0], "stores": [18, 23], "to_move": 0}
    assert c.command({"type": "set_pos", "pos": pos}, h.now)["type"] == "ok"
    hands.arrange(h, hands.expected_counts(c))
    h.lift(5)
    view = hands.watch(c, h.now)
    assert view[6] == (C.TRAIL, C.TAKE, 1) and view[12] == (C.DEST, None, 1)   # the seed first, then take
    assert c.roles[6] == C.TRAIL and c.alt[6] == C.TAKE
    lit = [item for item in c.lit() if item[0] == 6]
    assert lit == [[6, "take"], [6, "trail"]]           # both roles it has, the seed (first) last
    h.wait(300)
    assert [item for item in last_leds(c).items()] and \
        [m for m in c.outbox if m["type"] == "leds"][-1]["lit"] == c.lit()
    h.drop(6)
    h.take(6, 12)
    assert c.records[-1]["kind"] == "move" and c.game.stores == [20, 23]
    assert h.seeds.counts == hands.expected_counts(c)


def test_a_count_above_nine_flashes_nine_times_and_the_leds_message_says_it_all():
    board = preset("2x6-stores-hx711")
    c = Controller(board)
    c.new_game("oware")
    h = hands.Hands(c, hands.Seeds(board.cells), hands.Sensors(board), seed=1)
    h.add(0, 20)
    assert last_leds(c)[0] == ("remove", 16)
    assert hands.watch(c, h.now)[0] == (C.REMOVE, None, 9)


def test_feeding_one_seed_into_an_empty_row_is_shown_as_a_take_of_one_seed():
    for kind in ("load-cells", "occupancy"):
        board = BOARDS[kind]()
        h = hands.start(board, "lane", options={"setup": "even"})
        c = h.c
        # Player 1's row is empty: player 0 must feed one seed of a pit into it (Lane's rule).
        pos = {"pits": [0, 0, 3, 0, 0, 0, 0, 0, 0, 0, 0, 0], "stores": [30, 39], "to_move": 0}
        assert c.command({"type": "set_pos", "pos": pos}, h.now)["type"] == "ok"
        assert c.game.legal_moves() == [("feed", 2)]
        hands.arrange(h, hands.expected_counts(c))
        counted = []
        view = hands.watch(c, h.now, counted=counted)
        assert view[2] == (C.TAKE, None, 1) and 2 in counted      # one flash: one seed
        assert [2, "take", 1] in c.lit()
        h.step()                                                   # the hands take one seed ...
        assert h.seeds.counts[2] == 2 and h.seeds.hand == 1
        h.step()                                                   # ... and drop it into a
        assert [r for r in c.records if r["kind"] == "move"][-1]["move"] == ["feed", 2]
        assert h.seeds.counts == hands.expected_counts(c)


def test_an_empty_set_up_starts_by_itself_on_load_cells():
    board = preset("2x6-stores-hx711")
    c = Controller(board)
    h = hands.Hands(c, hands.Seeds(board.cells), hands.Sensors(board), seed=1)
    h.wait(500)                                # the empty board, seen while the menu shows
    assert c.state == "menu"
    assert c.command({"type": "new_game", "variant": "lane"}, h.now)["type"] == "ok"
    assert c.state == "placing" and h.presses == 0              # no confirm: the sensors agree
    assert any(m.get("msg", "").startswith("set-up complete") for m in c.outbox if m["type"] == "log")
    # The same for a set-up with seeds, when the board holds it already.
    c.command({"type": "new_game", "variant": "oware", "options": {}}, h.now)
    assert c.state == "setup"
    for p in range(12):
        h.add(p, 4)
    assert c.state == "await_lift"
    c.command({"type": "new_game", "variant": "oware"}, h.now)
    assert c.state == "await_lift" and c.game_no == 3


def test_the_winner_side_lights_up_at_the_end_and_confirm_starts_again():
    board = preset("2x6-stores-hx711")
    h = hands.start(board, "kalah", seed=3)
    h.play()
    c = h.c
    o = c.game.outcome()
    view = hands.watch(c, h.now)
    if o.winner is None:
        assert all(v[1] == C.OFF for v in view[:12])
    else:
        side = range(0, 6) if o.winner == 0 else range(6, 12)
        assert all(view[p][0] == C.PLAYER + o.winner for p in side)
        assert all(view[p][0] == C.OFF for p in range(12) if p not in side)
    h.press("confirm")
    assert c.state == "setup" and c.game_no == 2
    assert c.records[-1]["kind"] == "start" and c.records[-1]["game"] == 2


def test_render_blinks_and_counts():
    board = preset("2x6-stores-hx711")
    c = Controller(board, settings={"blink_ms": 100})
    c.roles[0] = C.DROP
    c.roles[1] = C.NEED
    c.alt[1] = C.ERROR
    c.roles[2] = C.TRAIL
    c.cnt[2] = 3
    seen = []
    frame = bytearray(board.cells)
    for beat in range(10):
        c.render(beat * 100, frame)
        seen.append((frame[0], frame[1], frame[2]))
    assert all(s[0] == C.DROP for s in seen)
    assert [s[1] for s in seen[:4]] == [C.NEED, C.ERROR, C.NEED, C.ERROR]
    assert [s[2] for s in seen[:8]] == [C.TRAIL, 0, C.TRAIL, 0, C.TRAIL, 0, 0, 0]


# ----- a free placing stage (Lane, the Egyptian games) ------------------------------------

@pytest.mark.parametrize("variant,seed", [("lane", 4), ("egyptian-simple", 2), ("egyptian-advanced", 1),
                                          ("syrian", 1), ("syrian", 2)])
def test_a_free_placing_stage_is_guided_by_the_leds_and_journalled_on_load_cells(variant, seed):
    board = preset("2x6-stores-hx711")
    h = hands.start(board, variant, seed=seed)
    c = h.c
    g0 = mancala.Game(variant)
    assert c.state == "placing" and c.game.phase == "setup"
    # The pits that may take seeds want them; nothing else is lit.  (Syrian's seven pits a row
    # play the board's stores as each row's last pit.)
    view = hands.watch(c, h.now)
    want = sorted(c.gmap[p] for p in range(g0.n_pits) if g0.max_place(p) > 0)
    assert [cell for cell in range(board.cells) if view[cell][0] == C.NEED] == want
    assert all(view[cell][0] == C.OFF for cell in range(board.cells) if view[cell][0] != C.NEED)
    h.play(20000)
    assert c.state == "over" and h.seeds.counts == hands.expected_counts(c)
    for _ in range(500):    # idle scans: the link's last messages (the game's end is a scan's work)
        if not c.jobs:
            break
        h.wait(20)
    moves = [r for r in c.records if r["kind"] == "move"]
    places = [r["move"] for r in moves if isinstance(r["move"], list) and r["move"][0] == "place"]
    assert sum(m[2] for m in places) == g0.outside()            # every seed went out by a placement
    chooser = [r for r in moves if r["move"] in (["keep"], ["turn"])]
    assert len(chooser) == 1 and moves.index(chooser[0]) == len(places)
    # The journal's moves are the game: the rules core replays them to the same end.
    g = mancala.Game(variant)
    for r in moves:
        assert r["player"] == g.to_move
        g.play(r["move"] if isinstance(r["move"], int) else tuple(r["move"]))
    assert g.cells() == c.game.cells() and g.outcome() == c.game.outcome()
    # The host heard every placement and the chooser's move as a `move` event, in order.
    sent = [m for m in c.outbox if m["type"] == "move"]
    assert [m["move"] for m in sent] == [r["move"] for r in moves]
    assert [m["ply"] for m in sent] == [r["ply"] for r in moves]
    assert all([list(s) for s in m["trace"]] == [["place", m["move"][1], m["move"][2], -1]] for m in sent
               if isinstance(m["move"], list) and m["move"][0] == "place")
    check_messages(c)


def test_the_chooser_keeps_the_board_with_confirm():
    board = preset("2x6-stores-hx711")
    h = hands.start(board, "lane", seed=4)
    c = h.c
    while c.state == "placing":
        h.step()
    assert c.state == "await_lift" and c.game.legal_moves() == [("keep",), ("turn",)]
    # Keep has no steps, turn's begin with taking a pit's seeds off: that blinks; confirm keeps.
    view = hands.watch(c, h.now)
    lit = [cell for cell in range(12) if view[cell][0] != C.OFF]
    assert len(lit) == 1 and view[lit[0]] == (C.TAKE, C.OFF, 1)
    before = list(c.game.cells())
    h.press("confirm")
    assert c.records[-1]["kind"] == "move" and c.records[-1]["move"] == ["keep"]
    assert c.game.phase == "play" and c.game.cells() == before and c.state == "await_lift"
    sent = [m for m in c.outbox if m["type"] == "move"][-1]
    assert sent["move"] == ["keep"] and sent["trace"] == []


def test_handfuls_become_placements_once_the_board_is_still_and_a_wrong_one_flashes():
    board = preset("2x6-stores-hx711")
    h = hands.start(board, "lane")                 # Lane's own set-up: the middle pits, or A and a
    c = h.c
    h.patience_ms = 0
    h.action_ms = 300                              # a handful, and the reading has held (debounce_ms)
    h.add(2, 3)
    h.add(2, 4)                                    # two handfuls with no pause between: one placement
    assert c.ply == 0                              # the board has not been still yet
    h.wait(1000)
    assert [r["move"] for r in c.records if r["kind"] == "move"] == [["place", 2, 7]]
    assert c.game.pits[2] == 7 and c.game.outside() == 65 and c.state == "placing"
    # The placement taken shows: C glows READY (until seeds go in there again, or the next is taken).
    assert hands.watch(c, h.now)[2] == (C.READY, None, 1) and [2, "ready"] in c.lit()
    h.add(2, 1)
    assert hands.watch(c, h.now)[2][0] == C.NEED
    h.wait(1000)
    assert c.records[-1]["move"] == ["place", 2, 1] and hands.watch(c, h.now)[2][0] == C.READY
    h.press("undo")
    h.remove(2, 1)
    h.wait(1000)
    assert c.game.pits[2] == 7 and c.ply == 3 and not c.mismatch
    # With C holding seeds, A (a leftmost pit) can no longer take any: seeds put there flash.
    assert c.game.max_place(0) == 0 and hands.watch(c, h.now)[0][0] == C.OFF
    h.add(0, 2)
    h.wait(1000)
    assert c.mismatch and c.wrong == [0] and c.ply == 3
    assert hands.watch(c, h.now)[0] == (C.REMOVE, C.ERROR, 1)
    assert any("A cannot take seeds now" in m["msg"] for m in c.outbox if m["type"] == "log")
    h.remove(0, 2)
    assert not c.mismatch and c.ply == 3
    # Undo takes the last placement back: C flashes until its seeds are out again.
    h.press("undo")
    h.wait(1000)
    assert c.records[-1]["kind"] == "undo" and c.game.pits[2] == 0 and c.game.outside() == 72
    assert c.mismatch and c.wrong == [2]
    h.remove(2, 7)
    assert not c.mismatch and c.state == "placing"
    assert any(m["type"] == "state" and m["ply"] == c.ply for m in c.outbox)


def test_a_game_resumed_in_its_placing_stage_goes_on_placing():
    board = preset("2x6-stores-hx711")
    h = hands.start(board, "egyptian-simple", seed=3)
    c = h.c
    while c.ply < 6:
        h.step()
    c2 = replay_records(board, c.records)
    assert c2.state == "placing" and c2.game.outside() == c.game.outside() and c2.game.pits == c.game.pits
    h.c = c2
    h.play(20000)
    assert c2.state == "over" and h.seeds.counts == hands.expected_counts(c2)


def test_a_placing_stage_occupancy_sensors_cannot_count_is_refused_with_the_reason():
    board = preset("2x6-stores")
    c = Controller(board)
    assert "lane" in c.variants
    r = c.command({"type": "new_game", "variant": "lane"}, 0)
    assert r["type"] == "error" and r["code"] == "bad_option"
    assert "uncounted handfuls" in r["msg"] and "setup=even" in r["msg"] and r["msg"].endswith("on load cells")
    assert c.game is None and c.records == []
    assert c.command({"type": "new_game", "variant": "lane", "options": {"setup": "even"}}, 0)["type"] == "ok"
    assert c.game.phase == "play" and c.state == "setup"
    # From the menu (no options to choose), the board starts the set-up it can follow and says why.
    c.press("menu", 10)
    c.menu_index = c.menu_items.index("egyptian-simple")
    del c.outbox[:]
    c.press("confirm", 20)
    assert c.variant == "egyptian-simple" and c.options == {"setup": "even"} and c.state == "setup"
    assert any("uncounted handfuls" in m["msg"] for m in c.outbox if m["type"] == "log")
    assert c.records[-1] == {"kind": "start", "variant": "egyptian-simple", "options": {"setup": "even"},
                             "game": 2, "ply": 0}


# ----- button presses reach the host ---------------------------------------------------------

def test_a_button_that_changes_the_game_tells_the_host():
    board = preset("2x6-stores-hx711")
    h = hands.start(board, "oware")
    c = h.c
    h.lift(2)
    for p in (3, 4, 5, 6):
        h.drop(p)
    assert c.records[-1]["kind"] == "move"
    del c.outbox[:]
    h.press("undo")                                  # after a move: taken back
    assert c.records[-1]["kind"] == "undo"
    states = [m for m in c.outbox if m["type"] == "state"]
    assert states and states[-1]["ply"] == c.ply and states[-1]["pos"]["pits"] == [4] * 12
    # A new game from the menu: its start record, and a state message for the host.
    del c.outbox[:]
    h.press("menu")
    h.press("confirm")
    assert c.records[-2]["kind"] == "end" and c.records[-1]["kind"] == "start" and c.game_no == 2
    states = [m for m in c.outbox if m["type"] == "state"]
    assert states[-1]["game"] == 2 and states[-1]["phase"] == "setup"
    check_messages(c)


# ----- hints ----------------------------------------------------------------------------

def test_a_hint_lights_the_best_pit_and_is_not_played(monkeypatch):
    board = preset("2x6-stores-hx711")
    h = hands.start(board, "kalah", settings={"hint_ms": 5000, "hint_depth": 4})
    c = h.c
    assert c.command({"type": "hint", "on": True}, h.now) == {"type": "ok"}
    from mancala.search import best_move
    expect = best_move(mancala.Game("kalah"), depth=4, max_nodes=30000)
    assert c.hint_move == expect.best
    view = hands.watch(c, h.now)
    assert view[expect.best] == (C.HINT, None, 1)
    assert c.state == "await_lift" and c.game.ply == 0       # shown, never played
    h.press("hint")                                           # the button turns hints off
    assert hands.watch(c, h.now)[expect.best][0] == C.PLAYER


def test_after_a_move_the_hint_is_searched_while_the_board_is_idle():
    board = preset("2x6-stores-hx711")
    h = hands.start(board, "kalah", settings={"hints": True, "hint_depth": 3})
    c = h.c
    h.wait(200)
    assert c.hint_move is not None                # searched as the game starts, while the board is idle
    h.patience_ms = 0
    h.action_ms = 0
    h.lift(0)
    for p in (1, 2, 3):
        h.drop(p)
    h.seeds.hand -= 1
    h.seeds.counts[4] += 1
    h.scan()                                       # the last drop: this scan ends the move ...
    h.now += 200
    h.scan()
    assert c.ply == 0                              # (the move is played over the next scans:
    for _ in range(3):                             # one piece of work a scan)
        h.now += 20
        h.scan()
    assert c.ply == 1 and c.game.to_move == 1
    assert c.hint_due and not any(v[0] == C.HINT for v in hands.watch(c, h.now))   # ... without searching
    h.wait(1000)                                   # idle scans: the link's messages, the traces, the search
    from mancala.search import best_move
    expect = best_move(c.game, depth=3, max_nodes=30000).best
    assert c.hint_move == expect and hands.watch(c, h.now)[expect][0] == C.HINT


def test_the_hint_search_keeps_to_its_node_and_time_budgets(monkeypatch):
    board = preset("2x6-stores-hx711")
    h = hands.start(board, "oware", settings={"hint_nodes": 500, "hint_depth": 30, "hint_ms": 60000})
    c = h.c
    c.command({"type": "hint", "on": True}, h.now)
    assert c.hint_result.nodes <= 500 and c.hint_move in c.game.legal_moves()
    # A clock that moves 1 ms per look: a 40 ms budget allows only so many nodes (checked every 256).
    import mancala.search as search
    ticks = [0]

    def fake_ticks():
        ticks[0] += 1
        return ticks[0]

    monkeypatch.setattr(search, "ticks_ms", fake_ticks)
    c.settings.update(hint_nodes=10 ** 7, hint_ms=40)
    c.command({"type": "hint", "on": False}, h.now)
    h.lift(0)
    h.play_until = None
    for p in (1, 2, 3, 4):
        h.drop(p)
    c.command({"type": "hint", "on": True}, h.now)
    r = c.hint_result
    assert r.best in c.game.legal_moves()
    assert r.nodes <= 256 * 42      # the deadline is looked at every 256 nodes
    assert ticks[0] < 100


# ----- buttons, menu, commands ------------------------------------------------------------

def test_the_menu_chooses_a_variant_and_ends_the_game_in_progress():
    board = preset("2x6-stores-hx711")
    h = hands.start(board, "oware")
    c = h.c
    h.lift(0)
    h.press("menu")
    assert c.state == "menu"
    i = c.menu_index
    assert c.menu_items[i] == "oware"
    view = hands.watch(c, h.now)
    assert view[i % board.cells][0] == C.MENU
    h.press("hint")
    h.press("hint")
    assert c.menu_items[c.menu_index] == "kalah"
    h.press("confirm")
    assert c.state == "setup" and c.variant == "kalah" and c.game_no == 2
    kinds = [(r["game"], r["kind"]) for r in c.records]
    assert kinds[-2:] == [(1, "end"), (2, "start")] and c.records[-2]["reason"] == "abandoned"


def test_the_menu_offers_self_test_and_calibration_to_the_app():
    board = preset("2x6-stores")
    c = Controller(board)
    c.press("menu", 0)     # from the start (no game): already the menu; this leaves it open
    c.menu_index = c.menu_items.index("calibrate")
    c.press("confirm", 10)
    assert c.service_request == "calibrate"


def test_long_press_menu_returns_to_the_game():
    board = preset("2x6-stores-hx711")
    h = hands.start(board, "oware")
    c = h.c
    h.press("menu")
    h.press("menu")
    assert c.state == "await_lift" and c.game_no == 1


def test_every_command_answers_ok_or_a_protocol_error():
    board = preset("2x6-stores-hx711")
    c = Controller(board)
    cmd = c.command
    assert cmd({"type": "undo"}, 0)["code"] == "no_game"
    assert cmd({"type": "set_pos", "pos": {"pits": [4] * 12}}, 0)["code"] == "no_game"
    r = cmd({"type": "new_game", "variant": "bao"}, 0)
    assert r["type"] == "error" and r["code"] == "bad_variant"
    r = cmd({"type": "new_game", "variant": "omweso"}, 0)
    assert r["code"] == "bad_variant" and "4x8" in r["msg"]
    r = cmd({"type": "new_game", "variant": "oware", "options": {"grand_slam": "maybe"}}, 0)
    assert r["code"] == "bad_option"
    assert cmd({"type": "new_game", "variant": "Wari", "options": {"grand_slam": "illegal"}}, 0) == \
        {"type": "ok", "game": 1}
    assert c.variant == "oware" and c.game.grand_slam == "illegal"
    assert cmd({"type": "undo"}, 0)["code"] == "cannot_undo"
    assert cmd({"type": "set_pos", "pos": {"pits": [4] * 11}}, 0)["code"] == "bad_position"
    assert cmd({"type": "set_pos", "pos": "nonsense"}, 0)["code"] == "bad_position"
    assert cmd({"type": "brightness", "level": 300}, 0)["code"] == "out_of_range"
    assert cmd({"type": "brightness", "level": 40}, 0) == {"type": "ok"} and c.brightness == 40
    assert cmd({"type": "hint", "on": "yes"}, 0)["code"] == "bad_payload"
    assert cmd({"type": "press", "button": "reset"}, 0)["code"] == "bad_payload"
    assert cmd({"type": "self_test"}, 0)["code"] == "unsupported"
    assert cmd({"type": "frobnicate"}, 0)["code"] == "unknown_type"
    st = cmd({"type": "get_state"}, 0)
    assert st["phase"] == "setup" and st["game"] == 1 and st["pos"]["pits"] == [4] * 12
    for r in [st] + c.outbox:
        if r["type"] != "ok":
            codec.validate(r["type"], {k: v for k, v in r.items() if k != "type"}, "board")
    assert all(len(m["msg"]) <= 160 for m in c.outbox if m["type"] == "log")


def test_settings_are_checked():
    board = preset("2x6-stores")
    with pytest.raises(SettingsError, match="unknown controller setting"):
        Controller(board, settings={"debounce": 5})
    with pytest.raises(SettingsError, match="must be a whole number from 10 to 2000"):
        Controller(board, settings={"debounce_ms": "fast"})


def test_only_games_that_fit_the_board_are_offered():
    two_rows = fitting_variants(preset("2x6-stores"))
    assert "oware" in two_rows and "kalah" in two_rows and "mankaleh" in two_rows   # 2x7 on the stores
    assert not any(mancala.variant_info(v)["rows"] == 4 for v in two_rows)
    no_stores = fitting_variants(preset("2x8"))
    assert "kalah" not in no_stores


# ----- resuming ------------------------------------------------------------------------------

def test_a_game_resumes_from_its_records_and_plays_on():
    board = preset("2x6-stores-hx711")
    h = hands.start(board, "oware", seed=5)
    c = h.c
    while c.ply < 20:
        h.step()
    while c.state != "await_lift":
        h.step()
    c2 = replay_records(board, c.records)
    assert c2.state == "await_lift" and c2.game.cells() == c.game.cells() and c2.ply == c.ply
    assert c2.game.moves_played() == c.game.moves_played()
    # The same hands go on with the resumed controller and finish the game.
    h.c = c2
    h.wait(300)
    assert not c2.mismatch
    h.play()
    assert c2.state == "over" and h.seeds.counts == hands.expected_counts(c2)


def test_undo_goes_back_the_last_moves_the_game_keeps_and_says_so_past_them():
    # The board's game keeps undo records for its last UNDO_MOVES moves (the rules core's
    # limit_undo: the heap does not grow with the game); the journal has every move.
    from sowlight_fw.controller import UNDO_MOVES
    board = preset("2x6-stores-hx711")
    h = hands.start(board, "oware", seed=5)
    c = h.c
    while c.game.ply < UNDO_MOVES + 10:
        h.step()
    while c.state != "await_lift":
        h.step()
    played = c.game.moves_played()
    undone = 0
    while True:
        r = c.command({"type": "undo"}, 0)
        if r["type"] != "ok":
            break
        undone += 1
    assert r["code"] == "cannot_undo" and r["msg"] == "only the last %d moves can be taken back" % UNDO_MOVES
    assert UNDO_MOVES <= undone <= UNDO_MOVES + 1
    assert c.game.moves_played() == played[:len(played) - undone]
    # The journal (every move, then the undos) gives the same game again.
    c2 = replay_records(board, c.records)
    assert c2.game.cells() == c.game.cells() and c2.game.moves_played() == c.game.moves_played()
    assert c2.game.ply == c.game.ply


def test_after_a_power_cut_in_the_middle_of_a_move_the_board_picks_it_up_where_the_hands_are():
    board = preset("2x6-stores-hx711")
    h = hands.start(board, "oware", seed=6)
    c = h.c
    h.lift(1)
    h.drop(2)
    h.drop(3)
    records = list(c.records)       # the move is not in the journal: it was not finished
    c2 = replay_records(board, records)
    h.c = c2
    h.wait(300)
    assert c2.state == "sowing" and c2.follower.index == 3
    assert hands.watch(c2, h.now)[4] == (C.DROP, None, 1)
    h.drop(4)
    h.drop(5)
    assert c2.records[-1]["kind"] == "move" and c2.records[-1]["move"] == 1


def test_a_journal_that_cannot_be_replayed_leaves_the_board_at_its_menu():
    board = preset("2x6-stores")
    c = Controller(board)
    bad = [{"game": 4, "ply": 0, "kind": "start", "variant": "oware", "options": {}},
           {"game": 4, "ply": 1, "kind": "move", "player": 0, "move": 9}]
    assert c.resume(4, bad) is False
    assert c.state == "menu" and c.next_game == 5
    assert any("cannot be resumed" in m["msg"] for m in c.outbox if m["type"] == "log")


# ----- the same on MicroPython -------------------------------------------------------------------

VM_MOUNTS = {"/lib": FAKES, "/examples": ROOT / "hardware" / "examples"}


def test_a_placing_stage_on_micropython_makes_the_same_journal_as_on_cpython(micropython):
    board = preset("2x6-stores-hx711")
    h = hands.start(board, "lane", seed=4)
    h.play(20000)
    out = micropython.run("""
import json
from sowlight_fw import config
import hands
board = config.check(json.load(open("/examples/2x6-stores-hx711.json")))
h = hands.start(board, "lane", seed=4)
h.play(20000)
assert h.c.state == "over" and h.seeds.counts == hands.expected_counts(h.c)
print(json.dumps(h.c.records))
""", mounts=VM_MOUNTS, timeout=600)
    assert json.loads(out.strip().splitlines()[-1]) == json.loads(json.dumps(h.c.records))
