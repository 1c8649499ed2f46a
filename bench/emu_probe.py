"""boot.py for bench/bench_emu.py: the board's app, which main.py then starts, with its scans measured.

Runs on the board (the emulated RP2040).  Each scan (App.step) is timed with ticks_us into a
histogram of 0.5 ms buckets; the heap is read after each scan (mem_alloc, garbage included)
and after a collection every LIVE_EVERY scans (what is live).  Every PROBE_EVERY scans a line
goes out on the serial port, which the link's peer takes for a text line (noise) -- only while
the host has been quiet for a second (emu_quiet.py: after the game, when the bench has let go of the
port), since a text line that comes while a request waits for its reply is taken for that
reply, damaged, and the request is sent again (work and heap the board would not otherwise
spend):

    #probe scans=N p50=US p99=US max=US alloc_peak=B live_peak=B free=B boot_free=B
"""
import gc
from array import array
from time import ticks_us, ticks_diff

from sowlight_fw import app as _app
from emu_quiet import quiet

PROBE_EVERY = 50
LIVE_EVERY = 250
_BUCKET_US = 500
_hist = array("I", bytes(4 * 256))      # 0.5 ms buckets, the last one "127.5 ms and more"
_stat = array("i", [0, 0, 0, 0, -1])    # scans, max us, peak alloc, peak live, free after boot
_step = _app.App.step


def _pct(q):
    want = (_stat[0] * q + 99) // 100
    n = 0
    for i in range(256):
        n += _hist[i]
        if n >= want:
            return i * _BUCKET_US
    return 255 * _BUCKET_US


def _probed_step(self, now):
    if _stat[4] < 0:
        gc.collect()
        _stat[4] = gc.mem_free()
    t = ticks_us()
    _step(self, now)
    d = ticks_diff(ticks_us(), t)
    _hist[min(255, d // _BUCKET_US)] += 1
    _stat[0] += 1
    if d > _stat[1]:
        _stat[1] = d
    a = gc.mem_alloc()
    if a > _stat[2]:
        _stat[2] = a
    if _stat[0] % LIVE_EVERY == 0:
        gc.collect()
        a = gc.mem_alloc()
        if a > _stat[3]:
            _stat[3] = a
    if _stat[0] % PROBE_EVERY == 0 and quiet(self, now):
        print("#probe scans=%d p50=%d p99=%d max=%d alloc_peak=%d live_peak=%d free=%d boot_free=%d"
              % (_stat[0], _pct(50), _pct(99), _stat[1], _stat[2], _stat[3], gc.mem_free(), _stat[4]))


_app.App.step = _probed_step     # (the image's own main.py then starts the app)
