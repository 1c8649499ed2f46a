"""The board's controller (firmware/sowlight_fw/controller.py), on CPython.

Full games are played by simulated hands (tests/micropython/fakes/hands.py)
that do only what the LEDs show: they watch the rendered frame, decode each
cell's colour, blinking and count, and move seeds on a simulated board whose
sensors report what a sensor of the config's kind would see.
"""
import importlib.util
import json
import random
from pathlib import Path

import pytest

import mancala
from sowlight_fw import colours as C
from sowlight_fw import codec, config
from sowlight_fw.controller import Controller, SettingsError, fitting_variants

ROOT = Path(__file__).resolve().parent.parent
FAKES = ROOT / "tests" / "micropython" / "fakes"


def _load(name):
    spec = importlib.util.spec_from_file_location(name, FAKES / (name + ".py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


hands = _load("hands")


def preset(name):
    path = ROOT / "hardware" / ("examples" if "hx711" in name or "esp32" in name else "boards") / (name + ".json")
    return config.check(json.loads(path.read_text()))


def counting_4x8():
    """The 4x8 preset with a load cell under every pit (the presets have occupancy sensors)."""
    raw = json.loads((ROOT / "hardware" / "boards" / "4x8.json").read_text())
    used = {raw["leds"]["pin"], raw["buttons"]["confirm"], raw["buttons"]["undo"], raw["buttons"]["hint"], 2}
    pins = [p for p in range(64) if p not in used]
    raw["sensors"] = {"kind": "hx711", "sck": 2, "pits": pins[:32]}
    raw["power"] = {"supply_ma": 4000}
    return config.check(raw)


BOARDS = {
    "load-cells": lambda: preset("2x6-stores-hx711"),
    "occupancy": lambda: preset("2x6-stores"),
}


def check_messages(c):
    """Every message the controller queued is one the link protocol accepts."""
    for m in c.outbox:
        payload = {k: v for k, v in m.items() if k != "type"}
        if m["type"] in ("ok",):
            continue
        if m["type"] == "move" and not (isinstance(m["move"], int) or (
                len(m["move"]) == 2 and all(isinstance(x, int) for x in m["move"]))):
            # Protocol 1.0 knows moves as a pit or [pit, direction] only; games with
            # richer moves (Omweso's ("race",) ...) need the protocol to grow.
            continue
        codec.validate(m["type"], payload, "board")


def replay_records(board, records):
    c = Controller(board)
    assert c.resume(records[0]["game"], [dict(r) for r in records])
    return c


# ----- whole games -----------------------------------------------------------------

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
    board = counting_4x8() if kind == "load-cells" else preset("4x8")
    h = hands.start(board, "omweso", seed=1)
    h.play(20000)
    c = h.c
    assert c.state == "over" and c.game.is_over()
    assert h.seeds.counts == hands.expected_counts(c)
    g = mancala.Game("omweso")
    for r in c.records:
        if r["kind"] == "move":
            g.play(r["move"] if isinstance(r["move"], int) else tuple(r["move"]))
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
    assert c.records[-1] == {"kind": "move", "player": 0, "move": 2, "name": "C", "game": 1, "ply": 1}


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
    for beat in range(10):
        c.render(beat * 100)
        seen.append((c.frame[0], c.frame[1], c.frame[2]))
    assert all(s[0] == C.DROP for s in seen)
    assert [s[1] for s in seen[:4]] == [C.NEED, C.ERROR, C.NEED, C.ERROR]
    assert [s[2] for s in seen[:8]] == [C.TRAIL, 0, C.TRAIL, 0, C.TRAIL, 0, 0, 0]


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
    assert c.hint_move is not None                # searched as the game starts
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
    assert c.ply == 1 and c.game.to_move == 1
    assert c._hint_due and not any(v[0] == C.HINT for v in hands.watch(c, h.now))   # ... without searching
    h.wait(400)                                    # idle scans: the traces, then the search
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
    with pytest.raises(SettingsError, match="must be like"):
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
