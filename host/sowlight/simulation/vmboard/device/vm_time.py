"""`time` on the VM board: the port's own, with sleeps that wait in the bridge.

The WebAssembly port's sleep_ms spins on the clock, so the host's bytes and
Ctrl-C go unheard while it runs; these sleep in the bridge, which reads the
port meanwhile (Ctrl-C raises KeyboardInterrupt as on a board).
"""
from utime import *  # noqa: F401,F403 -- the rest of the port's time module
import utime as _time

import _vmboard

__name__ = "time"


def sleep_ms(ms):
    if ms > 0:
        _vmboard.sleep(ms)


def sleep_us(us):
    if us >= 1000:
        _vmboard.sleep(us // 1000)
        us %= 1000
    if us > 0:
        _time.sleep_us(us)


def sleep(seconds):
    sleep_us(int(seconds * 1000000))
