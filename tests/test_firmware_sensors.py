"""The pit sensor adapters (firmware/sowlight_fw/hw/sensors.py) against simulated parts:
CD74HC4067 multiplexers feeding the ADC, HX711s on a shared clock, digital pins."""
import json
from pathlib import Path
from fakeload import load_fake

import pytest

from sowlight_fw import config
from sowlight_fw.hw import sensors

ROOT = Path(__file__).resolve().parent.parent




@pytest.fixture
def machine():
    return load_fake("machine")


def raw(name):
    sub = "examples" if "hx711" in name or "esp32" in name else "boards"
    return json.loads((ROOT / "hardware" / sub / (name + ".json")).read_text())


def mux_world(machine, b):
    """The board's multiplexers (tests/micropython/fakes/wiring.py) in a room lit at 5000, every
    sensor adding 2000 with the emitters on, every reading logged."""
    world = load_fake("wiring").wire(b, machine)
    world.ambient = 5000
    world.reflection = [2000] * b.cells
    world.reads = []
    return world


def test_mux_sensors_select_each_channel_and_cancel_room_light(machine):
    b = config.check(raw("2x6-stores"))
    world = mux_world(machine, b)
    s = sensors.make(b, machine)
    world.reflection[3] = 30000              # seeds over pit 3's sensor
    world.ambient = 20000                    # bright room: cancelled by lit-minus-dark
    values = [0] * b.cells
    s.read(values)
    assert values[3] == 1 and values.count(1) == 1
    got = s.read_raw([0] * b.cells)
    assert got[3] == 30000 and got[0] == 2000
    assert {ch for _, ch in world.reads} == {ch for _, ch in b.cell_sensors}


def test_mux_thresholds_have_hysteresis_and_a_jump_is_unsure(machine):
    r = raw("2x6-stores")
    r["calibration"] = {"empty": [2000] * 14, "covered": [30000] * 14}
    b = config.check(r)
    world = mux_world(machine, b)
    s = sensors.make(b, machine)
    values = [0] * b.cells
    # threshold 0.5, hysteresis 0.1: occupied from 18800, empty again below 13200
    steps = [2000, 12000, 16000, 18000, 17000, 19000, 19000, 15000, 14000, 13000, 13000]
    seen = []
    for v in steps:
        world.reflection[0] = v
        s.read(values)
        seen.append(values[0])
    assert seen == [0, -1, 0, 0, 0, 1, 1, 1, 1, 0, 0]


def test_a_light_sensor_that_reads_lower_when_covered_works_too(machine):
    r = raw("2x6-stores")
    r["calibration"] = {"empty": [40000] * 14, "covered": [8000] * 14}
    del r["sensors"]["emitter_pin"]
    b = config.check(r)
    world = mux_world(machine, b)
    world.ambient = 0
    s = sensors.make(b, machine)
    values = [0] * b.cells
    for v, want in ((40000, 0), (30000, 0), (16000, 1), (26000, 1), (28000, 0)):
        world.reflection[5] = v
        s.read(values)
        s.read(values)          # twice: a jump is unsure for one scan
        assert values[5] == want, v


def test_several_muxes_on_one_adc_take_turns_with_their_enable_pins(machine):
    b = config.check(raw("4x8"))
    assert len(b.mux_list) >= 2
    world = mux_world(machine, b)
    s = sensors.make(b, machine)
    world.reflection[20] = 40000
    values = [0] * b.cells
    s.read(values)
    assert [c for c in range(b.cells) if values[c] == 1] == [20]


def test_hx711_bank_reads_every_cell_in_one_clock_train(machine):
    r = raw("2x6-stores-hx711")
    r["calibration"] = {"offset": [1000] * 14, "counts_per_seed": [500] * 14}
    b = config.check(r)
    sim = load_fake("wiring").wire(b, machine)
    s = sensors.make(b, machine)
    values = [None] * b.cells
    assert s.read(values) is None                         # not ready: nothing read
    readings = [1000 + 500 * k for k in range(14)]
    readings[5] = 1000 + 500 * 3 + 240                    # 3.48 seeds: a hand on it
    readings[6] = 1000 - 8                                # empty, a little noise below the offset
    readings[7] = -(1 << 23)                              # most negative 24-bit reading
    sim.convert(readings)
    assert s.read(values) is values
    assert values[:5] == [0, 1, 2, 3, 4]
    assert values[5] == -1 and values[6] == 0 and values[7] == -1
    assert values[13] == 13
    assert sim.pulses_last == 25                          # gain 128: 24 + 1 pulses
    assert machine.world.irq_off == 0                     # every disable_irq matched
    raws = s.read_raw([0] * 14)
    assert raws is None                                   # DOUT high again until the next conversion
    sim.convert([-1] * 14)
    assert s.read_raw([0] * 14) == [-1] * 14


def test_hx711_gain_64_sends_three_extra_pulses(machine):
    r = raw("2x6-stores-hx711")
    r["sensors"]["gain"] = 64
    b = config.check(r)
    sim = load_fake("wiring").wire(b, machine)
    s = sensors.make(b, machine)
    sim.convert([0] * 14)
    s.read([None] * 14)
    assert sim.pulses_last == 27


def test_gpio_sensors_active_low_with_pull_ups(machine):
    r = raw("2x6-stores")
    pins = list(range(0, 6)) + list(range(17, 23)) + [26, 27]
    used = {16, 10, 11, 12}
    assert not used & set(pins)
    r["sensors"] = {"kind": "gpio", "pits": pins[:12], "stores": pins[12:], "active_low": True, "pull": "up"}
    b = config.check(r)
    s = sensors.make(b, machine)
    values = [None] * b.cells
    s.read(values)
    assert values == [0] * 14                            # pulled up: nothing there
    machine.world.levels[pins[4]] = 0
    s.read(values)
    assert values[4] == 1 and sum(values) == 1
