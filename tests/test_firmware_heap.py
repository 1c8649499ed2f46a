"""The app's heap on MicroPython, loaded from .mpy files as `sowlight deploy` puts it on a stock Pico.

A stock Pico has about 190 KB of heap for everything, and a module loaded from
a .mpy file keeps its code there; issue #4 asks for the whole app in 96 KB.
These tests boot the app as main() does (app.start(), then boot) from .mpy
files made by mpy-cross, on the MicroPython VM, and guard what it keeps:
- the modules the app keeps loaded, and the firmware's own share of them;
- the booted app (modules and state);
- the modules needed only now and then (the config's check, the journal's
  reading half, self-test and calibration, a refused config, start-up) are
  not loaded after boot, and leave again after their request.
- the names the app interns stay within the pools MicroPython has made for
  them (the next pool is some 9 KB at once).

Figures are bytes of the VM's heap, deterministic for a given tree (not a
timing); bench/bench_heap.py has the whole story, a played game's peak
included.  When a cut lands, lower the limit it guards.

This VM collects only when a call from JavaScript returns, so each step below
is a call of its own from a JavaScript loop (as in bench_heap.py).
"""
import json
import sys
from pathlib import Path

import pytest

from sowlight_fw import codec, config
from sowlight_fw.codec import Decoder, encode

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))

import bench_heap  # noqa: E402

PRESET = "/" + bench_heap.PRESET

# The limits (bytes; measured on MicroPython 1.27's VM, the firmware of issue #4's third cut, plus
# room for a few small changes).  FIRMWARE_MODULES: the firmware modules a board keeps loaded,
# each imported after the rules core and the controller's modules (64.9 KB before the first cut,
# 43.1 KB before the second, 39.5 KB after it; the controller's own modules, imported before,
# went from 38.7 to 23.7 KB).  Since the third cut they are measured with the interned names'
# pools grown first (GROW_POOLS), so that a module's figure is its own code and names, never the
# next pool of names it happens to open (a few KB that are everyone's): 29.1 KB.  BOOTED: the
# whole app booted (modules and state), as main() leaves it (111.9 KB before the second cut, 94.3
# KB after it, 86.5 KB after the third).
FIRMWARE_MODULES = 32 * 1024
BOOTED = 90 * 1024
# CONTROLLER: controller.py alone, imported after the modules it uses (25.1 KB before the second
# cut, 13.7 KB after it, a pool of names included: what a game rarely runs is in ctlrare,
# ctlmismatch and ctlplacing; 9.2 KB with the pools grown first).
CONTROLLER = 10 * 1024 + 512
# NAMES: the names MicroPython interns for the app once booted, a game set up, a mismatch and the
# laptop's sync requests.  They go into pools of 20, 40 ... 640 entries (1260 in all), and the
# first name past those makes a pool of 1280 entries at once: some 9 KB of heap the whole app's
# 96 KB has no room for (bench/bench_heap.py's game ends with 1181 of them; a board that plays
# other variants after Oware, each with names of its own, gets there: docs/architecture.md).
# This matters for the .mpy deploy only: the firmware image keeps the app's names in flash.
NAMES = 1260
GROW_POOLS = ("class _Q:\n    pass\n_q = _Q()\nfor _i in range(1400):\n    setattr(_q, 'grow%d' % _i, 0)\n"
              "_q = _Q = None")

# Modules a board needs only now and then: never left loaded by boot or by the request that used them.
NOW_AND_THEN = ("configcheck", "journalread", "journalmend", "badconfig", "startup", "service", "memstorage",
                "errorcodes", "crcpure", "adafruitleds", "hx711", "gpio", "ctlrare", "ctlhint", "ctlmismatch", "ctlplacing",
                "apprare", "codecmore", "linkrare", "infos", "catalog", "ctlexplain", "sensors")
# The firmware's modules in the controller's world (the controller and what it imports are the
# controller's, the rules core is its own): imported before the firmware's own are measured.
NOT_OURS = ("mancala", "mancala.errors", "mancala.trace", "mancala.game", "mancala.registry",
            "mancala.stepwise", "mancala.variants", "sowlight_fw", "sowlight_fw.colours",
            "sowlight_fw.observe", "sowlight_fw.follow", "sowlight_fw.display", "sowlight_fw.controller")

# Each step runs in a call of its own from JavaScript, after a collection; the live heap before
# every step and at the end is printed.
STEPS = """
import gc, js, json
_steps = %r
_live = []


def _tick(k):
    _live.append(gc.mem_alloc())
    if k == len(_steps):
        return False
    exec(_steps[k], globals())
    gc.collect()
    return True


_loop = js.eval("(f) => new Promise((done) => { let k = 0; const next = () => { if (f(k)) { k++; setImmediate(next); }"
                " else { done(k); } }; setImmediate(next); })")
gc.collect()
await _loop(_tick)
print(json.dumps(_live))
"""

SETUP = """
import sys
import machine
import neopixel            # micropython-lib's: frozen into a stock Pico firmware
machine.world.analog = lambda pin: 5000
machine.bitstream = lambda pin, encoding, timing, buf: None   # the fake keeps every write: not here


class Quiet:
    # The link's transport with no laptop on the other end.
    def read(self, n):
        return b""

    def write(self, data):
        pass


def ours():
    return sorted(m for m in sys.modules if m.split(".")[0] in ("sowlight_fw", "mancala"))
"""

BOOT = "from sowlight_fw import app\na = app.start(%r, machine, transport=Quiet())\na.boot(0)" % PRESET


@pytest.fixture(scope="module")
def mpy(tmp_path_factory):
    """The rules core and the firmware compiled by mpy-cross, mounted as bench_heap.py mounts them."""
    d = tmp_path_factory.mktemp("mpy")
    bench_heap.compile_tree(ROOT / "firmware", ROOT / "rules", d)
    mounts, setup = bench_heap._vm(None, d)
    return mounts, setup + SETUP


def steps(micropython, mpy, todo, pad=0):
    """The live heap before each step of `todo` and after the last (bytes), and what it printed."""
    mounts, setup = mpy
    out = micropython.run("_pad = bytearray(%d)\n" % pad + setup + STEPS % (list(todo),), mounts=mounts, timeout=300)
    lines = out.strip().splitlines()
    return json.loads(lines[-1]), lines[:-1]


@pytest.fixture(scope="module")
def kept(micropython, mpy):
    """The modules a booted app keeps, dependencies first."""
    _, printed = steps(micropython, mpy, [BOOT, "print(json.dumps(ours()))"])
    loaded = json.loads(printed[-1])
    return [m for m in bench_heap.IMPORT_ORDER if m in loaded] + [m for m in loaded if m not in bench_heap.IMPORT_ORDER]


def test_boot_leaves_the_now_and_then_modules_out(kept):
    assert "sowlight_fw.app" in kept and "sowlight_fw.controller" in kept and "sowlight_fw.link" in kept
    assert [m for m in kept if m.split(".")[-1] in NOW_AND_THEN] == []


def test_the_firmwares_own_modules_stay_under_the_guard(micropython, mpy, kept):
    # The rules core first, then what the controller imports of the firmware's (config), then the
    # controller's modules, then the rest of the firmware's: the firmware's share is the second
    # and the fourth group.
    rules = [m for m in kept if m.split(".")[0] == "mancala"] + ["sowlight_fw"]
    first = ["sowlight_fw.unload", "sowlight_fw.config"]
    theirs = [m for m in kept if m in NOT_OURS and m not in rules]
    mine = [m for m in kept if m not in NOT_OURS and m not in first]
    assert "sowlight_fw.codec" in mine and "sowlight_fw.journal" in mine and "sowlight_fw.app" in mine
    groups = [rules, first, theirs, mine]
    live, _ = steps(micropython, mpy, [GROW_POOLS] + ["import " + m for g in groups for m in g])
    live = live[1:]
    at = [0]
    for g in groups:
        at.append(at[-1] + len(g))
    own = (live[at[2]] - live[at[1]]) + (live[at[4]] - live[at[3]])
    assert 8 * 1024 < own < FIRMWARE_MODULES, "the firmware's modules keep %d bytes (%s)" % (
        own, ", ".join(first + mine))
    assert theirs[-1] == "sowlight_fw.controller"
    controller = live[at[3]] - live[at[3] - 1]
    assert 4 * 1024 < controller < CONTROLLER, "controller.py keeps %d bytes" % controller


def test_the_booted_app_stays_under_the_guard(micropython, mpy, kept):
    # The boot makes some 190 KB of garbage at once (the config's check, the rules' catalog read
    # once), and the VM's conservative collector keeps a block of it whenever a word of live data
    # happens to hold its address: a matter of heap layout, so a few layouts are tried (a few
    # bytes allocated first) and the least figure is the app's.
    todo = ["import " + m for m in kept] + [BOOT]
    figures = []
    for k in range(12):
        live, _ = steps(micropython, mpy, todo, pad=48 * k)
        figures.append(live[-1] - live[0])
        least = min(figures)
        if sum(1 for f in figures if f < least + 512) >= 2:
            break
    modules = live[len(kept)] - live[0]
    assert least > modules + 2 * 1024, "the app's state after boot is a few KB, not %d bytes" % (least - modules)
    assert least < BOOTED, "the booted app keeps %d bytes (modules %d); layouts tried: %s" % (least, modules, figures)


def test_rare_requests_load_their_module_only_while_they_run(micropython, mpy, kept):
    todo = ["import " + m for m in kept] + [
        BOOT + "\nreply = a.request('journal_list', {}, 0)",   # the first request allocates the link's state
        "reply = None\nprint(json.dumps(ours()))",
        "reply = a.request('journal_list', {}, 0)\nprint(reply['type'])",
        "reply = a.request('journal_get', {'game': 1, 'from': 0}, 0)\nprint(reply['code'])",
        "reply = a.request('self_test', {}, 0)\nprint(reply['type'])",
        "reply = a.request('calibrate', {'step': 'cancel'}, 0)\nprint(reply['type'])",
        "v = app.config.LED_MA\nprint(v)",
        "reply = v = None\nprint(json.dumps(ours()))",
    ]
    live, printed = steps(micropython, mpy, todo)
    assert printed[1:6] == ["journal", "no_such_game", "ok", "ok", "60"]
    assert json.loads(printed[0]) == json.loads(printed[-1]) == sorted(kept)
    before = live[len(kept) + 2]
    after = live[-1]
    # Interned names stay (MicroPython never frees them) and the link keeps its last reply; the code
    # of journalread, service and configcheck (about 20 KB) has gone again.
    assert after - before < 3 * 1024, (before, after)


def test_the_controllers_parts_are_loaded_only_while_they_are_needed(micropython, mpy, kept):
    # ctlrare (buttons, requests, new games) for the call and the rest of its scan; ctlmismatch while
    # the set-up lasts or the board disagrees; neither while a game is played as it should be.
    parts = ["sowlight_fw.ctlrare", "sowlight_fw.ctlhint", "sowlight_fw.ctlmismatch", "sowlight_fw.ctlexplain", "sowlight_fw.ctlplacing",
             "sowlight_fw.apprare", "sowlight_fw.codecmore", "sowlight_fw.linkrare"]
    todo = ["import " + m for m in kept] + [
        BOOT + "\nc = a.controller\nfull = [1] * 12 + [0, 0]\nwrong = [1] * 12 + [1, 0]",
        "c.new_game('oware')\nprint(json.dumps(ours()))",
        "for t in range(1000, 1300, 20):\n    c.feed_observation(full, t)\nc.press('confirm', 1300)\n"
        "c.feed_observation(full, 1320)\n"
        "print(c.state, c.mismatch)\nprint(json.dumps(ours()))",
        "reply = a.request('get_state', {}, 1040)\nprint(reply['phase'])\nreply = None\nprint(json.dumps(ours()))",
        "for t in range(2000, 4000, 20):\n    c.feed_observation(wrong, t)\nprint(c.state, c.mismatch)\n"
        "print(json.dumps(ours()))",
        "for t in range(4000, 5000, 20):\n    c.feed_observation(full, t)\nprint(c.state, c.mismatch)\n"
        "print(json.dumps(ours()))\ndel c.outbox[:]\ndel c.records[:]",
        "print(json.dumps(ours()))",
    ]
    live, printed = steps(micropython, mpy, todo)
    loaded = [[m for m in json.loads(line) if m in parts] for line in printed if line.startswith("[")]
    states = [line for line in printed if not line.startswith("[")]
    assert states == ["await_lift False", "await_lift", "await_lift True", "await_lift False"]
    assert loaded == [["sowlight_fw.ctlmismatch", "sowlight_fw.ctlrare"], [], [], ["sowlight_fw.ctlmismatch"], [], []]
    game = json.loads(printed[-1])
    assert sorted(set(game) - set(kept)) == ["mancala.recent", "mancala.variants.oware"]
    # What the mismatch loaded has gone again (its interned names stay: MicroPython never frees those).
    before = live[len(kept) + 3]
    after = live[-1]
    assert after - before < 2 * 1024, (before, after)


def test_the_apps_interned_names_fit_the_pools_it_has(micropython, mpy, kept):
    todo = ["import " + m for m in kept] + [
        BOOT + "\nc = a.controller\nfull = [1] * 12 + [0, 0]\nwrong = [1] * 12 + [1, 0]",
        "c.new_game('oware')",
        "for t in range(1000, 1300, 20):\n    c.feed_observation(full, t)\nc.press('confirm', 1300)\n"
        "c.feed_observation(full, 1320)",
        "for t in range(2000, 4000, 20):\n    c.feed_observation(wrong, t)\n"
        "for t in range(4000, 5000, 20):\n    c.feed_observation(full, t)\nprint(c.state, c.mismatch)",
        "reply = a.request('get_state', {}, 5000)\nreply = a.request('journal_list', {}, 5000)\n"
        "reply = a.request('journal_get', {'game': 1, 'from': 0}, 5000)\n"
        "reply = a.request('journal_ack', {'game': 1, 'upto': 0}, 5000)\nreply = None",
        "import micropython\nmicropython.qstr_info()",
    ]
    _, printed = steps(micropython, mpy, todo)
    assert printed[0] == "await_lift False"
    pools, names = [int(x.split("=")[1]) for x in printed[-1].split(": ")[1].split(", ")[:2]]
    assert pools == 6 and names < NAMES, printed[-1]


def test_the_boards_loop_runs_without_asyncio(micropython, mpy):
    # main() runs App.loop: asyncio (whose classes take a few KB of heap) is imported only for a
    # self-test or a calibration, which are coroutines.
    loop = BOOT + """
pauses = []
clock = [0]     # the board's milliseconds: a scan takes none of them here, a pause its own


def pause(ms):
    pauses.append(ms)
    clock[0] += ms
    if len(pauses) == 5:
        raise KeyboardInterrupt


app.sleep_ms = pause
app.ticks_ms = lambda: clock[0]
try:
    a.loop()
except KeyboardInterrupt:
    pass
print(json.dumps([pauses, a.loops, "asyncio" in sys.modules]))
"""
    _, printed = steps(micropython, mpy, [loop])
    assert json.loads(printed[-1]) == [[20] * 5, 5, False]


def test_the_boards_decoder_starts_small_and_grows_only_for_a_long_line():
    pad = {"level": "info", "msg": ""}
    longest = encode(1, "log", dict(pad, msg="x" * (codec.MAX_FRAME - len(encode(1, "log", pad)))))
    assert len(longest) == codec.MAX_FRAME
    stream = encode(2, "ping") + longest + b"y" * 5000 + b"\n" + encode(3, "hint", {"on": True})
    for chunk in (3, 64, 1000, len(stream)):
        small = Decoder(codec.HOST, first=16)
        whole = Decoder(codec.HOST)
        got = [[], []]
        for i in range(0, len(stream), chunk):
            got[0] += small.feed(stream[i:i + chunk])
            got[1] += whole.feed(stream[i:i + chunk])
        assert [repr(x) for x in got[0]] == [repr(x) for x in got[1]]
        assert [type(x).__name__ for x in got[0]] == ["Message", "BadFrame", "BadFrame", "Message"], chunk
        assert len(small._buf) <= codec.MAX_FRAME and len(whole._buf) == codec.MAX_FRAME
        if chunk < len(longest):
            assert len(small._buf) == codec.MAX_FRAME      # it grew for the longest line...
    short = Decoder(codec.HOST, first=256)
    for b in encode(4, "journal_get", {"game": 1, "from": 0}):
        short.feed(bytes((b,)))
    assert len(short._buf) == 256                          # ...and not for a request


def test_the_check_is_read_through_config_and_the_table_through_codec():
    # What moved out of the modules a board keeps is still where the laptop and the tests read it.
    assert config.LED_MA == 60 and config.COLOUR_ORDERS[2] == "GRB" and callable(config.power_budget)
    assert config.check(json.loads((ROOT / "hardware/boards/2x6-stores.json").read_text())).cells == 14
    with pytest.raises(AttributeError, match="sowlight_fw.config"):
        config.no_such_name
    assert codec.MESSAGES["step"][0] == "board" and ("ev", ("lifted", "dropped", "mismatch"), True) in \
        codec.MESSAGES["step"][1]
    assert codec.MESSAGES["state"][1][0] == ("re", 128 | 32, False)
    # The table's word lists are the codec's named ones.
    assert codec.MESSAGES["press"][1][0][1] == codec.BUTTONS and codec.MESSAGES["sim"][1][0][1] == codec.SIM_ACTS
    assert "storage" in codec.ERRORS
