"""The firmware on the MicroPython VM: controller step time, heap, hint depth, journal bytes.

    python bench/bench_firmware.py [step] [heap] [hints] [journal]     (default: all four)
    python bench/bench_firmware.py step --baseline OTHER/firmware      (before/after, same run; OTHER/rules too)
    python bench/bench_firmware.py step --variant kombe                (a four-row game, on the 4x8 board)
    python bench/bench_firmware.py step --source                       (the firmware compiled by the VM, not .mpy)

- Controller step (one observation in, LED frame out): a whole game of Oware
  (or --variant's, on the 4x8 board for a four-row game) is played on CPython by the simulated hands of the tests, scanned every 20 ms
  as the app does; every sensor scan and button press the controller received
  is recorded, then replayed on the VM against a fresh controller (the rules
  core and the firmware loaded from .mpy files made by mpy-cross, as `sowlight
  deploy --mpy` leaves them on a board: from source, each module would cost its
  compilation), each call
  timed by the host's microsecond clock (the VM's own ticks_us moves in whole
  milliseconds) with the garbage collector off, and its allocation counted;
  the heap is collected between batches of 50 calls (this VM collects only
  when a call from JavaScript returns, so JavaScript calls the replay a batch
  at a time), and the replay's own data (the calls, the times) stays out of
  the heap, read and written a batch at a time: a board's heap holds the app
  and little else, and its allocator searches that heap from its start.
  The replay runs REPEAT times in fresh VMs and each call keeps its fastest
  time: the machine running the VM is busy at times, and the same call is the
  same work every run.  With --baseline the other firmware's runs take turns
  with these, and the ratios of the two are printed (a rules/ beside the other
  firmware/ is its rules core: a change to both is measured as a whole).  The
  slowest scan and the slowest press are printed apart, with the calls over the
  target (a press finishes at once what scans do a piece at a time; a call's
  number is the same call in both firmwares).  Times are scaled to an
  RP2040 with pystone, best of short runs on the same VM between the replays
  (as in bench_micropython_rules.py: VM pystones/s over 900, MicroPython on an
  RP2040 at 125 MHz).  Peer: the rules core's play() of the game's moves,
  timed in the same VM.  Target: a step <= 10 ms on an RP2040.
- Heap of the whole app on MicroPython, booted as main() boots it (with its
  link) and a game set up, as retained bytes: with every module compiled from
  source, and loaded from .mpy files made by mpy-cross; split into what the
  modules take (their code stays in flash when the firmware is frozen with
  firmware/manifest.py) and what the running app keeps, and module by module.
  Target <= 96 KB.
- Hint depth: the deepest full alpha-beta depth best_move() reaches in a budget
  worth 1 s on an RP2040, from the start and from a middle-game position, for
  Oware and Kalah.  Peer: the same search on CPython in 1 s.
- Journal bytes per move: the records of the game as written to flash.  Peer:
  the same moves as `move` frames of the link protocol.
"""
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "bench"))
sys.path.insert(0, str(ROOT / "tests" / "micropython" / "fakes"))

import mpvm  # noqa: E402
from testgames import counting_4x8_raw  # noqa: E402
from bench_micropython_rules import RP2040_PYSTONES, find_pystone  # noqa: E402

import mancala  # noqa: E402
from mancala.search import best_move  # noqa: E402
from sowlight_fw import config, journal  # noqa: E402
from sowlight_fw.link import codec  # noqa: E402
from sowlight_fw.controller import Controller  # noqa: E402

MOUNTS = {"/lib": ROOT / "tests" / "micropython" / "fakes", "/boards": ROOT / "hardware" / "boards",
          "/examples": ROOT / "hardware" / "examples"}
PRESETS = {"load cells": "examples/2x6-stores-hx711.json", "occupancy": "boards/2x6-stores.json"}
# Four-row games (--variant kombe, omweso ...): the 4x8 preset, and the same with a load cell
# under every pit (tests/testgames.py: no preset has load cells on four rows).
PRESETS_4X8 = {"load cells": "4x8 hx711", "occupancy": "boards/4x8.json"}
STEP_SEED = {"oware": 1}    # the game each variant's step figure replays (hands.start's seed): default 2


def board_config(preset):
    """The raw config of a preset (a path under hardware/), or the 4x8 board with load cells."""
    if preset != "4x8 hx711":
        return json.loads((ROOT / "hardware" / preset).read_text())
    return counting_4x8_raw()


REPEAT = 5            # replays of each game; a step's time is its fastest
SCAN_MS = 20          # the app's scan period (sowlight_fw/app.py): the controller gets a call this often
REPLAY_HEAP_KB = 16384     # more than an Oware game replayed 2.5 times allocates (the collector is off or cannot
                           # run); a longer game gets 0.5 KB a call
COUNT_CALLS = 20000        # allocation counted per call for games of at most this many calls


def record_game(preset, variant="oware", seed=1, scan_ms=50):
    """Play a game on CPython; return the calls the controller got, and its journal records."""
    import hands
    board = config.check(board_config(preset))
    calls = []
    real_feed = Controller.feed_observation
    real_press = Controller.press

    def feed(self, values, now):
        calls.append(("o", list(values), now))
        return real_feed(self, values, now)

    def press(self, button, now):
        calls.append(("p", button, now))
        return real_press(self, button, now)

    Controller.feed_observation = feed
    Controller.press = press
    try:
        h = hands.start(board, variant, seed=seed, scan_ms=scan_ms)
        h.play(20000)
    finally:
        Controller.feed_observation = real_feed
        Controller.press = real_press
    return calls, h.c.records


BATCH = 50           # calls the replay makes between two collections (a second of the game)


def write_calls(path, calls):
    """The calls for the VM, a line of JSON for each BATCH of them: [kinds (a string), arguments,
    times].  The replay reads a line at a time, so that its own data does not fill the VM's heap
    (a game of Kombe is 60,000 calls: see REPLAY)."""
    with open(path, "w") as f:
        f.write(json.dumps({"calls": len(calls), "batch": BATCH}) + "\n")
        for i in range(0, len(calls), BATCH):
            part = calls[i:i + BATCH]
            f.write(json.dumps(["".join(k for k, _, _ in part), [a for _, a, _ in part], [t for _, _, t in part]]) + "\n")


# The VM's time.ticks_us() moves in whole milliseconds; the WebAssembly port's `js` module
# reaches the host's performance.now(), which resolves microseconds (a call costs ~4 us, the
# same for every timed call).  On a port without it, ticks_us is used.
CLOCK = """
try:
    import js
    _pn = js.performance.now

    def clock_us():
        return _pn() * 1000.0

    def since_us(t):
        return _pn() * 1000.0 - t
except ImportError:
    import time

    def clock_us():
        return time.ticks_us()

    def since_us(t):
        return time.ticks_diff(time.ticks_us(), t)
"""

# pystone (the same Proc0 as bench_micropython_rules.py) timed by the fine clock; the best
# of a few short runs: the machine running the VM is busy at times, and the fastest run is
# the one it was not (the replays keep their fastest run of each step for the same reason).
PYSTONE = CLOCK + """
import sys
sys.path.insert(0, "/data")
import pystone_mp
best = 0
for _ in range(%d):
    best = max(best, pystone_mp.Proc0(%d)[1])
print(best)
"""


def pystone_source(path):
    """pystone.py made to run on MicroPython, timed by the fine clock."""
    src = path.read_text()
    fine = "try:\n    import js\n    def time():\n        return js.performance.now() / 1000\n" \
           "except ImportError:\n    from time import ticks_ms\n    def time():\n        return ticks_ms() / 1000\n"
    src = src.replace("from time import time", fine).replace("from time import clock", fine.replace("time()", "clock()"))
    return src.replace("if __name__ == '__main__':", "if False:")


REPLAY = CLOCK + """
import gc, json, js
from array import array
from sowlight_fw import config
from sowlight_fw.controller import Controller
board = config.check(json.load(open(%r)))
VARIANT = %r
# What the replay keeps on the heap is small and made before the game: a board's heap holds the
# app and little else, and the allocator searches it from its start after each collection (the
# calls of a Kombe game held in the heap, some 1.5 MB, made every allocation slower).  The calls
# are read a batch at a time from the calls file, the times written to a file a batch at a time.
with open("/data/calls.jsonl") as f:
    head = json.loads(f.readline())
n_calls = head["calls"]
BATCH = head["batch"]
# The host compiles the VM's own code as it is first used (a code path met for the first time
# costs a few hundred microseconds the first time only, on whichever call meets it): the game is
# played through once untimed, then timed on a fresh controller.  The host also recompiles the
# code that runs often, as it runs: a call is slow then, at the same point of every run of the
# same calls.  So each run plays a different part of the game again before the timed one: its
# timed calls come after a different amount of work, and a call's fastest run is one without.
RUNS = ((n_calls, False), (%d, False), (n_calls, True))
SHIFT = %d          # see the timed run's start
count = %r          # count each call's allocation too (gc.mem_alloc() walks the whole heap: one run does it)
# The figures of a batch go into arrays made beforehand (a list growing as it is appended to
# would count its growth in a call's allocation, and a float per call would be garbage).
times = array("f", bytearray(4 * BATCH))
allocs = array("i", bytearray(4 * BATCH))
tout = open("/data/times.bin", "wb")
aout = open("/data/allocs.bin", "wb")
run = -1
done = 0
calls = None
c = None
own_us = 0
own_b = 0


def nothing(arg, now):
    pass


def next_run():
    global run, done, calls, c, own_us, own_b
    run += 1
    done = 0
    if calls is not None:
        calls.close()
    calls = open("/data/calls.jsonl")
    calls.readline()
    c = Controller(board)
    c.new_game(VARIANT)
    if RUNS[run][1]:
        # What the timing itself costs (the clock's calls, its floats): taken off every call's figures.
        gc.disable()
        own_us = 1e9
        for i in range(200):
            m = gc.mem_alloc()
            t = clock_us()
            nothing(0, 0)
            own_us = min(own_us, since_us(t))
            own_b = gc.mem_alloc() - m
        gc.enable()
        # The VM stops now and then for the host, every so many bytecodes: at the same calls in
        # every run of the same code.  Each run starts that count at a different place, so that
        # the stops fall on different calls and a call's fastest run is one without a stop.
        for _ in range(SHIFT):
            pass


def batch(k):
    # A batch of calls (timed in the last run, with the collector off: collections are counted
    # apart, as bytes allocated per step), then the heap collected.  This port collects only
    # when a call from JavaScript returns, so JavaScript calls this once per batch.  A board
    # collects between scans; with no collection for a whole game an allocation after a free
    # could search megabytes of garbage, which no board's heap holds.
    global done
    most, timed = RUNS[run]
    if done >= most:
        if run + 1 == len(RUNS):
            return False
        next_run()
        gc.collect()
        return True
    kinds, args, nows = json.loads(calls.readline())
    n = min(len(kinds), most - done)
    if timed:
        gc.disable()
        for i in range(n):
            kind = kinds[i]
            arg = args[i]
            now = nows[i]
            if count:
                m = gc.mem_alloc()
            t = clock_us()
            if kind == "o":
                c.feed_observation(arg, now)
            elif kind == "t":
                c.tick(now)
            else:
                c.press(arg, now)
            times[i] = since_us(t) - own_us
            if count:
                allocs[i] = gc.mem_alloc() - m - own_b
            del c.outbox[:]
            del c.records[:]
        gc.enable()
        tout.write(memoryview(times)[:n])
        aout.write(memoryview(allocs)[:n])
    else:
        for i in range(n):
            kind = kinds[i]
            if kind == "o":
                c.feed_observation(args[i], nows[i])
            elif kind == "t":
                c.tick(nows[i])
            else:
                c.press(args[i], nows[i])
            del c.outbox[:]
            del c.records[:]
    done += n
    gc.collect()
    return True


next_run()
# JavaScript calls batch() until it returns False, each call from its event loop.
""" + mpvm.EACH_CALL + """
gc.collect()
await each_call(batch)
tout.close()
aout.close()
times = array("f", open("/data/times.bin", "rb").read())
allocs = array("i", open("/data/allocs.bin", "rb").read()) if count else ()
moves = json.load(open("/data/moves.json"))
import mancala
g = mancala.Game(%r)
t = clock_us()
for m in moves:
    g.play(m if isinstance(m, int) else tuple(m))
play_us = since_us(t)
print(json.dumps([list(times), play_us, len(moves), c.state, list(allocs)]))
"""

HEAP_SETUP = """
import json
import machine
from sowlight_fw import config
from sowlight_fw.storage import FlashStorage
machine.world.analog = lambda pin: 5000


class Quiet:
    # The link's transport with no laptop on the other end (the real one is link.UsbTransport).
    def read(self, n):
        return b""

    def write(self, data):
        pass
"""
# What main() does on the board: the app, its link, boot, then a game is chosen and scanned.
HEAP_ALL = HEAP_SETUP + """
from sowlight_fw.app import App
from sowlight_fw.link import BoardLink
board = config.check(json.load(open("/boards/2x6-stores.json")))
app = App(board, machine, storage=FlashStorage("/journal"), link=BoardLink(Quiet()))
c = app.boot(0)
c.new_game("oware")
for i in range(20):
    app.step(i * 20)
"""
LIST_MODULES = HEAP_ALL + """
import sys
print(json.dumps(sorted(sys.modules)))
"""
# The modules of the whole app, dependencies before the modules that import them.
IMPORT_ORDER = ("mancala", "mancala.errors", "mancala.trace", "mancala.game", "mancala.registry",
                "mancala.stepwise", "mancala.variants", "mancala.variants.oware", "sowlight_fw.crc",
                "sowlight_fw.ticks", "sowlight_fw.cellmap", "sowlight_fw.config", "sowlight_fw.link.codec",
                "sowlight_fw.colours", "sowlight_fw.follow", "sowlight_fw.journal",
                "sowlight_fw.controller", "sowlight_fw.storage", "sowlight_fw.hw.leds", "sowlight_fw.hw.sensors",
                "sowlight_fw.hw.buttons",
                "sowlight_fw.link.session", "sowlight_fw.app")
# Loading .mpy files in the VM: the same set-up as bench_heap.py (which measures the heap in full).
from bench_heap import MPY_SETUP, compile_tree  # noqa: E402


HINT = """
import json, time, mancala
from mancala.search import best_move
out = []
for name, moves in %s:
    g = mancala.Game(name)
    for m in moves:
        g.play(m)
    t = time.ticks_ms()
    r = best_move(g, depth=40, max_nodes=10 ** 9, time_ms=%d)
    out.append([name, len(moves), r.depth, r.nodes, time.ticks_diff(time.ticks_ms(), t)])
print(json.dumps(out))
"""


def pct(xs, p):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(len(xs) * p))]


def main(argv):
    import argparse
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("part", nargs="*", help="step, heap, hints, journal (default: all four)")
    ap.add_argument("--baseline", metavar="DIR", help="step: replay also with the sowlight_fw package in DIR "
                    "(e.g. a git worktree's firmware/; with the mancala package of DIR/../rules when there is one) "
                    "and print the ratio: a before/after in the same run")
    ap.add_argument("--firmware", metavar="DIR", help="step: replay the sowlight_fw package in DIR instead of this tree's "
                    "(and DIR/../rules' mancala package when there is one)")
    ap.add_argument("--variant", default="oware", help="step: the game replayed (default oware; a four-row game such as "
                    "kombe or omweso plays on the 4x8 board, with load cells and with occupancy sensors)")
    ap.add_argument("--source", action="store_true", help="step: the firmware compiled from source by the VM "
                    "(default: .mpy files, as deployed; from source a module loaded while needed costs its compilation)")
    args = ap.parse_args(argv)
    parts = args.part or ["step", "heap", "hints", "journal"]
    for x in parts:
        if x not in ("step", "heap", "hints", "journal"):
            ap.error("unknown part %r: the parts are step, heap, hints and journal" % x)
    vm = mpvm.MicroPythonVM()
    stone = find_pystone()
    if not stone:
        print("pystone not found (set SOWLIGHT_PYSTONE=path/to/pystone.py): times are the VM's own")
    if "step" in parts:
        bench_steps(vm, stone, args.baseline, args.firmware, mancala.variant_info(args.variant)["id"], args.source)
    if "heap" in parts:
        bench_heap(vm)
    if "hints" in parts:
        scale = None
        if stone:
            import tempfile
            with tempfile.TemporaryDirectory() as d:
                Path(d, "pystone_mp.py").write_text(pystone_source(stone))
                ps = best_pystones(vm, d, runs=5)
            scale = ps / RP2040_PYSTONES
            print("\npystone on the VM: %.0f pystones/s = %.1fx an RP2040 (%s)" % (ps, scale, stone))
        bench_hints(vm, scale)
    if "journal" in parts:
        bench_journal()
    vm.close()
    return 0


def best_pystones(vm, d, runs=3, loops=3000):
    return float(vm.run(PYSTONE % (runs, loops), mounts={"/data": d}, timeout=300).strip().splitlines()[-1])


def replay(vm, variant, d, firmwares, source=False):
    """The recorded calls replayed REPEAT times for each firmware (None: this tree's; else a directory
    holding a sowlight_fw package), the firmwares taking turns so that a busy spell of the machine
    falls on all of them, each run in a fresh VM.  For each firmware: the fastest time of each call,
    the bytes each allocated, the rules core's play() per move, the final state and move count; and
    the best pystones/s measured between the runs.  Each firmware runs from .mpy files made by
    mpy-cross, as `sowlight deploy` leaves it on a board (source=True: compiled from source by the
    VM, where a module loaded while needed costs its compilation on the call that loads it)."""
    mpy = []
    for k, fw in enumerate(firmwares):
        if source:
            mpy.append(None)
            continue
        fw_dir = Path(fw).resolve() if fw is not None else ROOT / "firmware"
        rules = fw_dir.parent / "rules"
        out = Path(d) / ("mpy%d" % k)
        compile_tree(fw_dir, rules if (rules / "mancala").is_dir() else ROOT / "rules", out)
        mpy.append(out)
    best = [None] * len(firmwares)
    allocs = [None] * len(firmwares)
    play_us = [None] * len(firmwares)
    ends = [None] * len(firmwares)
    stones = 0
    with open(Path(d) / "calls.jsonl") as f:
        n_calls = json.loads(f.readline())["calls"]
    for run in range(REPEAT):
        for k, fw in enumerate(firmwares):
            mounts = dict(MOUNTS, **{"/data": d})
            if fw is not None:
                mounts["/"] = fw
                rules = Path(fw).resolve().parent / "rules" / "mancala"
                if rules.is_dir():
                    mounts["/lib/mancala"] = rules     # (copied over this tree's: its rules core)
            setup = ""
            if mpy[k] is not None:
                mounts["/mpy_in"] = mpy[k]
                setup = MPY_SETUP
            # A heap big enough from the start: this port collects only between runs and grows
            # its heap when full, and a growth in the middle would be timed as some call's.
            part = (run * 1543) % max(1, n_calls)
            # Each call's allocation is counted in the first run (gc.mem_alloc() walks the whole
            # heap at every call: not for a game much longer than Oware's).
            count = run == 0 and n_calls <= COUNT_CALLS
            out = vm.run(setup + REPLAY % ("/data/board.json", variant, part, 1 + 997 * run, count, variant),
                         mounts=mounts, timeout=3600, heap_kb=max(REPLAY_HEAP_KB, n_calls // 2))
            times, play, n, state, alloc = json.loads(out.strip().splitlines()[-1])
            best[k] = times if best[k] is None else [min(x, y) for x, y in zip(best[k], times)]
            play_us[k] = play / max(1, n) if play_us[k] is None else min(play_us[k], play / max(1, n))
            if run == 0:
                allocs[k] = alloc
            ends[k] = (state, n)
        if (Path(d) / "pystone_mp.py").exists():
            stones = max(stones, best_pystones(vm, d))
    return [(best[k], allocs[k], play_us[k], ends[k][0], ends[k][1]) for k in range(len(firmwares))], stones


def bench_steps(vm, stone, baseline=None, firmware=None, variant="oware", source=False):
    import tempfile
    title = mancala.variant_info(variant)["title"]
    four_rows = mancala.variant_info(variant)["rows"] == 4
    seed = STEP_SEED.get(variant, 2)
    print("\ncontroller step on the VM (a whole game of %s (hands' seed %d) replayed, every scan (%d ms) and press;"
          " each step's fastest of %d runs):" % (title, seed, SCAN_MS, REPEAT))
    print("%-11s %-9s %6s %8s %8s %8s %8s %9s %9s %9s %9s %11s" % (
        "sensors", "firmware", "calls", "mean us", "p99 us", "max us", "x RP2040", "RP mean", "RP p99", "RP max",
        "max/play", "alloc B/call"))
    for label, preset in (PRESETS_4X8 if four_rows else PRESETS).items():
        calls, records = record_game(preset, variant=variant, seed=seed, scan_ms=SCAN_MS)
        moves = [r["move"] for r in records if r["kind"] == "move"]
        with tempfile.TemporaryDirectory() as d:
            Path(d, "board.json").write_text(json.dumps(board_config(preset)))
            write_calls(Path(d, "calls.jsonl"), calls)
            Path(d, "moves.json").write_text(json.dumps(moves))
            if stone:
                Path(d, "pystone_mp.py").write_text(pystone_source(stone))
            names = ["this tree"] + (["baseline"] if baseline else [])
            results, stones = replay(vm, variant, d, [firmware] + ([baseline] if baseline else []), source)
            k = stones / RP2040_PYSTONES if stones else None

            def rp(us):
                return "%6.2f ms" % (us * k / 1000) if k else "%9s" % "-"
            maxes = []
            for name, (times, allocs, per_move_play, state, n) in zip(names, results):
                busy = sorted(times)
                mean = sum(times) / len(times)
                print("%-11s %-9s %6d %8.0f %8.0f %8.0f %8s %s %s %s %9.1f %5.0f/%-5d" % (
                    label, name, len(times), mean, pct(busy, 0.99), busy[-1], "%.1f" % k if k else "-",
                    rp(mean), rp(pct(busy, 0.99)), rp(busy[-1]), busy[-1] / per_move_play,
                    sum(allocs) / max(1, len(allocs)), max(allocs or [0])))
                maxes.append((busy[-1], pct(busy, 0.99), mean))
                # Scans and presses apart: a press finishes at once the work scans do a piece
                # at a time (a move ended by confirm: made, journalled, the next one lit).
                for kind, what in (("o", "scan"), ("p", "press")):
                    mine = [i for i in range(len(times)) if calls[i][0] == kind]
                    if mine:
                        i = max(mine, key=lambda i: times[i])
                        over = ""
                        if k:
                            # The calls over the target, slowest first (a call number: the same
                            # call in both firmwares).
                            slow = sorted([j for j in mine if times[j] * k > 10000], key=lambda j: -times[j])
                            over = "; %d over 10 ms%s" % (len(slow), (": " + ", ".join(
                                "#%d %.0f ms" % (j, times[j] * k / 1000) for j in slow[:8])) if slow else "")
                        print("  %s: slowest %s %.0f us (%s on an RP2040, call #%d)%s" % (
                            name, what, times[i], rp(times[i]).strip(), i, over))
                if name == "this tree":
                    slow = sorted(range(len(times)), key=lambda i: -times[i])[:3]
                    print("  (game over: %s; %d moves; rules play() %.0f us a move on the VM, %s on an RP2040;"
                          " slowest calls #%s)" % (state, n, per_move_play, rp(per_move_play).strip(),
                                                   ", #".join(str(i) for i in slow)))
            if baseline:
                print("  this tree / baseline: slowest step %.2f, 99th percentile %.2f, mean %.2f" % tuple(
                    maxes[0][i] / maxes[1][i] for i in range(3)))


def bench_heap(vm):
    import tempfile
    print("\nheap on MicroPython (bytes retained after a collection; target for the whole app 96 KB):")
    with tempfile.TemporaryDirectory() as d:
        compile_tree(ROOT / "firmware", ROOT / "rules", Path(d))
        for label, setup in (("compiled from source", ""), ("loaded from .mpy files", MPY_SETUP)):
            mounts = dict(MOUNTS, **{"/mpy_in": d})
            modules = json.loads(vm.run(setup + LIST_MODULES, mounts=mounts, timeout=120).strip().splitlines()[-1])
            ours = [m for m in modules if m.split(".")[0] in ("mancala", "sowlight_fw")]
            imports = "\n".join("import " + m for m in modules if m != "__main__")
            total = vm.heap_used(HEAP_ALL, setup=setup, mounts=mounts, timeout=120)
            code = vm.heap_used(imports, setup=setup + "import machine", mounts=mounts, timeout=120)
            runtime = vm.heap_used(HEAP_ALL, setup=setup + imports + "\n" + HEAP_SETUP, mounts=mounts, timeout=120)
            print("  %s:" % label)
            print("    whole app, booted with its link, a game set up: %7d  (%.1f KB)" % (
                total.retained, total.retained / 1024))
            print("    of which the modules:                           %7d  (%d modules; frozen, their code stays"
                  " in flash)" % (code.retained, len(modules)))
            print("    the running app's own state:                    %7d  (%.1f KB)" % (
                runtime.retained, runtime.retained / 1024))
            print("    allocated on the way (garbage included):        %7d" % total.allocated)
            # Each module's own share: the modules imported one by one, dependencies first (a
            # module that imports one listed after it carries that one's cost too).
            order = [m for m in IMPORT_ORDER if m in modules] + [m for m in ours if m not in IMPORT_ORDER]
            sizes = []
            done = "import machine\n"
            for m in order:
                one = vm.heap_used("import " + m, setup=setup + done, mounts=mounts, timeout=120)
                sizes.append((one.retained, m))
                done += "import %s\n" % m
            print("    module by module:")
            for i in range(0, len(sizes), 4):
                print("      " + ", ".join("%s %.1f KB" % (m.replace("sowlight_fw.", "fw."), b / 1024)
                                        for b, m in sizes[i:i + 4]))


def bench_hints(vm, scale):
    budget = int(1000 / scale) if scale else 1000
    print("\nhint search in a budget worth 1 s on an RP2040 (%d ms on the VM):" % budget)
    positions = []
    for name in ("oware", "kalah"):
        g = mancala.Game(name)
        mid = []
        i = 0
        while len(mid) < 16 and not g.is_over():
            m = g.legal_moves()[i % len(g.legal_moves())]
            g.play(m)
            mid.append(m)
            i += 7
        positions += [(name, []), (name, mid)]
    out = vm.run(HINT % (json.dumps(positions), budget), timeout=300)
    print("%-8s %6s %10s %10s %12s %14s" % ("variant", "ply", "depth", "nodes", "CPython 1 s", "CPython/VM nodes"))
    results = json.loads(out.strip().splitlines()[-1])
    for (name, moves), (_, ply, depth, nodes, ms) in zip(positions, results):
        g = mancala.Game(name)
        for m in moves:
            g.play(m)
        r = best_move(g, depth=40, max_nodes=10 ** 9, time_ms=1000)
        print("%-8s %6d %10d %10d %12s %14.1f" % (name, ply, depth, nodes, "depth %d" % r.depth,
                                                  r.nodes / max(1, nodes)))



def bench_journal():
    print("\njournal bytes:")
    for label, preset in PRESETS.items():
        _, records = record_game(preset, seed=3)
        moves = [r for r in records if r["kind"] == "move"]
        total_bytes = sum(len(journal.encode(r)) for r in records)
        move_bytes = sum(len(journal.encode(r)) for r in moves)
        frames = sum(len(codec.encode(1, "move", {"game": r["game"], "ply": r["ply"], "player": r["player"],
                                                   "move": r["move"], "name": r["name"], "trace": None}))
                     for r in moves)
        print("  %-10s %3d moves: %5d bytes in all, %.1f bytes a move (link `move` frames: %.1f a move, %.1fx)" % (
            label, len(moves), total_bytes, move_bytes / len(moves), frames / len(moves), frames / move_bytes))
    print("  a 4 KB littlefs block holds %d moves; 1 MB of journal about %d games of 60 moves"
          " (one file, so at least one block, per game)" % (4096 // 19, (1 << 20) // (4096 * max(1, (60 * 19 + 200) // 4096 + 1))))


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
