"""The full config check (host) and the boot check (board) on broken configs.

Each broken config is the reference preset with one edit; the problem must be
reported on the edited line, with a reason a maker can act on.  BROKEN is
shared with test_hardware_device.py, which runs the board's check on the
MicroPython VM.
"""
import json
from pathlib import Path

import pytest

from sowlight.hardware import config as boardconfig
from sowlight_fw import config as device

ROOT = Path(__file__).resolve().parent.parent
BOARDS = ROOT / "hardware" / "boards"
REFERENCE = (BOARDS / "2x6-stores.json").read_text(encoding="utf-8")
ESP32 = (ROOT / "hardware" / "examples" / "2x6-stores-esp32.json").read_text(encoding="utf-8")
TEN = (BOARDS / "2x10.json").read_text(encoding="utf-8")


def edit(text, old, new, nth=0):
    """Replace the nth occurrence of `old`; return the new text and the line it is on."""
    at = -1
    for _ in range(nth + 1):
        at = text.index(old, at + 1)
    return text[:at] + new + text[at + len(old):], text.count("\n", 0, at) + 1


def line_of(text, fragment, nth=0):
    at = -1
    for _ in range(nth + 1):
        at = text.index(fragment, at + 1)
    return text.count("\n", 0, at) + 1


def errors(text):
    report = boardconfig.check_text(text, "board.json")
    return report, report.errors


# (id, base text, old, new, nth, expected path, words in the message, the board's check must refuse it too)
BROKEN = [
    ("duplicate-led", REFERENCE, "[4], [5], [7]", "[4], [4], [7]", 0, "leds.pits[5][0]", "LED 4 is already given to pit 4", True),
    ("led-out-of-range", REFERENCE, "[[6], [13]]", "[[6], [14]]", 0, "leds.stores[1][0]", "the chain has 14 LEDs (0..13)", True),
    ("missing-sensor", REFERENCE, "[0, 3]", "null", 0, "sensors.pits[3]", "pit 3 has no sensor", True),
    ("sensor-list-short", REFERENCE, ", [0, 12]\n", "\n", 0, "sensors.pits", "has 11 entries but the board has 12 pits", True),
    ("channel-twice", REFERENCE, "[0, 0], [0, 1]", "[0, 0], [0, 0]", 0, "sensors.pits[1]", "channel 0 is already wired to pit 0", True),
    ("pin-twice", REFERENCE, '"hint": 12', '"hint": 16', 0, "buttons.hint", "GP16 is already used for the LED data line", True),
    ("adc-not-analog", REFERENCE, '{"adc": 26}', '{"adc": 22}', 0, "sensors.muxes[0].adc", "GP22 is not an analog (ADC) pin", False),
    ("reserved-pin", REFERENCE, '"pin": 16', '"pin": 25', 0, "leds.pin", "GP25 drives the Pico's on-board LED", False),
    ("no-such-pin", REFERENCE, '"undo": 11', '"undo": 40', 0, "buttons.undo", "GP40 does not exist", False),
    ("over-budget", REFERENCE, '"brightness_cap": 0.25', '"brightness_cap": 0.9', 0, "leds.brightness_cap",
     "Lower brightness_cap to 0.31 or less", True),
    ("typo", REFERENCE, '"brightness_cap"', '"brightnes_cap"', 0, "leds.brightnes_cap", "did you mean 'brightness_cap'?", True),
    ("geometry-mismatch", REFERENCE, '"pits_per_row": 6', '"pits_per_row": 7', 0, None, "has 12 entries but the board has 14 pits", True),
    ("duplicate-key", REFERENCE, '"count": 14,', '"count": 14,\n    "count": 15,', 0, "leds.count", "given twice", False),
    ("format", REFERENCE, '"format": 1', '"format": 2', 0, "format", "the firmware reads format 1", True),
    ("stores-on-storeless-board", REFERENCE, '"stores": 2', '"stores": 0', 0, "leds.stores", "has no stores", True),
    ("sensor-kind", REFERENCE, '"occupancy-mux"', '"occupancy_mux"', 0, "sensors.kind", "must be one of", True),
    ("mux-out-of-range", REFERENCE, "[0, 13]]", "[1, 13]]", 0, "sensors.stores[1][0]", "sensors.muxes lists 1", True),
    ("mux-channel-16", REFERENCE, "[0, 13]]", "[0, 16]]", 0, "sensors.stores[1][1]", "channels 0..15", True),
    ("pits-overlap", REFERENCE, '"pit_diameter_mm": 50', '"pit_diameter_mm": 61', 0, "layout.pit_diameter_mm", "run into each other", False),
    # (MicroPython's json module shrugs at doubled or missing commas, so the board
    # only refuses JSON it cannot read at all; the laptop's check refuses both.)
    ("not-json", REFERENCE, '"active_low": true', '"active_low": tru', 0, None, "not valid JSON", True),
    ("esp32-input-only-output", ESP32, '"pin": 23', '"pin": 34', 0, "leds.pin", "GPIO34 is input-only", False),
    ("esp32-adc2", ESP32, '{"adc": 36}', '{"adc": 25}', 0, "sensors.muxes[0].adc", "GPIO25 is not an analog (ADC) pin", False),
    ("esp32-flash-pin", ESP32, '"confirm": 26', '"confirm": 7', 0, "buttons.confirm", "flash chip", False),
    ("esp32-button-without-pull", ESP32, '"hint": 33', '"hint": 35', 0, "buttons.hint", "no internal pull resistor", False),
    ("shared-adc-without-enable", TEN, '{"adc": 27}', '{"adc": 26}', 0, "sensors.muxes[1].adc", "give both an enable pin", True),
]


# Problems reported somewhere other than the edited line: (fragment, nth occurrence) of their line.
REPORTED_AT = {
    "geometry-mismatch": ('"pits": [', 0),        # the first map that no longer matches the shape
    "sensor-list-short": ('"pits": [', 1),        # a list's length is reported at its key
    "duplicate-key": ('"count": 15', 0),          # the second of the two keys
    "stores-on-storeless-board": ('"stores": [[6]', 0),
}


@pytest.mark.parametrize("case", BROKEN, ids=[c[0] for c in BROKEN])
def test_broken_config_is_rejected_on_its_line_with_its_reason(case):
    name, base, old, new, nth, path, words, _ = case
    text, line = edit(base, old, new, nth)
    report, found = errors(text)
    assert not report.ok
    matching = [p for p in found if words in p.message]
    assert matching, "expected %r among:\n%s" % (words, "\n".join(report.lines()))
    problem = matching[0]
    if path is not None:
        assert problem.path == path
    if name in REPORTED_AT:
        line = line_of(text, *REPORTED_AT[name])
    if name == "not-json":
        assert problem.col == text.splitlines()[line - 1].index("tru") + 1
    assert problem.line == line, "\n".join(report.lines())
    formatted = problem.format("board.json")
    assert formatted.startswith("board.json:%d:%d: error: " % (line, problem.col))


def test_json_the_board_would_shrug_at_is_refused_here():
    text, line = edit(REFERENCE, '"hint": 12,', '"hint": 12,,')
    report, found = errors(text)
    assert [(p.line, p.message) for p in found] == [(line, "not valid JSON: expected a key in double quotes")]


def test_the_reference_preset_has_no_problem_at_all():
    report = boardconfig.check_text(REFERENCE)
    assert report.problems == []


def test_every_problem_is_reported_not_just_the_first():
    text, _ = edit(REFERENCE, '"hint": 12', '"hint": 16')
    text, _ = edit(text, "[4], [5], [7]", "[4], [4], [7]")
    text, _ = edit(text, '{"adc": 26}', '{"adc": 22}')
    report, found = errors(text)
    assert len(found) == 3
    assert [p.line for p in report.problems] == sorted(p.line for p in report.problems)


def test_duplicate_message_names_the_first_use_and_its_line():
    text, line = edit(REFERENCE, '"hint": 12', '"hint": 16')
    _, found = errors(text)
    assert "(leds.pin, line %d)" % line_of(text, '"pin": 16') in found[0].message


def test_missing_section_is_reported_at_its_parent():
    config = json.loads(REFERENCE)
    del config["buttons"]
    report, found = errors(json.dumps(config, indent=2))
    assert [(p.line, p.path, p.message) for p in found] == [(1, "", "the board config is missing the key 'buttons'")]


def test_power_budget_numbers_are_shown():
    text, _ = edit(REFERENCE, '"brightness_cap": 0.25', '"brightness_cap": 0.9')
    _, found = errors(text)
    # 50 mA Pico + 14 sensors x 12 mA + 14 idle LEDs = 232 mA; 14 x 60 mA x 0.9 = 756 mA.
    assert "14 LEDs × 60 mA × 0.90 = 756 mA, plus 232 mA" in found[0].message
    assert "988 mA" in found[0].message
    worst, reserve, supply = device.power_budget(14, 0.9, 14, "rp2040", "occupancy-mux", {"supply_ma": 500})
    assert (worst, reserve, supply) == (988.0, 232, 500)


def test_a_bigger_supply_allows_a_brighter_cap():
    text, _ = edit(REFERENCE, '"brightness_cap": 0.25', '"brightness_cap": 0.9')
    text, _ = edit(text, '"supply_ma": 500', '"supply_ma": 2000')
    report, _ = errors(text)
    assert report.ok and report.problems == []


def test_close_to_the_budget_is_a_warning():
    text, line = edit(REFERENCE, '"brightness_cap": 0.25', '"brightness_cap": 0.3')
    report, found = errors(text)
    assert report.ok
    assert [(p.level, p.line) for p in report.warnings] == [("warning", line)]
    assert "close to the power budget" in report.warnings[0].message


def test_missing_level_shifter_is_a_warning():
    text, line = edit(REFERENCE, '"level_shifter": "74AHCT125"', '"level_shifter": null')
    report, _ = errors(text)
    assert report.ok
    assert any("74AHCT125" in w.message for w in report.warnings)


def test_spare_leds_are_a_warning_not_an_error():
    text, line = edit(REFERENCE, '"count": 14', '"count": 16')
    report, _ = errors(text)
    assert report.ok
    assert [w.message for w in report.warnings if w.line == line] == ["LEDs 14-15 light no pit or store (they still draw idle current)"]


def test_muxes_may_share_an_adc_pin_through_their_enable_pins():
    text, _ = edit(TEN, '{"adc": 26}', '{"adc": 26, "enable": 7}')
    text, _ = edit(text, '{"adc": 27}', '{"adc": 26, "enable": 8}')
    report, _ = errors(text)
    assert report.ok, report.lines()
    board = device.check(json.loads(text))
    assert board.mux_list == ((26, 7), (26, 8))


def test_several_leds_per_pit():
    config = json.loads(REFERENCE)
    config["leds"]["count"] = 28
    config["leds"]["pits"] = [[2 * i, 2 * i + 1] for i in range(12)]
    config["leds"]["stores"] = [[24, 25], [26, 27]]
    config["leds"]["brightness_cap"] = 0.15
    report, found = errors(json.dumps(config))
    assert report.ok, report.lines()
    board = device.check(config)
    assert board.cell_leds[11] == (22, 23) and board.cell_leds[13] == (26, 27)


def test_gpio_sensors_and_stores_without_sensors():
    config = json.loads(REFERENCE)
    config["sensors"] = {"kind": "gpio", "element": "tcrt5000-module", "active_low": True, "pull": None,
                         "pits": [0, 1, 2, 3, 4, 5, 7, 8, 9, 13, 14, 15], "stores": None}
    report, _ = errors(json.dumps(config))
    assert report.ok, report.lines()
    board = device.check(config)
    assert board.cell_sensors[12:] == (None, None)
    # A store without a sensor cannot stand in for a pit.
    assert boardconfig.fits(board, 2, 7, 0) is None
    assert boardconfig.fits(board, 2, 6, 1) == "exact"


def test_calibration_is_checked_against_the_cells():
    config = json.loads(REFERENCE)
    config["calibration"] = {"empty": [5000] * 14, "covered": [40000] * 13}
    report, found = errors(json.dumps(config, indent=1))
    assert [p.path for p in found] == ["calibration.covered"]
    config["calibration"]["covered"] = [40000] * 13 + [6000]
    report, _ = errors(json.dumps(config, indent=1))
    assert report.ok
    assert [w.path for w in report.warnings] == ["calibration.covered[13]"]
    assert "store 1 barely changes" in report.warnings[0].message


def test_hx711_settings():
    config = json.loads((ROOT / "hardware" / "examples" / "2x6-stores-hx711.json").read_text())
    config["sensors"]["rate_hz"] = 40
    config["sensors"]["pits"][3] = config["sensors"]["sck"]
    report, found = errors(json.dumps(config, indent=1))
    assert {p.path for p in found} == {"sensors.rate_hz", "sensors.pits[3]"}
    with pytest.raises(device.ConfigError, match="sensors.rate_hz: must be one of 10, 80, not 40"):
        device.check(config)


def test_a_file_that_cannot_be_read(tmp_path):
    report = boardconfig.check_file(str(tmp_path / "nope.json"))
    assert not report.ok and "cannot read the file" in report.errors[0].message
    (tmp_path / "bin.json").write_bytes(b"\xff\xfe\x00")
    report = boardconfig.check_file(str(tmp_path / "bin.json"))
    assert "not UTF-8" in report.errors[0].message


def test_load_board_raises_with_the_whole_report(tmp_path):
    text, line = edit(REFERENCE, "[4], [5], [7]", "[4], [4], [7]")
    path = tmp_path / "b.json"
    path.write_text(text)
    with pytest.raises(boardconfig.BoardConfigError) as info:
        boardconfig.load_board(str(path))
    assert isinstance(info.value, ValueError)
    assert ":%d:" % line in str(info.value)
    assert len(info.value.report.errors) == 1


@pytest.mark.parametrize("case", [c for c in BROKEN if c[7]], ids=[c[0] for c in BROKEN if c[7]])
def test_the_boards_own_check_refuses_what_would_misdrive_it(case):
    name, base, old, new, nth, path, words, _ = case
    text, _ = edit(base, old, new, nth)
    with pytest.raises(ValueError):
        device.check(json.loads(text))


# -- robustness: any edit of a valid config gets a message, never a crash ------

from hypothesis import given, settings, strategies as st  # noqa: E402

_ANY_JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 70) | st.floats(-2, 2) | st.sampled_from(["", "x", "GRB", "up", "hx711"]),
    lambda children: st.lists(children, max_size=3) | st.dictionaries(st.sampled_from(["adc", "enable", "a"]), children, max_size=2),
    max_leaves=6,
)


def _paths(value, path=()):
    yield path
    if isinstance(value, dict):
        for key, item in value.items():
            yield from _paths(item, path + (key,))
    elif isinstance(value, list):
        for i, item in enumerate(value):
            yield from _paths(item, path + (i,))


def _mutated(base, path, replacement, delete):
    config = json.loads(base)
    if not path:
        return replacement
    parent = config
    for part in path[:-1]:
        parent = parent[part]
    if delete and isinstance(parent, dict):
        del parent[path[-1]]
    else:
        parent[path[-1]] = replacement
    return config


@settings(max_examples=400, deadline=None)
@given(st.data())
def test_any_single_edit_gets_messages_never_a_crash(data):
    base = data.draw(st.sampled_from([REFERENCE, ESP32, TEN, (ROOT / "hardware" / "examples" / "2x6-stores-hx711.json").read_text()]))
    paths = list(_paths(json.loads(base)))
    path = data.draw(st.sampled_from(paths))
    config = _mutated(base, path, data.draw(_ANY_JSON), data.draw(st.booleans()))
    text = json.dumps(config, indent=2)
    report = boardconfig.check_text(text)          # never raises
    assert all(p.line >= 1 and p.col >= 1 and p.message for p in report.problems)
    # Whatever the laptop accepts, the board accepts: the host check is the stricter one.
    assert not any("boot check refuses" in p.message for p in report.problems), report.lines()
    try:
        device.check(config)
    except device.ConfigError:
        pass                                        # refused with a message: fine
    if report.ok:
        # And whatever passes can be drawn.
        from sowlight.hardware import drawings
        for svg in drawings.all_drawings(boardconfig.board_from_text(text)).values():
            assert svg.startswith("<svg")


# -- the controller's settings -------------------------------------------------

def with_settings(text, settings_text):
    """The config text with a "settings" section written after "format"."""
    return edit(text, '"format": 1,', '"format": 1,\n  "settings": %s,' % settings_text)[0]


def test_settings_set_per_board_reach_the_board():
    text = with_settings(REFERENCE, '{"debounce_ms": 40, "hints": true, "variant": "kalah"}')
    report, _ = errors(text)
    assert report.ok and report.problems == [], report.lines()
    board = device.check(json.loads(text))
    assert board.settings == {"debounce_ms": 40, "hints": True, "variant": "kalah"}
    assert device.check(json.loads(REFERENCE)).settings == {}


@pytest.mark.parametrize("settings_text, path, words", [
    ('{"debounce_ms": 5}', "settings.debounce_ms", "must be a whole number from 10 to 2000, not 5"),
    ('{"hint_depth": 12.5}', "settings.hint_depth", "must be a whole number from 1 to 64, not 12.5"),
    ('{"brightness": true}', "settings.brightness", "must be a whole number from 0 to 255, not true"),
    ('{"hints": 1}', "settings.hints", "must be true or false, not 1"),
    ('{"debounce": 40}', "settings.debounce", "unknown key 'debounce' in settings (did you mean 'debounce_ms'?)"),
    ('[40]', "settings", "settings must be a JSON object"),
])
def test_a_bad_setting_is_reported_on_its_line_and_refused_by_the_board(settings_text, path, words):
    text = with_settings(REFERENCE, settings_text)
    report, found = errors(text)
    assert [(p.path, p.line) for p in found] == [(path, line_of(text, '"settings"'))], report.lines()
    assert words in found[0].message
    with pytest.raises(device.ConfigError, match="settings"):
        device.check(json.loads(text))


def test_the_boards_message_for_a_bad_setting_names_it_and_its_range():
    with pytest.raises(device.ConfigError) as info:
        device.check(json.loads(with_settings(REFERENCE, '{"debounce_ms": 5}')))
    assert str(info.value) == "settings.debounce_ms: must be a whole number from 10 to 2000, not 5"


def test_one_store_without_a_sensor_is_accepted_by_both_checks():
    config = json.loads(REFERENCE)
    config["sensors"]["stores"][1] = None
    report, _ = errors(json.dumps(config, indent=1))
    assert report.ok, report.lines()
    assert device.check(config).cell_sensors[12:] == ((0, 6), None)
    config["sensors"]["pits"][0] = None
    with pytest.raises(device.ConfigError, match=r"sensors.pits\[0\]: pit 0 has no sensor: every pit needs one"):
        device.check(config)
