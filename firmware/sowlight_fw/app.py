"""The board's app: the config's hardware, the controller, the journal and the link in one loop.

    main.py:   from sowlight_fw import app; app.main()

Every SCAN_MS the loop reads the sensors, the buttons and the link, gives
them to the controller, writes the journal records it made (before anything
else: a record is on flash before the LEDs move on), sends its messages and
shows its frame.  The hardware objects can be handed in, so tests and the
virtual board run the same loop on fakes.

The link (sowlight_fw.link.BoardLink) keeps the session with the laptop: it
hands each request to `request()` and sends the controller's messages while a
host listens.  Request types the app does not know go to `handlers` (a virtual
board adds "sim" there).

A stock Pico runs this from .mpy files, whose code lives in the heap, so
what runs rarely is in modules imported when needed and unloaded after
(unload.py): what main() does before the loop (startup.py), the config's
check (configcheck.py), a refused config (badconfig.py), the journal's
reading half (boot, the laptop's sync: journalread.py), self-test and
calibration (service.py).  `python bench/bench_heap.py` measures the heap
(docs/architecture.md, "Memory on the board").
"""
import gc
import sys

try:
    from time import ticks_ms, ticks_diff, sleep_ms
except ImportError:  # CPython (the virtual board)
    import time as _time

    def ticks_ms():
        return int(_time.monotonic() * 1000)

    def ticks_diff(a, b):
        return a - b

    def sleep_ms(ms):
        _time.sleep(ms / 1000)

from . import config
from .colours import ERROR
from .journal import JournalError
from .unload import unload

VERSION = "0.1.0"
SW = "sowlight-fw " + VERSION
SCAN_MS = 20        # a scan starts every SCAN_MS (start to start); one that runs longer is followed at once
# The loop collects the garbage between scans once the scans since the last collection have
# allocated this much: left to MicroPython, a collection comes when some scan finds the heap
# full, inside it.  A scan allocates far less than the heap left free (at most 32 KB in
# bench_firmware.py's games).
_GC_AFTER = 16384   # 16 KB
REPL_FLAG = "repl_once"


def _asyncio():
    # Imported when first needed: a board's loop (App.loop) does without it, and its classes
    # would take a few KB of a stock Pico's heap; self-test and calibration are coroutines.
    try:
        import asyncio
    except ImportError:  # older MicroPython
        import uasyncio as asyncio
    return asyncio


class App:
    """The board's loop.  `link` is a link.BoardLink (None: no host at all).

    `handlers` maps extra request types to fn(payload, now_ms) -> reply dict
    with "type" (the link adds "re" and deals with repeats); `virtual` = True
    makes the hello say the board is a virtual one.  Set both before boot()."""

    def __init__(self, board, machine=None, storage=None, link=None, strip=None, sensors=None, buttons=None,
                 settings=None, config_path=config.DEFAULT_PATH, virtual=False):
        self._rare("init", board, machine, storage, link, strip, sensors, buttons, settings, config_path, virtual)

    def _rare(self, name, *args):
        """apprare.<name>(self, *args), with apprare.py loaded for the call only."""
        from . import apprare
        try:
            return getattr(apprare, name)(self, *args)
        finally:
            unload("apprare")

    # ----- start-up ----------------------------------------------------------------

    def boot(self, now=None):
        return self._rare("boot", ticks_ms() if now is None else now)

    def hello_payload(self):
        return self._rare("hello_payload")

    def wall_clock(self):
        if self._time is None:
            return None
        t, at = self._time
        return t + ticks_diff(ticks_ms(), at) // 1000

    # ----- one pass of the loop -------------------------------------------------------

    def step(self, now):
        self.now = now
        c = self.controller
        v = self.sensors.read(self.values)
        if v is None:
            c.tick(now)                 # load cells between conversions: time passes
        else:
            c.feed_observation(v, now)
        for event in self.buttons.poll(now):
            c.press(event, now)
        if self.link is not None:
            self.link.poll(self.request, now)
        self.flush()
        c.drop_parts()                  # what a button or a request loaded of the controller goes again
        self.strip.show(c.frame, c.brightness)
        self.loops += 1
        if self._reboot_to is not None:       # asked for: the reply to `reboot` is written now
            to = self._reboot_to
            self._reboot_to = None
            self._reboot(to)

    def flush(self):
        """Journal records first (they must be on flash), then the link's messages."""
        c = self.controller
        if c.records:
            self.pending.extend(c.records)
            del c.records[:]
        while self.pending:
            try:
                self.journal.append(self.pending[0])
            except JournalError as e:
                if e.code == "storage":
                    if not getattr(self, "_full_said", False):
                        self._full_said = True
                        c.fail("journal: " + e.msg)    # once: confirm goes back to the game
                    break
                c._log("error", "journal: " + e.msg)   # a bug: drop the record, keep playing
            else:
                self._full_said = False
            self.pending.pop(0)
        out = c.outbox
        link = self.link
        while out:
            m = out.pop(0)
            if link is not None:
                t = m.pop("type")
                link.event(t, m, self.now)    # dropped while no host listens: the journal has the game

    # ----- the link's requests -----------------------------------------------------------

    def request(self, t, p, now):
        """Carry out a request the link hands over (validated, after a hello); return its reply,
        a dict with "type" ("ok", "state", "error", ...)."""
        if t == "hello" and "time" in p:
            self._time = (p["time"], ticks_ms())
        try:
            return self._rare("request", t, p, now)
        finally:
            self.controller.drop_parts()      # (what the request loaded of the controller)

    def _reboot(self, to):
        self._rare("reboot", to)

    # ----- self-test and calibration (sowlight_fw/service.py, loaded only while one runs) -----

    def self_test(self, led_ms=40):
        from . import service
        try:
            return service.self_test(self, led_ms)
        finally:
            unload("service")

    def calibrate(self, step):
        from . import service
        try:
            return service.calibrate(self, step)
        finally:
            unload("service")

    async def service(self, which):
        from . import service
        try:
            await service.run(self, which)
        finally:
            unload("service")

    # ----- the loop -------------------------------------------------------------------------------

    def loop(self):
        """The loop as main() runs it on a board, for good: a scan every SCAN_MS, start to start;
        between scans the garbage collected once they have allocated _GC_AFTER, and self-test or
        calibration when the menu asks for one (coroutines: asyncio runs them).  Without asyncio
        otherwise, whose classes would take heap; run() is the same loop as a coroutine."""
        if self.controller is None:
            self.boot()
        gc.collect()
        collected = gc.mem_alloc()      # what was in use after the last collection
        while True:
            start = ticks_ms()
            self.step(start)
            if self.controller.service_request:
                _asyncio().run(self.service(self.controller.service_request))
            if gc.mem_alloc() - collected >= _GC_AFTER:
                gc.collect()            # (between scans, not in one: see _GC_AFTER)
                collected = gc.mem_alloc()
            # The next scan starts SCAN_MS after this one did: the time a scan takes is not
            # added to the wait for the next one (a player's act is seen that much sooner).
            wait = SCAN_MS - ticks_diff(ticks_ms(), start)
            sleep_ms(wait if wait > 0 else 0)

    def run(self, loops=None):
        """The loop as a coroutine, `loops` scans (None: for good): the virtual board runs it
        beside its own tasks (apprare.run: a board runs loop())."""
        return self._rare("run", loops)


# ----- boot: main.py calls main() ---------------------------------------------------------------

def start(config_path=config.DEFAULT_PATH, machine=None, cycles=None, transport=None):
    """What main() does before the loop (startup.start(): the config read and checked, the App on
    its hardware and its link); None when the app is not to run.  startup.py is loaded for it only."""
    from . import startup
    try:
        return startup.start(config_path, machine, cycles, transport)
    finally:
        unload("startup")


def main(config_path=config.DEFAULT_PATH, machine=None, cycles=None):
    """The board's app, as main.py starts it: never a crash loop (docs/firmware.md)."""
    app = start(config_path, machine, cycles)
    if app is None:
        return None
    usb = app.link.transport if app.link is not None else None
    try:
        app.loop()
    except KeyboardInterrupt:
        print("sowlight: stopped")
    except Exception as e:   # never a crash loop: say what happened, stay at the REPL
        if usb is not None:
            usb.close()      # Ctrl-C works again before anything is printed
        print("sowlight: the app stopped on an error; the REPL is yours (reset to restart)")
        if hasattr(sys, "print_exception"):
            sys.print_exception(e)
        else:
            import traceback
            traceback.print_exc()
        try:
            app.strip.light([cell[0] for cell in app.board.cell_leds], ERROR, 64)
        except Exception:
            pass
    finally:
        if usb is not None:
            usb.close()
    return app
