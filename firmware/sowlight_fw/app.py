"""The board's app: the config's hardware, the controller, the journal and the link in one loop.

    main.py:   from sowlight_fw import app; app.main()

main() reads and checks the config (a refused one is shown: badconfig.py),
makes the App on the board's hardware and its link on the USB port, and runs
the loop.  Every SCAN_MS the loop reads the sensors, the buttons and the link,
gives them to the controller, writes the journal records it made (before
anything else: a record is on flash before the LEDs move on), sends its
messages and shows its frame.  The hardware objects can be handed in, so
tests and the virtual board run the same loop on fakes.

The link (link.BoardLink) keeps the session with the laptop: it hands each
request to `request()` and sends the controller's messages while a host
listens.  Request types the app does not know go to `handlers` (a virtual
board adds "sim" there).  Self-test and calibration are service.py's.
"""
import gc
import sys

from . import config
from .hw.buttons import Buttons
from .colours import ERROR
from .controller import Controller, games
from .journal import Journal, JournalError
from .journal import requests as journal_requests
from .hw.leds import Strip, NeoPixelDriver
from .link import BoardLink, UsbTransport, codec
from .hw.sensors import make as make_sensors
from .storage import FlashStorage
from .ticks import SCAN_MS, ticks_ms, ticks_diff, sleep_ms, asyncio, pause

VERSION = "0.1.0"
SW = "sowlight-fw " + VERSION
# The loop collects the garbage between scans: left to MicroPython, a collection would come
# when some scan finds the heap full, inside it.  It collects after a scan that took _GC_LONG_MS
# or more (the scans that allocate much are the long ones: a link request, a move's end), that
# answered the host, that played a move or that did an idle job's work (a message made, a turn
# walked ahead: short scans, whose garbage added up between collections), otherwise every
# _GC_EVERY scans (a short scan leaves 70-200 bytes), and before a scan that will read what the
# host sent (a request's reply and the work it asks for are most of what a scan allocates) or
# in which a sensor's change settles (the controller's answer to a seed dropped, the end of a
# move: the other scans that allocate much), so the heap holds what stays live, one scan's
# garbage and at most a KB more.  A collection takes some 10 ms between scans; the sensors'
# watch (hw/watch.py) runs in an interrupt, which a collection does not hold back.  The loop
# does not ask how much the scans allocated: on an RP2040, gc.mem_alloc() walks the whole heap
# and takes almost as long as a collection (9 ms).
_GC_LONG_MS = 8
_GC_EVERY = 10
_HOLD_MOST = 4      # scans running that answer the host and leave a `move` message (App.step)
REPL_FLAG = "repl_once"


class App:
    """The board's loop.  `link` is a link.BoardLink (None: no host at all).

    `handlers` maps extra request types to fn(payload, now_ms) -> reply dict
    with "type" (the link adds "re" and deals with repeats); `virtual` = True
    makes the hello say the board is a virtual one.  Set both before boot()."""

    def __init__(self, board, machine=None, storage=None, link=None, strip=None, sensors=None, buttons=None,
                 settings=None, config_path=config.DEFAULT_PATH, virtual=False):
        """The hardware the config names, unless handed in; `settings` (controller settings)
        override the config's."""
        if machine is None:
            import machine
        self.board = board
        self.machine = machine
        self.config_path = config_path
        if storage is None:
            storage = FlashStorage()
        self.journal = Journal(storage)
        if strip is None:
            strip = Strip(board, NeoPixelDriver(board.led_pin, board.led_count, board.led_order))
        self.strip = strip
        if sensors is None:
            sensors = make_sensors(board, machine)
        self.sensors = sensors
        if buttons is None:
            buttons = Buttons(board, machine)
        self.buttons = buttons
        self.link = link
        self.handlers = {}         # request type -> fn(payload, now_ms) -> reply dict
        self.virtual = virtual
        # The config's settings, and over them those handed in (the virtual board's, a test's).
        self.settings = dict(board.settings)
        if settings:
            self.settings.update(settings)
        self.controller = None
        self.values = [None] * board.cells
        self.pending = []          # journal records not yet on flash (flash full or failing)
        self.now = 0               # the time of the scan in progress (ticks_ms)
        self._reboot_to = None     # "app"/"repl": reset once the reply to `reboot` is out
        self._time = None          # (host Unix time, ticks_ms then), from the host's hello
        self.cal = None            # calibration readings so far
        self.loops = 0
        self.answered = 0          # lines from the host the last scan handled
        self.played = False        # the last scan played a move
        self._held = 0             # scans running that left a `move` message to the next
        self._idle_put_off = False # the last scan left its idle jobs to this one (a request waited)
        self.watch = None          # hw/watch.Watch once loop() runs on a board

    # ----- start-up ----------------------------------------------------------------

    def boot(self, now=None):
        """The journal opened (repaired), the controller made, the game in progress resumed,
        the hello sent."""
        now = ticks_ms() if now is None else now
        self.now = now
        repaired = self.journal.open()
        c = Controller(self.board, clock=self.wall_clock, settings=self.settings,
                       next_game=self.journal.next_game(), now_ms=now)
        self.controller = c
        for text in repaired:
            c.log("warn", "journal: " + text)
        if not getattr(self.sensors, "calibrated", True):
            c.log("warn", "the sensors are not calibrated: run calibration from the menu")
        mended = None
        if self.journal.gaps:
            # A damaged byte inside an earlier record: rebuild it from the records after it, or
            # mark it lost -- before the game in progress is resumed from them.
            mended = self.journal.mend(lambda v, o, pos: games.make(c, v, o, pos), c.variants)
        cur = self.journal.current()
        if cur is not None:
            c.resume(cur[0], cur[1], now)
        if mended:
            c.fail(_mended_text(mended))
        if self.link is not None:
            self.link.start(self.hello_payload(), now)
        return c

    def hello_payload(self):
        """The payload of the board's hello."""
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

    def wall_clock(self):
        if self._time is None:
            return None
        t, at = self._time
        return t + ticks_diff(ticks_ms(), at) // 1000

    # ----- one pass of the loop -------------------------------------------------------

    def step(self, now):
        self.now = now
        c = self.controller
        playing = c.playing()
        w = self.watch
        if w is not None and w.fault is not None:
            c.log("error", "sensor watch: %r" % (w.fault,))
            w.fault = None
        # A request waiting: this scan answers it and leaves the idle jobs (the messages they
        # make, the walks ahead, the hint search) to the next, though never two scans running
        # (a host that asks every scan would hold them back for good).
        put_off = not playing and not self._idle_put_off and self.link is not None and self.link.waiting()
        c.host_waiting = self._idle_put_off = put_off
        v = self.sensors.read(self.values)
        if v is None:
            c.tick(now)                 # load cells between conversions: time passes
        else:
            c.feed_observation(v, now)
        for event in self.buttons.poll(now):
            c.press(event, now)
        # One of the four things that allocate most in a scan: a move played, a request answered,
        # a `move` message (its trace), an idle job's work (above); the loop collects between
        # scans (see _GC_EVERY), so the heap never holds two of them at once.  What the host sent
        # waits for the scan after a move is played; a scan that answered the host sends the
        # board's messages up to a `move` one, which waits, with those after it, for the next
        # scan, for up to _HOLD_MOST scans running (a sync is a few requests in a row; a host
        # that asks every scan does not hold it back for good).
        answered = 0
        if self.link is not None and not playing:
            answered = self.link.poll(self.request, now)
        self.answered = answered
        self.played = playing
        if self.flush(until_move=answered > 0 and self._held < _HOLD_MOST):
            self._held += 1
        else:
            self._held = 0
        self.strip.show(c.frame, c.brightness, now, c.roles)
        self.loops += 1
        if self._reboot_to is not None:       # asked for: the reply to `reboot` is written now
            to = self._reboot_to
            self._reboot_to = None
            self._reboot(to)

    def flush(self, until_move=False):
        """Journal records first (they must be on flash), then the link's messages (`until_move`:
        those before the first `move` message only); True if messages were left."""
        c = self.controller
        self.write_records()
        out = c.outbox
        link = self.link
        while out:
            if until_move and out[0]["type"] == "move":
                return True
            m = out.pop(0)
            if link is not None:
                t = m.pop("type")
                link.event(t, m, self.now)    # dropped while no host listens: the journal has the game
        return False

    def write_records(self):
        """Put the controller's journal records on flash (a full journal says so once: confirm
        goes back to the game, the records wait)."""
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
                        c.fail("journal: " + e.msg)
                    break
                c.log("error", "journal: " + e.msg)   # a bug: drop the record, keep playing
            else:
                self._full_said = False
            self.pending.pop(0)

    # ----- the link's requests -----------------------------------------------------------

    def request(self, t, p, now):
        """Carry out a request the link hands over (validated, after a hello); return its reply,
        a dict with "type" ("ok", "state", "error", ...)."""
        if t == "hello" and "time" in p:
            self._time = (p["time"], ticks_ms())
        c = self.controller
        if t == "hello":
            h = self.hello_payload()
            if p.get("brief") is True:
                # (1.2) the host asked for a short hello: who the board is, not what it has
                del h["config"]
                del h["variants"]
                h["brief"] = True
            h["type"] = "hello"
            return h
        handler = self.handlers.get(t)
        if handler is not None:
            return handler(p, now)
        if t == "sim":
            return {"type": "error", "code": "unsupported",
                    "msg": "this board has real seeds: move them by hand ('sim' is for a virtual board)"}
        if t == "journal_list" or t == "journal_get" or t == "journal_ack":
            return journal_requests.request(self, t, p)
        if t == "self_test":
            return dict(self.self_test(), type="ok")
        if t == "calibrate":
            return self.calibrate(p.get("step"))
        if t == "reboot":
            self._reboot_to = p["to"]
            return {"type": "ok"}
        game = c.game
        reply = c.command(dict(p, type=t), now)
        if c.game is not game:
            # The scan that starts a game allocates the most of any: its variant's modules, the
            # game and its set-up, and then its record, the reply and the messages.  What making
            # the game left is collected before the rest comes (it would be some 4 KB at the
            # scan's end on a Kombe board).  The host waits for this reply, no hand for it.
            gc.collect()
        self.write_records()            # (before the reply goes: it confirms only what is on flash)
        if t == "get_state" and reply.get("type") == "state":
            reply["lit"] = c.lit()      # what the LEDs show now: a host that just connected sees it at once
        return reply

    def _reboot(self, to):
        """The reply to `reboot` is out; reset (into the REPL once, if asked)."""
        if to == "repl":
            with open(REPL_FLAG, "w") as f:
                f.write("1")
        sleep_ms(100)
        self.machine.reset()

    # ----- self-test and calibration (service.py) -----------------------------------------
    # (service.py is imported when the menu or the link asks for one: its code stays out of
    # the heap during games.)

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

    def loop(self):
        """The loop as main() runs it on a board, for good: a scan every SCAN_MS, start to start;
        between scans the garbage collected after a long scan or every _GC_EVERY, and self-test or
        calibration when the menu asks for one (coroutines: asyncio runs them).  Without asyncio
        otherwise, whose classes would take heap; run() is the same loop as a coroutine.

        A timer watches the sensors between scans and lights a cell that changes at once
        (hw/watch.py): the player sees the board felt the hand, the controller answers after
        the debounce."""
        if self.controller is None:
            self.boot()
        from .hw import watch
        self.watch = watch.start(self.machine, self.sensors, self.strip)   # (only a board's loop has one)
        gc.collect()
        since = 0                       # scans since the last collection
        link = self.link
        observer = self.controller.observer
        while True:
            if since and ((link is not None and link.waiting()) or observer.due(ticks_ms())):
                gc.collect()            # (such a scan starts from what is live: see _GC_EVERY)
                since = 0
            start = ticks_ms()
            self.step(start)
            if self.controller.service_request:
                asyncio().run(self.service(self.controller.service_request))
            since += 1
            if since >= _GC_EVERY or self.answered or self.played or self.controller.idle_worked or ticks_diff(ticks_ms(), start) >= _GC_LONG_MS:
                gc.collect()            # (between scans, not in one: see _GC_EVERY)
                since = 0
            # The next scan starts SCAN_MS after this one did: the time a scan takes is not
            # added to the wait for the next one (a player's act is seen that much sooner).
            wait = SCAN_MS - ticks_diff(ticks_ms(), start)
            sleep_ms(wait if wait > 0 else 0)

    async def run(self, loops=None):
        """The loop as a coroutine, `loops` scans (None: for good): the virtual board runs it
        beside its own tasks (a board runs loop())."""
        if self.controller is None:
            self.boot()
        n = 0
        while loops is None or n < loops:
            start = ticks_ms()
            self.step(start)
            if self.controller.service_request:
                await self.service(self.controller.service_request)
            n += 1
            wait = max(0, SCAN_MS - ticks_diff(ticks_ms(), start))     # (start to start, as App.loop)
            await pause(wait)


def _mended_text(mended):
    """What the board says (the error pattern, the link's `state` and `log`) of the damaged
    records Journal.mend() found: never a game started over without a word."""
    rebuilt = ["game %d ply %d" % (g, p) for g, p, rec in mended if rec is not None]
    lost = ["game %d ply %d" % (g, p) for g, p, rec in mended if rec is None]
    parts = []
    if rebuilt:
        parts.append("rebuilt from the records after it: " + ", ".join(rebuilt))
    if lost:
        parts.append("lost (the records after it are kept; its game is ended): " + ", ".join(lost))
    return "journal: a damaged record, " + "; ".join(parts) + ". Sync the board, then press confirm"


# ----- boot: main.py calls main() ---------------------------------------------------------------

def repl_requested():
    """The flag `reboot {"to": "repl"}` leaves (used once), so the board stays at its REPL."""
    import os
    try:
        os.remove(REPL_FLAG)
        return True
    except OSError:
        return False


def start(config_path=config.DEFAULT_PATH, machine=None, cycles=None, transport=None):
    """What main() does before the loop: the config read and checked, the App made on its hardware,
    its link on `transport` (None: the USB port, when it can be polled).  None when the app is not
    to run: the REPL was asked for, confirm is held, or the config is refused (shown with the error
    pattern, `cycles` blinks; None: forever)."""
    if machine is None:
        import machine
    if repl_requested():
        print("sowlight: stopped at the REPL as asked; reset to start the app")
        return None
    try:
        board = config.load(config_path)
    except config.ConfigError as e:
        from . import badconfig     # (only for a refused config: it reads the file's LED pins itself)
        badconfig.show(str(e), config_path, machine, cycles)
        return None
    # The decoded JSON was for the check: the app reads the Board's attributes, and calibration
    # reads the file again to save into it.
    board.raw = None
    app = App(board, machine, config_path=config_path)
    if app.buttons.held("confirm"):
        print("sowlight: confirm held at power-up: the app is not started (REPL)")
        return None
    if transport is None:
        try:
            transport = UsbTransport()      # Ctrl-C is data from here on, until close()
        except (ImportError, OSError, AttributeError, TypeError, ValueError):
            transport = None                # a port without a pollable stdin: play without a laptop
    app.link = BoardLink(transport) if transport is not None else None
    return app



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
