"""Pit sensors: one reading per cell, in the form the controller takes.

    sensors = make(board)           # the kind the config names
    sensors.read(values)            # fills a list: per cell 0/1 (occupancy) or a seed count
                                    # (load cells), -1 when unsure (a hand, a jumping reading),
                                    # None for a cell with no sensor
    sensors.read_raw(raw)           # the readings themselves (self-test, calibration)

Three kinds (docs/config.md, `sensors`):

- MuxOccupancy: analog sensors (TCRT5000 infrared reflectance, or light-dependent
  resistors) through CD74HC4067 16-channel multiplexers into the ADC.  With an
  emitter pin, a reading is (emitters on) - (emitters off), which cancels room
  light and the board's own LEDs.  Occupied / empty with the calibrated levels
  and hysteresis; a reading that jumps by more than `jump` of the cell's span
  between two scans is unsure (a hand passing) until it holds.
- HX711Bank: a load cell and an HX711 under every cell, the HX711 clocks on
  one shared pin, so every cell is read in the same 24 clock pulses.
- GpioOccupancy: a digital sensor per cell (a comparator module, a reed switch).

`machine` is passed in by the app (tests pass a fake one).  Each kind is a
module of its own (mux.py, hx711.py, gpio.py): make() imports only the one the
config names, so a board keeps only its own kind's code in its heap.
"""
try:
    from micropython import const
except ImportError:  # CPython
    def const(x):
        return x

UNKNOWN = const(-1)
DEFAULT_EMPTY = const(3000)      # an uncalibrated occupancy sensor: guesses for a TCRT5000 with differencing
DEFAULT_COVERED = const(30000)
DEFAULT_COUNTS_PER_SEED = const(400)


def make(board, machine=None):
    if machine is None:
        import machine
    kind = board.sensor_kind
    if kind == "occupancy-mux":
        from .mux import MuxOccupancy
        return MuxOccupancy(board, machine)
    if kind == "hx711":
        from .hx711 import HX711Bank
        return HX711Bank(board, machine)
    from .gpio import GpioOccupancy
    return GpioOccupancy(board, machine)


def calibration(board, key, default):
    """The config's calibration list `key`, one value per cell, `default` where it has none."""
    cal = board.calibration or {}
    values = cal.get(key)
    out = []
    for c in range(board.cells):
        v = values[c] if isinstance(values, list) and c < len(values) else None
        out.append(default if v is None else v)
    return out


def mux_init(self, board, machine, settle_us, jump):
    """MuxOccupancy.__init__ (mux.py): run once, at boot."""
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


def _registers_usable(board):
    import sys
    if sys.platform != "rp2":
        return False
    pins = list(board.mux_select) + [en for _, en in board.mux_list if en is not None]
    return (len(board.mux_select) == 4 and all(0 <= p < 30 for p in pins)
            and all(26 <= adc <= 29 for adc, _ in board.mux_list))
