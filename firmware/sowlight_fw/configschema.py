"""The board config's format: every section, key, kind of value, range and default, and the walk
that checks a decoded config against them.

Both checks of a config read this module: the board's at boot (config.py) and the laptop's
(host/sowlight/hardware/config.py).  A Walk finds every problem the format itself defines: unknown
and missing keys, values of the wrong kind or out of range, maps that do not match the board's
shape, an LED, a multiplexer channel or a pin given two jobs.  Each problem is (path, message,
ref): path the keys and indices down to the value at fault, ("leds", "pits", 3); message what
is wrong and what to do; ref None, or the path of the earlier use the message speaks of (the
message has a %s where it is named: text() writes the path, the laptop adds its line), or for
an unknown key the keys its object may have.

The laptop adds what needs its tables or its line numbers (which pins a microcontroller has and
what each can do, the power budget with its sums, warnings); the board adds the power budget.

A section is a tuple of keys, in the order they are checked (a key a later one depends on comes
first): (key, required, kind, default).  A kind is a tuple naming how the value is checked:

    ("int", low, high)               a whole number from low to high
    ("number", low, high, open)      a number from low (above it, if open) to high
    ("choice", options)              one of the options, of the same type (JSON's true is not 1)
    ("bool",) ("text",) ("string",)  true or false; a non-empty string; any string
    ("label", what)                  a string naming `what`, or null
    ("prefix",)                      the board id's prefix
    ("format",)                      the format number this firmware reads
    ("pin", role, use)               a GPIO number, used once in the whole config (role: OUTPUT,
                                     INPUT or ANALOG, for the laptop's capability check)
    ("select",)                      the multiplexers' 4 select pins
    ("muxes",)                       the multiplexers: the section schema()["mux"] for each
    ("cells", entry)                 one entry per pit (key "pits") or per store (key "stores"):
                                     "leds" (LED indices), "channel" ([mux, channel]) or a pin kind
    ("object", keys, what)           a nested section
    ("sensors",) ("calibration",)    a section whose keys depend on the sensors' kind
    ("readings",)                    a calibration list: a number or null per cell
    ("settings",)                    the controller's settings (controller/settings.py)

Only plain tuples and dicts, so that it runs on MicroPython.  schema() builds the tables when a
check asks: the board checks its config once and keeps none of this afterwards.
"""
from .controller import settings

FORMAT = 1
MUX_CHANNELS = 16
MAX_PIN = 64

SENSOR_KINDS = ("occupancy-mux", "hx711", "gpio")
COLOUR_ORDERS = ("RGB", "RBG", "GRB", "GBR", "BRG", "BGR", "RGBW", "GRBW")
MCUS = ("rp2040", "esp32")
PIN_NAMES = {"rp2040": "GP%d", "esp32": "GPIO%d"}

# What a pin is used for, as the laptop checks it against the microcontroller's pins.
OUTPUT = "output"
INPUT = "input"
ANALOG = "analog"


def schema():
    """The top-level section; the others hang from it.  Built when called."""
    pull = ("choice", ("up", "down", None))
    geometry = (
        ("rows", True, ("choice", (2, 4)), None),
        ("pits_per_row", True, ("int", 2, 16), None),
        ("stores", True, ("choice", (0, 2)), None),
    )
    leds = (
        ("pin", True, ("pin", OUTPUT, "the LED data line"), None),
        ("count", True, ("int", 1, 1024), None),
        ("colour_order", False, ("choice", COLOUR_ORDERS), "GRB"),
        ("brightness_cap", True, ("number", 0, 1, True), None),
        ("supply_v", False, ("number", 3.0, 5.5, False), 5.0),
        ("level_shifter", False, ("label", "the level shifter (\"74AHCT125\")"), None),
        ("pits", True, ("cells", "leds"), None),
        ("stores", False, ("cells", "leds"), None),
    )
    sensors = {
        "occupancy-mux": (
            ("select", True, ("select",), None),
            ("muxes", True, ("muxes",), None),
            ("emitter_pin", False, ("pin", OUTPUT, "the IR emitter switch"), None),
            ("threshold", False, ("number", 0.05, 0.95, False), 0.5),
            ("hysteresis", False, ("number", 0, 0.45, False), 0.1),
            ("element", False, ("choice", ("tcrt5000", "phototransistor", "ldr")), None),
            ("pits", True, ("cells", "channel"), None),
            ("stores", False, ("cells", "channel"), None),
        ),
        "hx711": (
            ("sck", True, ("pin", OUTPUT, "the HX711 clock (PD_SCK)"), None),
            ("rate_hz", False, ("choice", (10, 80)), 10),
            ("gain", False, ("choice", (128, 64)), 128),
            ("element", False, ("choice", ("load-cell",)), None),
            ("pits", True, ("cells", ("pin", INPUT, "an HX711 data line (DOUT)")), None),
            ("stores", False, ("cells", ("pin", INPUT, "an HX711 data line (DOUT)")), None),
        ),
        "gpio": (
            ("active_low", False, ("bool",), True),
            ("pull", False, pull, "up"),
            ("element", False, ("choice", ("tcrt5000-module", "reed", "switch")), None),
            ("pits", True, ("cells", ("pin", INPUT, "a pit sensor")), None),
            ("stores", False, ("cells", ("pin", INPUT, "a pit sensor")), None),
        ),
    }
    mux = (
        ("enable", False, ("pin", OUTPUT, "the enable (EN) of multiplexer %d"), None),
        ("adc", True, ("pin", ANALOG, "the signal (SIG) of multiplexer %d"), None),
    )
    buttons = (
        ("active_low", False, ("bool",), True),
        ("pull", False, pull, "up"),
        ("long_press_ms", False, ("int", 200, 5000), 800),
        ("confirm", True, ("pin", INPUT, "the confirm button"), None),
        ("undo", True, ("pin", INPUT, "the undo button"), None),
        ("hint", True, ("pin", INPUT, "the hint button"), None),
    )
    # The power model's defaults depend on the board (config.power_budget): None here.
    power = (
        ("supply_ma", False, ("number", 0, 20000, False), None),
        ("mcu_ma", False, ("number", 0, 2000, False), None),
        ("sensor_ma", False, ("number", 0, 200, False), None),
        ("led_ma", False, ("number", 0, 200, False), None),
        ("led_idle_ma", False, ("number", 0, 10, False), None),
    )
    mm = ("number", 1, 500, True)
    layout = (      # millimetres, for the drawings
        ("pit_diameter_mm", False, mm, 50.0),
        ("pit_pitch_mm", False, mm, 60.0),
        ("row_pitch_mm", False, mm, 62.0),
        ("centre_gap_mm", False, ("number", 0, 500, False), 0.0),
        ("store_width_mm", False, mm, 56.0),
        ("store_length_mm", False, mm, 110.0),
        ("led_offset_mm", False, mm, 17.0),
        ("led_hole_mm", False, mm, 12.0),
        ("sensor_pocket_mm", False, mm, 12.0),
        ("sensor_window_mm", False, mm, 8.0),
        ("margin_mm", False, mm, 20.0),
    )
    notes = (("date", False, ("string",), None), ("note", False, ("string",), None))
    calibration = {
        "occupancy-mux": (("empty", True, ("readings",), None), ("covered", True, ("readings",), None)) + notes,
        "hx711": (("offset", True, ("readings",), None), ("counts_per_seed", True, ("readings",), None)) + notes,
        "gpio": notes,
    }
    return {
        "top": (
            ("format", True, ("format",), None),
            ("name", True, ("text",), None),
            ("id_prefix", False, ("prefix",), "sowlight"),
            ("mcu", True, ("choice", MCUS), None),
            ("description", False, ("text",), None),
            ("geometry", True, ("object", geometry, "geometry"), None),
            ("leds", True, ("object", leds, "leds"), None),
            ("sensors", True, ("sensors",), None),
            ("buttons", True, ("object", buttons, "buttons"), None),
            ("power", False, ("object", power, "power"), None),
            ("layout", False, ("object", layout, "layout"), None),
            ("calibration", False, ("calibration",), None),
            ("settings", False, ("settings",), {}),
        ),
        "sensors": sensors,
        "mux": mux,
        "calibration": calibration,
    }


def keys(section):
    """The key names of a section."""
    return [entry[0] for entry in section]


def kind_of(section, key):
    """The kind of one key of a section."""
    for entry in section:
        if entry[0] == key:
            return entry[2]
    return None


def valid(section, obj, key):
    """Whether obj holds `key` with a value of its simple kind."""
    return key in obj and value_problem(kind_of(section, key), obj[key]) is None


def defaults(section, given):
    """The section's values: `given` (a checked dict) over the defaults of the keys it leaves out."""
    out = {}
    for key, _, _, default in section:
        out[key] = given[key] if key in given else default
    return out


def path_text(path):
    """("leds", "pits", 3, 0) -> "leds.pits[3][0]"."""
    out = ""
    for part in path:
        if isinstance(part, int):
            out += "[%d]" % part
        else:
            out += ("." if out else "") + part
    return out


def show(value):
    """A value as the config file writes it, for messages."""
    if isinstance(value, dict):
        return "an object"
    if isinstance(value, list):
        return "a list"
    return settings.show(value)


def is_int(value):
    # JSON's true and false decode to bool, which Python counts as an int: never a number here.
    return isinstance(value, int) and not isinstance(value, bool)


def is_number(value):
    # value - value is nan for an infinity or a nan (MicroPython's json reads 1e999 as inf).
    return (is_int(value) or isinstance(value, float)) and value - value == 0


def cell_name(pits, cell):
    return "pit %d" % cell if cell < pits else "store %d" % (cell - pits)


def value_problem(kind, value):
    """What is wrong with a value of one of the simple kinds (as words following its name), or None."""
    k = kind[0]
    if k == "int":
        if not is_int(value) or not kind[1] <= value <= kind[2]:
            return "must be a whole number from %d to %d, not %s" % (kind[1], kind[2], show(value))
    elif k == "number":
        low, high, low_open = kind[1], kind[2], kind[3]
        if not is_number(value) or value > high or value < low or (low_open and value == low):
            return "must be a number %s %g to %g, not %s" % ("above" if low_open else "from", low, high, show(value))
    elif k == "choice":
        for option in kind[1]:
            if type(value) is type(option) and value == option:
                return None
        return "must be one of %s, not %s" % (", ".join(show(o) for o in kind[1]), show(value))
    elif k == "bool":
        if not isinstance(value, bool):
            return "must be true or false, not %s" % show(value)
    elif k == "text":
        if not isinstance(value, str) or not value.strip():
            return "must be a non-empty string"
    elif k == "string":
        if not isinstance(value, str):
            return "must be a string, not %s" % show(value)
    elif k == "label":
        if value is not None and not isinstance(value, str):
            return "must name %s or be null" % kind[1]
    elif k == "prefix":
        if not (isinstance(value, str) and 0 < len(value) <= 24
                and all(c in "abcdefghijklmnopqrstuvwxyz0123456789-" for c in value)):
            return "must be 1 to 24 lower-case letters, digits or '-', not %s" % show(value)
    elif k == "format":
        if not is_int(value):
            return "must be the number %d" % FORMAT
        if value != FORMAT:
            return "this is config format %d; the firmware reads format %d" % (value, FORMAT)
    return None


class Walk:
    """One check of a decoded config against the schema.

    After run(): `problems` as above, in the order found; `pins` the (path, pin, role, use) of
    every pin that passed (for the laptop's capability check); and what later checks need:
    `shape` (rows, pits_per_row, stores) or None, `pits`, `cells`, `led_count`, `cap`, `rgbw`,
    `sensor_kind` (None where that part is broken) and `sensed` (the names of the sensed cells).
    `pin_name` turns a pin into its name on the board's microcontroller.
    """

    def __init__(self, raw):
        self.raw = raw
        self.problems = []
        self.pins = []
        self.pin_first = {}     # pin -> (path, use) of its first use
        self.led_first = {}     # LED index -> (path, cell name)
        self.channel_first = {} # (mux, channel) -> (path, cell name)
        self.shape = None
        self.pits = self.cells = 0
        self.led_count = self.cap = self.sensor_kind = None
        self.rgbw = False
        self.mux_count = 0
        self.sensed = []
        self.tables = schema()
        mcu = raw.get("mcu") if isinstance(raw, dict) else None
        self.pin_format = PIN_NAMES[mcu] if mcu in MCUS else "pin %d"

    def pin_name(self, pin):
        return self.pin_format % pin

    def problem(self, path, message, ref=None):
        self.problems.append((path, message, ref))

    def run(self):
        self.section(self.raw, (), self.tables["top"], "the board config")

    def section(self, obj, path, table, what, values=True):
        """Check one object: unknown keys, missing ones, then (if `values`) each value in the
        table's order.  False if it is not an object at all."""
        if not isinstance(obj, dict):
            self.problem(path, "%s must be a JSON object {...}" % what)
            return False
        names = keys(table)
        for key in obj:
            if key not in names:
                self.problem(path + (key,), "unknown key %r in %s" % (key, what), names)
        for key, required, kind, _ in table:
            if key not in obj:
                if required:
                    self.problem(path, "%s is missing the key %r" % (what, key))
            elif values:
                self.value(obj, path, key, kind)
        return True

    def value(self, obj, path, key, kind):
        value = obj[key]
        here = path + (key,)
        k = kind[0]
        if k == "object":
            if self.section(value, here, kind[1], kind[2]):
                if key == "geometry":
                    self.geometry(value, kind[1])
                elif key == "leds":
                    self.leds(value, here, kind[1])
        elif k == "pin":
            self.pin(value, here, kind[1], kind[2])
        elif k == "select":
            if not isinstance(value, list) or len(value) != 4:
                self.problem(here, "must list the 4 pins wired to S0, S1, S2, S3 of every multiplexer")
            else:
                for i in range(4):
                    self.pin(value[i], here + (i,), OUTPUT, "multiplexer select S%d" % i)
        elif k == "muxes":
            self.muxes(value, here)
        elif k == "cells":
            self.cell_list(obj, path, key, kind[1])
        elif k == "sensors":
            self.sensors(value, here)
        elif k == "calibration":
            self.calibration(value, here)
        elif k == "readings":
            if not (isinstance(value, list) and len(value) == self.cells
                    and all(v is None or is_number(v) for v in value)):
                self.problem(here, "must list %d numbers, one per cell (pits, then stores; null where a store has no sensor)"
                             % self.cells)
        elif k == "settings":
            table = tuple((name, False, None, None) for name in sorted(settings.DEFAULTS))
            if self.section(value, here, table, "settings", False):
                for name in value:
                    why = settings.problem(name, value[name]) if name in settings.DEFAULTS else None
                    if why is not None:
                        self.problem(here + (name,), why)
        else:
            why = value_problem(kind, value)
            if why is not None:
                self.problem(here, why)
            elif here == ("leds", "count"):
                self.led_count = value   # before the LED maps, which it bounds

    def geometry(self, geo, table):
        for key in keys(table):
            if not valid(table, geo, key):
                return
        self.shape = (geo["rows"], geo["pits_per_row"], geo["stores"])
        self.pits = geo["rows"] * geo["pits_per_row"]
        self.cells = self.pits + geo["stores"]

    def leds(self, leds, path, table):
        if valid(table, leds, "brightness_cap"):
            self.cap = leds["brightness_cap"]
        order = leds.get("colour_order", "GRB")
        self.rgbw = isinstance(order, str) and len(order) == 4
        if self.shape is not None and self.shape[2] and "stores" not in leds:
            self.problem(path, "leds.stores is missing: the board has %d stores (geometry.stores)" % self.shape[2])

    def pin(self, value, path, role, use):
        """One pin: a GPIO number, not used for anything else."""
        if not is_int(value) or not 0 <= value < MAX_PIN:
            self.problem(path, "a pin is a GPIO number from 0 to %d, not %s" % (MAX_PIN - 1, show(value)))
            return None
        if value in self.pin_first:
            first_path, first_use = self.pin_first[value]
            self.problem(path, "%s is already used for %s (%%s): one pin, one job" % (self.pin_name(value), first_use),
                         first_path)
            return None
        self.pin_first[value] = (path, use)
        self.pins.append((path, value, role, use))
        return value

    def muxes(self, muxes, path):
        if not isinstance(muxes, list) or not muxes:
            self.problem(path, "must list the multiplexers, like [{\"adc\": 26}]")
            return
        self.mux_count = len(muxes)
        table = self.tables["mux"]
        by_adc = {}
        for m in range(len(muxes)):
            mux = muxes[m]
            mpath = path + (m,)
            # Its keys by the table; its pins here, with the multiplexer's number in their use.
            if not self.section(mux, mpath, table, "a multiplexer", False):
                continue
            enable = mux.get("enable")
            if enable is not None:
                self.pin(enable, mpath + ("enable",), OUTPUT, kind_of(table, "enable")[2] % m)
            if "adc" not in mux:
                continue
            adc = mux["adc"]
            if is_int(adc) and adc in by_adc:
                other = by_adc[adc]
                if enable is None or muxes[other].get("enable") is None:
                    self.problem(mpath + ("adc",), "multiplexer %d shares this ADC pin with multiplexer %d: give both "
                                 "an enable pin (their outputs would fight) or use another ADC pin" % (m, other))
                continue  # a shared ADC pin is one pin doing one job
            if self.pin(adc, mpath + ("adc",), ANALOG, kind_of(table, "adc")[2] % m) is not None:
                by_adc[adc] = m

    def sensors(self, sensors, path):
        if not isinstance(sensors, dict):
            self.problem(path, "sensors must be a JSON object {...}")
            return
        kind = sensors.get("kind")
        if not (isinstance(kind, str) and kind in SENSOR_KINDS):
            if "kind" in sensors:
                self.problem(path + ("kind",), value_problem(("choice", SENSOR_KINDS), kind))
            else:
                self.problem(path, "sensors is missing the key 'kind' (%s)" % ", ".join(SENSOR_KINDS))
            return
        self.sensor_kind = kind
        table = (("kind", True, ("choice", SENSOR_KINDS), None),) + self.tables["sensors"][kind]
        self.section(sensors, path, table, "sensors of kind %r" % kind)
        if kind == "occupancy-mux":
            t, h = sensors.get("threshold", 0.5), sensors.get("hysteresis", 0.1)
            if (value_problem(kind_of(table, "threshold"), t) is None and value_problem(kind_of(table, "hysteresis"), h) is None
                    and not (0 < t - h and t + h < 1)):
                self.problem(path + ("hysteresis",), "threshold ± hysteresis must stay between 0 and 1 (%.2f ± %.2f)" % (t, h))

    def cell_list(self, section, path, key, entry):
        """section[key] ("pits" or "stores"): one entry per pit or store, each checked."""
        if self.shape is None:
            return
        want = self.pits if key == "pits" else self.shape[2]
        entries = section[key]
        here = path + (key,)
        if key == "stores" and want == 0:
            if entries:
                self.problem(here, "the board has no stores (geometry.stores is 0): remove this")
            return
        if entries is None and key == "stores" and entry != "leds":
            return      # stores without sensors
        if not isinstance(entries, list):
            self.problem(here, "must be a list with one entry per %s" % key[:-1])
            return
        if len(entries) != want:
            shape = "%d rows of %d" % self.shape[:2] if key == "pits" else "geometry.stores"
            self.problem(here, "has %d entries but the board has %d %s (%s)" % (len(entries), want, key, shape))
        for n in range(min(want, len(entries))):
            cell = n if key == "pits" else self.pits + n
            name = cell_name(self.pits, cell)
            value = entries[n]
            epath = here + (n,)
            if entry == "leds":
                self.led_cell(value, epath, name)
            elif value is None:
                if key == "pits":
                    self.problem(epath, "%s has no sensor: every pit needs one" % name)
            elif entry == "channel":
                self.channel_cell(value, epath, name)
            elif self.pin(value, epath, entry[1], "%s of %s" % (entry[2], name)) is not None:
                self.sensed.append(name)

    def led_cell(self, entry, path, name):
        if not isinstance(entry, list) or not entry:
            self.problem(path, "%s needs a list of one or more LED indices, like [3]" % name)
            return
        count = self.led_count
        for k in range(len(entry)):
            index = entry[k]
            ipath = path + (k,)
            if not is_int(index) or index < 0:
                self.problem(ipath, "an LED index is a whole number from 0, not %s" % show(index))
            elif count is not None and index >= count:
                self.problem(ipath, "%s uses LED %d but the chain has %d LEDs (0..%d): raise leds.count or fix the index"
                             % (name, index, count, count - 1))
            elif index in self.led_first:
                first_path, first_name = self.led_first[index]
                self.problem(ipath, "LED %d is already given to %s (%%s): each LED lights one pit or store" % (index, first_name),
                             first_path)
            else:
                self.led_first[index] = (ipath, name)

    def channel_cell(self, entry, path, name):
        if not (isinstance(entry, list) and len(entry) == 2 and is_int(entry[0]) and is_int(entry[1])):
            self.problem(path, "%s needs [mux, channel], like [0, 5]" % name)
            return
        mux, channel = entry
        if not 0 <= mux < self.mux_count:
            self.problem(path + (0,), "%s is on multiplexer %d but sensors.muxes lists %d (0..%d)"
                         % (name, mux, self.mux_count, self.mux_count - 1))
        elif not 0 <= channel < MUX_CHANNELS:
            self.problem(path + (1,), "a CD74HC4067 has channels 0..%d, not %d" % (MUX_CHANNELS - 1, channel))
        elif (mux, channel) in self.channel_first:
            first_path, first_name = self.channel_first[(mux, channel)]
            self.problem(path, "multiplexer %d channel %d is already wired to %s (%%s)" % (mux, channel, first_name),
                         first_path)
        else:
            self.channel_first[(mux, channel)] = (path, name)
            self.sensed.append(name)

    def calibration(self, cal, path):
        if self.sensor_kind is None or self.shape is None:
            return
        self.section(cal, path, self.tables["calibration"][self.sensor_kind],
                     "calibration for %s sensors" % self.sensor_kind)


def text(problem):
    """A problem as one line: "leds.pits[5][0]: LED 4 is already given to pit 4 (leds.pits[4][0]) ..."."""
    path, message, ref = problem
    if isinstance(ref, tuple):
        message = message % path_text(ref)
    elif ref is not None:
        message += " (known keys: %s)" % ", ".join(ref)
    return "%s: %s" % (path_text(path), message) if path else message


def problems(raw):
    """Every problem the format defines in the decoded config `raw`, as (path, message, ref)."""
    walk = Walk(raw)
    walk.run()
    return walk.problems
