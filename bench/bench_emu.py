"""The board on an emulated RP2040 at 125 MHz: the frozen image and the `.mpy` deploy side by side.

    python bench/bench_emu.py --uf2 FROZEN.uf2 [--stock-uf2 STOCK.uf2] [--previous-uf2 OLD.uf2] [--micropython DIR]
                              [--config 2x6-stores] [--variant oware] [--moves N] [--seed S]

For each kind of image: the firmware image with Sowlight frozen in (`sowlight firmware
build`), and a stock MicroPython image with the app deployed as `.mpy` files by `sowlight
deploy` (--stock-uf2; left out without it), and optionally an earlier Sowlight's frozen image
(--previous-uf2: before and after a change, in one run), the board boots on the emulator with
bench/emu_probe.py as its boot.py (it wraps App.step to time each scan; main.py, frozen into
the image, then starts the app), and robot hands play a game (to its end, or --moves moves)
through the link.  With --profile, bench/emu_profile.py is the boot.py instead: the parts of
the scans (sensors, link, journal, controller, LEDs) timed, and the scans put down to the
controller's work in them.  Printed:

- boot to hello: emulated time from power-up to the app's hello on USB;
- free heap after boot (collected), the peak of the heap in use over the game (garbage
  included), and the live heap (collected every 250 scans, the highest of those): the app's,
  the probe's own heap (its code is compiled into RAM from boot.py) measured apart on the same
  image and left out, and printed too;
  the scans' figures cover the game up to its last 50 scans;
- every scan's time (p50, p99, max; 0.5 ms buckets);
- the latency a player sees: from the instant a sensor's pin or ADC input changes (the hands'
  act, on the emulated pins, each a random 0-20 ms after the hands decided on it, so that acts
  fall at every phase of the firmware's scans and timers) to the first LED frame, on the strip's
  data pin, that shows the changed cell differently (p50, p99, max): on a board that watches
  its sensors between scans (hw/watch.py) the cell's TOUCH; then to the first frame with the
  controller's answer (a role of its own on the cell that the cell did not show, steady or by
  turns as it blinked, in the 3 s before: emuboard.reactions), which includes the firmware's
  150 ms debounce and is printed again less the debounce: the firmware's own reaction;
  on load cells the change is the load's, which the HX711 tells of only when its conversion is
  done (12.5 ms at 80 Hz): that wait, and from that reading to the first frame, are also given
  apart (emuboard.conversion_waits): the latter is the firmware's;
- how long a touch stays on the LEDs (p50, shortest: emuboard.touch_spans): until the
  controller's answer, or 300 ms with nothing new; a short one went before its answer;
- the depth the board's hint search reaches within its budget (1 s, 30,000 nodes), at the
  start and 8 plies in, for --hint-variants (at the REPL of the frozen image).

With --micropython DIR (a MicroPython checkout; its tests/perf_bench/misc_pystone.py is read
from there, never copied), the stock or frozen image runs pystone at the REPL, and every time
above is also given scaled to a Pico's 900 pystones/s: the emulator leaves out flash cache
misses, so emulated time is a lower bound.  Emulated time is deterministic cycles; the wall
time a run takes is not a figure of the board.
"""
import argparse
import contextlib
import json
import os
import random
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
for p in (ROOT / "host", ROOT / "firmware", ROOT / "rules"):
    if str(p) not in sys.path:
        sys.path.insert(0, str(p))

from sowlight.board import view as boardview  # noqa: E402
from sowlight.simulation.emuboard import EmuBoard, conversion_waits, flashfs, reactions, touch_spans  # noqa: E402
from sowlight.simulation.robot import Robot  # noqa: E402
from sowlight_fw.controller.settings import DEFAULTS  # noqa: E402

PROBE = (Path(__file__).resolve().parent / "emu_probe.py").read_bytes()
PROFILE = (Path(__file__).resolve().parent / "emu_profile.py").read_bytes()
QUIET = (Path(__file__).resolve().parent / "emu_quiet.py").read_bytes()
PICO_PYSTONES = 900


def pct(values, q):
    if not values:
        return None
    values = sorted(values)
    return values[min(len(values) - 1, (len(values) * q + 99) // 100 - 1)]


def latencies(board):
    """(ns) from each change of the sensors' inputs to the first frame that shows a changed cell
    otherwise (TOUCH, hw/watch.py, or the controller's answer), and to the controller's answer;
    on load cells, from the change to the HX711's first reading with it (its own wait), and from
    that reading to the first frame: four lists (the last two empty on other sensors)."""
    seen = reactions(board)
    waits = conversion_waits(board)
    return ([r[2] for r in seen if r[2] is not None], [r[3] for r in seen if r[3] is not None],
            [w for r, w in zip(seen, waits) if r[2] is not None and w is not None],
            [r[2] - w for r, w in zip(seen, waits) if r[2] is not None and w is not None and w <= r[2]])


def figures(ns):
    """p50, p99 and max of a list of ns, in ms ([] for none)."""
    return [x / 1e6 for x in (pct(ns, 50), pct(ns, 99), max(ns) if ns else None) if x is not None]


def play_game(board, variant, moves, seed):
    conn = boardview.open_board(port=board.path, virtual="never", wait=30.0)
    try:
        view = conn.view
        conn.link.request("new_game", {"variant": variant, "options": {}})
        robot = Robot(view, rng=random.Random(seed), patience=20.0)
        robot.set_up()
        made = 0
        while moves is None or made < moves:
            if view.refresh()["phase"] == "over":
                break
            robot.play_move()
            made += 1
        return made, dict(conn.link.stats)
    finally:
        conn.close()


def probe_line(board):
    lines = re.findall(rb"#probe [^\r\n]*\r?\n", bytes(board.console))
    if not lines:
        return {}
    return {k: int(v) for k, v in re.findall(r"(\w+)=(-?\d+)", lines[-1].decode())}


def profile_line(board):
    """The parts of the scans (bench/emu_profile.py's last line): {name: (total us, max us, calls)}."""
    lines = re.findall(rb"#prof [^\r\n]*\r?\n", bytes(board.console))
    if not lines:
        return {}
    return {k: tuple(int(x) for x in v.split("/")) for k, v in re.findall(r"([\w.]+)=([\d/]+)", lines[-1].decode())}


# The probe is compiled from boot.py into the heap it measures: its code, its histogram and
# emu_quiet.py are no part of the app.  Measured apart on the same image: the heap it adds to
# the app imported already, everything collected before and after.
FOOTPRINT = b"""import gc
from sowlight_fw import app
gc.collect()
_a0 = gc.mem_alloc()
exec(open('probe_src.py').read())
gc.collect()
_a1 = gc.mem_alloc()
with open('/footprint.txt', 'w') as f:
    f.write('%d' % (_a1 - _a0))
"""


def probe_footprint(image, config, journal=None):
    """The bytes of heap the probe (bench/emu_probe.py, with emu_quiet.py) itself holds on `image`."""
    board = EmuBoard(config=config if journal is None else None, uf2=str(image), journal=journal,
                     files={"boot.py": FOOTPRINT, "probe_src.py": PROBE, "emu_quiet.py": QUIET}, realtime=False)
    board.start(timeout=300)
    try:
        return int(board.flash_files()["footprint.txt"])
    finally:
        board.stop(save=False)


def measure(label, image, config, variant, moves, seed, journal=None, profile=False):
    board = EmuBoard(config=config if journal is None else None, uf2=str(image), journal=journal,
                     files={"boot.py": PROFILE if profile else PROBE, "emu_quiet.py": QUIET}, realtime=False,
                     act_jitter=random.Random(seed))
    t0 = time.monotonic()
    board.start(timeout=300)
    try:
        made, link = play_game(board, variant, moves, seed)
        # Let the probe print once more, with the game's last scans in.
        end = board.now_ns + 6 * 10 ** 9
        while board.now_ns < end and board.running:
            time.sleep(0.2)
        p = probe_line(board)
        lat, answer, waits, after = latencies(board)
        spans = touch_spans(board)
        prof = profile_line(board) if profile else {}
        result = {"label": label, "moves": made, "boot_to_hello_ms": (board.first_output_ns or 0) / 1e6,
                  "emulated_s": board.now_ns / 1e9, "wall_s": time.monotonic() - t0,
                  "idle_share": board.idle_ns / max(1, board.now_ns), "probe": p,
                  "latency_ms": figures(lat), "latency_n": len(lat),
                  "conversion_ms": figures(waits), "after_conversion_ms": figures(after),
                  "after_conversion_n": len(after),
                  "answer_ms": figures(answer), "answer_n": len(answer), "profile": prof,
                  "touch_ms": [x / 1e6 for x in (pct(spans, 50), min(spans))] if spans else [], "touch_n": len(spans),
                  "link": link}
    finally:
        board.stop(save=False)
    if not profile:
        result["probe_own"] = probe_footprint(image, config, journal)
    return result


def deploy_mpy(stock, config, tmp):
    """A flash with the app deployed as .mpy files by `sowlight deploy`, on the stock image."""
    journal = os.path.join(tmp, "mpy-flash.img")
    board = EmuBoard(config=config, uf2=str(stock), journal=journal, files={"main.py": b""}, realtime=False)
    board.start(timeout=300)
    try:
        r = subprocess.run([sys.executable, "-m", "sowlight", "deploy", "--port", board.path, "--config", config],
                           capture_output=True, text=True, timeout=1800)
        # The hello it waits for after the reset may take longer than it waits on a slow machine:
        # the files being there is what counts here.
        if "files are on the board" not in r.stderr and r.returncode != 0:
            raise SystemExit("sowlight deploy failed:\n%s%s" % (r.stdout, r.stderr))
    finally:
        board.stop()
    return journal


def run_at_repl(image, code):
    """Run `code` with mpremote at the REPL of `image` on the emulated board (the app not started);
    the finished subprocess.CompletedProcess."""
    with tempfile.NamedTemporaryFile("w", suffix=".py", delete=False) as f:
        f.write(code)
        script = f.name
    # The app's flag for "stay at the REPL once": the image's main.py is frozen, and would start the app.
    board = EmuBoard(preset="2x6-stores", uf2=str(image), files={"main.py": b"", "repl_once": b"1"},
                     realtime=False)
    board.start(timeout=300)
    try:
        return subprocess.run([sys.executable, "-m", "mpremote", "connect", board.path, "run", script],
                              capture_output=True, text=True, timeout=1800)
    finally:
        board.stop(save=False)
        os.unlink(script)


def pystone(image, micropython):
    source = Path(micropython) / "tests" / "perf_bench" / "misc_pystone.py"
    runner = Path(micropython) / "tests" / "perf_bench" / "benchrun.py"
    r = run_at_repl(image, source.read_text() + "\n" + runner.read_text() + "\nbm_run(1000, 10)\n")
    fields = r.stdout.split()
    if r.returncode != 0 or len(fields) < 3:
        raise SystemExit("pystone did not run:\n%s%s" % (r.stdout, r.stderr))
    us, loops = int(fields[0]), int(fields[1])
    return loops * 1e6 / us


@contextlib.contextmanager
def board_on(image, files, timeout=900):
    """An emulated board running `image`, started on a flash made here that holds `files`
    ({path: bytes}, a boot.py among them); stopped at the end."""
    with tempfile.TemporaryDirectory() as tmp:
        flash = Path(tmp) / "flash.img"
        flash.write_bytes(flashfs.make(files))
        board = EmuBoard(preset="2x6-stores", uf2=str(image), journal=str(flash), realtime=False)
        board.start(timeout=timeout)
        try:
            yield board
        finally:
            board.stop(save=False)


def compare_arguments(ap):
    """The arguments of a bench that measures a frozen image beside an earlier one in one run."""
    ap.add_argument("--uf2", required=True, help="the image with Sowlight frozen in")
    ap.add_argument("--previous-uf2", metavar="FILE", help="another image to compare, in the same run")
    ap.add_argument("--micropython", help="a MicroPython checkout: pystone from its tests/perf_bench")


def compared_images(args):
    """([(label, image)], scale): the images compare_arguments() named, "now" first, and the
    factor to a Pico's pystones when --micropython names a checkout (said on stdout), else None."""
    scale = None
    if args.micropython:
        stones = pystone(args.uf2, args.micropython)
        scale = stones / PICO_PYSTONES
        print("pystone on the emulated RP2040: %.0f/s (x%.2f to a Pico's %d)" % (stones, scale, PICO_PYSTONES))
    return [("now", args.uf2)] + ([("previous", args.previous_uf2)] if args.previous_uf2 else []), scale


HINT_SCRIPT = """
import mancala, time
from mancala.search import best_move
for name in %(variants)r:
    for opening in (0, 8):
        g = mancala.Game(name)
        for i in range(opening):
            if g.is_over():
                break
            moves = g.legal_moves()
            g.play(moves[i %% len(moves)])
        for budget in %(budgets)r:
            t = time.ticks_ms()
            r = best_move(g, depth=%(depth)d, max_nodes=%(nodes)d, time_ms=budget)
            print("#hint", name, opening, budget, r.depth, r.nodes, time.ticks_diff(time.ticks_ms(), t))
"""


def hint_depths(image, variants, scale):
    """The depth the board's hint search reaches within its budget (hint_ms, hint_nodes), at the start
    and 8 plies in, run at the REPL of the frozen image: [(variant, ply, budget ms, depth, nodes, ms)].
    With `scale`, also within the budget a Pico has (hint_ms / scale of emulated time)."""
    budgets = [DEFAULTS["hint_ms"]]
    if scale:
        budgets.append(int(DEFAULTS["hint_ms"] / scale))
    r = run_at_repl(image, HINT_SCRIPT % {"variants": tuple(variants), "budgets": tuple(budgets),
                                          "depth": DEFAULTS["hint_depth"], "nodes": DEFAULTS["hint_nodes"]})
    rows = [line.split()[1:] for line in r.stdout.splitlines() if line.startswith("#hint ")]
    if r.returncode != 0 or not rows:
        raise SystemExit("the hint search did not run:\n%s%s" % (r.stdout, r.stderr))
    return [(v, int(ply), int(b), int(d), int(n), int(ms)) for v, ply, b, d, n, ms in rows]


def show_hints(rows, scale):
    print("\nhint search (budget %d ms, %d nodes, depth %d at most), depth reached:"
          % (DEFAULTS["hint_ms"], DEFAULTS["hint_nodes"], DEFAULTS["hint_depth"]))
    for v, ply, budget, depth, nodes, ms in rows:
        which = "raw" if budget == DEFAULTS["hint_ms"] else "scaled (a Pico's %d ms)" % DEFAULTS["hint_ms"]
        print("  %-8s ply %-2d %-26s depth %2d, %6d nodes, %5d ms emulated" % (v, ply, which, depth, nodes, ms))


def show(result, scale):
    p = result["probe"]
    print("\n%s: %d moves, %.1f s emulated (%.0f %% idle), %.0f s of wall time" % (
        result["label"], result["moves"], result["emulated_s"], 100 * result["idle_share"], result["wall_s"]))

    def ms(us):
        return "%.1f ms (%.1f scaled)" % (us / 1000, us / 1000 * scale) if scale else "%.1f ms" % (us / 1000)
    print("  boot to hello            %s" % ms(result["boot_to_hello_ms"] * 1000))
    if p:
        own = result.get("probe_own") or 0
        print("  free heap after boot     %.1f KB" % ((p.get("boot_free", -1) + own) / 1024))
        print("  heap in use, peak        %.1f KB (garbage included); live %.1f KB (sampled)" % (
            (p["alloc_peak"] - own) / 1024, (p["live_peak"] - own) / 1024))
        if own:
            print("                           (the app's: less the probe's own %.1f KB, measured apart; "
                  "with it %.1f KB, %.1f KB)" % (own / 1024, p["alloc_peak"] / 1024, p["live_peak"] / 1024))
        print("  scans                    %d: p50 %s, p99 %s, max %s" % (p["scans"], ms(p["p50"]), ms(p["p99"]),
                                                                       ms(p["max"])))
    else:
        print("  (no probe line: the app did not run its scans)")
    lat = result["latency_ms"]
    if lat:
        # Scaled whole, the wait for the watch's timer too: an upper bound.
        print("  sensor -> LED frame      %d changes: p50 %s, p99 %s, max %s" % (
            result["latency_n"], ms(lat[0] * 1000), ms(lat[1] * 1000), ms(lat[2] * 1000)))
    conv, after = result.get("conversion_ms"), result.get("after_conversion_ms")
    if conv and after:
        # On load cells the change is the load's: the HX711 tells of it when its conversion is
        # done, a wait of the chip's own that a Pico has too (not scaled).  From that reading on
        # the time is the firmware's: its timer's wait and its work (scaled whole).
        print("  load -> HX711's reading  (the chip's conversion) p50 %.1f ms, p99 %.1f ms, max %.1f ms" % tuple(conv))
        print("  HX711's reading -> LED frame  %d changes: p50 %s, p99 %s, max %s" % (
            result["after_conversion_n"], ms(after[0] * 1000), ms(after[1] * 1000), ms(after[2] * 1000)))
    shown = result.get("touch_ms")
    if shown:
        # How long a touch stayed on the LEDs: until the controller's answer (after the debounce),
        # or TOUCH_MS with nothing new.  Emulated time, not scaled: mostly the debounce's wait.
        print("  touch on the LEDs for    %d touches: p50 %.1f ms, shortest %.1f ms" % (
            result["touch_n"], shown[0], shown[1]))
    ans = result.get("answer_ms")
    if ans:
        # The debounce is a wait on the board's clock, the same on a Pico: only the rest is scaled.
        d = DEFAULTS["debounce_ms"]

        def latency(x):
            return "%.1f ms (%.1f scaled)" % (x, d + (x - d) * scale) if scale else "%.1f ms" % x
        print("  sensor -> the controller's answer on the LEDs  %d changes: p50 %s, p99 %s, max %s" % (
            result["answer_n"], latency(ans[0]), latency(ans[1]), latency(ans[2])))
        print("  the same less the %d ms debounce (the firmware's own reaction): p50 %s, p99 %s, max %s" % (
            d, ms((ans[0] - d) * 1000), ms((ans[1] - d) * 1000), ms((ans[2] - d) * 1000)))
    link = result.get("link")
    if link:
        # The laptop's clock runs while the emulator is slower than a Pico: a request it sends
        # again after a timeout is one more the board answers (and more garbage in its heap).
        print("  link                     %d requests; sent again after a timeout %d, after a damaged reply %d" % (
            link.get("requests", 0), link.get("resent_timeout", 0), link.get("resent_damaged", 0)))
    prof = result.get("profile")
    if prof:
        print("  parts of the scans (bench/emu_profile.py; total / longest / calls):")
        for name, (total, most, calls) in sorted(prof.items(), key=lambda kv: (kv[0].startswith("scan."), -kv[1][0])):
            unit = "KB" if name == "alloc_bytes" else "ms"      # (bytes a scan allocated; the rest us)
            print("    %-18s %9.1f %s  %6.1f %s  %6d  (mean %.2f %s)" % (
                name, total / 1000, unit, most / 1000, unit, calls, total / 1000 / max(1, calls), unit))


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--uf2", required=True, help="the image with Sowlight frozen in")
    ap.add_argument("--stock-uf2", help="a stock MicroPython image for the .mpy deploy (left out without it)")
    ap.add_argument("--previous-uf2", metavar="FILE",
                    help="a frozen image of an earlier Sowlight, measured the same way beside this one (before/after)")
    ap.add_argument("--micropython", help="a MicroPython checkout: pystone from its tests/perf_bench")
    ap.add_argument("--config", default=str(ROOT / "hardware" / "boards" / "2x6-stores.json"))
    ap.add_argument("--variant", default="oware")
    ap.add_argument("--moves", type=int, help="moves to play (default: the whole game)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--hint-variants", default="oware,kalah", metavar="V,V",
                    help="the depth the hint search reaches in its budget, for these variants ('' leaves it out)")
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--profile", action="store_true",
                    help="bench/emu_profile.py as main.py: the parts of the scans timed (its scans' own figures "
                         "are then left out: the timers add to them)")
    args = ap.parse_args(argv)
    scale = None
    if args.micropython:
        stones = pystone(args.uf2, args.micropython)
        scale = stones / PICO_PYSTONES
        print("pystone on the emulated RP2040: %.0f pystones/s (a Pico: about %d): times scaled by %.2f"
              % (stones, PICO_PYSTONES, scale))
    results = []
    if args.previous_uf2:
        results.append(measure("frozen image, previous", args.previous_uf2, args.config, args.variant, args.moves,
                               args.seed, profile=args.profile))
    results.append(measure("frozen image", args.uf2, args.config, args.variant, args.moves, args.seed,
                           profile=args.profile))
    if args.stock_uf2:
        with tempfile.TemporaryDirectory() as tmp:
            journal = deploy_mpy(args.stock_uf2, args.config, tmp)
            results.append(measure(".mpy deploy", args.stock_uf2, None, args.variant, args.moves, args.seed,
                                   journal=journal))
    hints = hint_depths(args.uf2, args.hint_variants.split(","), scale) if args.hint_variants else []
    if args.json:
        print(json.dumps({"pystone_scale": scale, "results": results, "hints": hints}, indent=1))
    for r in results:
        show(r, scale)
    if hints:
        show_hints(hints, scale)


if __name__ == "__main__":
    main()
