"""The board's app (firmware/sowlight_fw/app.py, firmware/main.py) on CPython, with the fake
`machine` and `neopixel` modules of tests/micropython/fakes under the real adapters.

The hands move seeds on a simulated board; the simulated parts (the
multiplexed ADC, the HX711s) turn them into readings; the app's own sensor,
button, LED and journal code does the rest.
"""
import itertools
import json
import sys
from pathlib import Path
from fakeload import load_fake

import pytest

from sowlight_fw import config

from sowlight_fw.link import codec
from sowlight_fw.link import BoardLink
from sowlight_fw.storage import MemoryStorage

ROOT = Path(__file__).resolve().parent.parent




@pytest.fixture
def fake(monkeypatch):
    """Fresh fake machine/neopixel modules (importable by name), and the app module using them."""
    for name in ("machine", "neopixel", "wiring", "hands"):
        monkeypatch.delitem(sys.modules, name, raising=False)
    machine = load_fake("machine", register=True)
    load_fake("neopixel", register=True)
    ns = type("Fakes", (), {})()
    ns.machine = machine
    ns.hands = load_fake("hands", register=True)
    ns.wiring = load_fake("wiring", register=True)
    from sowlight_fw import app
    ns.app = app
    yield ns
    for name in ("machine", "neopixel", "wiring", "hands"):
        sys.modules.pop(name, None)


def raw_config(name):
    sub = "examples" if "hx711" in name else "boards"
    return json.loads((ROOT / "hardware" / sub / (name + ".json")).read_text())


class FakeLink:
    """The host's end of an in-memory cable to the app's real BoardLink: frames go through the
    real codec both ways (every message is validated).  read() and write() are the board's
    transport."""

    def __init__(self):
        self.to_board = codec.Encoder()
        self.waiting = bytearray()              # host -> board
        self.from_board = codec.Decoder(codec.BOARD)
        self.sent = []                          # (type, payload) of every frame the board wrote

    def host(self, mtype, payload=None):
        self.waiting += self.to_board.frame(mtype, payload or {})
        return self.to_board.seq

    def raw(self, data):
        self.waiting += data

    def any(self):
        return len(self.waiting)

    def read(self, n):
        data = bytes(self.waiting[:n])
        del self.waiting[:n]
        return data

    def write(self, data):
        for item in self.from_board.feed(data):
            assert type(item) is codec.Message, item
            self.sent.append((item.type, item.payload))

    def replies(self, seq):
        return [(t, p) for t, p in self.sent if p.get("re") == seq]


def make_app(fake, name="2x6-stores", storage=None, link=None, tmp_path=None, raw=None):
    b = config.check(raw or raw_config(name))
    seeds = fake.hands.Seeds(b.cells)
    path = str(tmp_path / "board.json") if tmp_path else "board.json"
    if tmp_path:
        (tmp_path / "board.json").write_text(json.dumps(raw or raw_config(name)))
    a = fake.app.App(b, fake.machine, storage=storage or MemoryStorage(),
                     link=BoardLink(link) if link is not None else None, config_path=path)
    a.sim = fake.wiring.wire(b, fake.machine)
    if b.sensor_kind == "hx711":
        step = a.step

        def scan(now):
            a.sim.convert([1000 + 400 * k for k in seeds.counts])   # the default calibration: 400 per seed
            step(now)
        a.scan = scan
        a.sensors.offset = [1000] * b.cells
    else:
        a.sim.occupied = lambda cell: seeds.counts[cell] > 0
        a.scan = a.step
    a.seeds = seeds
    return a


def hosted_app(fake):
    """(app, link): the app booted at 0 ms behind a FakeLink, its host's hello sent (read by the next scan)."""
    link = FakeLink()
    a = make_app(fake, link=link)
    a.boot(0)
    link.host("hello", codec.hello(codec.HOST, "test"))
    return a, link

def hands_for(fake, a, seed=1):
    h = fake.hands.Hands(a.controller, a.seeds, fake.hands.Sensors(a.board), seed=seed, scanner=a.scan)
    return h


def press(fake, a, h, name, hold_ms=100):
    pin = a.board.buttons[name]
    fake.machine.world.levels[pin] = 0
    h.wait(hold_ms)
    fake.machine.world.levels[pin] = 1
    h.wait(60)


# ----- whole games through the adapters -------------------------------------------------------

@pytest.mark.parametrize("name", ["2x6-stores", "2x6-stores-hx711"])
def test_a_game_is_played_through_the_real_adapters_and_journalled(fake, name):
    st = MemoryStorage()
    a = make_app(fake, name, storage=st)
    c = a.boot(0)
    h = hands_for(fake, a)
    h.wait(100)
    assert c.state == "menu" and c.menu_items[c.menu_index] == "oware"
    press(fake, a, h, "confirm")                   # the buttons choose Oware from the menu
    assert c.state == "setup"
    h.setup_counts = fake.hands.expected_counts(c)
    h.play(5000)
    assert c.state == "over"
    assert a.seeds.counts == fake.hands.expected_counts(c)
    # Everything the controller recorded is on "flash", and reads back as the game.
    from sowlight_fw.journal import Journal
    j = Journal(st)
    assert j.open() == []
    recs = j.records(1, 0, 1000)[0]
    assert [r["kind"] for r in recs[:1]] + [recs[-1]["kind"]] == ["start", "end"]
    assert [r["move"] for r in recs if r["kind"] == "move"] == c.game.moves_played()
    # The LED strip shows the controller's frame: each cell's LED in its role's colour.
    from sowlight_fw.hw.leds import scaled_palette
    pal = scaled_palette(c.brightness, a.board.brightness_cap255)
    data = fake.machine.world.bitstreams[-1][1]
    for cell, leds in enumerate(a.board.cell_leds):
        r, g, b = pal[c.frame[cell]]
        assert data[leds[0] * 3:leds[0] * 3 + 3] == bytes((g, r, b))


def test_after_a_reset_the_app_resumes_the_game_from_the_journal(fake):
    st = MemoryStorage()
    a = make_app(fake, storage=st)
    c = a.boot(0)
    c.new_game("kalah")
    h = hands_for(fake, a, seed=3)
    h.setup_counts = fake.hands.expected_counts(c)
    while c.ply < 6 or c.state != "await_lift":
        h.step()
    position = c.game.cells()
    # Power off and on: a new app on the same flash, the seeds where they were.
    a2 = make_app(fake, storage=st)
    a2.seeds.counts = list(a.seeds.counts)
    c2 = a2.boot(h.now)
    assert c2.game_no == 1 and c2.game.cells() == position and c2.state == "await_lift"
    h2 = hands_for(fake, a2, seed=3)
    h2.now = h.now
    h2.wait(500)
    assert not c2.mismatch
    h2.play(5000)
    assert c2.state == "over"


# ----- the link ----------------------------------------------------------------------------------

def test_the_link_answers_requests_and_syncs_the_journal(fake):
    link = FakeLink()
    a = make_app(fake, "2x6-stores-hx711", link=link)
    a.boot(0)
    assert link.sent[0][0] == "hello" and "re" not in link.sent[0][1]     # said at start-up
    seq = link.host("get_state")
    a.scan(20)
    assert link.replies(seq)[0][1]["code"] == "no_hello"
    seq = link.host("hello", codec.hello(codec.HOST, "test 0", time=1767225600))
    a.scan(40)
    (t, p), = link.replies(seq)
    assert t == "hello" and p["role"] == "board" and "oware" in p["variants"]
    assert p["config"]["geometry"] == {"rows": 2, "pits_per_row": 6, "stores": 2}
    seq = link.host("ping")
    a.scan(60)
    assert link.replies(seq)[0][0] == "pong"
    seq = link.host("new_game", {"variant": "oware"})
    a.scan(80)
    assert link.replies(seq)[0] == ("ok", {"game": 1, "re": seq})
    a.scan(90)                  # (the board's messages: in a scan that answered nothing)
    assert any(t == "state" and p["phase"] == "setup" for t, p in link.sent)
    seq = link.host("journal_list")
    a.scan(100)
    (t, p), = link.replies(seq)
    assert t == "journal" and p["games"][0]["game"] == 1 and p["games"][0]["synced"] == -1
    seq = link.host("journal_get", {"game": 1, "from": 0})
    a.scan(120)
    (t, p), = link.replies(seq)
    assert t == "records" and p["records"][0]["kind"] == "start" and p["records"][0]["t"] >= 1767225600
    seq = link.host("journal_ack", {"game": 1, "upto": 0})
    a.scan(140)
    assert link.replies(seq)[0] == ("ok", {"game": 1, "synced": 0, "re": seq})
    seq = link.host("journal_ack", {"game": 1, "upto": 5})
    a.scan(160)
    assert link.replies(seq)[0][1]["code"] == "ack_ahead"
    link.raw(b"@0009 get_state {} 00000000\n")             # a damaged frame
    a.scan(180)
    assert ("resync", {"reason": "checksum"}) in link.sent
    seq = link.host("brightness", {"level": 999})
    a.scan(200)
    assert link.replies(seq)[0][1]["code"] == "out_of_range"


def test_a_repeated_journal_request_is_read_again_not_kept(fake):
    # A page of records is the longest reply; the link keeps the request, not the reply, and a
    # retransmission (the same seq) reads the journal again: the same answer, carried out once.
    # A copy sent while the board was busy, read with the request itself, is not answered again:
    # the reply has just gone out.
    link = FakeLink()
    a = make_app(fake, link=link)
    c = a.boot(0)
    c.new_game("oware")
    link.host("hello", codec.hello(codec.HOST, "test 0"))
    a.scan(20)
    seq = link.host("journal_get", {"game": 1, "from": 0})
    frame = bytes(link.waiting)
    link.raw(frame)                                         # the same frame again, unread yet
    a.scan(40)
    assert a.link.last == (seq, None, ("journal_get", {"game": 1, "from": 0}))
    assert len(link.replies(seq)) == 1 and a.link.crossed == 1 and a.link.replayed == 0
    link.raw(frame)                                         # sent again later: its reply was lost
    a.scan(60)
    first, again = link.replies(seq)
    assert first == again and first[0] == "records" and first[1]["records"][0]["kind"] == "start"
    assert a.link.requests == 1 and a.link.replayed == 1
    seq = link.host("new_game", {"variant": "kalah"})      # any other reply is kept and sent again
    frame = bytes(link.waiting)
    a.scan(80)
    link.raw(frame)
    a.scan(100)
    first, again = link.replies(seq)
    assert first == again == ("ok", {"game": 2, "re": seq}) and a.link.last[1] == "ok"
    assert a.journal.next_game() == 3 and a.link.requests == 2 and a.link.replayed == 2
    # The reply kept is the one sent, word for word, even when the board has moved on since.
    seq = link.host("get_state")
    frame = bytes(link.waiting)
    a.scan(120)
    c.new_game("oware")
    link.raw(frame)
    a.scan(140)
    first, again = link.replies(seq)
    assert first == again and first[0] == "state" and first[1]["variant"] == "kalah"
    assert a.link.replayed == 3


def test_a_full_journal_stops_nothing_and_catches_up_after_the_laptop_syncs(fake):
    st = MemoryStorage(capacity=2 * 4096)
    link = FakeLink()
    a = make_app(fake, "2x6-stores-hx711", storage=st, link=link)
    a.journal.reserve = 0
    c = a.boot(0)
    link.host("hello", codec.hello(codec.HOST, "test 0"))
    a.scan(10)
    # Fill the flash with two finished, unsynced games.
    for g in (1, 2):
        a.journal.append({"kind": "start", "game": g, "ply": 0, "variant": "oware", "options": {}})
        a.journal.append({"kind": "undo", "game": g, "ply": 1, "junk": "y" * 1800})
        a.journal.append({"kind": "end", "game": g, "ply": 2, "winner": None, "scores": [0, 0],
                          "reason": "abandoned", "junk": "x" * 1800})
    c.next_game = 3
    c.new_game("oware")
    h = hands_for(fake, a)
    h.setup_counts = fake.hands.expected_counts(c)
    h.wait(100)
    assert c.state == "error" and a.pending                  # the record waits in RAM
    assert any(t == "log" and "connect the board" in p["msg"] for t, p in link.sent)
    press(fake, a, h, "confirm")                              # acknowledged: back to the game
    assert c.state == "setup"
    seq = link.host("journal_ack", {"game": 1, "upto": 2})
    a.scan(h.now + 20)
    assert link.replies(seq)[0][0] == "ok"
    assert not a.pending and 3 in a.journal.games and 1 not in a.journal.games


# ----- self-test and calibration --------------------------------------------------------------------

def test_self_test_lights_every_led_and_reports_a_dead_sensor(fake):
    a = make_app(fake)
    a.boot(0)
    a.sim.dead = (4,)
    n = len(fake.machine.world.bitstreams)
    report = a.self_test(led_ms=0)["report"]
    sweeps = fake.machine.world.bitstreams[n:n + 14]
    lit = [[i for i in range(14) if data[i * 3:i * 3 + 3] != b"\0\0\0"] for _, data in sweeps]
    assert lit == [[i] for i in range(14)]
    assert report["leds"] == 14 and report["cells"][4] == 0
    assert report["problems"] == ["cell 4 reads 0: check its sensor and multiplexer wiring"]
    assert a.controller.state == "menu"


def collections(a, collected):
    """A gc module for the app's loop that notes, in `collected`, the scan each collection came
    after.  (No mem_alloc: on a board it walks the heap, almost a collection's time.)"""
    class GC:
        @staticmethod
        def collect():
            collected.append(a.loops)
    return GC


def run_loop(fake, monkeypatch, a, pause, before_scan=None):
    """App.loop on a clock of its own (scans of 2 ms), `pause(loops)` called in each pause after
    a scan (it raises KeyboardInterrupt to stop the loop), `before_scan()` before each scan; the
    scans each collection came after."""
    clock = [1000]
    collected = []
    step = a.step

    def timed_step(now):
        if before_scan is not None:
            before_scan()
        step(now)
        clock[0] += 2

    def sleep_ms(ms):
        clock[0] += ms
        pause(a.loops)

    monkeypatch.setattr(fake.app, "sleep_ms", sleep_ms)
    monkeypatch.setattr(fake.app, "ticks_ms", lambda: clock[0])
    monkeypatch.setattr(fake.app, "gc", collections(a, collected))
    monkeypatch.setattr(a, "step", timed_step)
    with pytest.raises(KeyboardInterrupt):
        a.loop()
    return collected


def test_the_boards_loop_scans_and_runs_the_service_the_menu_asks_for(fake, monkeypatch):
    # App.loop, what main() runs on a board: a scan every SCAN_MS, start to start (a long scan
    # shortens the pause after it), the garbage collected between scans after a long one
    # (_GC_LONG_MS) or every _GC_EVERY, for good; a service the menu asked for (a coroutine) is run in between; Ctrl-C
    # (the pause raising KeyboardInterrupt, as sleep_ms does) ends it for main() to catch.
    a = make_app(fake)
    a.boot(0)
    clock = [1000]
    pauses = []
    served = []
    collected = []
    scan_ms = {3: 7, 5: 25}       # how long scans 3 and 5 take; the others 2 ms
    step = a.step

    def timed_step(now):
        assert now == clock[0]
        step(now)
        clock[0] += scan_ms.get(a.loops, 2)

    def sleep_ms(ms):
        pauses.append((ms, a.loops))
        clock[0] += ms
        if len(pauses) == 3:
            a.controller.service_request = "self_test"
        elif len(pauses) == 57:
            raise KeyboardInterrupt

    async def service(which):
        served.append((which, a.loops))
        a.controller.service_request = None

    monkeypatch.setattr(fake.app, "sleep_ms", sleep_ms)
    monkeypatch.setattr(fake.app, "ticks_ms", lambda: clock[0])
    monkeypatch.setattr(fake.app, "gc", collections(a, collected))
    monkeypatch.setattr(a, "step", timed_step)
    monkeypatch.setattr(a, "service", service)
    with pytest.raises(KeyboardInterrupt):
        a.loop()
    s = fake.app.SCAN_MS
    assert pauses == [(s - {3: 7, 5: 25}.get(n, 2) if n != 5 else 0, n) for n in range(1, 58)]
    assert served == [("self_test", 4)]
    # At the start, after scan 5 (25 ms: long), before scan 9 (the cells' first readings, taken
    # by scan 1, have then held for the 150 ms debounce: that scan makes them the stable values,
    # the controller's first look at the board), after scan 10 (an idle job's work: the `leds`
    # message for the menu's lights), and every 10 scans on (_GC_EVERY): not after scan 3 (7 ms).
    assert (fake.app._GC_LONG_MS, fake.app._GC_EVERY) == (8, 10)
    assert fake.app.SCAN_MS * 8 >= a.controller.settings["debounce_ms"] > fake.app.SCAN_MS * 7
    assert collected == [0, 5, 8, 10, 20, 30, 40, 50]


def test_a_scan_that_answers_the_host_leaves_a_move_message_to_the_next(fake):
    # A reply and a `move` message (its trace) encoded in one scan would hold both one's garbage
    # at once (the loop collects between scans): while the host asks, the messages before a
    # `move` one go out, it and those after it wait, for up to _HOLD_MOST scans running.
    a, link = hosted_app(fake)
    a.step(10)
    a.step(20)
    del link.sent[:]
    assert fake.app._HOLD_MOST == 4
    pos = {"pits": [4] * 12, "stores": [0, 0], "to_move": 1}
    now = 30
    for i in range(6):
        link.host("ping")
        a.controller.log("info", "note %d" % i)
        a.controller.outbox.append({"type": "move", "game": 1, "ply": i + 1, "player": 0, "move": 3, "name": "D",
                                    "trace": None, "pos": pos})
        a.step(now)
        now += 20
    a.step(now)
    kinds = [t if t == "pong" else p["msg"] if t == "log" else "move %d" % p["ply"] for t, p in link.sent]
    # Four scans answer and hold the first move (the note before it goes); the fifth answers and
    # sends everything; the sixth holds the last move, which the quiet scan after it sends.
    assert kinds == ["pong", "note 0", "pong", "pong", "pong", "pong", "move 1", "note 1", "move 2", "note 2",
                     "move 3", "note 3", "move 4", "note 4", "move 5", "pong", "note 5", "move 6"]


def test_a_scan_that_answers_the_host_leaves_the_idle_jobs_to_the_next(fake):
    # An idle job's messages (here the `leds` a menu press leaves) made and encoded in the scan
    # that answers a request would hold both's garbage at once: that scan answers only, and the
    # next does the idle job, request or not (a host that asks every scan cannot hold it back).
    a, link = hosted_app(fake)
    now = 10
    for _ in range(5):
        a.step(now)
        now += 20
    lit = a.controller.lit()
    pin = a.board.buttons["hint"]                   # the menu's next item: other cells lit
    fake.machine.world.levels[pin] = 0
    for _ in range(6):
        a.step(now)
        now += 20
    fake.machine.world.levels[pin] = 1
    while a.controller.lit() == lit:
        a.step(now)
        now += 20
    scans = []
    for _ in range(3):
        link.host("get_state")
        before = len(link.sent)
        a.step(now)
        now += 20
        scans.append([t for t, _ in link.sent[before:]])
    assert scans == [["state"], ["state", "leds"], ["state"]]


def test_a_new_games_record_is_on_flash_before_its_reply(fake):
    # A reply confirms only what is on flash: the board answers `new_game` once the game's
    # record is written, and a journal request's reply has every record made so far.
    a, link = hosted_app(fake)
    a.step(10)
    before = a.journal.list_games()
    del link.sent[:]
    written = []
    append = a.journal.append
    a.journal.append = lambda rec: (written.append((rec["kind"], len(link.sent))), append(rec))[1]
    link.host("new_game", {"variant": "oware"})
    link.host("journal_list")
    a.step(30)
    assert [t for t, _ in link.sent][:2] == ["ok", "journal"] and written == [("start", 0)]
    assert [g["variant"] for g in link.sent[1][1]["games"]] == [g["variant"] for g in before] + ["oware"]


def test_a_scan_that_plays_a_move_leaves_what_the_host_sent_to_the_next(fake):
    # Playing a move (the rules core, its record, its trace) is a scan's heaviest work: a
    # request that comes meanwhile is answered in the next scan, so that one scan's garbage is
    # never both's.  The host pings in every scan of a whole game here.
    a, link = hosted_app(fake)
    c = a.controller
    step = a.step
    scans = []                          # (played a move, pongs sent) per scan

    def scan(now):
        playing = c.playing()
        link.host("ping")
        before = len(link.sent)
        step(now)
        scans.append((playing, sum(t == "pong" for t, _ in link.sent[before:])))
    a.scan = scan
    h = hands_for(fake, a)
    h.wait(100)
    press(fake, a, h, "confirm")                   # Oware, from the menu
    h.setup_counts = fake.hands.expected_counts(c)
    h.play(5000)
    assert c.state == "over"
    for i in range(100):                            # (the last move's message, once the board is still)
        scan(a.now + 20)
    moves = c.game.ply
    assert sum(p for p, _ in scans) == moves > 10
    assert [n for p, n in scans if p] == [0] * moves
    assert sum(n for _, n in scans) == len(scans)   # every ping answered, the held ones a scan late
    assert [t for t, _ in link.sent].count("move") == moves


def test_the_boards_loop_collects_before_a_scan_that_reads_a_request(fake, monkeypatch):
    # A request's scan allocates most (its reply, the work it asks for): the loop collects
    # between scans when the host has sent something, so that scan starts from what is live.
    # Not twice in a row: after a collection, the next scan reads the request.
    a, link = hosted_app(fake)
    seen = []                   # (scan, whether bytes waited when it began)

    def pause(loops):
        if loops in (3, 4, 12):
            link.host("get_state")
        if loops == 20:
            raise KeyboardInterrupt

    collected = run_loop(fake, monkeypatch, a, pause, lambda: seen.append((a.loops, len(link.waiting) > 0)))
    # At the start (the hello waits then, but a collection was just made), after the scan that
    # answered it, before the scans after 3, 4 and 12 (each reads a get_state) and after each of
    # them (not twice: after 3's, 4's begins at once), before scan 9 (the first readings settle
    # in it: see the test above), after scan 10 (an idle job's work), and every _GC_EVERY scans
    # counted from the last one.
    assert collected == [0, 1, 3, 4, 5, 8, 10, 12, 13]
    assert [n for n, waited in seen if waited] == [0, 3, 4, 12]
    assert [t for t, p in link.sent].count("state") == 3


def test_the_boards_loop_collects_before_a_scan_in_which_a_sensors_change_settles(fake, monkeypatch):
    # The controller's answer to a seed lifted or dropped (and a move's end) comes in the scan in
    # which the new reading has held for the debounce: the loop collects before it as before a
    # request's scan (Observer.due), so that scan too starts from what is live.
    a = make_app(fake)
    a.boot(0)

    def pause(loops):
        if loops == 23:
            a.seeds.add(3, 2)           # scan 24 reads it
        if loops == 40:
            raise KeyboardInterrupt

    collected = run_loop(fake, monkeypatch, a, pause)
    # Scan 24 saw pit 3's reading jump (unsure: a hand over it), scan 25 the seeds put in it;
    # 150 ms on (8 scans of 20 ms) scan 33 makes them stable: the collection before it comes
    # after scan 32, between the every-10 ones (after 10, 20 and 30: the boot's first readings
    # settle in scan 9 and an idle job's work follows in scan 10, as above).
    assert a.controller.observer.stable[3] == 1
    assert collected == [0, 8, 10, 20, 30, 32]


def test_calibration_is_measured_and_saved_to_the_config(fake, tmp_path):
    link = FakeLink()
    a = make_app(fake, link=link, tmp_path=tmp_path)
    a.boot(0)
    link.host("hello", codec.hello(codec.HOST, "test 0"))
    a.scan(10)
    seq = link.host("calibrate", {"step": "empty"})
    a.scan(20)
    (t, p), = link.replies(seq)
    assert t == "ok" and p["readings"][0] == 2500 and a.controller.state == "calibrating"
    a.seeds.counts = [3] * 14
    seq = link.host("calibrate", {"step": "full"})
    a.scan(40)
    assert link.replies(seq)[0][1]["readings"][0] == 28000
    seq = link.host("calibrate", {"step": "save"})
    a.scan(60)
    assert link.replies(seq)[0][0] == "ok"
    saved = json.loads((tmp_path / "board.json").read_text())
    assert saved["calibration"]["empty"] == [2500] * 14 and saved["calibration"]["covered"] == [28000] * 14
    config.check(saved)
    assert a.sensors.high[0] == 2500 + 0.6 * 25500
    assert a.controller.state == "menu"
    seq = link.host("calibrate", {"step": "save"})
    a.scan(80)
    assert link.replies(seq)[0][1]["code"] == "bad_payload"


def test_load_cells_are_tared_and_weighed_per_seed(fake, tmp_path):
    link = FakeLink()
    a = make_app(fake, "2x6-stores-hx711", link=link, tmp_path=tmp_path)
    a.boot(0)
    link.host("hello", codec.hello(codec.HOST, "test 0"))
    a.scan(10)

    def converting(buf, _orig=a.sensors.read_raw):
        a.sim.convert([5000 + 730 * k for k in a.seeds.counts])
        return _orig(buf)
    a.sensors.read_raw = converting
    assert a.calibrate("empty")["readings"][0] == 5000
    a.seeds.counts = [10] * 14
    assert a.calibrate("full")["readings"][0] == 12300
    assert a.calibrate("save")["type"] == "ok"
    saved = json.loads((tmp_path / "board.json").read_text())["calibration"]
    assert saved["offset"] == [5000] * 14 and saved["counts_per_seed"] == [730] * 14
    assert a.sensors.per_seed[0] == 730


def test_the_configs_settings_are_the_controllers_unless_handed_in(fake):
    raw = raw_config("2x6-stores")
    raw["settings"] = {"debounce_ms": 40, "variant": "kalah"}
    b = config.check(raw)
    a = fake.app.App(b, fake.machine, storage=MemoryStorage())
    c = a.boot(0)
    assert c.settings["debounce_ms"] == 40 and c.variants[c.menu_index] == "kalah"
    a = fake.app.App(b, fake.machine, storage=MemoryStorage(), settings={"debounce_ms": 30})
    c = a.boot(0)
    assert c.settings["debounce_ms"] == 30 and c.variants[c.menu_index] == "kalah"


# ----- boot: main.py ----------------------------------------------------------------------------------

def test_a_bad_config_is_explained_and_shown_never_a_crash_loop(fake, tmp_path, capsys):
    raw = raw_config("2x6-stores")
    raw["leds"]["brightness_cap"] = 1.0          # over the USB budget
    path = tmp_path / "board.json"
    path.write_text(json.dumps(raw))
    assert fake.app.main(str(path), fake.machine, cycles=4) is None
    out = capsys.readouterr().out
    assert "the board config is refused: leds.brightness_cap" in out
    assert out.count("@0000 log ") == 1                     # a framed log line too, for the laptop
    frames = [d for pin, d in fake.machine.world.bitstreams if pin == 16]
    assert len(frames) == 4
    assert frames[0][0:3] == bytes((0, 64, 0)) and frames[1] == bytes(42)   # dim red, then dark


def test_a_config_that_is_not_even_json_blinks_the_onboard_led(fake, tmp_path, capsys):
    path = tmp_path / "board.json"
    path.write_text("{ not json")
    fake.app.main(str(path), fake.machine, cycles=3)
    assert "is not valid JSON" in capsys.readouterr().out
    assert fake.machine.world.outputs["LED"] == 1 and not fake.machine.world.bitstreams


def test_a_missing_config_says_how_to_provide_one(fake, tmp_path, capsys):
    fake.app.main(str(tmp_path / "nothing.json"), fake.machine, cycles=1)
    assert "copy a preset from hardware/boards/" in capsys.readouterr().out


def test_the_repl_flag_and_a_held_button_keep_the_app_from_starting(fake, tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "board.json").write_text(json.dumps(raw_config("2x6-stores")))
    (tmp_path / fake.app.REPL_FLAG).write_text("1")
    assert fake.app.main("board.json", fake.machine) is None
    assert not (tmp_path / fake.app.REPL_FLAG).exists()     # once only
    fake.machine.world.levels[10] = 0                      # confirm held at power-up
    assert fake.app.main("board.json", fake.machine) is None
    assert "confirm held at power-up" in capsys.readouterr().out


def test_the_manifest_is_the_one_list_of_what_goes_on_a_board():
    from sowlight.firmware import deploy
    from sowlight.firmware import image as firmware_image
    parts = firmware_image.manifest_parts()
    fw = ROOT / "firmware" / "sowlight_fw"
    files = sorted(p.relative_to(fw).as_posix() for p in fw.rglob("*.py") if p.name != "virtual.py")   # (CPython's)
    packages = {name: (base, f) for name, base, f in parts["packages"]}
    assert sorted(packages["sowlight_fw"][1]) == files
    assert packages["mancala"] == (str(ROOT / "rules"), None)     # the whole rules core, every variant
    assert parts["require"] == ["neopixel"]
    assert ("main.py", str(ROOT / "firmware")) in parts["modules"]
    # The .mpy deploy copies exactly the manifest's firmware modules and needs what it requires.
    plan = deploy.make_plan(*deploy.read_config(ROOT / "hardware" / "boards" / "2x6-stores.json"), "preset",
                            deploy.Target.REFERENCE, compile=False)
    copied = sorted(i.target[len("/sowlight_fw/"):] for i in plan.items if i.target.startswith("/sowlight_fw/"))
    assert copied == files
    assert [d for d, _ in plan.deps] == ["neopixel"]


def test_get_state_says_what_the_leds_show_now(fake):
    # A host that connects mid-game learns the lit pits from the state, without waiting for a change.
    a, link = hosted_app(fake)
    a.step(20)
    seq = link.host("get_state")
    a.step(40)
    (t, state), = link.replies(seq)
    assert t == "state" and state["lit"] == a.controller.lit()
    assert state["lit"], "the menu lights at least one cell"


def test_the_laptops_board_view_maps_a_sunca_game_as_the_board_does(fake):
    # Sunca's stores are at their owners' left: the board plays player 0's store on its second
    # store cell.  The laptop draws the board from the hello with the same map (boardview).
    from sowlight.board import view as boardview
    a = make_app(fake, "2x7-stores")
    c = a.boot(0)
    assert c.command({"type": "new_game", "variant": "sunca"}, 0)["type"] == "ok"
    pits = a.board.pits
    n = c.game.n_pits
    assert (c.gmap[n], c.gmap[n + 1]) == (pits + 1, pits)
    hello = a.hello_payload()
    assert boardview.board_cells(hello, boardview.game_of(c.state_message())) == list(c.gmap)


# ----- the sensors watched between scans (hw/watch.py) ------------------------------------------

@pytest.mark.parametrize("name", ["2x6-stores", "2x6-stores-hx711"])
def test_a_game_is_played_with_a_timer_watching_the_sensors_between_scans(fake, name):
    # As App.loop() starts it on a board: the timer's ticks look at the sensors between the
    # scans (here four of every five scans have one before them), which read them as ever.
    from sowlight_fw.colours import TOUCH
    from sowlight_fw.hw import watch
    from sowlight_fw.hw.leds import scaled_palette
    ticks = []

    class Timer:
        PERIODIC = 1

        def __init__(self, id=-1, mode=None, period=None, callback=None):
            ticks.append(callback)
    fake.machine.Timer = Timer
    link = FakeLink()
    a = make_app(fake, name, link=link)
    c = a.boot(0)
    clock = itertools.count(0, watch.WATCH_MS)     # a tick WATCH_MS after the one before
    a.watch = watch.start(fake.machine, a.sensors, a.strip, clock=lambda: next(clock))
    assert len(ticks) == 1
    scan = a.scan
    frames = []


    def tick():
        if a.loops % 5:
            ticks[0]()
            frames.append(fake.machine.world.frames.get(a.board.led_pin))

    if a.board.sensor_kind == "hx711":
        convert = a.sim.convert

        def converted(readings):            # the tick comes once the HX711s have a reading
            convert(readings)
            tick()
        a.sim.convert = converted
    else:
        def watched_scan(now):
            tick()
            scan(now)
        a.scan = watched_scan
    h = hands_for(fake, a)
    h.wait(100)
    press(fake, a, h, "confirm")
    h.setup_counts = fake.hands.expected_counts(c)
    h.play(5000)
    assert c.state == "over" and a.seeds.counts == fake.hands.expected_counts(c)
    assert a.watch.touches > 20
    r, g, b = scaled_palette(c.brightness, a.board.brightness_cap255)[TOUCH]
    grb = bytes((g, r, b))
    assert any(f is not None and any(f[i * 3:i * 3 + 3] == grb for i in range(a.board.led_count))
               for f in frames)                  # the strip showed touches
    # A tick that fails is said on the link by the next scan, and the scans read the sensors on.
    link.host("hello", codec.hello(codec.HOST, "test 0", time=1767225600))
    a.step(a.now + 20)
    a.sensors.peek = lambda out: 1 / 0
    ticks[0]()
    a.step(a.now + 20)
    logs = [p["msg"] for t, p in link.sent if t == "log" and p["level"] == "error"]
    assert logs == ["sensor watch: ZeroDivisionError('division by zero')"]
