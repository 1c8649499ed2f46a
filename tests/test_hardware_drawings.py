"""The wiring diagram and drilling templates hold every pit, LED, sensor and wire of their config.

What each drawing must contain is worked out here from the config JSON itself,
not from the drawing code, so a part the drawing forgets is caught.
"""
import json
import math
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from sowlight.hardware import config as boardconfig
from sowlight.hardware import drawings

ROOT = Path(__file__).resolve().parent.parent
HARDWARE = ROOT / "hardware"
CONFIG_FILES = sorted((HARDWARE / "boards").glob("*.json")) + sorted((HARDWARE / "examples").glob("*.json"))
SVG = "{http://www.w3.org/2000/svg}"


def expected_parts(config):
    """Cells, LED indices, sensed cells and wires (from, to) a config describes."""
    geo = config["geometry"]
    pits = geo["rows"] * geo["pits_per_row"]
    cells = pits + geo["stores"]
    leds = config["leds"]
    sensors = config["sensors"]
    cell_entries = list(sensors["pits"]) + list(sensors.get("stores") or [None] * geo["stores"])
    sensed = {cell for cell, entry in enumerate(cell_entries) if entry is not None}
    led_cells = {}
    for cell, indices in enumerate(list(leds["pits"]) + list(leds.get("stores") or [])):
        for index in indices:
            led_cells[index] = cell
    wires = set()
    pin = lambda p: "mcu:%d" % p  # noqa: E731
    if leds.get("level_shifter"):
        wires.add((pin(leds["pin"]), "shifter:1A"))
    wires.add(("shifter:1Y", "led:0"))
    wires.update(("led:%d" % i, "led:%d" % (i + 1)) for i in range(leds["count"] - 1))
    kind = sensors["kind"]
    if kind == "occupancy-mux":
        for m, mux in enumerate(sensors["muxes"]):
            wires.update((pin(p), "mux%d:S%d" % (m, k)) for k, p in enumerate(sensors["select"]))
            wires.add(("mux%d:SIG" % m, pin(mux["adc"])))
            if mux.get("enable") is not None:
                wires.add((pin(mux["enable"]), "mux%d:EN" % m))
        for cell, entry in enumerate(cell_entries):
            if entry is not None:
                wires.add(("mux%d:C%d" % tuple(entry), "sensor:%d" % cell))
        if sensors.get("emitter_pin") is not None:
            wires.add((pin(sensors["emitter_pin"]), "emitter:gate"))
    elif kind == "hx711":
        for cell, entry in enumerate(cell_entries):
            if entry is not None:
                wires.add((pin(sensors["sck"]), "hx711-%d:SCK" % cell))
                wires.add(("hx711-%d:DOUT" % cell, pin(entry)))
                wires.add(("hx711-%d:A" % cell, "sensor:%d" % cell))
    else:
        for cell, entry in enumerate(cell_entries):
            if entry is not None:
                wires.add(("sensor:%d" % cell, pin(entry)))
    for role in ("confirm", "undo", "hint"):
        wires.add((pin(config["buttons"][role]), "button:%s" % role))
    return set(range(cells)), led_cells, sensed, wires


def parts_drawn(root):
    cells = {int(e.get("data-cell")) for e in root.iter() if e.get("class") in ("pit", "store")}
    leds = {int(e.get("data-led")): int(e.get("data-cell")) for e in root.iter() if e.get("class") == "led"}
    sensors = {int(e.get("data-cell")) for e in root.iter() if e.get("class") == "sensor"}
    wires = [(e.get("data-from"), e.get("data-to")) for e in root.iter() if e.get("class") == "wire"]
    return cells, leds, sensors, wires


def _load(path):
    return boardconfig.load_board(str(path)), json.loads(path.read_text())


@pytest.mark.parametrize("path", CONFIG_FILES, ids=[p.name for p in CONFIG_FILES])
def test_wiring_diagram_has_every_part_and_wire(path):
    board, config = _load(path)
    root = ET.fromstring(drawings.wiring_svg(board))
    cells, led_cells, sensed, wires = expected_parts(config)
    drawn_cells, drawn_leds, drawn_sensors, drawn_wires = parts_drawn(root)
    assert drawn_cells == cells
    assert drawn_leds == led_cells
    assert drawn_sensors == sensed
    assert set(drawn_wires) == wires
    assert len(drawn_wires) == len(wires), "a wire is drawn twice"
    # Every MCU pin in the config is labelled on the microcontroller block.
    text = " ".join(t.text or "" for t in root.iter(SVG + "text"))
    for _, to in wires:
        if to.startswith("mcu:"):
            assert drawings.pin_name(board, int(to[4:])) + "  " in text


@pytest.mark.parametrize("path", CONFIG_FILES, ids=[p.name for p in CONFIG_FILES])
@pytest.mark.parametrize("underside", [False, True], ids=["top", "under"])
def test_drilling_template_has_every_pit_led_and_sensor_at_1_to_1(path, underside):
    board, config = _load(path)
    root = ET.fromstring(drawings.drilling_svg(board, underside=underside))
    cells, led_cells, sensed, _ = expected_parts(config)
    drawn_cells, drawn_leds, drawn_sensors, _ = parts_drawn(root)
    assert (drawn_cells, drawn_leds, drawn_sensors) == (cells, led_cells, sensed)
    # 1:1: the page is as many millimetres wide as the drawing's user units.
    width_mm = float(root.get("width")[:-2])
    height_mm = float(root.get("height")[:-2])
    assert root.get("viewBox").split() == ["0", "0", root.get("width")[:-2], root.get("height")[:-2]]
    layout = boardconfig.layout_of(config)
    circles = {}
    for g in root.iter(SVG + "g"):
        if g.get("class") == "pit":
            c = g.find(SVG + "circle")
            circles[int(g.get("data-cell"))] = (float(c.get("cx")), float(c.get("cy")), float(c.get("r")))
    assert all(math.isclose(r * 2, layout["pit_diameter_mm"]) for _, _, r in circles.values())
    # Neighbouring pits of player 0's first row are one pitch apart, and everything is on the page.
    assert math.isclose(circles[1][0] - circles[0][0], layout["pit_pitch_mm"])
    assert all(0 < x < width_mm and 0 < y < height_mm for x, y, _ in circles.values())
    # Player 0 sits at the bottom edge on top, at the top edge underneath.
    far = 2 * board.pits_per_row - 1
    assert (circles[0][1] > circles[far][1]) != underside


def test_underside_is_the_mirror_image_of_the_top():
    board, _ = _load(HARDWARE / "boards" / "2x6-stores.json")
    top, under = (ET.fromstring(drawings.drilling_svg(board, underside=u)) for u in (False, True))
    height = float(top.find(SVG + "rect").get("height"))

    def led_positions(root):
        out = {}
        for g in root.iter(SVG + "g"):
            if g.get("class") == "led":
                c = g.find(SVG + "circle")
                out[int(g.get("data-led"))] = (float(c.get("cx")), float(c.get("cy")))
        return out

    up, down = led_positions(top), led_positions(under)
    for index, (x, y) in up.items():
        assert math.isclose(down[index][0], x) and math.isclose(down[index][1], height - y, abs_tol=0.01)


def test_several_leds_per_pit_are_all_drawn(tmp_path):
    config = json.loads((HARDWARE / "boards" / "2x6-stores.json").read_text())
    config["leds"]["count"] = 28
    config["leds"]["pits"] = [[2 * i, 2 * i + 1] for i in range(12)]
    config["leds"]["stores"] = [[24, 25], [26, 27]]
    config["leds"]["brightness_cap"] = 0.15
    path = tmp_path / "double.json"
    path.write_text(json.dumps(config, indent=2))
    board = boardconfig.load_board(str(path))
    for svg in drawings.all_drawings(board).values():
        _, drawn_leds, _, drawn_wires = parts_drawn(ET.fromstring(svg))
        assert set(drawn_leds) == set(range(28))
    # The two LEDs of a pit sit on opposite sides of it.
    geo = drawings.Geometry(board)
    (x0, y0, _), (x1, y1, _) = geo.leds[0], geo.leds[1]
    cx, cy = geo.centre[0]
    assert math.isclose((x0 + x1) / 2, cx, abs_tol=1e-6) and math.isclose((y0 + y1) / 2, cy, abs_tol=1e-6)


def test_names_are_escaped(tmp_path):
    config = json.loads((HARDWARE / "boards" / "2x6-stores.json").read_text())
    config["name"] = "Board <A & B>"
    path = tmp_path / "named.json"
    path.write_text(json.dumps(config))
    board = boardconfig.load_board(str(path))
    for svg in drawings.all_drawings(board).values():
        root = ET.fromstring(svg)
        assert root.find(SVG + "title").text.startswith("Board <A & B>")
