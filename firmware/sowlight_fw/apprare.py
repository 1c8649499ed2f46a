"""What the board's app (app.py) runs rarely: making the App and booting it, the link's
requests, the board's hello, a reboot; and the loop as a coroutine (the virtual board's).

A stock Pico keeps the code of every module it imports in its heap, and the
app's loop runs for as long as the board does: so what is not the loop is here,
imported for the call and dropped after it (unload.py).  The functions take
the App first and are called through its methods.
"""
from . import codec
from .app import SW, REPL_FLAG, SCAN_MS, sleep_ms, ticks_ms, ticks_diff, _asyncio
from .controller import Controller
from .journal import Journal
from .unload import unload


def init(app, board, machine, storage, link, strip, sensors, buttons, settings, config_path, virtual):
    """App.__init__: the hardware the config names, unless handed in."""
    if machine is None:
        import machine
    app.board = board
    app.machine = machine
    app.config_path = config_path
    if storage is None:
        from .storage import FlashStorage
        storage = FlashStorage()
    app.journal = Journal(storage)
    if strip is None:
        from .leds import Strip, NeoPixelDriver
        strip = Strip(board, NeoPixelDriver(board.led_pin, board.led_count, board.led_order))
    app.strip = strip
    if sensors is None:
        from . import sensors as _sensors
        sensors = _sensors.make(board, machine)
        unload("sensors")
    app.sensors = sensors
    if buttons is None:
        from .buttons import Buttons
        buttons = Buttons(board, machine)
    app.buttons = buttons
    app.link = link
    app.handlers = {}         # request type -> fn(payload, now_ms) -> reply dict
    app.virtual = virtual
    app.settings = settings
    app.controller = None
    app.values = [None] * board.cells
    app.pending = []          # journal records not yet on flash (flash full or failing)
    app.now = 0               # the time of the scan in progress (ticks_ms)
    app._reboot_to = None     # "app"/"repl": reset once the reply to `reboot` is out
    app._time = None          # (host Unix time, ticks_ms then), from the host's hello
    app.cal = None            # calibration readings so far
    app.loops = 0


def boot(app, now):
    """App.boot: the journal opened (repaired), the controller made, the game in progress resumed,
    the hello sent."""
    app.now = now
    repaired = app.journal.open()
    c = Controller(app.board, clock=app.wall_clock, settings=app.settings,
                   next_game=app.journal.next_game(), now_ms=now)
    app.controller = c
    for text in repaired:
        c._log("warn", "journal: " + text)
    if not getattr(app.sensors, "calibrated", True):
        c._log("warn", "the sensors are not calibrated: run calibration from the menu")
    mended = None
    if app.journal.gaps:
        # A damaged byte inside an earlier record: rebuild it from the records after it, or
        # mark it lost -- before the game in progress is resumed from them.
        ctlrare = c._rare()
        mended = app.journal.mend(lambda v, o, pos: ctlrare.make(c, v, o, pos), c.variants)
    cur = app.journal.current()
    if cur is not None:
        c.resume(cur[0], cur[1], now)
    if mended:
        c.fail(_mended_text(mended))
    if app.link is not None:
        app.link.start(hello_payload(app), now)
    c.drop_parts()               # what the boot loaded of the controller's rare part goes again
    return c


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


def hello_payload(app):
    """The payload of the board's hello."""
    b = app.board
    try:
        uid = "".join("%02x" % x for x in app.machine.unique_id())
    except AttributeError:
        uid = "0"
    sensed = [c for c in range(b.cells) if b.cell_sensors[c] is not None]
    c = app.controller
    p = codec.hello(codec.BOARD, SW, board="%s-%s" % (b.id_prefix, uid),
                    config={"geometry": {"rows": b.rows, "pits_per_row": b.pits_per_row, "stores": b.stores},
                            "sensors": {"kind": b.sensor_kind, "cells": sensed}, "leds": b.led_count},
                    variants=list(c.variants), game=c.game_no if c.game is not None else None)
    if app.virtual:
        p["virtual"] = True
    return p


def request(app, t, p, now):
    """App.request, but for the time a hello brings (App.request notes it)."""
    c = app.controller
    if t == "hello":
        h = hello_payload(app)
        if p.get("brief") is True:
            # (1.2) the host asked for a short hello: who the board is, not what it has
            del h["config"]
            del h["variants"]
            h["brief"] = True
        h["type"] = "hello"
        return h
    handler = app.handlers.get(t)
    if handler is not None:
        return handler(p, now)
    if t == "sim":
        return {"type": "error", "code": "unsupported",
                "msg": "this board has real seeds: move them by hand ('sim' is for a virtual board)"}
    if t == "journal_list" or t == "journal_get" or t == "journal_ack":
        from . import journalread
        try:
            return journalread.request(app, t, p)
        finally:
            unload("journalread")
    if t == "self_test":
        return dict(app.self_test(), type="ok")
    if t == "calibrate":
        return app.calibrate(p.get("step"))
    if t == "reboot":
        app._reboot_to = p["to"]
        return {"type": "ok"}
    reply = c.command(dict(p, type=t), now)
    if t == "get_state" and reply.get("type") == "state":
        reply["lit"] = c.lit()      # what the LEDs show now: a host that just connected sees it at once
    return reply


def reboot(app, to):
    """App._reboot: the reply to `reboot` is out; reset (into the REPL once, if asked)."""
    if to == "repl":
        with open(REPL_FLAG, "w") as f:
            f.write("1")
    sleep_ms(100)
    app.machine.reset()


async def run(app, loops):
    """App.run: the loop as a coroutine (the module stays while it runs: the coroutine holds it)."""
    if app.controller is None:
        app.boot()
    asyncio = _asyncio()
    n = 0
    while loops is None or n < loops:
        start = ticks_ms()
        app.step(start)
        if app.controller.service_request:
            await app.service(app.controller.service_request)
        n += 1
        wait = max(0, SCAN_MS - ticks_diff(ticks_ms(), start))     # (start to start, as App.loop)
        if hasattr(asyncio, "sleep_ms"):
            await asyncio.sleep_ms(wait)
        else:
            await asyncio.sleep(wait / 1000)
