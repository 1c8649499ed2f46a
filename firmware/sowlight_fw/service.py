"""Self-test and calibration: the board's service modes.

Self-test lights every LED in turn, reads every sensor and reports what looks
broken; from the menu it then shows each cell's live reading on its LED
(green dim: empty, white: something there, dim red: unsure) until confirm.

Calibration reads every cell empty, then full, and writes the levels into the
board's config file (docs/config.md, `calibration`):
- occupancy sensors: `empty` and `covered`, the reading with nothing and with
  seeds over the sensor; thresholds and hysteresis then place the switch points;
- load cells: `offset` (the empty reading, the tare) and `counts_per_seed`,
  from CAL_SEEDS seeds put in every cell.
From the menu the LEDs guide it: every cell blue-violet (take everything out),
confirm; every cell orange (put seeds in: CAL_SEEDS in each on load cells),
confirm; undo cancels.  From the link: `calibrate` with step empty, full, save.
"""
from . import config
from .ticks import SCAN_MS, ticks_ms, sleep_ms, pause
from .colours import DROP, NEED, REMOVE, READY, FAULT, OFF

CAL_SEEDS = 10            # load-cell calibration: seeds put in every cell for the "full" step
CAL_SAMPLES = 8           # readings averaged per step


def self_test(app, led_ms=40):
    """Every LED in turn, then one reading per cell; returns the protocol's report."""
    b = app.board
    c = app.controller
    c.enter_service("self_test")
    problems = []
    try:
        for i in range(b.led_count):
            app.strip.light((i,), DROP)
            sleep_ms(led_ms)
        raw = readings(app)
        if raw is None:
            problems.append("the load cells do not answer (HX711 data lines stay high)")
            raw = [0] * b.cells
        for cell in range(b.cells):
            if b.cell_sensors[cell] is None:
                continue
            if b.sensor_kind == "occupancy-mux" and raw[cell] in (0, 65535):
                problems.append("cell %d reads %d: check its sensor and multiplexer wiring" % (cell, raw[cell]))
    finally:
        app.strip.off()
        c.leave_service()
    cells = [raw[i] if b.cell_sensors[i] is not None else -1 for i in range(b.cells)]
    return {"report": {"leds": b.led_count, "cells": cells, "problems": problems}}


def show_live(app):
    """Each cell lit by what its sensor says right now."""
    v = app.sensors.read(app.values)
    if v is None:
        return
    frame = bytearray(app.board.cells)
    for cell in range(app.board.cells):
        x = v[cell]
        frame[cell] = OFF if x is None else FAULT if x < 0 else READY if x == 0 else DROP
    app.strip.show(frame, 255)


def readings(app, samples=1):
    """The average raw reading of every cell over `samples` scans (None if the sensors never answer)."""
    n = app.board.cells
    total = [0] * n
    got = 0
    tries = 0
    buf = [0] * n
    while got < samples and tries < 50 * samples:
        tries += 1
        r = app.sensors.read_raw(buf)
        if r is None:
            sleep_ms(10)
            continue
        for i in range(n):
            total[i] += r[i]
        got += 1
    if not got:
        return None
    return [t // got for t in total]


def calibrate(app, step):
    """The `calibrate` request's steps: empty, full, save, cancel.  Returns the reply."""
    b = app.board
    if b.sensor_kind == "gpio":
        return {"type": "error", "code": "unsupported", "msg": "digital sensors have nothing to calibrate"}
    c = app.controller
    if step == "cancel":
        app.cal = None
        c.leave_service()
        return {"type": "ok"}
    if step in ("empty", "full"):
        if app.cal is None:
            app.cal = {}
            c.enter_service("calibrate")
        app.strip.light([cell[0] for cell in b.cell_leds], REMOVE if step == "empty" else NEED)
        r = readings(app, CAL_SAMPLES)
        if r is None:
            return {"type": "error", "code": "hardware", "msg": "the sensors gave no reading"}
        app.cal[step] = r
        return {"type": "ok", "readings": r}
    if step == "save":
        if not app.cal or "empty" not in app.cal or "full" not in app.cal:
            return {"type": "error", "code": "bad_payload", "msg": "calibrate empty and full first"}
        try:
            cal, problems = levels(b, app.cal["empty"], app.cal["full"])
            save(app, cal)
        except (OSError, ValueError) as e:
            return {"type": "error", "code": "hardware", "msg": "could not save the calibration: %s" % e}
        app.cal = None
        c.leave_service()
        for p in problems:
            c.log("warn", p)
        return {"type": "ok"}
    return {"type": "error", "code": "bad_payload", "msg": "calibrate step must be empty, full, save or cancel"}


def levels(b, empty, full):
    """The config's `calibration` section from the two readings, and what looks wrong."""
    problems = []
    out = {}
    sensed = [b.cell_sensors[i] is not None for i in range(b.cells)]
    least = config.MIN_COUNTS_PER_SEED if b.sensor_kind == "hx711" else config.MIN_SPAN
    if b.sensor_kind == "hx711":
        per = []
        for i in range(b.cells):
            if not sensed[i]:
                per.append(None)
                continue
            k = (full[i] - empty[i]) // CAL_SEEDS
            if k < least:
                problems.append("cell %d: %d seeds moved its load cell by only %d" % (i, CAL_SEEDS, full[i] - empty[i]))
                k = least
            per.append(k)
        out["offset"] = [empty[i] if sensed[i] else None for i in range(b.cells)]
        out["counts_per_seed"] = per
    else:
        for i in range(b.cells):
            if sensed[i] and abs(full[i] - empty[i]) < least:
                problems.append("cell %d: covered and empty differ by only %d" % (i, abs(full[i] - empty[i])))
        out["empty"] = [empty[i] if sensed[i] else None for i in range(b.cells)]
        out["covered"] = [full[i] if sensed[i] else None for i in range(b.cells)]
    return out, problems


def save(app, cal):
    """Write the calibration into the board's config file (all or nothing) and use it at once."""
    import json
    import os
    board = app.board
    kept = board.raw is not None
    if kept:
        raw = dict(board.raw)
    else:   # a board lets go of it after boot (app.start): the file holds what was checked then
        with open(app.config_path) as f:
            raw = json.load(f)
    raw["calibration"] = cal
    config.check(raw)               # never save a config the board would refuse at boot
    path = app.config_path
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        f.write(json.dumps(raw))
    try:
        os.rename(tmp, path)
    except OSError:
        os.remove(path)
        os.rename(tmp, path)
    board.calibration = cal
    if kept:
        board.raw = raw
    s = app.sensors
    if hasattr(s, "set_levels"):
        s.empty = [v if v is not None else 0 for v in cal["empty"]]
        s.covered = [v if v is not None else 0 for v in cal["covered"]]
        s.set_levels(board.threshold, board.hysteresis)
        s.calibrated = True
    elif hasattr(s, "per_seed"):
        s.offset = [v if v is not None else 0 for v in cal["offset"]]
        s.per_seed = [v if v is not None else 1 for v in cal["counts_per_seed"]]
        s.calibrated = True


async def run(app, which):
    """A service mode chosen from the menu, driven by the buttons."""
    c = app.controller
    c.service_request = None

    async def until_confirm(each):
        while True:
            for e in app.buttons.poll(ticks_ms()):
                if e == "confirm":
                    return True
                if e == "undo":
                    return False
            if each is not None:
                each(app)
            app.flush()
            await pause(SCAN_MS)

    if which == "self_test":
        report = self_test(app)["report"]
        c.log("info", "self-test: %d LEDs; readings %s; %s" % (
            report["leds"], report["cells"], "; ".join(report["problems"]) or "no problems"))
        c.enter_service("self_test")
        await until_confirm(show_live)
        c.leave_service()
    else:
        if app.board.sensor_kind == "gpio":
            c.log("info", "digital sensors have nothing to calibrate")
            return
        for step in ("empty", "full"):
            app.strip.light([cell[0] for cell in app.board.cell_leds], REMOVE if step == "empty" else NEED)
            if app.cal is None:
                app.cal = {}
                c.enter_service("calibrate")
            if not await until_confirm(None):
                calibrate(app, "cancel")
                app.strip.off()
                return
            r = calibrate(app, step)
            if r["type"] != "ok":
                c.log("error", r["msg"])
                calibrate(app, "cancel")
                app.strip.off()
                return
        r = calibrate(app, "save")
        c.log("info" if r["type"] == "ok" else "error",
               "calibration saved" if r["type"] == "ok" else "calibration not saved: " + r.get("msg", ""))
    app.strip.off()
