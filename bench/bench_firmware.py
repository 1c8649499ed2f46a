"""The firmware on the MicroPython VM: controller step time, heap, hint depth, journal bytes.

    python bench/bench_firmware.py [step] [heap] [hints] [journal]     (default: all four)

- Controller step (one observation in, LED frame out): a whole game of Oware
  is played on CPython by the simulated hands of the tests; every sensor scan
  and button press the controller received is recorded, then replayed on the
  VM against a fresh controller, each call timed.  Times are scaled to an
  RP2040 with pystone, run on the same VM in the same run (as in
  bench_micropython_rules.py: VM pystones/s over 900, MicroPython on an RP2040
  at 125 MHz).  Peer: the rules core's play() of the game's moves, timed in the
  same VM.  Target: a step <= 10 ms on an RP2040.
- Heap of the whole app on MicroPython: every module imported from source, an
  App booted on fake hardware and a game set up, as retained bytes; split into
  what the modules' code takes (it stays in flash when the firmware is frozen
  with firmware/manifest.py) and what the running app keeps.  Target <= 96 KB.
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
from bench_micropython_rules import RP2040_PYSTONES, find_pystone, vm_pystones  # noqa: E402

import mancala  # noqa: E402
from mancala.search import best_move  # noqa: E402
from sowlight_fw import codec, config, journal  # noqa: E402
from sowlight_fw.controller import Controller  # noqa: E402

MOUNTS = {"/lib": ROOT / "tests" / "micropython" / "fakes", "/boards": ROOT / "hardware" / "boards",
          "/examples": ROOT / "hardware" / "examples"}
PRESETS = {"load cells": "examples/2x6-stores-hx711.json", "occupancy": "boards/2x6-stores.json"}
REPEAT = 16


def record_game(preset, variant="oware", seed=1):
    """Play a game on CPython; return the calls the controller got, and its journal records."""
    import hands
    board = config.check(json.loads((ROOT / "hardware" / preset).read_text()))
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
        h = hands.start(board, variant, seed=seed)
        h.play(20000)
    finally:
        Controller.feed_observation = real_feed
        Controller.press = real_press
    return calls, h.c.records


REPLAY = """
import json, time
from sowlight_fw import config
from sowlight_fw.controller import Controller
board = config.check(json.load(open(%r)))
calls = json.load(open("/data/calls.json"))
c = Controller(board)
c.new_game(%r)
times = []
for kind, arg, now in calls:
    t = time.ticks_us()
    if kind == "o":
        changed = c.state
        c.feed_observation(arg, now)
    else:
        c.press(arg, now)
    dt = time.ticks_diff(time.ticks_us(), t)
    times.append(dt)
    del c.outbox[:]
    del c.records[:]
moves = [m for m in json.load(open("/data/moves.json"))]
import mancala
g = mancala.Game(%r)
t = time.ticks_us()
for m in moves:
    g.play(m if isinstance(m, int) else tuple(m))
play_us = time.ticks_diff(time.ticks_us(), t)
print(json.dumps([times, play_us, len(moves), c.state]))
"""

HEAP_SETUP = """
import json
import machine
from sowlight_fw import config
from sowlight_fw.storage import FlashStorage
machine.world.analog = lambda pin: 5000
"""
HEAP_ALL = HEAP_SETUP + """
from sowlight_fw.app import App
board = config.check(json.load(open("/boards/2x6-stores.json")))
app = App(board, machine, storage=FlashStorage("/journal"))
c = app.boot(0)
c.new_game("oware")
for i in range(20):
    app.step(i * 20)
"""
MODULES = ("mancala", "mancala.search", "mancala.variants.oware", "sowlight_fw.config", "sowlight_fw.crc",
           "sowlight_fw.colours", "sowlight_fw.observe", "sowlight_fw.follow", "sowlight_fw.controller",
           "sowlight_fw.storage", "sowlight_fw.journal", "sowlight_fw.leds", "sowlight_fw.sensors",
           "sowlight_fw.buttons", "sowlight_fw.app", "neopixel")

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
    parts = argv or ["step", "heap", "hints", "journal"]
    vm = mpvm.MicroPythonVM()
    stone = find_pystone()
    scale = None
    if stone:
        ps = vm_pystones(vm, stone)
        scale = ps / RP2040_PYSTONES
        print("pystone on the VM: %.0f pystones/s = %.1fx an RP2040 (%s)" % (ps, scale, stone))
    else:
        print("pystone not found (set SOWLIGHT_PYSTONE=path/to/pystone.py): times are the VM's own")

    def rp(us):
        return "%.2f" % (us * scale / 1000) if scale else "-"

    if "step" in parts:
        bench_steps(vm, rp, stone)
    if "heap" in parts:
        bench_heap(vm)
    if "hints" in parts:
        bench_hints(vm, scale)
    if "journal" in parts:
        bench_journal()
    vm.close()
    return 0


def bench_steps(vm, rp, stone):
    import tempfile
    print("\ncontroller step on the VM (a whole game of Oware replayed, every scan and press):")
    print("%-11s %7s %9s %9s %9s %9s %11s %11s %13s" % ("sensors", "calls", "mean us", "p95 us", "p99 us",
                                                         "max us", "RP2040 p99", "RP2040 max", "max/play()"))
    for label, preset in PRESETS.items():
        calls, records = record_game(preset)
        moves = [r["move"] for r in records if r["kind"] == "move"]
        # The VM's clock ticks in whole milliseconds: the replay runs REPEAT times, each in a
        # fresh VM, and each call's time is the mean over the runs.
        sums = None
        play_total = 0
        with tempfile.TemporaryDirectory() as d:
            Path(d, "calls.json").write_text(json.dumps(calls))
            Path(d, "moves.json").write_text(json.dumps(moves))
            for _ in range(REPEAT):
                out = vm.run(REPLAY % ("/" + preset, "oware", "oware"), mounts=dict(MOUNTS, **{"/data": d}),
                             timeout=600)
                times, play_us, n, state = json.loads(out.strip().splitlines()[-1])
                sums = times if sums is None else [a + b for a, b in zip(sums, times)]
                play_total += play_us
        times = [t / REPEAT for t in sums]
        play_us = play_total / REPEAT
        busy = sorted(times)
        if stone:
            # The machine's load changes: scale by a pystone measured right after these runs.
            ps = vm_pystones(vm, stone, loops=2000)
            k = ps / RP2040_PYSTONES

            def rp(us, k=k):
                return "%.2f" % (us * k / 1000)
            print("  (pystone just now: %.0f/s = %.1fx an RP2040)" % (ps, k))
        per_move_play = play_us / max(1, n)
        print("%-11s %7d %9.0f %9.0f %9.0f %9.0f %8s ms %8s ms %13.1f" % (
            label, len(times), sum(times) / len(times), pct(busy, 0.95), pct(busy, 0.99), busy[-1],
            rp(pct(busy, 0.99)), rp(busy[-1]), busy[-1] / per_move_play))
        print("  (game over: %s; %d moves; rules play() %.0f us a move on the VM, %s ms on an RP2040)" % (
            state, n, per_move_play, rp(per_move_play)))



def bench_heap(vm):
    print("\nheap on MicroPython (bytes retained, modules compiled from source):")
    total = vm.heap_used(HEAP_ALL, mounts=MOUNTS, timeout=120)
    code = vm.heap_used("\n".join("import " + m for m in MODULES) + "\nimport sowlight_fw.leds, sowlight_fw.sensors",
                        setup="import machine", mounts=MOUNTS, timeout=120)
    runtime = vm.heap_used(HEAP_ALL, setup="\n".join("import " + m for m in MODULES) + "\n" + HEAP_SETUP,
                           mounts=MOUNTS, timeout=120)
    print("  whole app, booted, a game set up:   %7d  (%.1f KB)" % (total.retained, total.retained / 1024))
    print("  of which the modules' code:         %7d  (stays in flash when frozen: firmware/manifest.py)" % code.retained)
    print("  the running app's own state:        %7d  (%.1f KB; target for the whole app 96 KB)" % (
        runtime.retained, runtime.retained / 1024))
    print("  allocated while booting and 20 scans: %5d" % runtime.allocated)
    mine = vm.heap_used("import sowlight_fw.app, sowlight_fw.leds, sowlight_fw.sensors, sowlight_fw.buttons",
                        setup="import machine\nimport mancala, mancala.search, mancala.variants.oware\n"
                              "import sowlight_fw.config, sowlight_fw.codec, sowlight_fw.crc", mounts=MOUNTS)
    print("  firmware modules of this issue:     %7d  (rules core, config and codec excluded)" % mine.retained)



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
