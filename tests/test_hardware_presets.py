"""The presets in hardware/boards/: up to date, valid, numbered as documented, and what they can play."""
import importlib.util
import json
import math
import re
from pathlib import Path

import pytest

from sowlight.hardware import config as boardconfig
from sowlight.hardware import drawings
from sowlight_fw import cellmap
from sowlight_fw import config as device

ROOT = Path(__file__).resolve().parent.parent
HARDWARE = ROOT / "hardware"
PRESET_FILES = sorted((HARDWARE / "boards").glob("*.json"))
CONFIG_FILES = PRESET_FILES + sorted((HARDWARE / "examples").glob("*.json"))


def _generator():
    spec = importlib.util.spec_from_file_location("sowlight_hardware_generate", HARDWARE / "generate.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


generate = _generator()


def test_generated_files_are_up_to_date():
    expected = generate.build_all()
    stale = []
    for rel, text in expected.items():
        path = HARDWARE / rel
        if not path.is_file() or path.read_text(encoding="utf-8") != text:
            stale.append(rel)
    assert not stale, "run `python hardware/generate.py`; stale: %s" % stale
    # Nothing generated-looking lies around that the generator no longer makes.
    on_disk = {str(p.relative_to(HARDWARE)) for d in ("boards", "examples", "drawings") for p in (HARDWARE / d).iterdir()}
    assert on_disk == set(expected)


def test_the_presets_the_issue_asks_for():
    shapes = set()
    for path in PRESET_FILES:
        geo = json.loads(path.read_text())["geometry"]
        shapes.add((geo["rows"], geo["pits_per_row"], geo["stores"]))
    assert shapes == {(2, 6, 2), (2, 7, 2), (2, 8, 0), (2, 10, 0), (2, 12, 0), (4, 7, 0), (4, 8, 0), (4, 10, 0), (4, 12, 0)}


@pytest.mark.parametrize("path", CONFIG_FILES, ids=[p.name for p in CONFIG_FILES])
def test_every_config_passes_both_checks_without_a_warning(path):
    report = boardconfig.check_file(str(path))
    assert report.problems == [], report.lines()
    board = device.load(str(path))
    assert board.cells == board.pits + board.stores
    assert len(board.cell_leds) == len(board.cell_sensors) == board.cells


@pytest.mark.parametrize("path", PRESET_FILES, ids=[p.name for p in PRESET_FILES])
def test_brightness_cap_is_the_highest_the_supply_allows(path):
    board = device.load(str(path))
    sensed = sum(1 for s in board.cell_sensors if s is not None)
    power = {"supply_ma": board.supply_ma}
    assert board.worst_ma <= 0.9 * board.supply_ma
    if board.brightness_cap < 0.5:
        brighter = device.power_budget(board.led_count, board.brightness_cap + 0.05, sensed, board.mcu, board.sensor_kind, power)[0]
        assert brighter > 0.9 * board.supply_ma
    # The reference build runs from a USB port.
    if path.name == "2x6-stores.json":
        assert board.supply_ma == 500


def _centres(board):
    board.layout = boardconfig.layout_of(board.raw)
    geo = drawings.Geometry(board)
    # y up, in mm, so "counter-clockwise" means what it says.
    return dict((cell, (x, geo.width - y)) for cell, (x, y) in geo.centre.items()), geo


def _signed_area(points):
    return sum(x1 * y2 - x2 * y1 for (x1, y1), (x2, y2) in zip(points, points[1:] + points[:1])) / 2.0


@pytest.mark.parametrize("path", PRESET_FILES, ids=[p.name for p in PRESET_FILES])
def test_canonical_numbering_on_the_real_board(path):
    board = device.load(str(path))
    centre, _ = _centres(board)
    n = board.pits_per_row
    if board.rows == 2:
        for i in range(2 * n):
            # Pit i faces pit 2n-1-i: same column, other row.
            assert math.isclose(centre[i][0], centre[2 * n - 1 - i][0])
            assert centre[i][1] != centre[2 * n - 1 - i][1]
        ring = list(range(n)) + ([board.pits] if board.stores else []) + list(range(n, 2 * n)) + ([board.pits + 1] if board.stores else [])
        assert _signed_area([centre[c] for c in ring]) > 0          # one counter-clockwise ring
        assert centre[0][0] < centre[n - 1][0]                       # player 0's pits run from its left to its right
        assert centre[0][1] < centre[n][1]                           # player 0 sits at the bottom
    else:
        for c in range(n):
            column = (c, 2 * n - 1 - c, 3 * n + c, 3 * n - 1 - c)   # docs/config.md, four-row numbering
            xs = [centre[p][0] for p in column]
            ys = [centre[p][1] for p in column]
            assert max(xs) - min(xs) < 1e-9
            assert ys == sorted(ys)                                   # back, front | front, back from player 0's side
        for player in (0, 1):
            circuit = [centre[player * 2 * n + k] for k in range(2 * n)]
            assert _signed_area(circuit) > 0                         # each player's own circuit runs counter-clockwise
        # Player p's back row is k in 0..n-1, from that player's left to right.
        assert centre[0][0] < centre[n - 1][0] and centre[2 * n][0] > centre[3 * n - 1][0]


@pytest.mark.parametrize("path", PRESET_FILES, ids=[p.name for p in PRESET_FILES])
def test_led_chain_runs_between_neighbours(path):
    # The snake keeps every LED-to-LED wire short: the next LED is in a neighbouring cell.
    board = device.load(str(path))
    _, geo = _centres(board)
    lay = board.layout
    longest = max(lay["pit_pitch_mm"], lay["row_pitch_mm"] + lay["centre_gap_mm"], lay["store_width_mm"] + lay["pit_pitch_mm"])
    cell_of = dict((index, cell) for cell, leds in enumerate(board.cell_leds) for index in leds)
    for index in range(board.led_count - 1):
        (x1, y1), (x2, y2) = geo.centre[cell_of[index]], geo.centre[cell_of[index + 1]]
        assert math.hypot(x2 - x1, y2 - y1) <= longest + 1e-9, (index, cell_of[index], cell_of[index + 1])


def _board(name):
    return device.load(str(HARDWARE / "boards" / (name + ".json")))


def test_fits():
    six, seven, eight, four = _board("2x6-stores"), _board("2x7-stores"), _board("2x8"), _board("4x8")
    assert boardconfig.fits(six, 2, 6, 0) == "exact"
    assert boardconfig.fits(six, 2, 6, True) == "exact"
    assert boardconfig.fits(six, 2, 7, 0) == "stores-as-pits"
    assert boardconfig.fits(six, 2, 7, 1) is None          # its sown stores would be off the board
    assert boardconfig.fits(six, 2, 8, 0) is None
    assert boardconfig.fits(eight, 2, 8, 1) is None         # no stores to sow into
    assert boardconfig.fits(eight, 2, 9, 0) is None         # no stores to stand in for pits
    assert boardconfig.fits(seven, 2, [5, 6, 7], 0) == "exact"
    assert boardconfig.fits(seven, 2, [8, 10], 0) == "stores-as-pits"
    assert boardconfig.fits(four, 4, 8, 0) == "exact"
    assert boardconfig.fits(four, 2, 8, 0) is None
    assert boardconfig.fits(four, 3, 6, 0) is None


def test_stores_as_pits_cell_map():
    six = _board("2x6-stores")
    # Game cells 0..6 are player 0's seven pits, 7..13 player 1's: the stores (cells 12, 13) close each row.
    assert cellmap.cell_map(six, 2, 7, 0) == (0, 1, 2, 3, 4, 5, 12, 6, 7, 8, 9, 10, 11, 13)
    assert cellmap.cell_map(six, 2, 6, 1) == tuple(range(14))
    assert cellmap.cell_map(six, 2, 6, 0) == tuple(range(12))
    # A game whose stores are at their owners' left (Sunca) gets the board's end stores swapped.
    seven = _board("2x7-stores")
    assert cellmap.cell_map(seven, 2, 7, 1) == tuple(range(16))
    assert cellmap.cell_map(seven, 2, 7, 1, True) == tuple(range(14)) + (15, 14)


def _expand(board_text):
    """"2×8, 2×10" -> [(2, 8), (2, 10)]; "2×5–10" -> [(2, 5), ..., (2, 10)]."""
    shapes = []
    for part in board_text.split(","):
        m = re.match(r"\s*(\d)×(\d+)(?:–(\d+))?\s*$", part)
        if not m:
            return None
        rows, low, high = int(m.group(1)), int(m.group(2)), int(m.group(3) or m.group(2))
        shapes.extend((rows, n) for n in range(low, high + 1))
    return shapes


def test_game_shapes_table_agrees_with_fits():
    boards = dict((p.stem, device.load(str(p))) for p in PRESET_FILES)
    rows = [line for line in (HARDWARE / "game-shapes.md").read_text(encoding="utf-8").splitlines()
            if line.startswith("| ") and not line.startswith("| Game") and not line.startswith("|---")]
    assert len(rows) >= 34
    for line in rows:
        game, _source, shape, sown, exact, trick = [cell.strip() for cell in line.strip("|").split("|")]
        listed_exact = set() if exact == "—" else set(exact.split(", "))
        listed_trick = set() if trick == "—" else set(trick.split(", "))
        shapes = _expand(shape) if shape != "—" else []
        want_exact, want_trick = set(), set()
        for name, board in boards.items():
            hows = [boardconfig.fits(board, r, [n], sown == "yes") for r, n in shapes]
            if "exact" in hows:
                want_exact.add(name)
            elif "stores-as-pits" in hows:
                want_trick.add(name)
        assert (listed_exact, listed_trick) == (want_exact, want_trick), game


def test_generator_refuses_a_board_the_pico_cannot_sense():
    with pytest.raises(ValueError, match="3 ADC pins"):
        generate.occupancy_preset("4x14", 4, 14, 0, "4x14")
