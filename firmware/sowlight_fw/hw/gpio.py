"""GpioOccupancy: a digital sensor per cell, a comparator module or a reed switch (sensors.py has
the interface)."""


class GpioOccupancy:
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

    def read_raw(self, raw):
        for c in range(self.cells):
            p = self.pins[c]
            raw[c] = p.value() if p is not None else 0
        return raw

    def read(self, values):
        on = 0 if self.active_low else 1
        for c in range(self.cells):
            p = self.pins[c]
            values[c] = None if p is None else (1 if p.value() == on else 0)
        return values
