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
import sys

try:
    import asyncio
except ImportError:  # older MicroPython
    import uasyncio as asyncio

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

from . import codec, config
from .colours import ERROR
from .controller import Controller
from .journal import Journal, JournalError
from .unload import unload

VERSION = "0.1.0"
SW = "sowlight-fw " + VERSION
SCAN_MS = 20
REPL_FLAG = "repl_once"


async def _sleep(ms):
    if hasattr(asyncio, "sleep_ms"):
        await asyncio.sleep_ms(ms)
    else:
        await asyncio.sleep(ms / 1000)


class App:
    """The board's loop.  `link` is a link.BoardLink (None: no host at all).

    `handlers` maps extra request types to fn(payload, now_ms) -> reply dict
    with "type" (the link adds "re" and deals with repeats); `virtual` = True
    makes the hello say the board is a virtual one.  Set both before boot()."""

    def __init__(self, board, machine=None, storage=None, link=None, strip=None, sensors=None, buttons=None,
                 settings=None, config_path=config.DEFAULT_PATH, virtual=False):
        if machine is None:
            import machine
        self.board = board
        self.machine = machine
        self.config_path = config_path
        if storage is None:
            from .storage import FlashStorage
            storage = FlashStorage()
        self.journal = Journal(storage)
        if strip is None:
            from .leds import Strip, NeoPixelDriver
            strip = Strip(board, NeoPixelDriver(board.led_pin, board.led_count, board.led_order))
        self.strip = strip
        if sensors is None:
            from . import sensors as _sensors
            sensors = _sensors.make(board, machine)
        self.sensors = sensors
        if buttons is None:
            from .buttons import Buttons
            buttons = Buttons(board, machine)
        self.buttons = buttons
        self.link = link
        self.handlers = {}         # request type -> fn(payload, now_ms) -> reply dict
        self.virtual = virtual
        self.settings = settings
        self.controller = None
        self.values = [None] * board.cells
        self.pending = []          # journal records not yet on flash (flash full or failing)
        self.now = 0               # the time of the scan in progress (ticks_ms)
        self._reboot_to = None     # "app"/"repl": reset once the reply to `reboot` is out
        self._time = None          # (host Unix time, ticks_ms then), from the host's hello
        self.cal = None            # calibration readings so far
        self.loops = 0

    # ----- start-up ----------------------------------------------------------------

    def boot(self, now=None):
        now = ticks_ms() if now is None else now
        self.now = now
        repaired = self.journal.open()
        c = Controller(self.board, clock=self.wall_clock, settings=self.settings,
                       next_game=self.journal.next_game(), now_ms=now)
        self.controller = c
        for text in repaired:
            c._log("warn", "journal: " + text)
        if not getattr(self.sensors, "calibrated", True):
            c._log("warn", "the sensors are not calibrated: run calibration from the menu")
        cur = self.journal.current()
        if cur is not None:
            c.resume(cur[0], cur[1], now)
        if self.link is not None:
            self.link.start(self.hello_payload(), now)
        return c

    def wall_clock(self):
        if self._time is None:
            return None
        t, at = self._time
        return t + ticks_diff(ticks_ms(), at) // 1000

    def hello_payload(self):
        b = self.board
        try:
            uid = "".join("%02x" % x for x in self.machine.unique_id())
        except AttributeError:
            uid = "0"
        sensed = [c for c in range(b.cells) if b.cell_sensors[c] is not None]
        c = self.controller
        p = codec.hello(codec.BOARD, SW, board="%s-%s" % (b.id_prefix, uid),
                        config={"geometry": {"rows": b.rows, "pits_per_row": b.pits_per_row, "stores": b.stores},
                                "sensors": {"kind": b.sensor_kind, "cells": sensed}, "leds": b.led_count},
                        variants=list(c.variants), game=c.game_no if c.game is not None else None)
        if self.virtual:
            p["virtual"] = True
        return p

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
        c = self.controller
        if t == "hello":
            if "time" in p:
                self._time = (p["time"], ticks_ms())
            return dict(self.hello_payload(), type="hello")
        handler = self.handlers.get(t)
        if handler is not None:
            return handler(p, now)
        if t == "sim":
            return {"type": "error", "code": "unsupported",
                    "msg": "this board has real seeds: move them by hand ('sim' is for a virtual board)"}
        if t == "journal_list" or t == "journal_get" or t == "journal_ack":
            from . import journalread
            try:
                return journalread.request(self, t, p)
            finally:
                unload("journalread")
        if t == "self_test":
            return dict(self.self_test(), type="ok")
        if t == "calibrate":
            return self.calibrate(p.get("step"))
        if t == "reboot":
            self._reboot_to = p["to"]
            return {"type": "ok"}
        reply = c.command(dict(p, type=t), now)
        if t == "get_state" and reply.get("type") == "state":
            reply["lit"] = c.lit()      # what the LEDs show now: a host that just connected sees it at once
        return reply

    def _reboot(self, to):
        if to == "repl":
            with open(REPL_FLAG, "w") as f:
                f.write("1")
        sleep_ms(100)
        self.machine.reset()

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

    async def run(self, loops=None):
        if self.controller is None:
            self.boot()
        n = 0
        while loops is None or n < loops:
            self.step(ticks_ms())
            if self.controller.service_request:
                await self.service(self.controller.service_request)
            n += 1
            await _sleep(SCAN_MS)


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
        asyncio.run(app.run())
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
