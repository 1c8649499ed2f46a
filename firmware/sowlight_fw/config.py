"""The board's config file, as the firmware reads and checks it at boot.

The config (hardware/boards/*.json, copied to the board as /board.json) says
how many pits the board has, which LED and which sensor belongs to each pit and
store, which pins everything is on and how bright the LEDs may get.  load()
reads it and check() checks it, returning a Board or raising ConfigError; the
controller fits a game onto the Board with cellmap.py.

The check is the light one a board can afford: the shapes of the maps, LED
indices in range and unique, sensor channels unique, no pin used twice, and
the LED power budget.  Anything it refuses would light the wrong pit, drive
two outputs against each other or brown out the USB port.  The full check,
with line numbers and pin capabilities, runs on the laptop (`sowlight board
config check FILE`, host/sowlight/hardware/config.py), which reads the power model
and the limits below from here so that both agree on what "over budget" means.

Cells are numbered in the canonical order of docs/config.md: pits first, then
the stores (cell pits + p is player p's store).
"""
try:
    from micropython import const
except ImportError:  # CPython
    def const(x):
        return x

DEFAULT_PATH = "board.json"


class ConfigError(ValueError):
    """The board config is missing, is not JSON, or does not describe a board
    this firmware can drive safely.  The message names the key at fault."""


class Board:
    """The checked config: plain attributes, tuples for the maps (check() sets them).

    cell_leds[c]     LED indices lighting cell c (pits, then stores)
    cell_sensors[c]  (mux, channel) for occupancy-mux, a data pin for hx711 and
                     gpio, or None for a store without a sensor
    raw              the decoded JSON, for sections the check does not interpret
                     (app.start() lets go of it on a board; calibration reads the file again)
    """

    def __init__(self, raw):
        self.raw = raw


FORMAT = const(1)
MUX_CHANNELS = const(16)
_MAX_PIN = const(64)
_MAX_LEDS = const(1024)

SENSOR_KINDS = ("occupancy-mux", "hx711", "gpio")
COLOUR_ORDERS = ("RGB", "RBG", "GRB", "GBR", "BRG", "BGR", "RGBW", "GRBW")

# Power model (mA).  The host validator imports these, so the laptop and the
# board agree on what "over budget" means.
SUPPLY_MA = const(500)          # a USB 2.0 port
MCU_MA = {"rp2040": 50, "esp32": 120}
SENSOR_MA = {"occupancy-mux": 12, "hx711": 6, "gpio": 15}
LED_MA = const(60)              # one WS2812B at full white: 3 x 20 mA
LED_MA_RGBW = const(80)         # one SK6812 RGBW at full white: 4 x 20 mA
LED_IDLE_MA = const(1)          # a dark WS2812B still draws about 1 mA

# Calibration sanity (the laptop warns below these; hardware/bringup.py too).
MIN_SPAN = const(2000)          # covered - empty, in read_u16 units: less is noise, not seeds
MIN_COUNTS_PER_SEED = const(50) # HX711 counts one seed must move the reading by


def load(path=DEFAULT_PATH):
    """Read and check the config at `path`; return a Board or raise ConfigError."""
    import json
    try:
        with open(path) as f:
            raw = json.load(f)
    except OSError:
        raise ConfigError("cannot read the board config %s: copy a preset from hardware/boards/ to the board as %s" % (path, DEFAULT_PATH))
    except ValueError as e:
        raise ConfigError("%s is not valid JSON (%s): run `sowlight board config check` on it for the line" % (path, e))
    return check(raw)


def check(raw):
    """Check a decoded config and return a Board, or raise ConfigError."""
    if not isinstance(raw, dict):
        raise ConfigError("the board config must be a JSON object")
    board = Board(raw)
    if _section(raw, "format", int) != FORMAT:
        raise ConfigError("format: this firmware reads config format %d, the file says %r" % (FORMAT, raw["format"]))
    board.name = _section(raw, "name", str)
    board.id_prefix = raw.get("id_prefix", "sowlight")
    board.mcu = _section(raw, "mcu", str)
    if board.mcu not in MCU_MA:
        raise ConfigError("mcu: %r is not a known microcontroller (rp2040 or esp32)" % board.mcu)
    pins = bytearray(_MAX_PIN)  # 0 = free, else a code for its first user (for the message)
    _check_geometry(board, _section(raw, "geometry", dict))
    _check_leds(board, _section(raw, "leds", dict), pins)
    _check_sensors(board, _section(raw, "sensors", dict), pins)
    _check_buttons(board, _section(raw, "buttons", dict), pins)
    _check_power(board, raw.get("power", {}))
    board.calibration = _check_calibration(board, raw.get("calibration"))
    return board


def power_budget(led_count, cap, sensed_cells, mcu, sensor_kind, power=None, rgbw=False):
    """Worst case current (mA) with every LED white at `cap`, and the supply.

    Returns (worst_ma, reserve_ma, supply_ma): reserve is what the MCU, the
    sensors and the idle LEDs draw whatever the LEDs show; worst includes it.
    """
    if power is None:
        power = {}
    led_ma = power.get("led_ma", LED_MA_RGBW if rgbw else LED_MA)
    reserve = (power.get("mcu_ma", MCU_MA.get(mcu, 120))
               + sensed_cells * power.get("sensor_ma", SENSOR_MA.get(sensor_kind, 15))
               + led_count * power.get("led_idle_ma", LED_IDLE_MA))
    worst = reserve + led_count * led_ma * cap
    return worst, reserve, power.get("supply_ma", SUPPLY_MA)


def max_brightness(led_count, sensed_cells, mcu, sensor_kind, power=None, rgbw=False):
    """The highest brightness cap (0..1) the supply allows, or 0 if even dark LEDs do not fit."""
    worst_full, reserve, supply = power_budget(led_count, 1.0, sensed_cells, mcu, sensor_kind, power, rgbw)
    spare = supply - reserve
    if spare <= 0:
        return 0.0
    return min(1.0, spare / (worst_full - reserve))


# -- sections ---------------------------------------------------------------

def _section(raw, key, kind, where=""):
    if key not in raw:
        raise ConfigError("%s%s is missing" % (where, key))
    value = raw[key]
    # JSON true/false decode to bool, which is an int subclass: never accept it as a number.
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise ConfigError("%s%s must be %s, not %r" % (where, key, _KIND_NAMES.get(kind, "?"), value))
    return value


_KIND_NAMES = {int: "a whole number", str: "a string", dict: "an object", list: "a list", bool: "true or false"}


def _int_in(value, low, high, what):
    if not isinstance(value, int) or isinstance(value, bool) or value < low or value > high:
        raise ConfigError("%s must be a whole number from %d to %d, not %r" % (what, low, high, value))
    return value


def _check_geometry(board, geo):
    board.rows = _int_in(geo.get("rows"), 2, 4, "geometry.rows")
    if board.rows == 3:
        raise ConfigError("geometry.rows must be 2 or 4")
    board.pits_per_row = _int_in(geo.get("pits_per_row"), 2, 16, "geometry.pits_per_row")
    board.stores = _int_in(geo.get("stores", 0), 0, 2, "geometry.stores")
    if board.stores == 1:
        raise ConfigError("geometry.stores must be 0 or 2 (one per player)")
    board.pits = board.rows * board.pits_per_row
    board.cells = board.pits + board.stores


def _cell_name(board, cell):
    if cell < board.pits:
        return "pit %d" % cell
    return "store %d" % (cell - board.pits)


def _cell_lists(board, section, where):
    """The per-pit list and the per-store list of a section, checked for length."""
    pits = _section(section, "pits", list, where + ".")
    if len(pits) != board.pits:
        raise ConfigError("%s.pits has %d entries but the board has %d pits (%d rows of %d)"
                          % (where, len(pits), board.pits, board.rows, board.pits_per_row))
    stores = section.get("stores")
    if board.stores == 0:
        if stores:
            raise ConfigError("%s.stores is given but geometry.stores is 0" % where)
        return pits, ()
    if stores is None:
        return pits, None
    if not isinstance(stores, list) or len(stores) != board.stores:
        raise ConfigError("%s.stores must list %d entries, one per store" % (where, board.stores))
    return pits, stores


def _check_leds(board, leds, pins):
    board.led_pin = _claim(pins, _section(leds, "pin", int, "leds."), 1, "leds.pin")
    count = _int_in(leds.get("count"), 1, _MAX_LEDS, "leds.count")
    board.led_count = count
    order = leds.get("colour_order", "GRB")
    if order not in COLOUR_ORDERS:
        raise ConfigError("leds.colour_order %r is not one of %s" % (order, ", ".join(COLOUR_ORDERS)))
    board.led_order = order
    board.led_bpp = len(order)
    cap = leds.get("brightness_cap")
    if isinstance(cap, bool) or not isinstance(cap, (int, float)) or not 0 < cap <= 1:
        raise ConfigError("leds.brightness_cap must be a number above 0 and at most 1 (a fraction of full brightness), not %r" % (cap,))
    board.brightness_cap = cap
    # Scale factor for channel values: v * cap255 // 255, computed once here.
    board.brightness_cap255 = max(1, int(cap * 255 + 0.5))
    pits, stores = _cell_lists(board, leds, "leds")
    if board.stores and stores is None:
        raise ConfigError("leds.stores is missing: the board has %d stores and each needs its LEDs" % board.stores)
    used = bytearray(count)
    cell_leds = []
    for cell in range(board.cells):
        entry = pits[cell] if cell < board.pits else stores[cell - board.pits]
        if not isinstance(entry, list) or not entry:
            raise ConfigError("leds: %s needs a list of one or more LED indices, not %r" % (_cell_name(board, cell), entry))
        for index in entry:
            if not isinstance(index, int) or isinstance(index, bool) or index < 0 or index >= count:
                raise ConfigError("leds: %s uses LED %r but the chain has %d LEDs (0..%d)"
                                  % (_cell_name(board, cell), index, count, count - 1))
            if used[index]:
                raise ConfigError("leds: LED %d is given to %s and to an earlier cell: each LED lights one pit or store"
                                  % (index, _cell_name(board, cell)))
            used[index] = 1
        cell_leds.append(tuple(entry))
    board.cell_leds = tuple(cell_leds)


def _check_sensors(board, sensors, pins):
    kind = _section(sensors, "kind", str, "sensors.")
    if kind not in SENSOR_KINDS:
        raise ConfigError("sensors.kind %r is not one of %s" % (kind, ", ".join(SENSOR_KINDS)))
    board.sensor_kind = kind
    pits, stores = _cell_lists(board, sensors, "sensors")
    cell_sensors = []
    if kind == "occupancy-mux":
        select = _section(sensors, "select", list, "sensors.")
        if len(select) != 4:
            raise ConfigError("sensors.select must list the 4 pins wired to S0..S3 of every multiplexer")
        board.mux_select = tuple(_claim(pins, p, 2, "sensors.select") for p in select)
        board.mux_list = _check_muxes(_section(sensors, "muxes", list, "sensors."), pins)
        emitter = sensors.get("emitter_pin")
        board.emitter_pin = None if emitter is None else _claim(pins, emitter, 5, "sensors.emitter_pin")
        # Occupied when a reading passes empty + threshold * (covered - empty),
        # with hysteresis either side so a pit does not flicker (docs/config.md).
        board.threshold = _fraction(sensors.get("threshold", 0.5), "sensors.threshold")
        board.hysteresis = _fraction(sensors.get("hysteresis", 0.1), "sensors.hysteresis")
        taken = bytearray(len(board.mux_list) * MUX_CHANNELS)
        for cell in range(board.cells):
            entry = _cell_entry(board, pits, stores, cell)
            if entry is None:
                cell_sensors.append(None)
                continue
            if not isinstance(entry, list) or len(entry) != 2:
                raise ConfigError("sensors: %s needs [mux, channel], not %r" % (_cell_name(board, cell), entry))
            mux = _int_in(entry[0], 0, len(board.mux_list) - 1, "sensors: the mux of " + _cell_name(board, cell))
            channel = _int_in(entry[1], 0, MUX_CHANNELS - 1, "sensors: the channel of " + _cell_name(board, cell))
            slot = mux * MUX_CHANNELS + channel
            if taken[slot]:
                raise ConfigError("sensors: mux %d channel %d is given to %s and to an earlier cell" % (mux, channel, _cell_name(board, cell)))
            taken[slot] = 1
            cell_sensors.append((mux, channel))
    else:
        if kind == "hx711":
            board.hx711_sck = _claim(pins, _section(sensors, "sck", int, "sensors."), 3, "sensors.sck")
            rate = sensors.get("rate_hz", 10)
            if rate not in (10, 80):
                raise ConfigError("sensors.rate_hz must be 10 or 80 (the HX711's RATE pin), not %r" % (rate,))
            board.hx711_rate = rate
            board.hx711_gain = sensors.get("gain", 128)
            if board.hx711_gain not in (128, 64):
                raise ConfigError("sensors.gain must be 128 or 64 (channel A), not %r" % (board.hx711_gain,))
        else:
            board.gpio_active_low = bool(sensors.get("active_low", True))
            board.gpio_pull = _pull(sensors, "sensors.pull")
        for cell in range(board.cells):
            entry = _cell_entry(board, pits, stores, cell)
            if entry is None:
                cell_sensors.append(None)
                continue
            cell_sensors.append(_claim(pins, entry, 4, "sensors: the pin of " + _cell_name(board, cell)))
    board.cell_sensors = tuple(cell_sensors)


def _cell_entry(board, pits, stores, cell):
    if cell < board.pits:
        entry = pits[cell]
        if entry is None:
            raise ConfigError("sensors: %s has no sensor: every pit needs one" % _cell_name(board, cell))
        return entry
    if stores is None:
        return None
    return stores[cell - board.pits]


def _check_muxes(muxes, pins):
    if not muxes:
        raise ConfigError("sensors.muxes must list at least one multiplexer")
    result = []
    shared = {}
    for i, mux in enumerate(muxes):
        if not isinstance(mux, dict):
            raise ConfigError("sensors.muxes[%d] must be an object with adc and enable" % i)
        adc = mux.get("adc")
        if not isinstance(adc, int) or isinstance(adc, bool):
            raise ConfigError("sensors.muxes[%d].adc must be the GPIO number of an analog pin, not %r" % (i, adc))
        enable = mux.get("enable")
        if enable is not None:
            _claim(pins, enable, 2, "sensors.muxes[%d].enable" % i)
        if adc in shared:
            # Muxes may share an ADC pin only if each can be switched off (EN high
            # leaves its output floating); otherwise their outputs short together.
            if enable is None or result[shared[adc]][1] is None:
                raise ConfigError("sensors.muxes[%d] shares ADC pin %r with mux %d: give both an enable pin or use another ADC pin"
                                  % (i, adc, shared[adc]))
        else:
            _claim(pins, adc, 6, "sensors.muxes[%d].adc" % i)
            shared[adc] = i
        result.append((adc, enable))
    return tuple(result)


def _check_buttons(board, buttons, pins):
    board.buttons = {}
    for role in ("confirm", "undo", "hint"):
        board.buttons[role] = _claim(pins, _section(buttons, role, int, "buttons."), 7, "buttons." + role)
    board.buttons_active_low = bool(buttons.get("active_low", True))
    board.buttons_pull = _pull(buttons, "buttons.pull")
    board.long_press_ms = _int_in(buttons.get("long_press_ms", 800), 200, 5000, "buttons.long_press_ms")


def _fraction(value, what):
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 <= value < 1:
        raise ConfigError("%s must be a number from 0 to below 1, not %r" % (what, value))
    return value


_CALIBRATION_LISTS = {"occupancy-mux": ("empty", "covered"), "hx711": ("offset", "counts_per_seed"), "gpio": ()}


def _check_calibration(board, cal):
    """The calibration lists the sensor code will index: one number (or null) per cell."""
    if cal is None:
        return None
    if not isinstance(cal, dict):
        raise ConfigError("calibration must be an object")
    for key in _CALIBRATION_LISTS[board.sensor_kind]:
        values = cal.get(key)
        if not isinstance(values, list) or len(values) != board.cells:
            raise ConfigError("calibration.%s must list %d values, one per cell" % (key, board.cells))
        for v in values:
            if v is not None and (isinstance(v, bool) or not isinstance(v, (int, float))):
                raise ConfigError("calibration.%s holds %r, which is not a number" % (key, v))
    return cal


def _pull(section, what):
    pull = section.get("pull", "up")
    if pull not in ("up", "down", None):
        raise ConfigError("%s must be \"up\", \"down\" or null, not %r" % (what, pull))
    return pull


def _check_power(board, power):
    if not isinstance(power, dict):
        raise ConfigError("power must be an object")
    for key in power:
        value = power[key]
        if isinstance(value, bool) or not isinstance(value, (int, float)) or value < 0:
            raise ConfigError("power.%s must be a number of mA, not %r" % (key, value))
    sensed = 0
    for s in board.cell_sensors:
        if s is not None:
            sensed += 1
    worst, reserve, supply = power_budget(board.led_count, board.brightness_cap, sensed, board.mcu,
                                          board.sensor_kind, power, board.led_bpp == 4)
    if worst > supply:
        raise ConfigError("leds.brightness_cap %.2f needs up to %d mA but the supply gives %d mA: lower it to %.2f or set power.supply_ma for a bigger 5 V supply"
                          % (board.brightness_cap, int(worst), supply,
                             max_brightness(board.led_count, sensed, board.mcu, board.sensor_kind, power, board.led_bpp == 4)))
    board.supply_ma = supply
    board.worst_ma = worst


_USERS = ("", "leds.pin", "a mux select pin", "sensors.sck", "a sensor pin", "sensors.emitter_pin", "a mux ADC pin", "a button")


def _claim(pins, pin, user, what):
    """Mark `pin` as used by `user` (a code for the message); refuse a pin used twice."""
    if not isinstance(pin, int) or isinstance(pin, bool) or pin < 0 or pin >= _MAX_PIN:
        raise ConfigError("%s must be a GPIO number, not %r" % (what, pin))
    if pins[pin]:
        raise ConfigError("%s: pin %d is already used by %s" % (what, pin, _USERS[pins[pin]]))
    pins[pin] = user
    return pin
