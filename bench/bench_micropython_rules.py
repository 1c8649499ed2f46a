"""The rules core on the MicroPython VM: heap, allocation per move, time per move, RP2040 estimate.

    python bench/bench_micropython_rules.py [variant ...]

For each variant (default: every playable one):
- heap kept by importing the core and that variant and setting up a game;
- the most bytes one move allocates, on the search path (push) and with a trace
  (play), and one listing of the legal moves of a new position (legal_moves);
- the time of the slowest of the four moves with the longest traces (the longest
  relays), each repeated to be timed, on the VM and scaled to an RP2040 (the
  traced path, as the board plays it);
- the time to list the legal moves of the position with the most of them
  (variants that list moves by playing each turn out do it only when asked:
  the board asks once a turn, to follow the hands).

The RP2040 estimate: pystone runs on the same VM in the same run, and times are
scaled by (VM pystones/s) / (900 pystones/s, MicroPython on an RP2040 at 125 MHz).
pystone is not shipped with this project: the bench loads it from an installed
CPython's test package (CPython 3.6 and older ship Lib/test/pystone.py), or from
the file named by SOWLIGHT_PYSTONE; without it, VM times are printed unscaled.
Targets (issue: rules core I/II): import <= 40 KB (<= 48 KB for the largest
variant), <= 2 KB per move, longest relay <= 20 ms (<= 50 ms four rows) on an RP2040.
"""
import argparse
import glob
import json
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "rules"))

import mancala  # noqa: E402
import mpvm  # noqa: E402

RP2040_PYSTONES = 900.0


def find_pystone():
    env = os.environ.get("SOWLIGHT_PYSTONE")
    if env:
        return Path(env)
    pats = ["/root/.pyenv/versions/*/lib/python*/test/pystone.py", "/usr/lib/python*/test/pystone.py",
            "/usr/local/lib/python*/test/pystone.py", os.path.expanduser("~/.pyenv/versions/*/lib/python*/test/pystone.py")]
    for pat in pats:
        hits = sorted(glob.glob(pat))
        if hits:
            return Path(hits[-1])
    return None


def pystone_code(path):
    """pystone's source, adapted to MicroPython's clock, defining pystones(loops) without running it."""
    src = path.read_text()
    # Adapt the timer to MicroPython (time.time() may be whole seconds there).
    src = src.replace("from time import time", "from time import ticks_ms\ndef time():\n    return ticks_ms() / 1000")
    src = src.replace("from time import clock", "from time import ticks_ms\ndef clock():\n    return ticks_ms() / 1000")
    return src.replace('if __name__ == \'__main__\':', "if False:")


# Run in the same VM request as each variant's probe: pystone before and after
# it, the best run counting, as the probe's times are the best of several
# batches (the machine may be busy with other work; best against best keeps the
# ratio steady).
CALIBRATE = """
def _stones(runs=3, loops=3000):
    return max(pystones(loops)[1] for _ in range(runs))
"""


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], epilog=__doc__.split("\n\n", 2)[2],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("variant", nargs="*", help="variant ids (default: every playable one)")
    names = ap.parse_args(argv).variant or mancala.variants()
    vm = mpvm.MicroPythonVM()
    stone = find_pystone()
    calibrate = ""
    if stone:
        calibrate = pystone_code(stone) + CALIBRATE
        print("RP2040 estimates from pystone (%s) run with each variant's probe: x RP = VM pystones/s / %.0f"
              % (stone, RP2040_PYSTONES))
    else:
        print("pystone not found (set SOWLIGHT_PYSTONE=path/to/pystone.py): times are the VM's own")
    core = vm.heap_used("import mancala")
    print("heap kept by `import mancala`: %d bytes" % core.retained)
    print("%-18s %7s %7s %7s %7s %8s %8s %9s %7s %9s %5s  %s" % (
        "variant", "heap B", "push B", "play B", "list B", "push ms", "play ms", "RP2040 ms", "moves", "list RP ms",
        "x RP", "slowest move"))
    probe = (ROOT / "bench" / "mp_rules_probe.py").read_text()
    for name in names:
        heap = vm.heap_used("import mancala\ng = mancala.Game(%r)" % name)
        code = probe + calibrate + "\nimport json\n"
        if stone:
            code += "s0 = _stones()\nr = probe(%r)\nr.append(max(s0, _stones()))\n" % name
        else:
            code += "r = probe(%r)\nr.append(0)\n" % name
        code += "print(json.dumps(r))\n"
        out = vm.run(code, timeout=600)
        _, push_b, play_b, list_b, push_ms, play_ms, list_ms, most, slowest, stones = json.loads(
            out.strip().splitlines()[-1])
        scale = stones / RP2040_PYSTONES if stones else None
        rp = "%9.2f" % (play_ms * scale) if scale else "%9s" % "-"
        rp_list = "%9.2f" % (list_ms * scale) if scale else "%9s" % "-"
        print("%-18s %7d %7d %7d %7d %8.3f %8.3f %s %7d %s %5.1f  %s" % (
            name, heap.retained, push_b, play_b, list_b, push_ms, play_ms, rp, most, rp_list, scale or 0, slowest))
    vm.close()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
