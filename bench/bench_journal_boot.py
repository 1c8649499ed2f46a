"""The journal's boot on a flash that holds many old games: the frozen image against another (the
previous version's) in the same run, on the emulated RP2040.

    python bench/bench_journal_boot.py --uf2 NEW.uf2 --previous-uf2 OLD.uf2 [--games 0,60,300]

The flash is made on this side (littlefs, as the emulated board keeps it) with N games in the
board's journal, each as a long-used board keeps it: a start, 80 moves, the end, and the
laptop's acknowledgement of all of it (written by the firmware's own records module, so each is
a game the app would list and sync).  A boot.py opens the journal as the app does at power-up,
timing Journal.open() with ticks_ms and measuring the heap the journal then holds (collected);
the app then starts from its frozen main.py.  Printed per image and N: open() in ms (raw, and
scaled to 900 pystones/s with --micropython, a MicroPython checkout whose tests/perf_bench/
misc_pystone.py runs on the same emulator), the journal's heap in KB, and boot to the app's
hello (the emulated time of its first byte on USB, which includes the app's own open()).
(A bench started on an empty flash never sees what a board that has kept 300 games pays.)
"""
import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT / "host"), str(ROOT / "firmware"), str(ROOT / "rules"), str(ROOT / "bench")]

from sowlight_fw.journal import records  # noqa: E402
import bench_emu  # noqa: E402

MOVES = 80

BOOT = b"""
import gc, time
try:
    from sowlight_fw.journal import Journal
    from sowlight_fw.storage import FlashStorage
    gc.collect()
    before = gc.mem_alloc()
    t = time.ticks_ms()
    j = Journal(FlashStorage())
    j.open()
    took = time.ticks_diff(time.ticks_ms(), t)
    gc.collect()
    text = '%d %d %d' % (took, gc.mem_alloc() - before, len(j.games))
    j = None
except Exception as e:
    text = 'error %r' % (e,)
with open('/bench.txt', 'w') as f:
    f.write(text)
"""


def game_file(game):
    """A game's journal file as the board leaves it once the laptop has all of it."""
    recs = [{"kind": "start", "game": game, "ply": 0, "variant": "oware", "options": {}, "t": 1767225600}]
    for i in range(MOVES):
        recs.append({"kind": "move", "game": game, "ply": i + 1, "player": i % 2, "move": i % 6,
                     "name": "ABCDEF"[i % 6], "pd": i * 257 & 0xFFFF})
    recs.append({"kind": "end", "game": game, "ply": MOVES + 1, "winner": 0, "scores": [25, 23],
                 "reason": "no moves"})
    data = b"".join(records.written(r) for r in recs)
    return data + records._frame(records.SYNC, game, MOVES + 1, records.SETTLED)


def run(image, games):
    files = {"boot.py": BOOT}
    for g in range(1, games + 1):
        files["journal/" + records.file_name(g)] = game_file(g)
    with bench_emu.board_on(image, files) as board:
        end = time.monotonic() + 600
        while board.first_output_ns is None and time.monotonic() < end:
            time.sleep(0.5)             # (the app's hello comes after its own open())
        got = board.flash_files().get("bench.txt", b"")
        if not got or got.startswith(b"error"):
            raise SystemExit("%s: the board's script failed: %s" % (image, got.decode(errors="replace")))
        took, heap, listed = (int(x) for x in got.split())
        if listed != games:
            raise SystemExit("%s: the journal listed %d games of %d" % (image, listed, games))
        return took, heap, (board.first_output_ns or 0) / 1e6


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    bench_emu.compare_arguments(ap)
    ap.add_argument("--games", default="0,60,300", help="old games on the flash (each %d moves)" % MOVES)
    args = ap.parse_args()
    images, scale = bench_emu.compared_images(args)

    def fig(ms):
        return "%.0f (%.0f)" % (ms, ms * scale) if scale else "%.0f" % ms
    print("%-9s %6s %20s %14s %20s" % ("image", "games", "open() ms", "journal KB", "boot to hello ms"))
    for n in (int(x) for x in args.games.split(",")):
        for label, image in images:
            took, heap, hello = run(image, n)
            print("%-9s %6d %20s %14.1f %20s" % (label, n, fig(took), heap / 1024, fig(hello)))


if __name__ == "__main__":
    main()
