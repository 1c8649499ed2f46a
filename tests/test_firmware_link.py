"""The board's side of the link (firmware/sowlight_fw/link/) with the real app behind it.

- The host's own Link and sync (host/sowlight) against the real firmware App on CPython
  (the fake `machine` and `neopixel` of tests/micropython/fakes under the real adapters),
  over tests/mockboard.py's in-process cables, the app's loop in a thread of its own.
- The session rules frame by frame: hello and versions, no_hello, repeats, gaps, resync,
  damaged lines answered at most once per scan (20 ms), the host gone after 10 s of silence,
  journal pages, press, sim, reboot.
- The fault campaign against the firmware's own journal: 200 games synced through 1 %
  byte corruption and more than 50 cable pulls, half of them restarting the board.
- 100,000 fuzzed lines into a BoardLink; BoardLink and its session on MicroPython.
"""
import json
import os
import random
import sys
import threading
import time
from pathlib import Path
from fakeload import FAKES, load_fake

import pytest
import serial

from sowlight.board import link as host_link
from sowlight.board.link import BoardError, Link, VersionMismatch
from sowlight.games.sync import MemoryStore, sync
from sowlight_fw import config
from sowlight_fw.link import codec
from sowlight_fw.journal import Journal
from sowlight_fw.link import BoardLink, UsbTransport
from sowlight_fw.storage import MemoryStorage

from mockboard import Wire, random_games
from test_codec_fuzz import corpus, make_lines

pytestmark = pytest.mark.filterwarnings("error::pytest.PytestUnhandledThreadExceptionWarning")

ROOT = Path(__file__).resolve().parent.parent
PRESET = json.loads((ROOT / "hardware" / "boards" / "2x6-stores.json").read_text())
FAST = dict(timeout=0.3, backoff=0.005, backoff_max=0.04, reconnect_for=5.0, ping_every=30.0, dead_after=60.0)




@pytest.fixture
def fake(monkeypatch):
    """Fresh fake `machine` and `neopixel` modules (importable by name) and the app module."""
    for name in ("machine", "neopixel"):
        monkeypatch.delitem(sys.modules, name, raising=False)
    machine = load_fake("machine", register=True)
    load_fake("neopixel", register=True)
    machine.world.analog = lambda pin: 6000      # every cell reads empty
    from sowlight_fw import app
    yield type("Fakes", (), {"machine": machine, "app": app})
    for name in ("machine", "neopixel"):
        sys.modules.pop(name, None)


def make_app(fake, link, storage=None, **kw):
    """The real App (controller, journal, adapters) for the reference 2x6 board, with `link`."""
    board = config.check(PRESET)
    return fake.app.App(board, fake.machine, storage=storage if storage is not None else MemoryStorage(),
                        link=link, **kw)


def journal_with(games, storage=None):
    """A MemoryStorage whose firmware journal holds `games` ({number: {"records": [...]}}),
    appended record by record as the controller writes them."""
    storage = storage if storage is not None else MemoryStorage(capacity=16 << 20)
    j = Journal(storage)
    j.open()
    for number, g in sorted(games.items()):
        for r in g["records"]:
            j.append(dict(r, game=number))
    return storage


def close_last(games):
    """Make the newest game finished (an abandoned end), so that the board boots to its menu."""
    last = games[max(games)]
    if not last["over"]:
        recs = last["records"]
        recs.append({"kind": "end", "winner": None, "scores": [0, 0], "reason": "abandoned", "ply": len(recs)})
        last["over"] = True
    return games


def ms():
    return int(time.monotonic() * 1000)


# ----- the board on an in-process cable, its loop in a thread -----------------------------------

class WireTransport:
    """The board's end of a mockboard.Wire as a BoardLink transport: reads never block, a
    pulled cable reads as silence and refuses writes (SerialException is an OSError)."""

    def __init__(self):
        self.end = None

    def read(self, n):
        end = self.end
        try:
            k = end.in_waiting
            return end.read(min(n, k)) if k else b""
        except serial.SerialException:
            return b""

    def write(self, data):
        codec.write_chunked(self.end.write, data)

    def wait(self, seconds):
        """Until bytes arrive or `seconds` pass: the loop wakes at once for the host."""
        end = self.end
        with end.wire.cv:
            if not end.incoming.in_waiting and not end.wire.pulled:
                end.wire.cv.wait(seconds)


class BoardThread(threading.Thread):
    """Runs an App's loop (step) as the board does, a scan every `scan` s or as soon as bytes come.

    plug(end, restart) connects the board to a new cable; with `restart`, the board
    restarts first: a new App on the same flash (its journal), booted anew."""

    def __init__(self, make, scan=0.002):
        threading.Thread.__init__(self, name="firmware-app", daemon=True)
        self.make = make
        self.scan = scan
        self.transport = WireTransport()
        self.lock = threading.RLock()
        self.app = None
        self.boots = 0
        self.error = None
        self._stopping = False

    def plug(self, end, restart=False):
        with self.lock:
            self.transport.end = end
            if restart or self.app is None:
                self.app = self.make(BoardLink(self.transport))
                self.app.boot(ms())
                self.boots += 1

    def run(self):
        while not self._stopping:
            with self.lock:
                try:
                    self.app.step(ms())
                except Exception as e:  # the test sees it, rather than a hung link
                    self.error = e
                    raise
            self.transport.wait(self.scan)

    def stop(self):
        self._stopping = True
        self.join(5)
        assert self.error is None


class BoardOpener:
    """A Link opener: each call plugs a new Wire (make_wire(n)) into the board; restart(n):
    the board restarts when plugged in that time (a USB-powered board does)."""

    def __init__(self, board, make_wire=None, restart=None):
        self.board = board
        self.make_wire = make_wire or (lambda n: Wire(seed=n))
        self.restart = restart or (lambda n: False)
        self.wires = []

    def __call__(self):
        n = len(self.wires)
        wire = self.make_wire(n)
        self.wires.append(wire)
        self.board.plug(wire.board, restart=n > 0 and self.restart(n))
        if not self.board.is_alive():
            self.board.start()
        return wire.host

    def close(self):
        for w in self.wires:
            w.pull()


@pytest.fixture
def running(fake):
    """start(storage=None, **opener_kw) -> (board thread, opener); stopped after the test."""
    made = []

    def start(storage=None, **kw):
        storage = storage if storage is not None else MemoryStorage()
        board = BoardThread(lambda link: make_app(fake, link, storage))
        opener = BoardOpener(board, **kw)
        made.append((board, opener))
        return board, opener
    yield start
    for board, opener in made:
        opener.close()
        if board.is_alive():
            board.stop()


def next_event(lk, kind, cond=lambda p: True, limit=5.0):
    end = time.monotonic() + limit
    while time.monotonic() < end:
        ev = lk.next_event(timeout=0.1)
        if ev is not None and ev[0] == kind and cond(ev[1]):
            return ev[1]
    raise AssertionError("no %s event" % kind)


# ----- the host's Link and sync against the real app ---------------------------------------------

def test_the_host_link_plays_and_syncs_with_the_real_firmware(running):
    games = close_last(random_games(5, seed=11, variants=["oware", "kalah", "ayoayo"]))
    storage = journal_with(games)
    board, opener = running(storage)
    store = MemoryStore()
    with Link(opener, **FAST) as lk:
        hello = lk.connect()
        assert hello["board"].startswith("sowlight-2x6-stores-") and lk.board_proto == (1, 2)
        assert "virtual" not in hello
        assert "oware" in hello["variants"] and hello["game"] is None
        state = lk.request("get_state")
        assert state["phase"] == "idle" and state["game"] is None and state["rx"] is not None
        # (Link.request returns only the reply whose `re` is the request's seq.)
        reply = lk.request("new_game", {"variant": "oware"})
        assert reply["game"] == 6 and sorted(reply) == ["game", "re"]
        assert next_event(lk, "state", lambda p: p["phase"] == "setup")["game"] == 6
        next_event(lk, "leds", lambda p: p["game"] == 6 and p["lit"])   # the set-up shown: cells to fill
        lk.request("press", {"button": "confirm"})                       # as the board's own button would
        state = lk.request("get_state")
        assert state["phase"] == "await_lift" and state["variant"] == "oware"
        assert state["pos"]["pits"] == [4] * 12
        with pytest.raises(BoardError) as info:
            lk.request("sim", {"act": "seeds"})
        assert info.value.code == "unsupported" and "real seeds: move them by hand" in info.value.msg
        page = lk.request("journal_list", {"from": 2, "max": 3})
        assert [g["game"] for g in page["games"]] == [2, 3, 4] and page["more"] is True
        page = lk.request("journal_list", {"from": 5})
        assert [g["game"] for g in page["games"]] == [5, 6] and page["more"] is False
        report = sync(lk, store)
        assert report.complete and report.problems == {} and report.lost == []
        me = lk.board_id
    board.stop()
    j = board.app.journal
    for g in range(1, 7):
        assert store.journal(me, g) == j.records(g, 0, 1 << 16)[0], g
        assert j.games[g].synced == j.games[g].last
    for g, v in games.items():
        assert store.journal(me, g) == v["records"]           # the journal round-trips every record
    assert store.journal(me, 6)[0]["kind"] == "start" and store.journal(me, 6)[0]["t"] > 0


def test_every_request_arriving_twice_is_carried_out_once(running):
    # Every write of the host's arrives twice: each request comes again with the same seq.
    def doubling(n):
        wire = Wire(seed=n, repeat=1.0)
        wire.faults.b_to_a.repeat = 0.0      # (the board writes 63-byte pieces: doubled, they would garble)
        return wire
    board, opener = running(make_wire=doubling)
    with Link(opener, **FAST) as lk:
        lk.connect()
        assert lk.request("new_game", {"variant": "kalah"})["game"] == 1
        assert lk.request("new_game", {"variant": "oware"})["game"] == 2
        hints = lk.request("get_state")["hint"]
        lk.request("press", {"button": "hint"})          # a toggle: done twice, it would undo itself
        assert lk.request("get_state")["hint"] is (not hints)
        listing = lk.request("journal_list")["games"]
    board.stop()
    assert [(g["game"], g["variant"]) for g in listing] == [(1, "kalah"), (2, "oware")]
    assert sorted(board.app.journal.games) == [1, 2]
    assert [r["kind"] for r in board.app.journal.records(2, 0, 99)[0]] == ["start"]   # one start, no undo of it
    # Each copy is answered again (`replayed`), or, read with the request itself, left: its
    # reply had just gone out (`crossed`).
    assert board.app.link.requests == 6 and board.app.link.replayed + board.app.link.crossed >= 6


def test_a_host_of_another_major_version_is_refused_with_which_side_to_update(running, monkeypatch):
    board, opener = running()
    made = codec.hello

    def newer(role, sw, **fields):          # the host as a companion of protocol 2.0 would greet
        p = made(role, sw, **fields)
        if role == codec.HOST:
            p["proto"] = [2, 0]
        return p
    monkeypatch.setattr(host_link.codec, "hello", newer)
    with Link(opener, **FAST) as lk:
        with pytest.raises(VersionMismatch) as info:
            lk.connect()
    assert "the host speaks link protocol 2.0, this side speaks 1.2" in str(info.value)
    assert "redeploy the firmware that matches this companion (sowlight deploy)" in str(info.value)
    assert board.app.link.greeted is False and board.app.link.requests == 0


def test_a_board_restarted_by_the_cable_greets_the_host_again(running):
    board, opener = running(restart=lambda n: True)
    with Link(opener, **FAST) as lk:
        lk.connect()
        assert lk.request("new_game", {"variant": "oware"})["game"] == 1
        opener.wires[-1].pull()                       # the cable comes out; the board restarts on replug
        assert lk.request("get_state")["game"] == 1    # the game resumed from the journal
        assert board.boots == 2 and lk.stats["reconnects"] >= 1


# ----- the session, frame by frame ---------------------------------------------------------------

class Cable:
    """An in-memory cable to a BoardLink: the host's frames in, the board's frames out, decoded
    and checked (the board never writes a bad frame).  read()/write() are the board's transport."""

    def __init__(self):
        self.waiting = bytearray()
        self.enc = codec.Encoder(100)
        self.dec = codec.Decoder(codec.BOARD)
        self.got = []          # (type, payload) the board wrote, not yet taken
        self.now = 0

    def read(self, n):
        data = bytes(self.waiting[:n])
        del self.waiting[:n]
        return data

    def write(self, data):
        for item in self.dec.feed(data):
            assert type(item) is codec.Message, item
            self.got.append((item.type, item.payload))

    def send(self, mtype, payload=None):
        """Put a frame on the cable; returns its seq (its bytes are then in `frame`)."""
        self.frame = self.enc.frame(mtype, payload or {})
        self.waiting += self.frame
        return self.enc.seq

    def hello(self, **fields):
        return self.send("hello", codec.hello(codec.HOST, "test 1.0", **fields))

    def take(self):
        out, self.got = self.got, []
        return out

    def bad(self, mtype, payload):
        """A frame the codec would refuse to build (an invalid payload), with the next seq."""
        self.enc.seq = (self.enc.seq + 1) % codec.SEQ_MOD
        self.waiting += codec.encode(self.enc.seq, mtype, payload, check=False)
        return self.enc.seq


def replies(out):
    """The replies (and answers to bad lines) among what the board wrote, without its events."""
    return [(t, p) for t, p in out if "re" in p or t == "resync"]


@pytest.fixture
def cable(fake):
    """(cable, app, step): the real App behind a BoardLink on a Cable, booted at t = 0 ms;
    step(ms_later) runs one scan that much later and returns what the board wrote."""
    c = Cable()
    a = make_app(fake, BoardLink(c))
    a.boot(0)

    def step(later=20):
        c.now += later
        a.step(c.now)
        return c.take()
    return c, a, step


def test_the_board_says_hello_when_it_starts_and_answers_ping_but_nothing_else_before_one(cable):
    c, a, step = cable
    (t, p), = c.take()
    assert t == "hello" and "re" not in p and p["proto"] == [1, 2] and p["role"] == "board"
    assert c.dec.errors["noise"] == 0           # the newline before it ends any partial line, adds none
    c.send("get_state")
    c.send("new_game", {"variant": "oware"})
    c.send("ping")
    out = step()
    assert [(t, p["code"]) for t, p in out[:2]] == [("error", "no_hello")] * 2
    assert "send hello first" in out[0][1]["msg"]
    assert out[2][0] == "pong" and out[2][1]["up"] == 20
    assert a.controller.game is None            # nothing was carried out
    c.hello(time=1767225600)
    (t, p), = replies(step())
    assert t == "hello" and p["re"] == c.enc.seq and p["board"].startswith("sowlight-2x6-stores-")
    assert a.link.greeted and a.wall_clock() >= 1767225600


def test_version_mismatch_says_which_side_to_update_and_keeps_refusing(cable):
    c, a, step = cable
    c.take()
    for proto, words in (([2, 0], "redeploy the firmware"), ([0, 3], "update the companion (pip install -U sowlight)")):
        hello = codec.hello(codec.HOST, "other")
        hello["proto"] = proto
        c.send("hello", hello)
        c.send("get_state")
        (t, p), (t2, p2) = step()
        assert t == "error" and p["code"] == "version" and words in p["msg"]
        assert "the host speaks link protocol %d.%d, this side speaks 1.2" % tuple(proto) in p["msg"]
        assert t2 == "error" and p2["code"] == "no_hello"
    c.hello()
    c.send("get_state")
    assert [t for t, _ in step()] == ["hello", "state"]
    newer = codec.hello(codec.HOST, "newer")
    newer["proto"] = [1, 9]                     # a newer minor version talks
    c.send("hello", newer)
    assert step()[0][0] == "hello"


def test_our_own_hello_coming_back_is_never_answered(cable):
    c, a, step = cable
    (_, mine), = c.take()
    c.waiting += codec.encode(5, "hello", mine)            # a loopback, or an echoing terminal
    assert step() == [] and a.link.echoes == 1 and not a.link.greeted


def test_a_repeated_request_gets_the_same_reply_and_is_carried_out_once(cable):
    c, a, step = cable
    c.take()
    c.hello()
    step()
    c.send("new_game", {"variant": "kalah"})
    frame = c.frame
    c.waiting += frame                                     # the same bytes again: a retransmission
    out = step()
    # Read in the same poll as the request: its reply has just gone out, once.
    assert [p for t, p in out if t == "ok"] == [{"game": 1, "re": c.enc.seq}]
    assert a.journal.next_game() == 2 and a.link.crossed == 1 and a.link.requests == 1
    # A request sent again later, after events went out, gets the remembered reply.
    c.waiting += frame
    out = step(500)
    assert replies(out) == [("ok", {"game": 1, "re": c.enc.seq})] and a.journal.next_game() == 2
    assert a.link.replayed == 1


def test_a_gap_in_the_hosts_seqs_is_acted_on_then_resynced(cable):
    c, a, step = cable
    c.take()
    c.hello()
    step()
    c.enc.seq += 3                                          # three frames of the host's were lost
    seq = c.send("get_state")
    out = step()
    assert out[0][0] == "state" and out[0][1]["re"] == seq and out[0][1]["rx"] == seq
    assert out[1] == ("resync", {"reason": "gap"})
    assert a.link.rx.gaps == 1 and a.link.rx.missed == 3


def test_a_resync_from_the_host_is_answered_with_a_state(cable):
    c, a, step = cable
    c.take()
    c.send("resync", {"reason": "checksum"})
    assert step() == []                                    # not before a hello
    c.hello()
    step()
    seq = c.send("resync", {"reason": "checksum"})
    (t, p), = step()
    assert t == "state" and "re" not in p and p["rx"] == seq and p["phase"] == "idle"


def test_damaged_lines_are_answered_once_per_scan_and_never_before_a_hello(cable):
    c, a, step = cable
    c.take()
    damaged = b"@0009 get_state {} 00000000\n"
    c.waiting += damaged * 3
    assert step() == [] and a.link.held_back == 3         # no answers before a hello
    c.hello()
    step()
    c.waiting += damaged * 5
    assert replies(step(20)) == [("resync", {"reason": "checksum"})]   # five lines in one scan: one answer
    c.waiting += damaged
    assert replies(step(10)) == []                         # 10 ms after the answer: too soon
    c.waiting += damaged
    assert replies(step(10)) == [("resync", {"reason": "checksum"})]   # 20 ms after
    seq = c.bad("frobnicate", {})
    c.waiting += b">>> text from a REPL\r\n"
    (t, p), = replies(step(300))
    assert t == "error" and p["code"] == "unknown_type" and p["re"] == seq
    assert a.link.bad == 3 + 5 + 1 + 1 + 2 and a.link.answers == 3
    assert a.link.answers + a.link.held_back == a.link.bad


def test_events_stop_when_the_host_has_been_silent_for_10_s_and_start_when_it_speaks(cable):
    c, a, step = cable
    c.take()
    c.hello()
    step()
    c.send("new_game", {"variant": "oware"})
    kinds = [t for t, _ in step()] + [t for t, _ in step()]    # (its messages: the scan after the reply)
    assert "ok" in kinds and "state" in kinds and "leds" in kinds and "log" in kinds
    a.controller.press("hint", c.now)                        # hints off: the board changes its LEDs
    a.controller.log("info", "still listening")
    assert ("log", {"level": "info", "msg": "still listening"}) in step(9000)
    a.controller.log("info", "nobody there")
    assert step(1001) == []                                   # 10.001 s since the host's last frame
    dropped = a.link.dropped
    assert dropped >= 1
    c.send("ping")                                            # the host speaks: events go out again
    a.controller.log("info", "heard again")
    out = step() + step()                                     # (the board's messages: a scan after the reply)
    # (The lights' `leds` message held back meanwhile may come first: the set-up's lights are
    # made a scan after the readings that change them.)
    assert out[0][0] == "pong" and ("log", {"level": "info", "msg": "heard again"}) in out[1:]


def test_journal_pages_fit_one_frame(cable):
    c, a, step = cable
    c.take()
    games = close_last(random_games(80, seed=3, variants=["oware", "kalah"], plies=(4, 8)))
    journal_with(games, a.journal.storage)
    a.journal.open()
    c.hello()
    step()
    c.send("journal_list", {"from": 7, "max": 5})
    (t, p), = replies(step())
    assert t == "journal" and [g["game"] for g in p["games"]] == [7, 8, 9, 10, 11] and p["more"] is True
    c.send("journal_list", {"from": 76, "max": 5})
    (t, p), = replies(step())
    assert [g["game"] for g in p["games"]] == [76, 77, 78, 79, 80] and p["more"] is False
    listed = []
    frm = 0
    while True:                                             # no max: as many as a frame holds
        c.send("journal_list", {"from": frm})
        (t, p), = replies(step())
        assert len(c.frame) and p["games"] and len(codec.encode(65535, "journal", p)) <= codec.MAX_FRAME
        listed.append([g["game"] for g in p["games"]])
        frm = listed[-1][-1] + 1
        if not p["more"]:
            break
    assert [g for page in listed for g in page] == list(range(1, 81)) and len(listed) >= 2
    assert p["games"][-1] == {"game": 80, "variant": games[80]["variant"], "first": 0,
                              "last": len(games[80]["records"]) - 1, "synced": -1, "over": True}
    # A game's records with long names: as many as one frame holds, the rest after "more".
    long = {1: {"records": [{"kind": "start", "variant": "oware", "options": {}, "ply": 0}] +
                [{"kind": "undo", "ply": i, "note": "n" * 300} for i in range(1, 40)], "over": False}}
    a2_storage = journal_with(long)
    a.journal.storage = a2_storage
    a.journal.open()
    got = []
    frm = 0
    while True:
        c.send("journal_get", {"game": 1, "from": frm})
        (t, p), = replies(step())
        assert t == "records" and p["records"] and p["records"][0]["ply"] == frm
        got += p["records"]
        frm = got[-1]["ply"] + 1
        if not p["more"]:
            break
    assert [r["ply"] for r in got] == list(range(40)) and len(got) > len(p["records"])
    c.send("journal_get", {"game": 9, "from": 0})
    (t, p), = replies(step())
    assert t == "error" and p["code"] == "no_such_game"


def test_sim_goes_to_a_virtual_boards_handler_and_a_real_board_refuses_it(cable, fake):
    c, a, step = cable
    c.take()
    c.hello()
    step()
    c.send("sim", {"act": "lift", "cell": 2})
    (t, p), = replies(step())
    assert t == "error" and p["code"] == "unsupported" and "move them by hand" in p["msg"]
    calls = []

    def sim(payload, now):
        calls.append((payload, now))
        return {"type": "ok", "counts": [4] * 14, "hand": 0, "beside": 0}
    a.handlers["sim"] = sim
    seq = c.send("sim", {"act": "seeds"})
    assert step() == [("ok", {"counts": [4] * 14, "hand": 0, "beside": 0, "re": seq})]
    assert calls == [({"act": "seeds"}, c.now)]

    def broken(payload, now):
        raise ZeroDivisionError("division by zero")
    a.handlers["sim"] = broken
    c.send("sim", {"act": "seeds"})
    (t, p), = step()
    assert t == "error" and p["code"] == "internal" and "ZeroDivisionError" in p["msg"]
    assert a.link.failures == 1
    v = make_app(fake, BoardLink(Cable()), virtual=True)
    v.boot(0)
    (t, p), = v.link.transport.take()
    assert t == "hello" and p["virtual"] is True


def test_press_and_reboot_to_the_repl(cable, fake, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    c, a, step = cable
    c.take()
    c.hello()
    step()
    c.send("new_game", {"variant": "oware"})
    step()
    assert a.controller.state == "setup"
    seq = c.send("press", {"button": "confirm"})
    out = step()
    assert ("ok", {"re": seq}) in out and a.controller.state == "await_lift"
    c.bad("press", {"button": "reset"})
    (t, p), = replies(step())
    assert t == "error" and p["code"] == "bad_payload" and "one of confirm, undo, hint, menu" in p["msg"]
    resets = fake.machine.world.resets
    seq = c.send("reboot", {"to": "repl"})
    with pytest.raises(SystemExit):                       # the fake machine.reset() ends the program
        step()
    assert replies(c.take()) == [("ok", {"re": seq})]    # the reply went out first
    assert fake.machine.world.resets == resets + 1 and (tmp_path / "repl_once").read_text() == "1"


def test_a_move_too_long_for_a_frame_goes_without_its_trace(cable):
    c, a, step = cable
    c.take()
    c.hello()
    step()
    trace = [["drop", i % 12, 1, -1] for i in range(400)]
    a.link.event("move", {"game": 1, "ply": 1, "player": 0, "move": 3, "name": "D", "trace": trace}, c.now)
    (t, p), = c.take()
    assert t == "move" and p["trace"] is None and p["move"] == 3


def test_usb_transport_polls_without_blocking_and_writes_under_64_bytes(monkeypatch):
    calls = []
    monkeypatch.setitem(sys.modules, "micropython", type("M", (), {"kbd_intr": staticmethod(calls.append)}))
    r, w = os.pipe()
    rx = os.fdopen(r, "rb", buffering=0)
    pieces = []

    class Out:
        def write(self, data):
            pieces.append(bytes(data))
            return len(data)
    usb = UsbTransport(rx=rx, tx=Out())
    try:
        assert calls == [-1]                       # Ctrl-C is data while the app runs
        assert usb.read(512) == b""                # nothing waits: no blocking
        frame = codec.encode(1, "ping", {})
        os.write(w, frame * 30)
        got = b""
        while len(got) < len(frame) * 30:
            got += usb.read(512)
        assert got == frame * 30
        link = BoardLink(usb)
        link.start(codec.hello(codec.BOARD, "x", board="b", config={"geometry": {}, "sensors": {}}, variants=[]), 0)
        assert max(len(p) for p in pieces) <= 63 and b"".join(pieces).startswith(b"\n@0000 hello ")
    finally:
        usb.close()
        rx.close()
        os.close(w)
    assert calls == [-1, 3]                        # and Ctrl-C works again after close


# ----- the fault campaign against the firmware's journal ------------------------------------------

# The host's timings scaled down for an in-process cable (a reply within 10 ms, a stalled
# line after 3 ms).  The board answers every damaged line (answer_ms = 0, as the mock board
# of tests/test_sync_campaign.py does): at 1 % corruption most long lines arrive damaged,
# and answers held back would become the host's timeouts, which a scaled-down campaign
# cannot afford.  The 20 ms limit is tested on its own above.
SCALED = dict(timeout=0.01, line_idle=0.003, backoff=0.001, backoff_max=0.01, reconnect_for=20.0,
              damaged_retries=2000, ping_every=1.0, dead_after=5.0)


def test_200_games_from_the_firmware_journal_through_corruption_and_50_cuts(fake):
    """200 games in the firmware's journal (records as the controller writes them), synced by
    the host's sync through 1 % of bytes corrupted both ways and the cable pulled at random
    bytes more than 50 times, half of the replugs restarting the board (a new App on the same
    flash).  The store must equal the journal move for move, each record stored once, and the
    board must hold every game acknowledged to its end."""
    games = close_last(random_games(200, seed=17, plies=(4, 24)))
    storage = journal_with(games)
    rng = random.Random(4)

    def make(link):
        link.answer_ms = 0
        return make_app(fake, link, storage)

    def make_wire(n):
        wire = Wire(seed=4000 + n, corrupt=0.01)
        pipe = wire.faults.a_to_b if rng.random() < 0.5 else wire.faults.b_to_a
        pipe.cut_at(rng.randrange(25000, 80000))
        return wire
    board = BoardThread(make, scan=0.002)
    opener = BoardOpener(board, make_wire=make_wire, restart=lambda n: n % 2 == 0)
    store = MemoryStore()
    started = time.monotonic()
    try:
        with Link(opener, **SCALED) as lk:
            lk.connect(wait=20)
            report = sync(lk, store)
            stats = dict(lk.stats)
    finally:
        opener.close()
        board.stop()
    took = time.monotonic() - started
    pipes = [p for w in opener.wires for p in (w.faults.a_to_b, w.faults.b_to_a)]
    cuts = sum(1 for p in pipes if not p.up)
    corrupted = sum(p.corrupted for p in pipes)
    written = sum(p.written for p in pipes)
    print("\nfirmware campaign: %d games, %d records in %.1f s; %d bytes, %d corrupted, %d cuts, %d board "
          "restarts; %d requests, %d sent again for damage, %d after a timeout, %d reconnects"
          % (len(games), report.stored, took, written, corrupted, cuts, board.boots - 1, stats["requests"],
             stats["resent_damaged"], stats["resent_timeout"], stats["reconnects"]))
    assert report.complete and report.problems == {} and report.lost == []
    journal = Journal(storage)
    journal.open()
    for g, v in games.items():
        assert store.journal(report.board_id, g) == v["records"], g       # move for move
        assert journal.games[g].synced == journal.games[g].last, g
    assert report.stored == sum(len(v["records"]) for v in games.values())  # each stored once
    assert cuts >= 50 and board.boots - 1 >= 20 and 0.008 < corrupted / written < 0.012
    assert stats["bad_checksum"] > 1000


# ----- fuzzing the board's side --------------------------------------------------------------------

FUZZ_LINES = 100_000


def test_fuzzed_lines_never_break_the_board_link_and_each_is_counted_and_answered_or_held_back():
    rng = random.Random(77)
    frames = corpus()
    lines = make_lines(rng, FUZZ_LINES, frames)
    c = Cable()
    link = BoardLink(c)
    link.start(codec.hello(codec.BOARD, "fuzz", board="b", config={"geometry": {}, "sensors": {}}, variants=[]), 0)
    c.take()
    handled = []
    answers_at = []

    def handler(t, p, now):
        codec.validate(t, p, codec.HOST)
        assert t == "hello" or link.greeted
        handled.append(t)
        if t == "hello":
            return dict(codec.hello(codec.BOARD, "fuzz", board="b", config={"geometry": {}, "sensors": {}},
                                    variants=[]), type="hello")
        if t == "get_state":
            return {"type": "state", "game": None, "variant": None, "pos": None, "ply": 0, "phase": "idle",
                    "hint": False, "brightness": 9}
        return {"type": "ok"}
    now = 0
    greet = codec.hello(codec.HOST, "fuzzer")
    started = time.monotonic()
    for i, (line, _) in enumerate(lines):
        if i % 5000 == 0:               # a good hello now and then: most lines meet a greeted board
            c.waiting += codec.encode(rng.randrange(65536), "hello", greet)
        c.waiting += line + b"\n"
        now += 3
        c.now = now
        while c.waiting:
            link.poll(handler, now)
        for t, p in c.take():
            if t == "resync" and p.get("reason") != "gap" or t == "error" and p["code"] in (
                    "bad_frame", "unknown_type", "bad_payload"):
                answers_at.append(now)
    took = time.monotonic() - started
    d = link.decoder
    assert link.bad == d.bad_total() > FUZZ_LINES // 2
    assert link.answers + link.held_back == link.bad
    assert link.answers == len(answers_at) > 500
    assert all(b - a >= link.answer_ms for a, b in zip(answers_at, answers_at[1:]))   # at most one per answer_ms
    assert handled.count("hello") >= FUZZ_LINES // 5000 and link.requests > 1000
    assert c.dec.bad_total() == 0                                          # the board wrote only good frames
    assert took < 30, took


# ----- on MicroPython ------------------------------------------------------------------------------

VM_SESSION = r"""
import json
from sowlight_fw.link import codec
from sowlight_fw.link import BoardLink

class Mem:
    def __init__(self):
        self.inbox = bytearray()
        self.dec = codec.Decoder(codec.BOARD)
        self.out = []
    def read(self, n):
        data = bytes(self.inbox[:n])
        self.inbox = self.inbox[n:]
        return data
    def write(self, data):
        for m in self.dec.feed(data):
            self.out.append([m.type, m.payload] if isinstance(m, codec.Message) else ["BAD", m.reason])

done = []
def handler(t, p, now):
    done.append(t)
    if t == "hello":
        return dict(codec.hello(codec.BOARD, "vm", board="vm-1", config={"geometry": {}, "sensors": {}},
                                variants=["oware"]), type="hello")
    return {"type": "ok", "game": len(done)}

m = Mem()
link = BoardLink(m)
link.start(codec.hello(codec.BOARD, "vm", board="vm-1", config={"geometry": {}, "sensors": {}}, variants=[]), 1000)
enc = codec.Encoder(7)
m.inbox += enc.frame("new_game", {"variant": "oware"})
m.inbox += enc.frame("ping", {})
link.poll(handler, 1020)
m.inbox += enc.frame("hello", codec.hello(codec.HOST, "vm host"))
link.poll(handler, 1040)
again = enc.frame("new_game", {"variant": "oware"})
m.inbox += again + again
link.poll(handler, 1060)
m.inbox += again
link.poll(handler, 1070)
m.inbox += b"@0009 get_state {} 00000000\n" * 3
link.poll(handler, 1080)
print(json.dumps({"out": m.out, "done": done, "replayed": link.replayed, "crossed": link.crossed, "bad": link.bad,
                  "answers": link.answers, "held": link.held_back}))
"""


VM_APP = r"""
import json
import machine
from sowlight_fw import config
from sowlight_fw.link import codec
from sowlight_fw.app import App
from sowlight_fw.link import BoardLink
from sowlight_fw.storage import MemoryStorage

class Mem:
    def __init__(self):
        self.inbox = bytearray()
        self.dec = codec.Decoder(codec.BOARD)
        self.out = []
    def read(self, n):
        data = bytes(self.inbox[:n])
        self.inbox = self.inbox[n:]
        return data
    def write(self, data):
        for m in self.dec.feed(data):
            self.out.append([m.type, m.payload] if isinstance(m, codec.Message) else ["BAD", m.reason])

machine.world.analog = lambda pin: 6000
b = config.check(json.load(open("/boards/2x6-stores.json")))
m = Mem()
app = App(b, machine, storage=MemoryStorage(), link=BoardLink(m))
now = 0
app.boot(now)
enc = codec.Encoder(40)
for t, p in (("hello", codec.hello(codec.HOST, "vm host", time=1767225600)), ("new_game", {"variant": "kalah"}),
             ("press", {"button": "confirm"}), ("get_state", {}), ("journal_list", {"from": 0, "max": 4}),
             ("journal_get", {"game": 1, "from": 0}), ("journal_ack", {"game": 1, "upto": 0}),
             ("sim", {"act": "seeds"})):
    m.inbox += enc.frame(t, p)
    now += 20
    app.step(now)
print(json.dumps([x for x in m.out if x[0] not in ("leds", "log")]))
"""


def test_the_app_behind_a_board_link_on_micropython(micropython):
    out = json.loads(micropython.run(VM_APP, mounts={"/lib": FAKES, "/boards": ROOT / "hardware" / "boards"},
                                     timeout=120).strip().splitlines()[-1])
    kinds = [(t, p.get("re")) for t, p in out]
    assert kinds[:2] == [("hello", None), ("hello", 40)]
    assert ("ok", 41) in kinds and ("ok", 42) in kinds and ("state", 43) in kinds
    state = [p for t, p in out if t == "state" and p.get("re") == 43][0]
    assert state["phase"] == "await_lift" and state["variant"] == "kalah" and state["rx"] == 43
    journal = [p for t, p in out if t == "journal"][0]
    assert journal["games"] == [{"game": 1, "variant": "kalah", "first": 0, "last": 0, "synced": -1, "over": False}]
    assert journal["more"] is False
    records = [p for t, p in out if t == "records"][0]["records"]
    assert records[0]["kind"] == "start" and records[0]["t"] >= 1767225600
    assert ("ok", {"game": 1, "synced": 0, "re": 46}) in [(t, p) for t, p in out]
    assert [p["code"] for t, p in out if t == "error"] == ["unsupported"]


def test_board_link_on_micropython(micropython):
    out = json.loads(micropython.run(VM_SESSION, timeout=60).strip().splitlines()[-1])
    msgs = out["out"]
    assert msgs[0][0] == "hello" and "re" not in msgs[0][1]
    assert msgs[1] == ["error", {"code": "no_hello", "re": 7, "msg": msgs[1][1]["msg"]}]
    assert msgs[2] == ["pong", {"re": 8, "up": 20}]
    assert msgs[3][0] == "hello" and msgs[3][1]["re"] == 9
    assert msgs[4] == ["ok", {"game": 2, "re": 10}] and msgs[5] == ["ok", {"game": 2, "re": 10}]
    assert msgs[6] == ["resync", {"reason": "checksum"}] and len(msgs) == 7
    assert out["done"] == ["hello", "new_game"] and out["crossed"] == 1 and out["replayed"] == 1
    assert out["bad"] == 3 and out["answers"] == 1 and out["held"] == 2
