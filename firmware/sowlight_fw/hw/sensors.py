"""Pit sensors: one reading per cell, in the form the controller takes.

    sensors = make(board)           # the kind the config names
    sensors.read(values)            # fills a list: per cell 0/1 (occupancy) or a seed count
                                    # (load cells), -1 when unsure (a hand, a jumping reading),
                                    # None for a cell with no sensor
    sensors.read_raw(raw)           # the readings themselves (self-test, calibration)
    sensors.peek(out)               # a quick look between scans (hw/watch.py); `moved`: a touch's step

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
module of its own (mux.py, hx711.py, gpio.py), imported when a config names it:
a board's heap holds the code of its own kind only; calibration.py reads their
calibration from the config.
"""
try:
    from micropython import const
except ImportError:  # CPython
    def const(x):
        return x

UNKNOWN = const(-1)


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
