"""The firmware on a real MicroPython VM (fixture `micropython`, stock-board modules only):
the controller's scenarios, the journal's power cuts, the adapters and the app.

The VM holds the project as a board would (firmware/ at /, rules/ in /lib) plus
tests/micropython/fakes in /lib: fake `machine` and `neopixel` modules, the
simulated hands and sensor wiring.  Games played here are compared move for move with
the same games on CPython.
"""
import json
from pathlib import Path
from fakeload import FAKES, load_fake

import pytest

import mancala
from sowlight_fw import config

ROOT = Path(__file__).resolve().parent.parent
MOUNTS = {"/lib": FAKES, "/boards": ROOT / "hardware" / "boards", "/examples": ROOT / "hardware" / "examples"}
PRESETS = {"load-cells": "/examples/2x6-stores-hx711.json", "occupancy": "/boards/2x6-stores.json"}




hands = load_fake("hands")


def vm(micropython, code, timeout=180):
    return micropython.run(code, mounts=MOUNTS, timeout=timeout)


def last_json(out):
    return json.loads(out.strip().splitlines()[-1])


def cpython_game(kind, variant, seed):
    path = ROOT / "hardware" / PRESETS[kind].strip("/")
    h = hands.start(config.check(json.loads(path.read_text())), variant, seed=seed)
    h.play(20000)
    return h.c.records


GAME = """
import json
from sowlight_fw import config
import hands
board = config.check(json.load(open(%r)))
h = hands.start(board, %r, seed=%d)
h.play(20000)
c = h.c
assert c.state == "over", c.state
assert h.seeds.counts == hands.expected_counts(c)
print(json.dumps(c.records))
"""


@pytest.mark.parametrize("kind", sorted(PRESETS))
@pytest.mark.parametrize("variant,seed", [("oware", 1), ("kalah", 3)])
def test_a_whole_game_on_micropython_is_the_same_game_as_on_cpython(micropython, kind, variant, seed):
    on_vm = last_json(vm(micropython, GAME % (PRESETS[kind], variant, seed)))
    assert on_vm == json.loads(json.dumps(cpython_game(kind, variant, seed)))
    assert on_vm[-1]["kind"] == "end"


def test_omweso_on_micropython(micropython):
    if "omweso" not in mancala.variants():
        pytest.skip("Omweso is not playable in this rules core yet")
    out = vm(micropython, GAME % ("/boards/4x8.json", "omweso", 1), timeout=600)
    records = last_json(out)
    g = mancala.Game("omweso")
    for r in records:
        if r["kind"] == "move":
            g.play(r["move"] if isinstance(r["move"], int) else tuple(r["move"]))
    assert g.is_over() and records[-1]["kind"] == "end"


def test_mistakes_are_handled_the_same_on_micropython(micropython):
    out = vm(micropython, """
import json
from sowlight_fw import config
from sowlight_fw import colours as C
import hands
board = config.check(json.load(open("/examples/2x6-stores-hx711.json")))
h = hands.start(board, "oware")
c = h.c
h.patience_ms = 0
h.lift(8)
h.wait(1000)
assert c.mismatch and c.wrong == [8], c.wrong
assert hands.watch(c, h.now)[8] == (C.NEED, C.ERROR, 1)
h.seeds.counts[8] = 4
h.seeds.hand = 0
h.wait(300)
assert not c.mismatch
h.lift(2)
h.drop(3)
h.drop(7)
h.wait(1000)
assert c.wrong == [7]
h.seeds.counts[7] -= 1
h.wait(300)
assert not c.mismatch
h.seeds.hand += 1
h.press("undo")
h.wait(1000)
assert c.state == "await_lift" and c.wrong == [2, 3], c.wrong
h.sensors.flapping.append(10)
h.wait(2500)
assert c.observer.noisy[10]
print("ok")
""")
    assert out.strip().splitlines()[-1] == "ok"


def test_the_journal_survives_a_power_cut_at_every_byte_on_micropython(micropython):
    records = [dict(r) for r in cpython_game("load-cells", "oware", 4)[:12]]
    out = vm(micropython, """
import json
from sowlight_fw import journal
from sowlight_fw.journal import Journal
from sowlight_fw.storage import MemoryStorage, FlashStorage

class PowerCut(Exception):
    pass

class Cut(MemoryStorage):
    def __init__(self, at):
        MemoryStorage.__init__(self)
        self.at = at
        self.n = 0
    def append(self, name, data):
        k = max(0, min(len(data), self.at - self.n))
        self.n += k
        if k:
            MemoryStorage.append(self, name, data[:k])
        if k < len(data):
            raise PowerCut()

records = json.loads(%r)
sizes = [len(journal.written(r)) for r in records]     # (a start twice)
firsts = [len(journal.encode(r)) for r in records]     # a record is whole once its first copy is
bad = 0
for cut in range(sum(sizes) + 1):
    st = Cut(cut)
    j = Journal(st)
    j.open()
    try:
        for r in records:
            j.append(r)
    except PowerCut:
        pass
    st.at = 1 << 30
    j2 = Journal(st)
    j2.open()
    whole = 0
    total = 0
    for s, f in zip(sizes, firsts):
        if total + f > cut:
            break
        total += s
        whole += 1
    got = j2.records(1, 0, 100)[0] if whole else []
    want = [dict((k, v) for k, v in r.items() if k not in ("game", "pd", "lm")) for r in records[:whole]]
    if got != want:
        bad += 1
    for r in records[whole:]:
        j2.append(r)
    if j2.records(1, 0, 100)[0] != [dict((k, v) for k, v in r.items() if k not in ("game", "pd", "lm")) for r in records]:
        bad += 1
# The same journal on the VM's own filesystem.
fs = FlashStorage("/journal")
j = Journal(fs)
j.open()
for r in records:
    j.append(r)
j3 = Journal(FlashStorage("/journal"))
j3.open()
print(json.dumps([bad, sum(sizes), len(j3.records(1, 0, 100)[0]), fs.free() > 0]))
""" % json.dumps(records), timeout=300)
    bad, size, back, free = last_json(out)
    assert bad == 0 and size > 200 and back == len(records) and free


def test_the_adapters_work_on_micropython(micropython):
    out = vm(micropython, """
import json
import machine
from sowlight_fw import config
from sowlight_fw.hw import sensors
from sowlight_fw import colours as C
from sowlight_fw.hw.leds import Strip, NeoPixelDriver
from sowlight_fw.hw.buttons import ButtonLogic
import wiring

raw = json.load(open("/boards/2x6-stores.json"))
raw["calibration"] = {"empty": [2000] * 14, "covered": [30000] * 14}
b = config.check(raw)
strip = Strip(b, NeoPixelDriver(b.led_pin, b.led_count, b.led_order))
frame = bytearray(14)
frame[0] = C.ERROR
strip.show(frame, 255)
first = machine.world.bitstreams[-1][1][:3]
again = strip.show(frame, 255)

room = wiring.wire(b, machine)
room.ambient = 7000
room.reflection = [31000 if c == 3 else 1500 for c in range(14)]
mux = sensors.make(b, machine)
values = [0] * 14
mux.read(values)
mux.read(values)

rh = json.load(open("/examples/2x6-stores-hx711.json"))
rh["calibration"] = {"offset": [100] * 14, "counts_per_seed": [500] * 14}
bh = config.check(rh)
sim = wiring.wire(bh, machine)
hx = sensors.make(bh, machine)
sim.convert([100 + 500 * (i % 5) for i in range(14)])
counts = [0] * 14
hx.read(counts)

logic = ButtonLogic(800, 30)
events = []
for t in range(0, 1500, 10):
    events += logic.update((1 if 100 <= t < 1200 else 0, 0, 0), t)
print(json.dumps([list(first), again, values, counts, events, sim.pulses_last]))
""")
    first, again, values, counts, events, pulses = last_json(out)
    cap = config.check(json.loads((ROOT / "hardware/boards/2x6-stores.json").read_text())).brightness_cap255
    assert first == [0, cap, 0] and again is False
    assert values == [1 if c == 3 else 0 for c in range(14)]
    assert counts == [i % 5 for i in range(14)] and pulses == 25
    assert events == ["menu"]


def test_the_app_runs_its_loop_on_micropython(micropython):
    out = vm(micropython, """
import json
import machine
from sowlight_fw import config
from sowlight_fw.app import App
from sowlight_fw.storage import FlashStorage
b = config.check(json.load(open("/boards/2x6-stores.json")))
machine.world.analog = lambda pin: 5000
app = App(b, machine, storage=FlashStorage("/journal"))
machine.world.levels[b.buttons["confirm"]] = 1
await app.run(loops=5)
assert app.controller.state == "menu"
machine.world.levels[b.buttons["confirm"]] = 0       # confirm: Oware from the menu
await app.run(loops=4)
machine.world.levels[b.buttons["confirm"]] = 1
await app.run(loops=4)
import os
print(json.dumps([app.controller.state, app.controller.variant, app.loops, len(machine.world.bitstreams) > 1,
                  os.listdir("/journal")]))
""", timeout=120)
    state, variant, loops, wrote, files = last_json(out)
    assert state == "setup" and variant == "oware" and loops == 13 and wrote
    assert files == ["g00000001.jnl"]


def test_a_bad_config_on_micropython_is_shown_and_explained(micropython, tmp_path):
    raw = json.loads((ROOT / "hardware/boards/2x6-stores.json").read_text())
    raw["leds"]["pits"] = raw["leds"]["pits"][:5]
    (tmp_path / "board.json").write_text(json.dumps(raw))
    out = micropython.run("""
import machine
from sowlight_fw import app
print(app.main("/cfg/board.json", machine, cycles=2))
print(len(machine.world.bitstreams))
""", mounts=dict(MOUNTS, **{"/cfg": tmp_path}), timeout=60)
    lines = out.strip().splitlines()
    assert "leds.pits: has 5 entries but the board has 12 pits" in out
    assert lines[-2] == "None" and lines[-1] == "2"


def test_main_py_stays_at_the_repl_when_asked(micropython, tmp_path):
    (tmp_path / "repl_once").write_text("1")
    out = micropython.run("import os, sys\nsys.path.append('/')\nos.chdir('/flag')\nexec(open('/main.py').read())\nprint(os.listdir('/flag'))",
                          mounts=dict(MOUNTS, **{"/flag": tmp_path}), timeout=60)
    assert "stopped at the REPL as asked" in out and out.strip().endswith("[]")


def test_a_damaged_record_is_rebuilt_on_micropython(micropython):
    """Journal.open() finds the ply a flipped byte took, Journal.mend() rebuilds it from the
    records after it, with the rules core and the controller's game maker, on MicroPython."""
    records = [dict(r) for r in cpython_game("occupancy", "oware", 2)[:14]]
    out = vm(micropython, """
import json
from sowlight_fw import config, journal
from sowlight_fw.journal import Journal
from sowlight_fw.storage import MemoryStorage
from sowlight_fw.controller import Controller
records = json.loads(%r)
st = MemoryStorage()
data = bytearray(b"".join(journal.written(r) for r in records))     # the game's file, as appended
data[sum(len(journal.written(r)) for r in records[:9]) + 13] ^= 0x40  # inside the record of ply 9
st.files[journal.file_name(1)] = data
j2 = Journal(st)
j2.open()
gaps = j2.gaps
c = Controller(config.check(json.load(open("/boards/2x6-stores.json"))))
from sowlight_fw.controller import games
mended = j2.mend(lambda v, o, pos: games.make(c, v, o, pos), c.variants)
back = j2.records(1, 0, 100)[0]
print(json.dumps([gaps, [[g, p, r is not None] for g, p, r in mended], back[9], len(back)]))
""" % json.dumps(records))
    gaps, mended, rebuilt, n = last_json(out)
    want = records[9]
    assert gaps == {"1": [9]} and mended == [[1, 9, True]] and n == len(records)
    assert (rebuilt["move"], rebuilt["player"], rebuilt["name"], rebuilt["rebuilt"]) == \
           (want["move"], want["player"], want["name"], True)


def test_the_controllers_runtime_state_is_small(micropython):
    """What a game in progress keeps besides code: the controller's own state stays a few KB; the
    rest is the rules core's move history (for undo and repetition), which grows with the game."""
    # The controller's modules and the journal are imported before the measurement: their code is
    # not its state.  The VM's collector is conservative: a stale
    # word left where the measured code ran can keep a dead block alive (a copy of the game's
    # history: 17 KB more), and which block depends on the heap's layout.  So each figure is taken
    # with a few different small allocations ending the measured code, and the least counts.
    setup = """
import json
from sowlight_fw import config
import sowlight_fw.controller, sowlight_fw.follow
import sowlight_fw.journal
import mancala, mancala.variants.oware
import hands
board = config.check(json.load(open("/boards/2x6-stores.json")))
"""
    ends = ("x = [0] * 4\nx = None\n", "x = bytearray(64)\nx = None\n", "x = [0] * 4\nx = None\ny = bytearray(16)\ny = None\n")

    def least(code, timeout=60):
        return min(micropython.heap_used(code + end, setup=setup, mounts=MOUNTS, timeout=timeout).retained
                   for end in ends)

    start = least("c = sowlight_fw.controller.Controller(board)\nc.new_game('oware')\ndel c.records[:]\n"
                  "del c.outbox[:]\n")
    assert 1024 < start < 10 * 1024
    moves = [r["move"] for r in cpython_game("occupancy", "oware", 1) if r["kind"] == "move"]
    game = least("h = hands.start(board, 'oware', seed=1)\nh.play(20000)\nc = h.c\n"
                 "assert len(c.game.moves_played()) == %d\ndel c.records[:]\ndel c.outbox[:]\nh = None\n" % len(moves),
                 timeout=300)
    history = least("g = mancala.Game('oware')\nfor m in %r:\n    g.play(m)\n" % moves)
    assert history > 1024 and game - history < 10 * 1024, (game, history)


def test_the_watchs_tick_allocates_nothing_as_in_an_interrupt(micropython):
    # On a board the tick runs in the timer's interrupt, where the heap is locked: any
    # allocation on its way would fail there.  Here it runs with the heap locked too, for each
    # sensor kind, the touch written to the strip (the fake strip's write, which copies the
    # frame, is left out: the neopixel module's own write allocates nothing).
    out = vm(micropython, """
import json, micropython
import machine
from array import array
from sowlight_fw import config
from sowlight_fw.hw import sensors, watch
from sowlight_fw.hw.leds import Strip, NeoPixelDriver, RESET_US
import time
import wiring

class Timers:
    PERIODIC = 1
    def __init__(self, *args, **kw):
        self.kw = kw

def watched(b):
    driver = NeoPixelDriver(b.led_pin, b.led_count, b.led_order)
    written = array("i", [0])
    def write():
        written[0] += 1
    driver.np.write = write
    strip = Strip(b, driver)
    strip.show(bytearray(b.cells), 255, 0)
    s = sensors.make(b, machine)
    clock = array("i", [0])
    def now():
        clock[0] += watch.WATCH_MS
        return clock[0]
    m = type("M", (), {"Timer": Timers})
    w = watch.start(m, s, strip, clock=now)
    return w, s, written

def locked_tick(w):
    time.sleep_us(RESET_US)     # (the last frame latched: the tick writes its touch at once)
    micropython.heap_lock()
    try:
        n = w.tick()
    finally:
        micropython.heap_unlock()
    return n

results = []
raw = json.load(open("/boards/2x6-stores.json"))
b = config.check(raw)
room = wiring.wire(b, machine)
w, s, written = watched(b)
w.tick()
w.tick()
room.reflection[3] = room.covered
before = written[0]
results.append(["mux", locked_tick(w), repr(w.fault), written[0] - before, w.timer.kw.get("hard")])

rh = json.load(open("/examples/2x6-stores-hx711.json"))
rh["calibration"] = {"offset": [100] * 14, "counts_per_seed": [500] * 14}
bh = config.check(rh)
sim = wiring.wire(bh, machine)
w, s, written = watched(bh)
machine.world.irqs.clear()  # (the data pins' edges would run ready() unlocked: called below)
readings = [100 + 500 * 4] * 14
sim.convert(readings)
w.tick()
s.read([0] * 14)            # the scan takes the conversion the tick clocked out
readings[5] -= 500
sim.convert(readings)
before = written[0]
results.append(["hx711", locked_tick(w), repr(w.fault), written[0] - before, None])
readings[6] -= 500
sim.convert(readings)
before = written[0]
time.sleep_us(RESET_US)
micropython.heap_lock()
try:
    n = w.ready()           # (in a data pin's interrupt)
finally:
    micropython.heap_unlock()
results.append(["hx711 ready", n, repr(w.fault), written[0] - before, None])
print(json.dumps(results))
""")
    mux, hx, ready = last_json(out)
    assert mux == ["mux", 1, "None", 1, True]
    assert hx == ["hx711", 1, "None", 1, None]
    assert ready == ["hx711 ready", 1, "None", 1, None]


def test_a_long_move_frame_takes_its_own_length_of_heap_not_a_text_per_step(micropython):
    # A Kombe move can run to a hundred steps and more; its `move` message lists them all.  The
    # board writes that frame into one buffer: what encoding it allocates is the frame itself
    # and a little more, not a text for each step (or each distinct one) besides.
    import random
    rnd = random.Random(7)
    g = mancala.Game("kombe")
    while True:
        move = max(g.legal_moves(), key=lambda m: len(g.copy().play(m)))
        if len(g.copy().play(move)) >= 100:
            break
        g.play(rnd.choice(g.legal_moves()))
    setup = """
import mancala
from sowlight_fw.link import codec
g = mancala.from_text(%r)
m = %r
steps = g.copy().play(tuple(m) if isinstance(m, list) else m).shared({})
payload = {"game": 1, "ply": 9, "player": g.to_move, "move": m, "trace": steps}
""" % (mancala.to_text(g), list(move) if isinstance(move, tuple) else move)
    use = micropython.heap_used("body, tail = codec.pieces(5, 'move', payload, False)\nprint(len(body))\n",
                                setup=setup, mounts=MOUNTS)
    length = int(use.output.split()[-1])
    assert length > 1500
    assert use.allocated < length + 1024, (use.allocated, length)


START = {"kind": "start", "game": 1, "ply": 0, "variant": "kombe", "options": {}}
MOVE = {"kind": "move", "game": 1, "ply": 1, "move": 12, "player": 0, "name": "M", "t": 1234567}


def test_a_moves_journal_record_is_built_in_one_buffer(micropython):
    from sowlight_fw.journal.records import file_name, written
    # The board writes a record at every move, in the scan that plays it (the most a scan
    # allocates): its header, payload and CRC go into one buffer of its size, not joined from
    # pieces.  (On a board the file's open takes its 1 KB cache besides: not counted here.)
    setup = """
from sowlight_fw.journal import Journal
from sowlight_fw.storage import MemoryStorage
j = Journal(MemoryStorage())
j.append(%r)
rec = %r
""" % (START, MOVE)
    use = micropython.heap_used("j.append(rec)\nprint(len(j.storage.files['%s']))\n" % file_name(1),
                                setup=setup, mounts=MOUNTS)
    assert int(use.output) == len(written(START)) + len(written(MOVE))      # (a start: twice)
    assert use.allocated < 800, use.allocated              # (the look at the file included)
