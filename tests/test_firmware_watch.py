"""The sensors watched between scans (firmware/sowlight_fw/hw/watch.py) and the strip's touch
(hw/leds.py): a cell whose reading moves is lit TOUCH on the strip at once, before the
controller's answer, which replaces it; a touch with no answer fades after TOUCH_MS.

The strip is the real one on the fake neopixel (its frames decoded back to roles), the sensors
are the real adapters on the fake machine's pins and on the HX711s of tests/micropython/fakes/
wiring.py; the timer is the one watch.start() asks `machine` for, fired by the test."""
import itertools
import json
import types

import pytest
from pathlib import Path
from fakeload import load_fake


from sowlight_fw import colours as C
from sowlight_fw import config
from sowlight_fw.hw import sensors, watch
from sowlight_fw.hw.leds import NeoPixelDriver, Strip, TOUCH_MS, scaled_palette

ROOT = Path(__file__).resolve().parent.parent
GPIO_PINS = list(range(0, 6)) + list(range(17, 23)) + [26, 27]


class Timers:
    """machine.Timer as watch.start() uses it: the periodic callbacks, fired by the test."""
    PERIODIC = 1

    def __init__(self):
        self.made = []

    def __call__(self, id=-1, mode=None, period=None, callback=None, hard=False):
        self.made.append((mode, period, callback, hard))
        return types.SimpleNamespace(callback=callback)


class Clock:
    """ticks_us and sleep_us for leds.py: a clock that moves `step` us at every reading (the
    tests' ticks and scans come far apart), or, with step 0, only as the test moves it and as
    the strip sleeps."""

    def __init__(self, monkeypatch, step, now=10_000):
        from sowlight_fw.hw import leds
        self.now = now
        self.step = step
        self.slept = []
        monkeypatch.setattr(leds, "ticks_us", self.ticks_us)
        monkeypatch.setattr(leds, "sleep_us", self.sleep)

    def ticks_us(self):
        self.now += self.step
        return self.now

    def sleep(self, us):
        self.slept.append(us)
        self.now += us


@pytest.fixture(autouse=True)
def us_clock(monkeypatch):
    return Clock(monkeypatch, step=1000)


def gpio_board():
    r = json.loads((ROOT / "hardware" / "boards" / "2x6-stores.json").read_text())
    r["sensors"] = {"kind": "gpio", "pits": GPIO_PINS[:12], "stores": GPIO_PINS[12:],
                    "active_low": True, "pull": "up"}
    return config.check(r)


def watched(machine, b):
    """The real strip and the config's sensors on the fake machine, watched: (strip, sensors,
    the Watch, its timer's callback)."""
    strip = Strip(b, NeoPixelDriver(b.led_pin, b.led_count, b.led_order))
    s = sensors.make(b, machine)
    timers = Timers()
    clock = itertools.count(0, watch.WATCH_MS)          # a tick every WATCH_MS
    w = watch.start(types.SimpleNamespace(Timer=timers), s, strip, clock=lambda: next(clock))
    (mode, period, tick, hard), = timers.made
    assert mode == Timers.PERIODIC and period == watch.WATCH_MS and hard    # (in the interrupt)
    return strip, s, w, tick


def hx711_watched(machine):
    """The load-cell example, calibrated at 500 counts a seed, its HX711s simulated with 4 seeds
    on every cell, watched: (config, the simulated HX711s, their readings, what watched() gives)."""
    r = json.loads((ROOT / "hardware" / "examples" / "2x6-stores-hx711.json").read_text())
    r["calibration"] = {"offset": [1000] * 14, "counts_per_seed": [500] * 14}
    b = config.check(r)
    sim = load_fake("wiring").wire(b, machine)
    return b, sim, [1000 + 500 * 4] * 14, watched(machine, b)


def shown(machine, b):
    """The roles per cell in the strip's last frame, decoded from its bytes."""
    pin, data = machine.world.bitstreams[-1]
    table = {rgb: role for role, rgb in reversed(list(enumerate(scaled_palette(255, b.brightness_cap255))))}
    out = []
    for leds in b.cell_leds:
        i = leds[0] * 3
        g, r, bl = data[i:i + 3]
        out.append(table[(r, g, bl)])
    return out


def test_a_changed_cell_shows_touch_at_once_until_the_controller_answers(fake_mp):
    b = gpio_board()
    strip, s, w, tick = watched(fake_mp, b)
    frame = bytearray(b.cells)
    frame[4] = C.PLAYER              # pit 4 may be lifted
    strip.show(frame, 255, 0)
    values = [None] * b.cells
    tick()                                                  # the first look: what is at rest
    assert s.read(values) == [0] * b.cells
    tick()
    writes = strip.writes
    assert w.touches == 0 and strip.writes == writes        # nothing moved: nothing written

    fake_mp.world.levels[GPIO_PINS[4]] = 0                  # seeds over pit 4's sensor
    tick()
    assert strip.writes == writes + 1                       # written by the tick itself
    roles = shown(fake_mp, b)
    assert roles[4] == C.TOUCH and roles.count(C.TOUCH) == 1
    assert s.read(values)[4] == 1                           # the scan reads the pins as ever

    strip.show(frame, 255, 100)                             # the controller has not answered yet
    assert shown(fake_mp, b)[4] == C.TOUCH
    frame[4] = C.DROP                                       # its answer
    strip.show(frame, 255, 160)
    assert shown(fake_mp, b)[4] == C.DROP


def test_a_touch_with_no_answer_fades_and_sensorless_cells_are_never_touched(fake_mp):
    b = gpio_board()
    strip, s, w, tick = watched(fake_mp, b)
    frame = bytearray(b.cells)
    frame[2] = C.HINT
    strip.show(frame, 255, 0)
    tick()
    fake_mp.world.levels[GPIO_PINS[2]] = 0                  # a hand passes over the hinted pit
    fake_mp.world.levels[GPIO_PINS[12]] = 0                 # and over a store
    assert tick() == 2
    t = w.last
    assert [r for r in shown(fake_mp, b)].count(C.TOUCH) == 2
    strip.show(frame, 255, t + TOUCH_MS - 1)
    assert shown(fake_mp, b)[2] == C.TOUCH
    strip.show(frame, 255, t + TOUCH_MS)
    assert shown(fake_mp, b)[2] == C.HINT and C.TOUCH not in shown(fake_mp, b)
    assert tick() == 0                                      # still there: not a new change
    fake_mp.world.levels[GPIO_PINS[2]] = 1                  # gone again
    assert tick() == 1 and w.touches == 3


def test_a_tick_leaves_the_pins_to_a_scan_reading_them_and_the_scan_shows_what_it_read(fake_mp):
    b = gpio_board()
    strip, s, w, tick = watched(fake_mp, b)
    strip.show(bytearray(b.cells), 255, 0)
    tick()
    fake_mp.world.levels[GPIO_PINS[0]] = 0
    s.busy = True                                           # the tick came in the middle of a read
    assert tick() == 0 and w.seen[0] == 1
    s.busy = False
    writes = strip.writes
    values = [None] * b.cells
    assert s.read(values)[0] == 1                           # the scan's read, once the tick is done
    assert w.touches == 1 and strip.writes == writes + 1    # it showed the change itself
    assert shown(fake_mp, b)[0] == C.TOUCH
    assert tick() == 0                                      # and the next tick has nothing new
    fake_mp.world.levels[GPIO_PINS[0]] = 1
    assert tick() == 1 and w.seen[0] == 1


def test_a_scan_on_multiplexed_sensors_hands_the_watch_its_emitters_on_pass(fake_mp):
    r = json.loads((ROOT / "hardware" / "boards" / "2x6-stores.json").read_text())
    b = config.check(r)
    sim = load_fake("wiring").wire(b, fake_mp)
    strip, s, w, tick = watched(fake_mp, b)
    strip.show(bytearray(b.cells), 255, 0)
    values = [None] * b.cells
    s.read(values)                                          # the first look is the scan's: at rest
    assert w.primed and w.touches == 0
    sim.reflection[5] = sim.covered                         # seeds over pit 5
    s.read(values)
    assert w.touches == 1 and shown(fake_mp, b)[5] == C.TOUCH
    assert tick() == 0 and w.touches == 1                   # the tick's pass reads what the scan's did
    sim.reflection[5] = sim.empty
    assert tick() == 1 and w.touches == 2


def test_a_touch_that_comes_while_a_frame_is_painted_is_written_with_it(fake_mp):
    b = gpio_board()
    driver = NeoPixelDriver(b.led_pin, b.led_count, b.led_order)
    strip = Strip(b, driver)
    frame = bytearray(b.cells)
    frame[7] = C.PLAYER + 1
    strip.show(frame, 255, 0)
    paint = driver.paint
    ticks = []

    def paint_then_tick(led, role):
        # The timer's callback comes between two bytecodes of show(), after its first paint.
        paint(led, role)
        if not ticks:
            strip.touch(7, 5)
            ticks.append(strip.flush_touched())
    driver.paint = paint_then_tick
    writes = strip.writes
    frame[9] = C.HINT                                       # painted after cell 7 was passed over
    strip.show(frame, 255, 10)
    assert ticks == [False]                                 # not written by the tick: show() was under way
    assert strip.writes == writes + 1                       # one write, with both in it
    roles = shown(fake_mp, b)
    assert roles[7] == C.TOUCH and roles[9] == C.HINT


def test_hx711_cells_are_touched_by_half_a_seed_in_a_new_conversion(fake_mp):
    b, sim, readings, (strip, s, w, tick) = hx711_watched(fake_mp)
    # A reading ready (an HX711's data pin falling) runs the watch's look in the pin's
    # interrupt: the touch does not wait for the timer's next tick.
    assert sorted(fake_mp.world.irqs) == sorted(p for p in b.cell_sensors if p is not None)
    assert all(trigger == fake_mp.Pin.IRQ_FALLING for _h, trigger in fake_mp.world.irqs.values())
    values = [None] * b.cells
    sim.convert(readings)                                   # the first look: what is at rest
    assert w.touches == 0
    assert s.read(values)[3] == 4                           # the scan takes the conversion the look took
    assert s.read(values) is None                           # none since: the scan waits
    strip.show(bytearray(b.cells), 255, 0)
    assert tick() == 0                                      # no conversion ready
    readings[3] += 200                                      # less than half a seed: a seed rolling
    sim.convert(readings)
    assert w.touches == 0
    assert s.read(values)[3] == -1                          # (unsure, to the scan)
    readings[3] -= 500 + 200                                # a seed lifted out
    sim.convert(readings)
    assert w.touches == 1 and shown(fake_mp, b)[3] == C.TOUCH
    readings[7] -= 500                                      # and another, before the scan came
    sim.convert(readings)
    assert w.touches == 2 and shown(fake_mp, b)[7] == C.TOUCH   # (the look does not wait for the scan)
    assert s.read(values)[3] == 3 and values[7] == 3        # the scan takes the latest conversion


def test_an_hx711_not_ready_when_another_is_leaves_the_reading_to_the_timer(fake_mp):
    # Each HX711 runs on its own oscillator: the look the first data pin's edge runs finds the
    # others still converting and leaves them; the timer's tick takes the reading.
    b, sim, readings, (strip, s, w, tick) = hx711_watched(fake_mp)
    sim.convert(readings)
    assert s.read([None] * b.cells)[3] == 4
    strip.show(bytearray(b.cells), 255, 0)
    late = b.cell_sensors[9]
    sim.stuck = (late,)                                     # its reading not ready yet
    readings[3] -= 500
    sim.convert(readings)
    assert w.touches == 0 and fake_mp.world.levels[late] == 1
    sim.stuck = ()
    fake_mp.world.levels[late] = 0                          # ready now (no edge: the tick must see it)
    assert tick() == 1 and w.touches == 1 and shown(fake_mp, b)[3] == C.TOUCH


def test_an_hx711_reading_ready_while_a_scan_reads_is_looked_at_when_the_read_ends(fake_mp):
    # The scan finds no reading ready, and one comes before its read is over: the edge's look
    # finds the sensors busy, and the edge does not come again.  The read's end looks for it.
    b, sim, readings, (strip, s, w, tick) = hx711_watched(fake_mp)
    values = [None] * b.cells
    sim.convert(readings)
    assert s.read(values)[3] == 4
    strip.show(bytearray(b.cells), 255, 0)
    readings[3] -= 500
    scans_look = s.ready

    def ready_as_the_edge_comes():
        now = scans_look()                  # not yet, as the scan looks
        sim.convert(readings)               # and ready now, before the read is over
        return now
    s.ready = ready_as_the_edge_comes
    assert s.read(values) is None           # the scan keeps its last values
    del s.ready
    assert w.touches == 1 and shown(fake_mp, b)[3] == C.TOUCH
    assert s.read(values)[3] == 3           # and the next scan takes that reading


def test_a_touched_cell_that_blinks_keeps_its_touch_until_it_means_something_else(fake_mp):
    # A cell that blinks (a choice, a trail with its next step) or counts changes its role in the
    # frame at every beat: that is not the controller's answer to the hand.
    b = gpio_board()
    strip, s, w, tick = watched(fake_mp, b)
    meant = bytearray(b.cells)
    meant[4] = C.DROP                                       # a seed may go into pit 4: it blinks
    frame = bytearray(meant)
    strip.show(frame, 255, 0, meant)
    tick()
    fake_mp.world.levels[GPIO_PINS[4]] = 0                  # the seed dropped
    assert tick() == 1 and shown(fake_mp, b)[4] == C.TOUCH
    t = w.last
    for beat in range(1, 5):                                # the blink's beats go on, off, on, off
        frame[4] = C.OFF if beat % 2 else C.DROP
        strip.show(frame, 255, t + 20 * beat, meant)
        assert shown(fake_mp, b)[4] == C.TOUCH
    meant[4] = frame[4] = C.TRAIL                           # the controller's answer
    strip.show(frame, 255, t + 160, meant)
    assert shown(fake_mp, b)[4] == C.TRAIL


def test_a_frame_is_written_only_once_the_last_one_has_latched(fake_mp, us_clock):
    # WS2812s take a frame as theirs after the data line has stayed low RESET_US; bits sent
    # sooner run on past the strip's end and the LEDs keep the last frame.  A tick held back by
    # a write (interrupts are off while it goes out) comes right after it.
    from sowlight_fw.hw.leds import RESET_US
    clock = us_clock
    clock.step = 0
    b = gpio_board()
    strip, s, w, tick = watched(fake_mp, b)
    sent = []
    flush = strip.driver.flush

    def timed_flush():
        sent.append(clock.now)
        flush()
    strip.driver.flush = timed_flush
    frame = bytearray(b.cells)
    frame[4] = C.PLAYER
    strip.show(frame, 255, 0)
    tick()
    clock.now += 20                                         # a tick 20 us after that write
    fake_mp.world.levels[GPIO_PINS[4]] = 0
    assert tick() == 1
    assert len(sent) == 1 and clock.slept == []             # not written in the interrupt, no wait there
    clock.now += RESET_US                                   # the next tick writes it
    tick()
    assert len(sent) == 2 and shown(fake_mp, b)[4] == C.TOUCH
    clock.now += 50                                         # a scan's frame right after it
    frame[9] = C.HINT
    strip.show(frame, 255, 10)
    assert clock.slept == [RESET_US - 50] and len(sent) == 3
    assert all(later - earlier >= RESET_US for earlier, later in zip(sent, sent[1:]))
    assert shown(fake_mp, b)[9] == C.HINT and shown(fake_mp, b)[4] == C.TOUCH
    # On a board ticks_us wraps (2**30 us): a write 9 minutes or more ago reads as one to come
    # (a negative ticks_diff).  It latched long ago: no wait, and a tick writes its touch.
    clock.now -= 2 ** 29
    frame[9] = C.DROP
    strip.show(frame, 255, 20)
    assert clock.slept == [RESET_US - 50] and len(sent) == 4
    clock.now -= 2 ** 29
    fake_mp.world.levels[GPIO_PINS[2]] = 0
    assert tick() == 1 and len(sent) == 5 and shown(fake_mp, b)[2] == C.TOUCH
