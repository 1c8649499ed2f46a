"""A record's write into the journal on a flash that holds many games: the frozen image against
another (the previous version's) in the same run, on the emulated RP2040.

    python bench/bench_flash_free.py --uf2 NEW.uf2 --previous-uf2 OLD.uf2 [--games 0,40,120]

The flash is made on this side (littlefs, as the emulated board keeps it) with N files of
6 KB beside the journal -- the space N old games take -- and a boot.py that writes one game
of 62 records (start, 60 moves, end) through the firmware's own Journal and FlashStorage,
timing each append() with ticks_us, and counting the filesystem's statvfs calls.  Printed per
image and N: append p50 / max (ms, raw and scaled to 900 pystones/s when --micropython names a
MicroPython checkout whose tests/perf_bench/misc_pystone.py is run on the same emulator) and
statvfs calls.  (littlefs's statvfs walks every block in use: its cost grows with the flash's
contents, which a bench started on an empty flash never sees.)
"""
import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT / "host"), str(ROOT / "firmware"), str(ROOT / "rules"), str(ROOT / "bench")]

import bench_emu  # noqa: E402

BOOT = b"""
import os, time
from sowlight_fw.journal import Journal
from sowlight_fw import storage
asked = [0]


class _Counted:
    # (os is a built-in module: its functions cannot be replaced, the storage's name for it can)
    def __getattr__(self, name):
        return getattr(os, name)

    def statvfs(self, path):
        asked[0] += 1
        return os.statvfs(path)


try:
    storage.os = _Counted()
    j = Journal(storage.FlashStorage('/benchj'))
    j.open()
    recs = [{"kind": "start", "game": 1, "ply": 0, "variant": "oware", "options": {}}]
    for i in range(60):
        recs.append({"kind": "move", "game": 1, "ply": i + 1, "player": i % 2, "move": i % 6, "name": "A"})
    recs.append({"kind": "end", "game": 1, "ply": 61, "winner": 0, "scores": [25, 23], "reason": "no moves"})
    us = []
    for r in recs:
        t = time.ticks_us()
        j.append(r)
        us.append(time.ticks_diff(time.ticks_us(), t))
    us.sort()
    text = '%d %d %d' % (us[len(us) // 2], us[-1], asked[0])
except Exception as e:
    text = 'error %r' % (e,)
finally:
    storage.os = os
with open('/bench.txt', 'w') as f:
    f.write(text)
"""


def run(image, games):
    files = {"boot.py": BOOT}
    for g in range(games):
        files["filler/g%05d" % g] = bytes(6144)
    with bench_emu.board_on(image, files, timeout=600) as board:
        end = time.monotonic() + 600
        while time.monotonic() < end:
            got = board.flash_files().get("bench.txt")
            if got:
                if got.startswith(b"error"):
                    raise SystemExit("%s: the board's script failed: %s" % (image, got.decode(errors="replace")))
                return [int(x) for x in got.split()]
            time.sleep(1)
        raise SystemExit("%s: no figures from the board within 10 minutes" % image)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    bench_emu.compare_arguments(ap)
    ap.add_argument("--games", default="0,40,120", help="old games' files on the flash (6 KB each)")
    args = ap.parse_args()
    images, scale = bench_emu.compared_images(args)

    def fig(us):
        return "%.2f (%.2f)" % (us / 1e3, us / 1e3 * scale) if scale else "%.2f" % (us / 1e3)
    print("%-9s %6s %22s %22s %9s" % ("image", "games", "append p50 ms", "append max ms", "statvfs"))
    for n in (int(x) for x in args.games.split(",")):
        for label, image in images:
            p50, worst, asked = run(image, n)
            print("%-9s %6d %22s %22s %9d" % (label, n, fig(p50), fig(worst), asked))


if __name__ == "__main__":
    main()
