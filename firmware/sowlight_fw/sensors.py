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

`machine` is passed in by the app (tests pass a fake one).
"""
try:
    from micropython import const
except ImportError:  # CPython
    def const(x):
        return x

try:
    from time import sleep_us
except ImportError:  # CPython
    def sleep_us(us):
        pass

UNKNOWN = const(-1)
DEFAULT_EMPTY = const(3000)      # an uncalibrated occupancy sensor: guesses for a TCRT5000 with differencing
DEFAULT_COVERED = const(30000)
DEFAULT_COUNTS_PER_SEED = const(400)


def make(board, machine=None):
    if machine is None:
        import machine
    kind = board.sensor_kind
    if kind == "occupancy-mux":
        return MuxOccupancy(board, machine)
    if kind == "hx711":
        return HX711Bank(board, machine)
    return GpioOccupancy(board, machine)


def _calibration(board, key, default):
    cal = board.calibration or {}
    values = cal.get(key)
    out = []
    for c in range(board.cells):
        v = values[c] if isinstance(values, list) and c < len(values) else None
        out.append(default if v is None else v)
    return out


class MuxOccupancy:
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
        self.empty = _calibration(board, "empty", DEFAULT_EMPTY)
        self.covered = _calibration(board, "covered", DEFAULT_COVERED)
        self.set_levels(board.threshold, board.hysteresis, jump)
        self.state = bytearray(self.cells)
        self.prev = [None] * self.cells
        self._on = [0] * self.cells
        self.raw = [0] * self.cells
        self._mux = -1

    def set_levels(self, threshold, hysteresis, jump=0.35):
        """Where each cell turns occupied (`high`) and empty again (`low`), from its calibration."""
        self.high = []
        self.low = []
        self.jump = []
        for c in range(self.cells):
            e = self.empty[c]
            span = self.covered[c] - e
            self.high.append(e + (threshold + hysteresis) * span)
            self.low.append(e + (threshold - hysteresis) * span)
            self.jump.append(abs(span) * jump)

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
        for c in range(self.cells):
            s = self.cell_sensors[c]
            if s is not None:
                out[c] = self._channel(s[0], s[1])

    def read_raw(self, raw):
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

    def read(self, values):
        raw = self.read_raw(self.raw)
        for c in range(self.cells):
            if self.cell_sensors[c] is None:
                values[c] = None
                continue
            r = raw[c]
            p = self.prev[c]
            self.prev[c] = r
            if p is not None and abs(r - p) > self.jump[c]:
                values[c] = UNKNOWN        # moving: a hand, a seed rolling in
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


class HX711Bank:
    kind = "counting"

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
        self.offset = _calibration(board, "offset", 0)
        self.per_seed = _calibration(board, "counts_per_seed", DEFAULT_COUNTS_PER_SEED)
        self.raw = [0] * self.cells
        self.unsure = 0.3     # a weight further than this from a whole number of seeds is not a count

    def ready(self):
        for d in self.douts:
            if d is not None and d.value():
                return False
        return True

    def read_raw(self, raw):
        """Clock out one 24-bit reading from every HX711 at once; None if they are not all ready."""
        if not self.ready():
            return None
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

    def read(self, values):
        raw = self.read_raw(self.raw)
        if raw is None:
            return None                      # a conversion is not ready yet: keep the last values
        for c in range(self.cells):
            if self.douts[c] is None:
                values[c] = None
                continue
            seeds = (raw[c] - self.offset[c]) / self.per_seed[c]
            n = int(seeds + 0.5) if seeds > 0 else -int(-seeds + 0.5)
            if n < 0 or abs(seeds - n) > self.unsure:
                values[c] = UNKNOWN          # a hand pressing or lifting, or a seed still rolling
            else:
                values[c] = n
        return values

    def power_down(self):
        self.sck.value(1)     # held high over 60 us: every HX711 sleeps


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
