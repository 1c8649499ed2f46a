"""Generate the board presets, the example configs and their drawings.

    python hardware/generate.py            # (re)write every generated file
    python hardware/generate.py --check    # exit 1 if any file is missing or stale

Every preset is the same reference build (docs/hardware.md) scaled to a board
shape: a Raspberry Pi Pico, one WS2812B per pit and store chained in a snake,
TCRT5000 reflectance sensors read through CD74HC4067 multiplexers, three
buttons.  Pins, LED order and multiplexer channels follow fixed rules written
below, so a maker who wires one board can wire them all.  The drawings in
hardware/drawings/ are made from the configs by sowlight.hardware.drawings, so they
always match.  tests/test_hardware_presets.py fails if anything here is stale.
"""
import json
import math
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
# Run from a checkout without installing: the packages live in host/ and firmware/.
for _package_dir in ("host", "firmware"):
    if os.path.join(ROOT, _package_dir) not in sys.path:
        sys.path.insert(0, os.path.join(ROOT, _package_dir))

from sowlight.hardware import config as boardconfig  # noqa: E402
from sowlight.hardware import drawings  # noqa: E402
from sowlight.hardware.drawings import canonical_pit  # noqa: E402
from sowlight_fw import config as device  # noqa: E402

# The reference Pico wiring (docs/hardware.md, Wiring the Pico).
PICO = {
    "led": 16,                       # -> 74AHCT125 1A; 1Y -> 330 ohm -> first LED's DIN
    "select": [2, 3, 4, 5],          # -> S0..S3 of every CD74HC4067
    "emitter": 6,                    # -> 470 ohm -> base of the IR-emitter switch (PN2222A)
    "adc": [26, 27, 28],             # ADC0..ADC2 -> SIG of multiplexer 0, 1, 2
    "buttons": {"confirm": 10, "undo": 11, "hint": 12},
}

# Supplies tried in order: a USB port, then 5 V wall supplies.
SUPPLIES_MA = (500, 2000, 3000)
USB_CAP, EXTERNAL_CAP = 0.2, 0.5      # the least brightness worth building for, per supply kind
HEADROOM = 0.9                        # stay under 90 % of the supply, as the validator asks

PRESETS = (
    # file stem, rows, pits per row, stores, title
    ("2x6-stores", 2, 6, 2, "2x6 with two stores (the reference build)"),
    ("2x7-stores", 2, 7, 2, "2x7 with two stores"),
    ("2x8", 2, 8, 0, "2x8"),
    ("2x10", 2, 10, 0, "2x10"),
    ("2x12", 2, 12, 0, "2x12"),
    ("4x7", 4, 7, 0, "4x7"),
    ("4x8", 4, 8, 0, "4x8"),
    ("4x10", 4, 10, 0, "4x10"),
    ("4x12", 4, 12, 0, "4x12"),
)


def chain_order(rows, n, stores):
    """Cells in the order the LED chain (and the sensor wiring) visits them: a
    snake along the rows from player 0's left, each store where the snake
    passes it.  For two rows this is the sowing ring itself."""
    if stores and rows != 2:
        raise ValueError("the snake passes the stores only on two-row boards; lay out a four-row board with stores by hand")
    pits = rows * n
    order = []
    for row in range(rows):
        columns = range(n) if row % 2 == 0 else range(n - 1, -1, -1)
        order.extend(canonical_pit(rows, n, row, c) for c in columns)
        if stores and row == 0:
            order.append(pits)          # player 0's store, at its right-hand end
    if stores:
        order.append(pits + 1)          # player 1's store, where the snake ends
    return order


def layout_for(rows, n):
    if rows == 4:
        return {"pit_diameter_mm": 44, "pit_pitch_mm": 52, "row_pitch_mm": 54, "centre_gap_mm": 10,
                "led_offset_mm": 15}
    if n >= 10:
        return {"pit_diameter_mm": 44, "pit_pitch_mm": 52, "row_pitch_mm": 56, "led_offset_mm": 15}
    return {"pit_diameter_mm": 50, "pit_pitch_mm": 60, "row_pitch_mm": 62, "led_offset_mm": 17}


def power_plan(leds, sensed, mcu, kind, usb_cap=USB_CAP):
    """The smallest supply that lights the board usefully, and the cap to set:
    the highest multiple of 0.05 that stays under 90 % of that supply (at most
    0.5: brighter than that dazzles in a room and only heats the wood)."""
    for supply in SUPPLIES_MA:
        power = {"supply_ma": int(supply * HEADROOM)}
        best = device.max_brightness(leds, sensed, mcu, kind, power)
        cap = min(0.5, math.floor(best * 20 + 1e-9) / 20)
        if cap >= (usb_cap if supply == 500 else EXTERNAL_CAP):
            return supply, cap
    raise ValueError("no supply in %s lights %d LEDs" % (SUPPLIES_MA, leds))


def mux_channels(order, sensed_cells):
    """{cell: [mux, channel]}: channels filled in chain order, 16 per multiplexer."""
    result = {}
    slot = 0
    for cell in order:
        if cell in sensed_cells:
            result[cell] = [slot // 16, slot % 16]
            slot += 1
    return result


def occupancy_preset(stem, rows, n, stores, title):
    pits = rows * n
    cells = pits + stores
    order = chain_order(rows, n, stores)
    led_of = dict((cell, [i]) for i, cell in enumerate(order))
    channel = mux_channels(order, set(range(cells)))
    muxes = (cells + 15) // 16
    if muxes > len(PICO["adc"]):
        raise ValueError("%s: %d sensors need %d multiplexers but the Pico has 3 ADC pins" % (stem, cells, muxes))
    supply, cap = power_plan(cells, cells, "rp2040", "occupancy-mux")
    config = {
        "format": 1,
        "name": "Sowlight %s, Raspberry Pi Pico" % title,
        "id_prefix": "sowlight-" + stem,
        "description": "Generated by hardware/generate.py: one WS2812B per cell in a snake, "
                       "TCRT5000 sensors on %d CD74HC4067 multiplexer%s. Wiring: docs/hardware.md."
                       % (muxes, "s" if muxes > 1 else ""),
        "mcu": "rp2040",
        "geometry": {"rows": rows, "pits_per_row": n, "stores": stores},
        "leds": {
            "pin": PICO["led"],
            "count": cells,
            "colour_order": "GRB",
            "brightness_cap": cap,
            "supply_v": 5,
            "level_shifter": "74AHCT125",
            "pits": [led_of[c] for c in range(pits)],
        },
        "sensors": {
            "kind": "occupancy-mux",
            "element": "tcrt5000",
            "select": PICO["select"],
            "muxes": [{"adc": PICO["adc"][m]} for m in range(muxes)],
            "emitter_pin": PICO["emitter"],
            "threshold": 0.5,
            "hysteresis": 0.1,
            "pits": [channel[c] for c in range(pits)],
        },
        "buttons": dict(PICO["buttons"], active_low=True, pull="up", long_press_ms=800),
        "power": {"supply_ma": supply},
        "layout": layout_for(rows, n),
    }
    if stores:
        config["leds"]["stores"] = [led_of[c] for c in range(pits, cells)]
        config["sensors"]["stores"] = [channel[c] for c in range(pits, cells)]
    return config


def example_esp32():
    """The reference 2x6 board on an ESP32 DevKitC (docs/hardware.md, Wiring an ESP32)."""
    config = occupancy_preset("2x6-stores", 2, 6, 2, "2x6 with two stores")
    pits = 12
    config["name"] = "Sowlight 2x6 with two stores, ESP32 DevKitC"
    config["id_prefix"] = "sowlight-2x6-esp32"
    config["description"] = ("Example: the reference board on an ESP32 DevKitC. ADC on GPIO36 (ADC1, "
                             "usable with WiFi on); outputs on pins that are not strapping pins.")
    config["mcu"] = "esp32"
    config["leds"]["pin"] = 23
    config["sensors"]["select"] = [18, 19, 21, 22]
    config["sensors"]["muxes"] = [{"adc": 36}]
    config["sensors"]["emitter_pin"] = 25
    config["buttons"].update({"confirm": 26, "undo": 27, "hint": 33})
    supply, cap = power_plan(pits + 2, pits + 2, "esp32", "occupancy-mux", usb_cap=0.15)
    config["leds"]["brightness_cap"] = cap
    config["power"] = {"supply_ma": supply}
    return config


def example_hx711():
    """The reference 2x6 board with a load cell and HX711 under every pit and store."""
    config = occupancy_preset("2x6-stores", 2, 6, 2, "2x6 with two stores")
    pits, cells = 12, 14
    order = chain_order(2, 6, 2)
    douts = [3, 4, 5, 6, 7, 8, 9, 13, 14, 15, 17, 18, 19, 20]   # one DOUT per cell, in chain order
    dout_of = dict((cell, douts[i]) for i, cell in enumerate(order))
    config["name"] = "Sowlight 2x6 with two stores, load cells (HX711), Raspberry Pi Pico"
    config["id_prefix"] = "sowlight-2x6-hx711"
    config["description"] = ("Example: counts seeds by weight. Each cell rests on a bar load cell read by "
                             "its own HX711; the HX711 clocks share one pin (docs/hardware.md, Load cells).")
    config["sensors"] = {
        "kind": "hx711",
        "element": "load-cell",
        "sck": 2,
        "rate_hz": 10,
        "gain": 128,
        "pits": [dout_of[c] for c in range(pits)],
        "stores": [dout_of[c] for c in range(pits, cells)],
    }
    supply, cap = power_plan(cells, cells, "rp2040", "hx711")
    config["leds"]["brightness_cap"] = cap
    config["power"] = {"supply_ma": supply}
    return config


# -- JSON layout: objects one key per line, short lists inline, the pit maps one
# board row per line (so a map's lines match the rows of the board).

def dump(config):
    return _dump(config, 0, config["geometry"]["pits_per_row"]) + "\n"


def _inline(value):
    return json.dumps(value, ensure_ascii=False, separators=(", ", ": "))


def _dump(value, indent, row_length, key=None):
    pad = "  " * (indent + 1)
    end = "  " * indent
    if isinstance(value, dict):
        if all(not isinstance(v, (dict, list)) for v in value.values()) and len(_inline(value)) <= 60 and indent > 1:
            return _inline(value)
        items = [pad + json.dumps(k) + ": " + _dump(v, indent + 1, row_length, k) for k, v in value.items()]
        return "{\n" + ",\n".join(items) + "\n" + end + "}"
    if isinstance(value, list):
        inline = _inline(value)
        if len(inline) + len(pad) <= 96 and "{" not in inline[1:]:
            return inline
        per_line = row_length if key == "pits" else 1
        lines = [pad + ", ".join(_dump(v, indent + 1, row_length) for v in value[i:i + per_line])
                 for i in range(0, len(value), per_line)]
        return "[\n" + ",\n".join(lines) + "\n" + end + "]"
    return _inline(value)


# -- all generated files --------------------------------------------------------

def configs():
    """{relative path: config dict} for every preset and example."""
    out = {}
    for stem, rows, n, stores, title in PRESETS:
        out["boards/%s.json" % stem] = occupancy_preset(stem, rows, n, stores, title)
    out["examples/2x6-stores-esp32.json"] = example_esp32()
    out["examples/2x6-stores-hx711.json"] = example_hx711()
    return out


def build_all():
    """{path relative to hardware/: text} of every generated file."""
    files = {}
    for rel, config in configs().items():
        text = dump(config)
        report = boardconfig.check_text(text, rel)
        if not report.ok:
            raise ValueError("generated config %s does not pass the check:\n%s" % (rel, "\n".join(report.lines())))
        files[rel] = text
        if rel.startswith("boards/"):
            stem = os.path.basename(rel)[:-5]
            board = boardconfig.board_from_text(text, rel)
            for suffix, svg in drawings.all_drawings(board).items():
                files["drawings/%s-%s.svg" % (stem, suffix)] = svg
    return files


def main(argv):
    check = "--check" in argv
    stale = []
    for rel, text in sorted(build_all().items()):
        path = os.path.join(HERE, rel)
        try:
            with open(path, encoding="utf-8") as f:
                current = f.read()
        except OSError:
            current = None
        if current == text:
            continue
        stale.append(rel)
        if not check:
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "w", encoding="utf-8", newline="\n") as f:
                f.write(text)
    if check and stale:
        print("stale or missing (run python hardware/generate.py): " + ", ".join(stale))
        return 1
    print(("%d files out of date" if check else "%d files written") % len(stale) if stale else "all generated files are up to date")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
