"""GpioOccupancy: a digital sensor per cell, a comparator module or a reed switch (sensors.py has
the interface)."""
from .guarded import Guarded


class GpioOccupancy(Guarded):
    kind = "occupancy"

    def __init__(self, board, machine):
        Pin = machine.Pin
        pull = {"up": Pin.PULL_UP, "down": Pin.PULL_DOWN}.get(board.gpio_pull)
        self.cells = board.cells
        self.active_low = board.gpio_active_low
        self.calibrated = True
        self.pins = []
        for c in range(board.cells):
            p = board.cell_sensors[c]
            if p is None:
                self.pins.append(None)
            elif pull is None:
                self.pins.append(Pin(p, Pin.IN))
            else:
                self.pins.append(Pin(p, Pin.IN, pull))
        self.raw = [0] * self.cells
        self.moved = [0 if p is not None else -1 for p in self.pins]    # (watch.py) any change

    def _read_raw(self, raw):
        for c in range(self.cells):
            p = self.pins[c]
            raw[c] = p.value() if p is not None else 0
        return raw

    def peek(self, out):
        """The pins into `out`, for watch.py's look between scans.  False while a scan reads."""
        if self.busy:
            return False
        self.read_raw(out)
        return True

    def _read(self, values):
        raw = self.looked = self._read_raw(self.raw)
        on = 0 if self.active_low else 1
        for c in range(self.cells):
            values[c] = None if self.pins[c] is None else (1 if raw[c] == on else 0)
        return values
