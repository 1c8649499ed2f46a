"""Bring a newly wired Sowlight board to life, then calibrate its sensors.

Runs on the board, next to the firmware and /board.json (docs/hardware.md,
Bring-up):

    mpremote cp hardware/bringup.py :bringup.py
    mpremote exec "import bringup; bringup.leds()"        # each LED in chain order, with its cell
    mpremote exec "import bringup; bringup.watch()"       # every cell's reading, live
    mpremote exec "import bringup; bringup.buttons()"     # presses and releases
    mpremote exec "import bringup; bringup.calibrate()"   # empty, then covered: prints the calibration

calibrate() prints a "calibration" section for the board's config file: paste
it into the file on the laptop, check it (`sowlight board config check`) and
copy the file back to the board.  The laptop's copy stays the one to edit.

A reading is what docs/config.md defines: read_u16() of the cell's
multiplexer channel, minus the same with the IR emitters off when the board
switches them; raw HX711 counts; 1/0 for a digital sensor.
"""
import json
import time

from sowlight_fw import config

try:
    from time import sleep_ms, sleep_us, ticks_diff, ticks_ms
except ImportError:  # CPython (the tests)
    def sleep_ms(ms):
        time.sleep(ms / 1000)

    def sleep_us(us):
        time.sleep(us / 1000000)

    def ticks_ms():
        return int(time.monotonic() * 1000)

    def ticks_diff(a, b):
        return a - b

try:
    from micropython import const
except ImportError:
    def const(x):
        return x

_SETTLE_US = const(30)      # after a channel switch: the ADC's sample capacitor and the wires settle
_EMITTER_US = const(200)    # a phototransistor with a 10 k load takes this long to follow its emitter
_SAMPLES = const(15)        # readings per cell and phase; calibrate() keeps the median
_HX711_WAIT_MS = const(1000)


def _machine(machine):
    if machine is None:
        import machine  # noqa: F811  (the board's module; tests pass a stand-in)
    return machine


def cell_name(board, cell):
    return "pit %d" % cell if cell < board.pits else "store %d" % (cell - board.pits)


class Sensors:
    """Reads every cell of a board, as the config describes the wiring."""

    def __init__(self, board, machine=None):
        machine = _machine(machine)
        Pin = machine.Pin
        self.board = board
        self.kind = board.sensor_kind
        if self.kind == "occupancy-mux":
            self.select = [Pin(p, Pin.OUT, value=0) for p in board.mux_select]
            self.adcs = []
            self.enables = []
            shared = {}
            for adc, enable in board.mux_list:
                if adc not in shared:
                    shared[adc] = machine.ADC(Pin(adc))
                self.adcs.append(shared[adc])
                # Multiplexers sharing an ADC pin stay off (EN high) until read.
                self.enables.append(None if enable is None else Pin(enable, Pin.OUT, value=1))
            self.emitter = None if board.emitter_pin is None else Pin(board.emitter_pin, Pin.OUT, value=0)
        elif self.kind == "hx711":
            self.sck = Pin(board.hx711_sck, Pin.OUT, value=0)
            self.douts = [None if p is None else Pin(p, Pin.IN) for p in board.cell_sensors]
            self.gain_pulses = 1 if board.hx711_gain == 128 else 3
            self.machine = machine
        else:
            pull = {"up": Pin.PULL_UP, "down": Pin.PULL_DOWN, None: None}[board.gpio_pull]
            self.pins = [None if p is None else Pin(p, Pin.IN, pull) for p in board.cell_sensors]

    def read_all(self, out=None):
        """One reading per cell (None where a store has no sensor), into `out` if given."""
        board = self.board
        if out is None:
            out = [None] * board.cells
        if self.kind == "hx711":
            return self._hx711(out)
        for cell in range(board.cells):
            sensor = board.cell_sensors[cell]
            if sensor is None:
                out[cell] = None
            elif self.kind == "occupancy-mux":
                out[cell] = self._mux(sensor[0], sensor[1])
            else:
                out[cell] = 1 if (self.pins[cell].value() == 0) == board.gpio_active_low else 0
        return out

    def _mux(self, mux, channel):
        for bit in range(4):
            self.select[bit].value((channel >> bit) & 1)
        enable = self.enables[mux]
        if enable is not None:
            enable.value(0)
        adc = self.adcs[mux]
        if self.emitter is None:
            sleep_us(_SETTLE_US)
            adc.read_u16()  # the first conversion after a switch still holds the last channel
            value = adc.read_u16()
        else:
            # Emitters off, then on: the difference is this cell's own reflection,
            # whatever room light or the board's LEDs add to both.
            sleep_us(_EMITTER_US)
            adc.read_u16()
            dark = adc.read_u16()
            self.emitter.value(1)
            sleep_us(_EMITTER_US)
            adc.read_u16()
            lit = adc.read_u16()
            self.emitter.value(0)
            value = lit - dark if lit > dark else 0
        if enable is not None:
            enable.value(1)
        return value

    def _hx711(self, out):
        board = self.board
        start = ticks_ms()
        while True:
            # Each HX711 holds DOUT high until it has a conversion; they share
            # one clock, so wait until all have one, then shift all at once.
            waiting = None
            for cell, dout in enumerate(self.douts):
                if dout is not None and dout.value():
                    waiting = cell
                    break
            if waiting is None:
                break
            if ticks_diff(ticks_ms(), start) > _HX711_WAIT_MS:
                raise OSError("the HX711 of %s never has a reading: check its DOUT wire (pin %d), VCC and GND"
                              % (cell_name(board, waiting), board.cell_sensors[waiting]))
            sleep_ms(2)
        for cell in range(board.cells):
            out[cell] = None if self.douts[cell] is None else 0
        sck = self.sck
        # An interrupt stretching a clock pulse past 60 us would power the HX711s down.
        state = self.machine.disable_irq()
        try:
            for _ in range(24):
                sck.value(1)
                sck.value(0)
                for cell, dout in enumerate(self.douts):
                    if dout is not None:
                        out[cell] = (out[cell] << 1) | dout.value()
            for _ in range(self.gain_pulses):  # selects channel A and the gain for the next reading
                sck.value(1)
                sck.value(0)
        finally:
            self.machine.enable_irq(state)
        for cell in range(board.cells):
            if out[cell] is not None and out[cell] & 0x800000:
                out[cell] -= 0x1000000  # 24-bit two's complement
        return out


# -- calibration (pure: the tests run it on CPython and MicroPython) ------------

def median(values):
    ordered = sorted(values)
    middle = len(ordered) // 2
    if len(ordered) % 2:
        return ordered[middle]
    return (ordered[middle - 1] + ordered[middle]) // 2


def calibration_section(board, first, second, seeds=1):
    """The config's "calibration" section from two sets of readings: board
    empty (`first`), then with seeds in every cell (`second`; `seeds` per cell
    for load cells)."""
    if board.sensor_kind == "occupancy-mux":
        return {"empty": list(first), "covered": list(second)}
    if board.sensor_kind == "hx711":
        per_seed = []
        for a, b in zip(first, second):
            per_seed.append(None if a is None else round((b - a) / seeds, 1))
        return {"offset": list(first), "counts_per_seed": per_seed}
    raise ValueError("digital (gpio) sensors have nothing to calibrate: use watch() to see them switch")


def calibration_problems(board, section):
    """Sentences about cells whose sensor could not be trusted."""
    problems = []
    if board.sensor_kind == "occupancy-mux":
        for cell in range(board.cells):
            empty, covered = section["empty"][cell], section["covered"][cell]
            if empty is None:
                continue
            if abs(covered - empty) < config.MIN_SPAN:
                problems.append("%s barely changes when covered (%d -> %d): check the sensor's height under its window "
                                "and its light shield, then calibrate again" % (cell_name(board, cell), empty, covered))
            elif covered >= 65000:
                problems.append("%s saturates when covered (%d): use a smaller load resistor on its multiplexer's SIG"
                                % (cell_name(board, cell), covered))
    else:
        for cell in range(board.cells):
            value = section["counts_per_seed"][cell]
            if value is not None and abs(value) < config.MIN_COUNTS_PER_SEED:
                problems.append("%s moves by only %s counts per seed: check the load cell's wiring and that the cup "
                                "rests on it without touching the board" % (cell_name(board, cell), value))
    return problems


# -- what a maker runs ------------------------------------------------------------

def _median_readings(sensors, samples=_SAMPLES):
    board = sensors.board
    columns = [[] for _ in range(board.cells)]
    reading = [None] * board.cells
    for _ in range(samples):
        sensors.read_all(reading)
        for cell in range(board.cells):
            if reading[cell] is not None:
                columns[cell].append(reading[cell])
        sleep_ms(20)
    return [median(c) if c else None for c in columns]


def _countdown(seconds):
    for left in range(seconds, 0, -1):
        print("  %d..." % left)
        sleep_ms(1000)


def calibrate(path=config.DEFAULT_PATH, wait_s=10, seeds=4, machine=None):
    """Measure the board empty, then with `seeds` in every pit and store; print
    the calibration section and any cell that needs attention.  Returns the section."""
    board = config.load(path)
    if board.sensor_kind == "gpio":
        raise ValueError("digital (gpio) sensors have nothing to calibrate: use watch() to see them switch")
    sensors = Sensors(board, machine)
    print("Calibrating %s (%d cells)." % (board.name, board.cells))
    print("1/2: take every seed off the board. Measuring in %d s." % wait_s)
    _countdown(wait_s)
    first = _median_readings(sensors)
    print("2/2: put %d seeds in every pit and store. Measuring in %d s." % (seeds, wait_s))
    _countdown(wait_s)
    second = _median_readings(sensors)
    section = calibration_section(board, first, second, seeds)
    print("Paste this into the board's config file (a new top-level key), then check it on the laptop:")
    print('"calibration": ' + json.dumps(section))
    for problem in calibration_problems(board, section):
        print("warning: " + problem)
    return section


def watch(path=config.DEFAULT_PATH, seconds=20, machine=None):
    """Print every cell's reading about four times a second; "*" marks a cell
    the calibration says is occupied."""
    board = config.load(path)
    sensors = Sensors(board, machine)
    cal = board.calibration
    reading = [None] * board.cells
    start = ticks_ms()
    while ticks_diff(ticks_ms(), start) < seconds * 1000:
        sensors.read_all(reading)
        parts = []
        for cell in range(board.cells):
            value = reading[cell]
            if value is None:
                continue
            mark = ""
            if cal and board.sensor_kind == "occupancy-mux" and cal["empty"][cell] is not None:
                empty, covered = cal["empty"][cell], cal["covered"][cell]
                if (value - empty) * (1 if covered >= empty else -1) > board.threshold * abs(covered - empty):
                    mark = "*"
            elif board.sensor_kind == "gpio" and value:
                mark = "*"
            parts.append("%s:%s%s" % (cell if cell < board.pits else "S%d" % (cell - board.pits), value, mark))
        print(" ".join(parts))
        sleep_ms(250)


def leds(path=config.DEFAULT_PATH, seconds_each=1, machine=None, neopixel=None):
    """Light each LED in chain order at the brightness cap and say which cell it
    should be under: a wrong cell means the chain or the config is wrong."""
    machine = _machine(machine)
    if neopixel is None:
        import neopixel
    board = config.load(path)
    strip = neopixel.NeoPixel(machine.Pin(board.led_pin), board.led_count, bpp=board.led_bpp)
    level = board.brightness_cap255
    white = (level,) * board.led_bpp
    dark = (0,) * board.led_bpp
    cell_of = {}
    for cell in range(board.cells):
        for index in board.cell_leds[cell]:
            cell_of[index] = cell
    for index in range(board.led_count):
        strip.fill(dark)
        strip[index] = white
        strip.write()
        print("LED %d: %s" % (index, cell_name(board, cell_of[index]) if index in cell_of else "no cell (spare)"))
        sleep_ms(int(seconds_each * 1000))
    strip.fill(dark)
    strip.write()


def buttons(path=config.DEFAULT_PATH, seconds=20, machine=None):
    """Print each press and release, with the button's role."""
    machine = _machine(machine)
    Pin = machine.Pin
    board = config.load(path)
    pull = {"up": Pin.PULL_UP, "down": Pin.PULL_DOWN, None: None}[board.buttons_pull]
    pins = {}
    for role in ("confirm", "undo", "hint"):
        pins[role] = Pin(board.buttons[role], Pin.IN, pull)
    pressed = {}
    start = ticks_ms()
    while ticks_diff(ticks_ms(), start) < seconds * 1000:
        for role in ("confirm", "undo", "hint"):
            down = (pins[role].value() == 0) == board.buttons_active_low
            if down != pressed.get(role, False):
                pressed[role] = down
                print("%s %s" % (role, "pressed" if down else "released"))
        sleep_ms(10)
