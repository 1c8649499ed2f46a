"""HX711Bank: a load cell and an HX711 under every cell (sensors.py has the interface).

The HX711s' clocks are on one shared pin, so every cell is read in the same
24 clock pulses; a reading is a number of seeds, from the calibrated tare and
counts per seed.
"""
try:
    from micropython import const
except ImportError:  # CPython
    def const(x):
        return x

from .calibration import DEFAULT_COUNTS_PER_SEED, calibration
from .guarded import Guarded, sio_usable

_UNKNOWN = const(-1)   # (sensors.UNKNOWN)


class HX711Bank(Guarded):
    kind = "counting"
    on_reading = None     # on_ready()'s handler
    missed = False        # its reading's edge found the sensors busy with a scan's read (peek())

    def __init__(self, board, machine):
        Pin = machine.Pin
        self.machine = machine
        self.cells = board.cells
        self.sck = Pin(board.hx711_sck, Pin.OUT, value=0)
        self.douts = []
        for c in range(board.cells):
            p = board.cell_sensors[c]
            self.douts.append(Pin(p, Pin.IN) if p is not None else None)
        # 24 data pulses, then 1 more for channel A gain 128, or 3 for gain 64.
        self.extra = 1 if board.hx711_gain == 128 else 3
        self.calibrated = bool(board.calibration and board.calibration.get("counts_per_seed"))
        self.offset = calibration(board, "offset", 0)
        self.per_seed = calibration(board, "counts_per_seed", DEFAULT_COUNTS_PER_SEED)
        self.raw = [0] * self.cells
        self.fresh = False        # self.raw holds a conversion peek() took that read() has not
        # (watch.py) half a seed's weight is a touch; -1: a cell without a sensor
        self.moved = [int(abs(self.per_seed[c]) // 2) if self.douts[c] is not None else -1
                      for c in range(self.cells)]
        self.unsure = 0.3     # a weight further than this from a whole number of seeds is not a count
        self._rp2 = None
        used = [p for p in board.cell_sensors if p is not None]
        if sio_usable(used + [board.hx711_sck]):
            # The RP2040's registers, from viper code (hx711rp2.py): the readings go into an array.
            from array import array
            from . import hx711rp2
            self._rp2 = hx711rp2
            self._pins = array("i", [-1 if p is None else p for p in board.cell_sensors])
            self._mask = 0
            for p in used:
                self._mask |= 1 << p
            self._edges = hx711rp2.edge_words(used)
            self._sck_mask = 1 << board.hx711_sck
            self.raw = array("i", bytes(4 * self.cells))

    def on_ready(self, handler):
        """From now on handler(pin) runs, in a hard interrupt, when an HX711 has a reading ready
        (its data pin falls): watch.py looks then, and the look that finds them all ready takes
        the reading.  (The HX711s share the clock and start converting together, but each runs
        on its own oscillator: the last one to be ready is not known.)  A data pin also falls
        between the bits of a reading clocked out: on an RP2040 those edges are cleared before
        interrupts are on again (hx711rp2.forget_edges); elsewhere their calls find no reading
        ready (ready(): the pins are high once it is out) and do nothing."""
        self.on_reading = handler
        self.missed = False     # (set in an interrupt, which cannot add it to the object's dict)
        falling = self.machine.Pin.IRQ_FALLING
        for d in self.douts:
            if d is not None:
                d.irq(handler=handler, trigger=falling, hard=True)

    def ready(self):
        if self._rp2 is not None:
            return self._rp2.ready(self._mask) == 1
        for d in self.douts:
            if d is not None and d.value():
                return False
        return True

    def _read_raw(self, raw):
        """Clock out one 24-bit reading from every HX711 at once; None if they are not all ready."""
        if not self.ready():
            return None
        if self._rp2 is not None:
            out = self.raw if type(raw) is list else raw   # (a caller's list: self-test, calibration)
            m = self.machine
            irq = m.disable_irq()       # (some 40 us: no clock pulse may be stretched to 60 us)
            self._rp2.read_bits(self._pins, out, self.cells, self._sck_mask, 24 + self.extra)
            self._rp2.forget_edges(self._edges)
            m.enable_irq(irq)
            if out is not raw:
                for c in range(self.cells):
                    raw[c] = out[c]
            return raw
        douts = self.douts
        n = self.cells
        for c in range(n):
            raw[c] = 0
        sck = self.sck
        m = self.machine
        for _ in range(24):
            # SCK must not stay high for 60 us or the HX711 powers down: no interrupt in between.
            irq = m.disable_irq()
            sck.value(1)
            sck.value(0)
            m.enable_irq(irq)
            # DOUT holds the bit from the rising edge to the next one: read it at leisure.
            for c in range(n):
                d = douts[c]
                if d is not None:
                    raw[c] = (raw[c] << 1) | d.value()
        for _ in range(self.extra):
            irq = m.disable_irq()
            sck.value(1)
            sck.value(0)
            m.enable_irq(irq)
        for c in range(n):
            if raw[c] & 0x800000:           # two's complement, 24 bits
                raw[c] -= 0x1000000
        return raw

    def peek(self, out):
        """A new conversion, if one is ready, into `out` too, for watch.py's look between scans
        (a reading is clocked out once: the next read() takes the latest one a peek took, and an
        HX711 starts its next conversion only once the last is clocked out, so a peek does not
        wait for the scan).  False if none is ready, or a scan reads."""
        if self.busy:
            if self.on_reading is not None:
                self.missed = True      # a reading's edge comes once: read() looks for it after
            return False
        if self.read_raw(self.raw) is None:
            return False
        self.fresh = True
        raw = self.raw
        for c in range(self.cells):
            out[c] = raw[c]
        return True

    def read(self, values):
        """The scan's read (Guarded.read); an HX711 that had a reading ready while it ran, too
        late for this read and too early for a look of the watch's own (the edge that says so
        found the sensors busy), is looked at when it ends, not at the timer's next tick."""
        out = Guarded.read(self, values)
        if self.missed:
            self.missed = False
            self.on_reading()
        return out

    def _read(self, values):
        if self.fresh:                      # the conversion peek() took (and the watch saw)
            self.fresh = False
            raw = self.raw
        else:
            raw = self.looked = self._read_raw(self.raw)
        if raw is None:
            return None                      # a conversion is not ready yet: keep the last values
        for c in range(self.cells):
            if self.douts[c] is None:
                values[c] = None
                continue
            seeds = (raw[c] - self.offset[c]) / self.per_seed[c]
            n = int(seeds + 0.5) if seeds > 0 else -int(-seeds + 0.5)
            if n < 0 or abs(seeds - n) > self.unsure:
                values[c] = _UNKNOWN          # a hand pressing or lifting, or a seed still rolling
            else:
                values[c] = n
        return values

    def power_down(self):
        self.sck.value(1)     # held high over 60 us: every HX711 sleeps
