"""boot.py for `bench/bench_emu.py --profile`: the parts of the board's scans timed (main.py starts the app).

Runs on the board (the emulated RP2040).  The methods a scan goes through are wrapped in a
timer (ticks_us): for each part, the total, the longest call and the calls.  Each scan (App.step)
is also put down to the kind of work the controller did in it (the last of its parts that ran:
idle, work_due, progress, refresh, observed, quiet; "none" for a scan that did none), and a scan
in which the heap in use went down had an automatic collection in it ("gc").  Every
PROBE_EVERY scans a line goes out on the serial port, which the link's peer takes for noise
(once the host is quiet: emu_quiet.py):

    #prof NAME=TOTAL_US/MAX_US/CALLS ... scan.KIND=TOTAL_US/MAX_US/SCANS ...

The wrappers add a few microseconds a call and a little garbage: the parts' figures are for
comparing, the scans' own figures are bench/emu_probe.py's.
"""
import gc
from array import array
from time import ticks_us, ticks_diff

from sowlight_fw import app as _app, controller as _ctl, link as _link
from sowlight_fw.hw import leds as _leds
from sowlight_fw.follow.observe import Observer
from emu_quiet import quiet

PROBE_EVERY = 50
_names = []
_acc = []
_kind = ["none"]
_kinds = {}


def _slot(label):
    _names.append(label)
    a = array("i", [0, 0, 0])
    _acc.append(a)
    return a


def _add(a, d):
    a[0] += d
    a[2] += 1
    if d > a[1]:
        a[1] = d


def _wrap(cls, name, label, kind=False):
    f = getattr(cls, name)
    a = _slot(label)

    def timed(*args):
        t = ticks_us()
        r = f(*args)
        _add(a, ticks_diff(ticks_us(), t))
        if kind:
            _kind[0] = label
        return r
    setattr(cls, name, timed)


C = _ctl.Controller
for _n in ("_idle", "_work_due", "_progress_now", "_refresh", "_observed", "_check_quiet"):
    _wrap(C, _n, _n.lstrip("_"), True)
_wrap(C, "_scanned", "controller")
_wrap(C, "render", "render")
_wrap(Observer, "feed", "observe")
_wrap(_link.BoardLink, "poll", "link_poll")
_wrap(_link.BoardLink, "event", "link_event")
_wrap(_link.BoardLink, "_message", "link_message")
_wrap(_link.BoardLink, "send", "link_send")
_wrap(_link.UsbTransport, "read", "usb_read")
_wrap(_app.App, "request", "request")
_wrap(_app.App, "flush", "flush")
_wrap(_leds.Strip, "show", "strip_show")
_step = _app.App.step


class _TimedGC:
    """app.py's `gc`, its collections timed ("gc_collect")."""
    mem_alloc = gc.mem_alloc
    mem_free = gc.mem_free
    collect = gc.collect


_wrap(_TimedGC, "collect", "gc_collect")
_TimedGC.collect = staticmethod(_TimedGC.collect)
_app.gc = _TimedGC
_allocated = _slot("alloc_bytes")      # what a scan allocates (total bytes / most / scans)
_scans = [0]
_late = []          # the sensors' and buttons' classes: known once the app has made them


def _probed_step(self, now):
    if not _late:
        _late.append(1)
        _wrap(type(self.sensors), "read", "sensors")
        _wrap(type(self.buttons), "poll", "buttons")
    _kind[0] = "none"
    a0 = gc.mem_alloc()
    t = ticks_us()
    _step(self, now)
    d = ticks_diff(ticks_us(), t)
    a1 = gc.mem_alloc()
    k = "gc" if a1 < a0 else _kind[0]
    if a1 >= a0:
        _add(_allocated, a1 - a0)
    a = _kinds.get(k)
    if a is None:
        a = _kinds[k] = array("i", [0, 0, 0])
    _add(a, d)
    _scans[0] += 1
    if _scans[0] % PROBE_EVERY == 0 and quiet(self, now):
        parts = ["%s=%d/%d/%d" % (_names[i], _acc[i][0], _acc[i][1], _acc[i][2]) for i in range(len(_names))]
        parts += ["scan.%s=%d/%d/%d" % (k, v[0], v[1], v[2]) for k, v in _kinds.items()]
        print("#prof " + " ".join(parts))


_app.App.step = _probed_step     # (the image's own main.py then starts the app)
