"""MuxOccupancy: analog pit sensors through CD74HC4067 multiplexers (sensors.py has the interface).

TCRT5000 infrared reflectance sensors, or light-dependent resistors, one per
cell, through 16-channel multiplexers into the ADC.  With an emitter pin, a
reading is (emitters on) - (emitters off), which cancels room light and the
board's own LEDs.  Occupied / empty with the calibrated levels and hysteresis;
a reading that jumps by more than `jump` of the cell's span between two scans
is unsure (a hand passing) until it holds.
"""
import math

try:
    from time import sleep_us
except ImportError:  # CPython
    def sleep_us(us):
        pass

try:
    from micropython import const
except ImportError:  # CPython
    def const(x):
        return x

from .calibration import DEFAULT_EMPTY, DEFAULT_COVERED, calibration
from .guarded import Guarded, sio_usable

_UNKNOWN = const(-1)   # (sensors.UNKNOWN)


class MuxOccupancy(Guarded):
    kind = "occupancy"

    def __init__(self, board, machine, settle_us=20, jump=0.35):
        Pin = machine.Pin
        self.cells = board.cells
        self.cell_sensors = board.cell_sensors
        self.select = [Pin(p, Pin.OUT, value=0) for p in board.mux_select]
        self.settle_us = settle_us
        adcs = {}
        self.muxes = []
        for adc_pin, enable in board.mux_list:
            if adc_pin not in adcs:
                adcs[adc_pin] = machine.ADC(Pin(adc_pin))
            en = Pin(enable, Pin.OUT, value=1) if enable is not None else None   # EN high: output off
            self.muxes.append((adcs[adc_pin], en))
        self.emitter = Pin(board.emitter_pin, Pin.OUT, value=0) if board.emitter_pin is not None else None
        self.calibrated = bool(board.calibration and board.calibration.get("empty"))
        self.empty = calibration(board, "empty", DEFAULT_EMPTY)
        self.covered = calibration(board, "covered", DEFAULT_COVERED)
        self.set_levels(board.threshold, board.hysteresis, jump)
        self.state = bytearray(self.cells)
        self.prev = [None] * self.cells
        self._on = [0] * self.cells
        self.raw = [0] * self.cells
        self._mux = -1
        self._table = None
        if _registers_usable(board):
            # The RP2040's registers, from viper code (muxrp2.py): the readings go into arrays.
            from array import array
            from . import muxrp2
            self._table = muxrp2.table(self.cells, self.cell_sensors, board.mux_select, board.mux_list)
            self._read_pass = muxrp2.read_pass
            self.raw = array("i", bytes(4 * self.cells))
            self._on = array("i", bytes(4 * self.cells))

    def set_levels(self, threshold, hysteresis, jump=0.35):
        """Where each cell turns occupied (`high`) and empty again (`low`), from its calibration.

        Readings are whole numbers, so the levels are rounded away from the middle (the same
        readings pass them as the exact levels) and kept as ints: a float is an object of its
        own in a Pico's heap, and an int compares faster."""
        self.high = []
        self.low = []
        self.jump = []
        for c in range(self.cells):
            e = self.empty[c]
            span = self.covered[c] - e
            hi = e + (threshold + hysteresis) * span
            lo = e + (threshold - hysteresis) * span
            if span >= 0:                   # covered reads higher: occupied from hi up, empty from lo down
                self.high.append(math.ceil(hi))
                self.low.append(math.floor(lo))
            else:                           # covered reads lower: occupied from hi down, empty from lo up
                self.high.append(math.floor(hi))
                self.low.append(math.ceil(lo))
            self.jump.append(math.floor(abs(span) * jump))     # a change of more than this is a jump
        # (watch.py) a move bigger than a jump is a touch; -1: a cell without a sensor
        self.moved = [self.jump[c] if self.cell_sensors[c] is not None else -1 for c in range(self.cells)]

    def _channel(self, mux, channel):
        if mux != self._mux:
            for i in range(len(self.muxes)):
                en = self.muxes[i][1]
                if en is not None:
                    en.value(0 if i == mux else 1)
            self._mux = mux
        for bit in range(4):
            self.select[bit].value((channel >> bit) & 1)
        sleep_us(self.settle_us)
        return self.muxes[mux][0].read_u16()

    def _pass(self, out):
        t = self._table
        if t is not None:
            if type(out) is not list:   # an array of ints: raw, _on, watch.py's
                self._read_pass(t, out, self.cells, self.settle_us)
            else:                       # a caller's list (self-test, calibration): rare
                self._read_pass(t, self.raw, self.cells, self.settle_us)
                for c in range(self.cells):
                    if self.cell_sensors[c] is not None:
                        out[c] = self.raw[c]
            return
        for c in range(self.cells):
            s = self.cell_sensors[c]
            if s is not None:
                out[c] = self._channel(s[0], s[1])

    def _read_raw(self, raw):
        """One reading (0..65535) per sensed cell; with an emitter pin, lit minus dark."""
        if self.emitter is None:
            self._pass(raw)
            return raw
        on = self._on
        self.emitter.value(1)
        self._pass(on)
        self.emitter.value(0)
        self._pass(raw)
        for c in range(self.cells):
            if self.cell_sensors[c] is not None:
                v = on[c] - raw[c]
                raw[c] = v if v > 0 else 0
        return raw

    def peek(self, out):
        """One pass with the emitters on into `out` (an array of ints), for watch.py: a quick
        look between scans, the scans' own readings left as they are.  False while a scan reads
        (it hands the watch its own emitters-on pass when it is done)."""
        if self.busy:
            return False
        self.busy = True
        try:
            if self.emitter is not None:
                self.emitter.value(1)
            self._pass(out)
        finally:
            if self.emitter is not None:
                self.emitter.value(0)
            self.busy = False
        return True

    def _read(self, values):
        raw = self._read_raw(self.raw)
        self.looked = self._on if self.emitter is not None else raw     # (what peek() reads)
        return self._states(raw, values)

    def _states(self, raw, values):
        for c in range(self.cells):
            if self.cell_sensors[c] is None:
                values[c] = None
                continue
            r = raw[c]
            p = self.prev[c]
            self.prev[c] = r
            if p is not None and abs(r - p) > self.jump[c]:
                values[c] = _UNKNOWN       # moving: a hand, a seed rolling in
                continue
            hi = self.high[c]
            lo = self.low[c]
            if hi >= lo:                    # covered reads higher (reflectance)
                if r >= hi:
                    self.state[c] = 1
                elif r <= lo:
                    self.state[c] = 0
            else:                           # covered reads lower (a light sensor in shadow)
                if r <= hi:
                    self.state[c] = 1
                elif r >= lo:
                    self.state[c] = 0
            values[c] = self.state[c]
        return values


def _registers_usable(board):
    pins = list(board.mux_select) + [en for _, en in board.mux_list if en is not None]
    return (len(board.mux_select) == 4 and sio_usable(pins)
            and all(26 <= adc <= 29 for adc, _ in board.mux_list))
