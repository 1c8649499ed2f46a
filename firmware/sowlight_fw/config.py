"""The board's config file, as the firmware reads and checks it at boot.

The config (hardware/boards/*.json, copied to the board as /board.json) says
how many pits the board has, which LED and which sensor belongs to each pit and
store, which pins everything is on and how bright the LEDs may get.  load()
reads it and check() checks it, returning a Board or raising ConfigError; the
controller fits a game onto the Board with cellmap.py.

The check walks the format's schema (configschema.py: keys, kinds, ranges, the
maps against the board's shape, nothing used twice) and adds the LED power
budget.  Anything it refuses would light the wrong pit, drive two outputs
against each other or brown out the USB port.  The laptop's check (`sowlight
board config check FILE`, host/sowlight/hardware/config.py) walks the same schema
and adds line numbers, pin capabilities and warnings; it reads the power model
and the limits below from here so that both agree on what "over budget" means.

Cells are numbered in the canonical order of docs/config.md: pits first, then
the stores (cell pits + p is player p's store).
"""
from . import configschema as schema
from .configschema import COLOUR_ORDERS  # noqa: F401 (badconfig.py reads it from here)
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
    settings         the controller settings the file sets ({} if none: the defaults)
    raw              the decoded JSON, for sections the check does not interpret
                     (app.start() lets go of it on a board; calibration reads the file again)
    """

    def __init__(self, raw):
        self.raw = raw


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
    """Check a decoded config and return a Board, or raise ConfigError naming the first problem."""
    walk = schema.Walk(raw)
    walk.run()
    if walk.problems:
        raise ConfigError(schema.text(walk.problems[0]))
    tables = walk.tables
    top = tables["top"]
    values = schema.defaults(top, raw)
    board = Board(raw)
    board.name = values["name"]
    board.id_prefix = values["id_prefix"]
    board.mcu = values["mcu"]
    geo = raw["geometry"]
    board.rows, board.pits_per_row, board.stores = geo["rows"], geo["pits_per_row"], geo["stores"]
    board.pits = walk.pits
    board.cells = walk.cells
    leds = schema.defaults(schema.kind_of(top, "leds")[1], raw["leds"])
    board.led_pin = leds["pin"]
    board.led_count = leds["count"]
    board.led_order = leds["colour_order"]
    board.led_bpp = len(board.led_order)
    board.brightness_cap = cap = leds["brightness_cap"]
    # Scale factor for channel values: v * cap255 // 255, computed once here.
    board.brightness_cap255 = max(1, int(cap * 255 + 0.5))
    board.cell_leds = tuple(tuple(entry) for entry in _cells(board, leds))
    kind = raw["sensors"]["kind"]
    sensors = schema.defaults(tables["sensors"][kind], raw["sensors"])
    board.sensor_kind = kind
    if kind == "occupancy-mux":
        board.mux_select = tuple(sensors["select"])
        board.mux_list = tuple((m["adc"], m.get("enable")) for m in sensors["muxes"])
        board.emitter_pin = sensors["emitter_pin"]
        # Occupied when a reading passes empty + threshold * (covered - empty),
        # with hysteresis either side so a pit does not flicker (docs/config.md).
        board.threshold = sensors["threshold"]
        board.hysteresis = sensors["hysteresis"]
        board.cell_sensors = tuple(None if s is None else tuple(s) for s in _cells(board, sensors))
    else:
        if kind == "hx711":
            board.hx711_sck = sensors["sck"]
            board.hx711_rate = sensors["rate_hz"]
            board.hx711_gain = sensors["gain"]
        else:
            board.gpio_active_low = sensors["active_low"]
            board.gpio_pull = sensors["pull"]
        board.cell_sensors = tuple(_cells(board, sensors))
    buttons = schema.defaults(schema.kind_of(top, "buttons")[1], raw["buttons"])
    board.buttons = {"confirm": buttons["confirm"], "undo": buttons["undo"], "hint": buttons["hint"]}
    board.buttons_active_low = buttons["active_low"]
    board.buttons_pull = buttons["pull"]
    board.long_press_ms = buttons["long_press_ms"]
    _check_power(board, raw.get("power", {}), len(walk.sensed))
    board.calibration = values["calibration"]
    board.settings = values["settings"]
    return board


def _cells(board, section):
    """A checked section's entry for each cell: its pits, then its stores (None for a store
    without a sensor)."""
    stores = section["stores"]
    return list(section["pits"]) + list(stores if stores else [None] * board.stores)


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


def _check_power(board, power, sensed):
    worst, reserve, supply = power_budget(board.led_count, board.brightness_cap, sensed, board.mcu,
                                          board.sensor_kind, power, board.led_bpp == 4)
    if worst > supply:
        raise ConfigError("leds.brightness_cap %.2f needs up to %d mA but the supply gives %d mA: lower it to %.2f or set power.supply_ma for a bigger 5 V supply"
                          % (board.brightness_cap, int(worst), supply,
                             max_brightness(board.led_count, sensed, board.mcu, board.sensor_kind, power, board.led_bpp == 4)))
    board.supply_ma = supply
    board.worst_ma = worst
