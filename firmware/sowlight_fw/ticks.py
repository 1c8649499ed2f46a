"""The clock the board's code reads: MicroPython's time.ticks_ms, ticks_us, ticks_diff, sleep_ms
and sleep_us, and the same on CPython (the virtual board, tests, the laptop), where ticks never
wrap.

Times are ticks_ms() (or ticks_us()) values, compared with ticks_diff() only (they wrap on a board).
"""
try:
    from time import ticks_ms, ticks_us, ticks_diff, sleep_ms, sleep_us
except ImportError:  # CPython
    import time as _time

    def ticks_ms():
        return int(_time.monotonic() * 1000)

    def ticks_us():
        return int(_time.monotonic() * 1000000)

    def ticks_diff(a, b):
        return a - b

    def sleep_ms(ms):
        _time.sleep(ms / 1000)

    def sleep_us(us):
        _time.sleep(us / 1000000)

SCAN_MS = 20        # the app's loop: a scan starts every SCAN_MS (start to start)


def asyncio():
    """The asyncio module (uasyncio on older MicroPython): self-test, calibration and the virtual
    board's loop are coroutines; a board's own loop does without them."""
    try:
        import asyncio as a
    except ImportError:  # older MicroPython
        import uasyncio as a
    return a


async def pause(ms):
    """Let other tasks run for `ms` milliseconds."""
    a = asyncio()
    if hasattr(a, "sleep_ms"):
        await a.sleep_ms(ms)
    else:
        await a.sleep(ms / 1000)
