"""The rules core on the MicroPython VM: heap, allocation per move, time per move, RP2040 estimate.

    python bench/bench_micropython_rules.py [variant ...]

For each variant (default: every playable one):
- heap kept by importing the core and that variant and setting up a game;
- the most bytes one move allocates, on the search path (push) and with a trace (play);
- the time of the move with the longest trace (the longest relay), repeated to be
  timed, on the VM and scaled to an RP2040 (the traced path, as the board plays it).

The RP2040 estimate: pystone runs on the same VM in the same run, and times are
scaled by (VM pystones/s) / (900 pystones/s, MicroPython on an RP2040 at 125 MHz).
pystone is not shipped with this project: the bench loads it from an installed
CPython's test package (CPython 3.6 and older ship Lib/test/pystone.py), or from
the file named by SOWLIGHT_PYSTONE; without it, VM times are printed unscaled.
Targets (issue: rules core I/II): import <= 40 KB (<= 48 KB for the largest
variant), <= 2 KB per move, longest relay <= 20 ms (<= 50 ms four rows) on an RP2040.
"""
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


def vm_pystones(vm, path, loops=5000):
    """Run pystone on the VM; return pystones per second."""
    src = path.read_text()
    # Adapt the timer to MicroPython (time.time() may be whole seconds there).
    src = src.replace("from time import time", "from time import ticks_ms\ndef time():\n    return ticks_ms() / 1000")
    src = src.replace("from time import clock", "from time import ticks_ms\ndef clock():\n    return ticks_ms() / 1000")
    code = src.replace('if __name__ == \'__main__\':', "if False:") + "\nbench, stones = pystones(%d)\nprint(stones)\n" % loops
    return float(vm.run(code, timeout=300).strip().splitlines()[-1])


def main(argv):
    names = argv or mancala.variants()
    vm = mpvm.MicroPythonVM()
    stone = find_pystone()
    scale = None
    if stone:
        ps = vm_pystones(vm, stone)
        scale = ps / RP2040_PYSTONES
        print("pystone on the VM: %.0f pystones/s = %.1fx an RP2040 (%s)" % (ps, scale, stone))
    else:
        print("pystone not found (set SOWLIGHT_PYSTONE=path/to/pystone.py): times are the VM's own")
    core = vm.heap_used("import mancala")
    print("heap kept by `import mancala`: %d bytes" % core.retained)
    print("%-18s %9s %9s %9s %10s %10s %10s  %s" % ("variant", "heap B", "push B", "play B", "push ms", "play ms",
                                                   "RP2040 ms", "slowest move"))
    probe = (ROOT / "bench" / "mp_rules_probe.py").read_text()
    for name in names:
        heap = vm.heap_used("import mancala\ng = mancala.Game(%r)" % name)
        out = vm.run(probe + "\nimport json\nprint(json.dumps(probe(%r)))\n" % name, timeout=600)
        _, push_b, play_b, push_ms, play_ms, slowest = json.loads(out.strip().splitlines()[-1])
        rp = "%10.2f" % (play_ms * scale) if scale else "%10s" % "-"
        print("%-18s %9d %9d %9d %10.3f %10.3f %s  %s" % (name, heap.retained, push_b, play_b, push_ms,
                                                          play_ms, rp, slowest))
    vm.close()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
