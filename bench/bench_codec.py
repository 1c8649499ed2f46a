"""How fast the link codec is, against plain json as the peer, measured in the same run.

    python bench/bench_codec.py            # CPython, plus the MicroPython VM when it is installed
    python bench/bench_codec.py --no-vm

A frame is json plus a header, a canonical writer (Python, not C) and a CRC-32,
so the interesting figures are the ratios: what the framing costs on top of
json.dumps/json.loads of the same payload, and how many bytes it adds.  Not a
test: nothing here asserts a speed.
"""
import argparse
import json
import sys
import time
from pathlib import Path

from sowlight_fw import crc

from sowlight_fw.link import codec

# A typical move frame: an Oware move of 7 seeds ending in a capture of 2
# (a real trace from the rules core), with the position after it.
MOVE = {
    "game": 12, "ply": 9, "player": 0, "move": 0, "name": "A",
    "trace": [["lift", 0, 7, -1], ["drop", 1, 1, -1], ["drop", 2, 1, -1], ["drop", 3, 1, -1],
              ["drop", 4, 1, -1], ["drop", 5, 1, -1], ["drop", 6, 1, -1], ["drop", 7, 1, -1],
              ["take", 7, 2, 12]],
    "pos": {"pits": [0, 3, 2, 8, 2, 10, 8, 0, 7, 6, 0, 0], "stores": [2, 0], "to_move": 1},
}
STEP = {"game": 12, "ply": 10, "ev": "dropped", "cell": 4, "i": 3}


def best_rate(fn, n, repeat=5):
    """Calls per second of fn (best of `repeat` runs of n calls)."""
    best = None
    for _ in range(repeat):
        t0 = time.perf_counter()
        for _ in range(n):
            fn()
        dt = time.perf_counter() - t0
        best = dt if best is None or dt < best else best
    return n / best


def cpython_figures():
    frame = codec.encode(9, "move", MOVE)
    text = json.dumps(MOVE)
    compact = json.dumps(MOVE, separators=(",", ":"))
    dec = codec.Decoder("board")

    rows = []
    for name, payload in (("move", MOVE), ("step", STEP)):
        f = codec.encode(9, name, payload)
        t = json.dumps(payload).encode()
        enc = best_rate(lambda: codec.encode(9, name, payload), 20000)
        enc_peer = best_rate(lambda: json.dumps(payload).encode(), 20000)
        decr = best_rate(lambda: dec.feed(f), 20000)
        dec_peer = best_rate(lambda: json.loads(t), 20000)
        rt = best_rate(lambda: dec.feed(codec.encode(9, name, payload)), 20000)
        rt_peer = best_rate(lambda: json.loads(json.dumps(payload).encode()), 20000)
        rows.append((name, enc, enc_peer, decr, dec_peer, rt, rt_peer))

    data = bytes(range(256)) * 16
    c_rate = best_rate(lambda: crc.crc32(data), 2000) * len(data)
    py_rate = best_rate(lambda: crc.crc32_pure(data), 20) * len(data)

    print("CPython %s" % sys.version.split()[0])
    print("  bytes of a typical move frame: %d (json.dumps default: %d, compact json: %d; "
          "framing adds %d bytes = %.2fx compact json)" % (
              len(frame), len(text), len(compact), len(frame) - len(compact), len(frame) / len(compact)))
    print("  %-5s %-8s %12s %12s %7s" % ("type", "op", "codec/s", "json/s", "ratio"))
    for name, enc, enc_peer, decr, dec_peer, rt, rt_peer in rows:
        print("  %-5s %-8s %12.0f %12.0f %6.2fx" % (name, "encode", enc, enc_peer, enc_peer / enc))
        print("  %-5s %-8s %12.0f %12.0f %6.2fx" % (name, "decode", decr, dec_peer, dec_peer / decr))
        print("  %-5s %-8s %12.0f %12.0f %6.2fx" % (name, "both", rt, rt_peer, rt_peer / rt))
    print("  (ratio = how many times slower the codec is than json of the same payload)")
    print("  CRC-32: binascii %.1f MB/s, pure-Python fallback %.2f MB/s (%.0fx slower)" % (
        c_rate / 1e6, py_rate / 1e6, c_rate / py_rate))


VM_CODE = r"""
import json, time
from sowlight_fw import crc
from sowlight_fw.link import codec
MOVE = %s
def rate(fn, n):
    best = 0
    for _ in range(3):  # the first runs also grow this port's heap: keep the best
        t0 = time.ticks_us()
        for _ in range(n):
            fn()
        best = max(best, n * 1000000 / max(1, time.ticks_diff(time.ticks_us(), t0)))
    return best
dec = codec.Decoder("board")
f = codec.encode(9, "move", MOVE)
t = json.dumps(MOVE)
n = 1000
out = {
    "encode": rate(lambda: codec.encode(9, "move", MOVE), n),
    "encode_peer": rate(lambda: json.dumps(MOVE), n),
    "decode": rate(lambda: dec.feed(f), n),
    "decode_peer": rate(lambda: json.loads(t), n),
    "crc": rate(lambda: crc.crc32(f), n) * len(f),
    "crc_pure": rate(lambda: crc.crc32_pure(f), 30) * len(f),
}
print(json.dumps(out))
"""


def vm_figures():
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
    import mpvm
    problem = mpvm.find_problem()
    if problem:
        print("MicroPython VM: skipped (%s)" % problem)
        return
    with mpvm.MicroPythonVM() as vm:
        r = json.loads(vm.run(VM_CODE % json.dumps(MOVE), timeout=120).strip().splitlines()[-1])
        retained = vm.heap_used("from sowlight_fw.link import codec").retained
        per_frame = vm.heap_used(
            "d.feed(f)",
            setup="from sowlight_fw.link import codec\nd = codec.Decoder('board')\nf = codec.encode(9, 'move', %s)"
                  % json.dumps(MOVE)).allocated
        per_encode = vm.heap_used(
            "codec.encode(9, 'move', M)",
            setup="from sowlight_fw.link import codec\nM = %s" % json.dumps(MOVE)).allocated
    print("MicroPython %s (WebAssembly port; a Pico is much slower, the ratios are what carries over)"
          % vm.micropython_version)
    print("  move encode %8.0f/s   json.dumps %8.0f/s   ratio %.2fx" % (
        r["encode"], r["encode_peer"], r["encode_peer"] / r["encode"]))
    print("  move decode %8.0f/s   json.loads %8.0f/s   ratio %.2fx" % (
        r["decode"], r["decode_peer"], r["decode_peer"] / r["decode"]))
    print("  CRC-32: binascii %.2f MB/s, pure fallback %.3f MB/s (%.0fx slower)" % (
        r["crc"] / 1e6, r["crc_pure"] / 1e6, r["crc"] / r["crc_pure"]))
    print("  heap: codec + crc imported %d bytes kept (Decoder buffer not included: %d more per Decoder)"
          % (retained, codec.MAX_FRAME))
    print("  heap allocated per move frame: encode %d bytes, decode %d bytes" % (per_encode, per_frame))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--no-vm", action="store_true", help="skip the MicroPython VM figures")
    args = parser.parse_args()
    cpython_figures()
    if not args.no_vm:
        vm_figures()


if __name__ == "__main__":
    main()
