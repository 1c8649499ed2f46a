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

VERSION = "0.1.0"
SW = "sowlight-fw " + VERSION
SCAN_MS = 20
REPL_FLAG = "repl_once"
RECORDS_MOST = 50          # records per `records` reply at most (journal_get's default max)


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
        try:
            if t == "journal_list":
                return self.journal_page(p.get("from", 0), p.get("max"))
            if t == "journal_get":
                most = max(1, min(p.get("max", RECORDS_MOST), RECORDS_MOST))
                recs, more = self.journal.records(p["game"], p["from"], most)
                reply = {"type": "records", "game": p["game"], "records": recs, "more": more}
                if codec.fit("records", reply, "records") and reply["records"]:
                    reply["more"] = True      # the rest did not fit in one frame: the host asks again
                return reply
            if t == "journal_ack":
                synced = self.journal.ack(p["game"], p["upto"])
                self.flush()            # space may have come free for records waiting
                return {"type": "ok", "game": p["game"], "synced": synced}
        except JournalError as e:
            return {"type": "error", "code": e.code, "msg": e.msg}
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

    def journal_page(self, first=0, most=None):
        """The `journal` reply: the games numbered `first` on, at most `most` of them and as many
        as one frame holds; "more" when the journal holds games after the last one listed."""
        games = [g for g in self.journal.list_games() if g["game"] >= first]
        more = False
        if most is not None and len(games) > max(most, 1):
            games = games[:max(most, 1)]
            more = True
        reply = {"type": "journal", "games": games, "more": more}
        if codec.fit("journal", reply, "games"):
            reply["more"] = True
        return reply

    def _reboot(self, to):
        if to == "repl":
            with open(REPL_FLAG, "w") as f:
                f.write("1")
        sleep_ms(100)
        self.machine.reset()

    # ----- self-test and calibration (sowlight_fw/service.py, imported only when asked for) -----

    def self_test(self, led_ms=40):
        from . import service
        return service.self_test(self, led_ms)

    def calibrate(self, step):
        from . import service
        return service.calibrate(self, step)

    async def service(self, which):
        from . import service
        await service.run(self, which)

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

def repl_requested():
    """The flag `reboot {"to": "repl"}` leaves (used once), so the board stays at its REPL."""
    import os
    try:
        os.remove(REPL_FLAG)
        return True
    except OSError:
        return False


def _raw_config(path):
    try:
        import json
        with open(path) as f:
            raw = json.load(f)
        return raw if isinstance(raw, dict) else None
    except (OSError, ValueError):
        return None


def show_config_error(message, raw, machine, cycles=None, period_ms=500, say_every=20):
    """A bad config: say why on the serial port and blink the error pattern, forever (no crash loop)."""
    text = "sowlight: the board config is refused: %s" % message
    frame = None
    try:
        frame = codec.encode(0, "log", {"level": "error", "msg": text[:160]})
    except ValueError:
        pass
    strip = _error_strip(raw, machine)
    onboard = None
    if strip is None:
        try:
            onboard = machine.Pin("LED", machine.Pin.OUT)
        except (TypeError, ValueError, AttributeError):
            onboard = None
    n = 0
    while cycles is None or n < cycles:
        if n % say_every == 0:
            print(text)
            if frame is not None:
                print(frame.decode().rstrip("\n"))
        on = n % 2 == 0
        if strip is not None:
            strip.light(range(strip.count) if on else (), ERROR)
        elif onboard is not None:
            onboard.value(1 if on else 0)
        sleep_ms(period_ms)
        n += 1


class _ErrorBoard:
    """Just enough of a Board for Strip, from the parts of a refused config that can be trusted."""

    def __init__(self, count, cap255):
        self.led_count = count
        self.cell_leds = ()
        self.cells = 0
        self.brightness_cap255 = cap255


def _error_strip(raw, machine):
    leds = raw.get("leds") if isinstance(raw, dict) else None
    if not isinstance(leds, dict):
        return None
    pin = leds.get("pin")
    count = leds.get("count")
    order = leds.get("colour_order", "GRB")
    if not (isinstance(pin, int) and isinstance(count, int) and 0 < count <= 1024 and order in config.COLOUR_ORDERS):
        return None
    try:
        from .leds import Strip, NeoPixelDriver
        # A low fixed level whatever the refused file says: its power budget is not to be trusted.
        return Strip(_ErrorBoard(count, 64), NeoPixelDriver(pin, count, order))
    except (ImportError, ValueError, OSError):
        return None


def main(config_path=config.DEFAULT_PATH, machine=None, cycles=None):
    if machine is None:
        import machine
    if repl_requested():
        print("sowlight: stopped at the REPL as asked; reset to start the app")
        return None
    try:
        board = config.load(config_path)
    except config.ConfigError as e:
        show_config_error(str(e), _raw_config(config_path), machine, cycles)
        return None
    app = App(board, machine, config_path=config_path)
    if app.buttons.held("confirm"):
        print("sowlight: confirm held at power-up: the app is not started (REPL)")
        return None
    from .link import BoardLink, UsbTransport
    try:
        usb = UsbTransport()      # Ctrl-C is data from here on, until usb.close()
    except (ImportError, OSError, AttributeError, TypeError, ValueError):
        usb = None                # a port without a pollable stdin: play without a laptop
    app.link = BoardLink(usb) if usb is not None else None
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
            app.strip.light([cell[0] for cell in board.cell_leds], ERROR, 64)
        except Exception:
            pass
    finally:
        if usb is not None:
            usb.close()
    return app
