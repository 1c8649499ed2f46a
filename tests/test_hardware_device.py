"""The board's boot check (firmware/sowlight_fw/config.py) on a real MicroPython VM.

Every preset and example must load there exactly as on CPython, and the broken
configs the board must refuse are refused there with the same message.
"""
import json
from pathlib import Path

import pytest

from sowlight_fw import config as device
from test_hardware_config import BROKEN, edit

ROOT = Path(__file__).resolve().parent.parent
HARDWARE = ROOT / "hardware"
CONFIG_FILES = sorted((HARDWARE / "boards").glob("*.json")) + sorted((HARDWARE / "examples").glob("*.json"))
REFUSED = [case for case in BROKEN if case[7]]

# Prints the parts of a loaded Board the firmware uses, as JSON, on either interpreter.
SUMMARY = """
def summary(b):
    out = {}
    for key in ('name', 'mcu', 'rows', 'pits_per_row', 'pits', 'stores', 'cells', 'led_pin', 'led_count',
                'led_order', 'led_bpp', 'brightness_cap', 'brightness_cap255', 'sensor_kind', 'buttons',
                'buttons_active_low', 'long_press_ms', 'supply_ma', 'worst_ma', 'mux_select', 'mux_list',
                'emitter_pin', 'threshold', 'hysteresis', 'hx711_sck', 'hx711_rate', 'hx711_gain'):
        if hasattr(b, key):
            out[key] = getattr(b, key)
    out['cell_leds'] = b.cell_leds
    out['cell_sensors'] = b.cell_sensors
    return out
"""


def _summary_here(board):
    namespace = {}
    exec(SUMMARY, namespace)
    return json.loads(json.dumps(namespace["summary"](board)))


@pytest.fixture(scope="module")
def vm_loaded(micropython):
    """Load every config in one VM run: {file name: summary or error}."""
    code = SUMMARY + (
        "import json\nfrom sowlight_fw import config\nresult = {}\n"
        "for d, name in %r:\n"
        "    try:\n"
        "        result[name] = summary(config.load('/%%s/%%s' %% (d, name)))\n"
        "    except config.ConfigError as e:\n"
        "        result[name] = 'ConfigError: %%s' %% e\n"
        "print(json.dumps(result))\n") % [(p.parent.name, p.name) for p in CONFIG_FILES]
    out = micropython.run(code, mounts={"/boards": HARDWARE / "boards", "/examples": HARDWARE / "examples"})
    return json.loads(out.strip().splitlines()[-1])


@pytest.mark.parametrize("path", CONFIG_FILES, ids=[p.name for p in CONFIG_FILES])
def test_every_config_loads_on_micropython_as_on_cpython(vm_loaded, path):
    on_vm = vm_loaded[path.name]
    assert not isinstance(on_vm, str), on_vm
    assert on_vm == _summary_here(device.load(str(path)))


@pytest.fixture(scope="module")
def vm_refusals(micropython, tmp_path_factory):
    """Run the board's check on every broken config in one VM run: {case id: message}."""
    folder = tmp_path_factory.mktemp("broken")
    for case in REFUSED:
        text, _ = edit(case[1], case[2], case[3], case[4])
        (folder / (case[0] + ".json")).write_text(text, encoding="utf-8")
    code = (
        "from sowlight_fw import config\nimport json\nresult = {}\n"
        "for name in %r:\n"
        "    try:\n"
        "        config.load('/broken/%%s.json' %% name)\n"
        "        result[name] = None\n"
        "    except config.ConfigError as e:\n"
        "        result[name] = str(e)\n"
        "print(json.dumps(result))\n") % [case[0] for case in REFUSED]
    out = micropython.run(code, mounts={"/broken": folder})
    return json.loads(out.strip().splitlines()[-1]), folder


@pytest.mark.parametrize("case", REFUSED, ids=[c[0] for c in REFUSED])
def test_broken_configs_are_refused_at_boot_on_micropython(vm_refusals, case):
    messages, folder = vm_refusals
    on_vm = messages[case[0]]
    assert on_vm is not None, "the board accepted %s" % case[0]
    with pytest.raises(device.ConfigError) as info:
        device.load(str(folder / (case[0] + ".json")))
    if case[0] == "not-json":
        # The JSON decoders word their errors differently; both name the file and the cure.
        assert "is not valid JSON" in on_vm and "sowlight board config check" in on_vm
    else:
        assert on_vm == str(info.value)


def test_boot_check_messages_name_the_problem(micropython, tmp_path):
    text, _ = edit(BROKEN[0][1], "[4], [5], [7]", "[4], [4], [7]")
    (tmp_path / "dup.json").write_text(text)
    out = micropython.run(
        "from sowlight_fw import config\n"
        "for path in ('/t/dup.json', '/t/none.json'):\n"
        "    try:\n        config.load(path)\n"
        "    except ValueError as e:\n        print(type(e).__name__, e)\n",
        mounts={"/t": tmp_path})
    lines = out.strip().splitlines()
    assert lines[0] == "ConfigError leds.pits[5][0]: LED 4 is already given to pit 4 (leds.pits[4][0]): each LED lights one pit or store"
    assert lines[1].startswith("ConfigError cannot read the board config /t/none.json: copy a preset")


def test_loading_the_largest_preset_keeps_little_memory(micropython):
    # A Pico has about 200 KB of heap for everything; the config should stay a few KB.
    use = micropython.heap_used("board = config.load('/boards/4x12.json')",
                                setup="from sowlight_fw import config",
                                mounts={"/boards": HARDWARE / "boards"})
    assert use.retained < 12 * 1024, use


def test_the_stores_as_pits_map_on_micropython(micropython):
    out = micropython.run("from sowlight_fw import cellmap, config\nb = config.load('/boards/2x6-stores.json')\n"
                          "print(cellmap.fit(b, 2, 7, 0), cellmap.cell_map(b, 2, 7, 0))\n",
                          mounts={"/boards": HARDWARE / "boards"})
    assert out.strip() == "stores-as-pits (0, 1, 2, 3, 4, 5, 12, 6, 7, 8, 9, 10, 11, 13)"
