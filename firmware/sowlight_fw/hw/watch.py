"""The sensors watched between scans, so a player sees at once that the board felt a hand.

A scan comes every SCAN_MS, and the controller answers a change of a cell only
once it has held for the debounce (150 ms): a lift would show on the LEDs some
200 ms after it.  On a board, App.loop() also runs Watch.tick() from a timer
every WATCH_MS.  A tick takes a quick look at the sensors (peek(): one pass with
the emitters on; a new HX711 conversion, which the next scan then takes), and
every cell whose reading has moved by more than its sensor's `moved` step since
its last touch lights TOUCH at once (leds.Strip.touch).  Load cells tell when they
have a reading: an HX711's data pin falls, and its interrupt takes the same look
then (ready()), without the wait for the next tick.  A scan's own read hands
its readings of the same kind to saw() (guarded.py), so a change is not left
waiting while the scan holds the sensors.  The controller's answer comes after
the debounce, as before, and replaces the touch.

The timer's callback (and the data pin's) is a hard one, run in the interrupt: a collection,
viper code or a long bytecode of the scan cannot hold it back.  So nothing on its
way may allocate (the heap is locked in an interrupt): the readings go into
arrays made here, the counts are small ints, and the strip's touch only writes
bytes and small ints.  While a scan reads the sensors (`busy`) a tick leaves
them to it.
"""
from array import array

from ..ticks import ticks_ms, ticks_diff

WATCH_MS = 4        # a change shows within this, plus a pass over the sensors and a strip write


class Watch:
    def __init__(self, sensors, strip, clock=ticks_ms):
        self.clock = clock        # ticks_ms (a test's own)
        self.sensors = sensors
        self.strip = strip
        self.cells = sensors.cells
        self.seen = array("i", bytes(4 * self.cells))   # what the last tick's look saw
        self.base = array("i", bytes(4 * self.cells))   # each cell's reading at its last touch
        self.primed = False
        self.touches = 0
        self.fault = None         # the last exception a tick met (the app logs it), else None
        self.last = clock() - WATCH_MS    # when the last tick was

    def tick(self, _timer=None):
        """One look at the sensors (the timer's callback).  The number of cells touched."""
        now = self.clock()
        if ticks_diff(now, self.last) < WATCH_MS // 2:
            return 0        # ticks held back (interrupts off: a flash write) come in a burst
        return self._look(now)

    def ready(self, _pin=None):
        """The sensors have made a reading ready (an HX711's data pin fell: on_ready, in that
        pin's interrupt): a look now, not at the timer's next tick, which would add up to
        WATCH_MS to the touch.  The number of cells touched."""
        return self._look(self.clock())

    def _look(self, now):
        try:
            self.last = now
            self.strip.flush_touched()      # a touch left until the last frame latched (leds.py)
            if not self.sensors.peek(self.seen):
                return 0        # a scan is reading them, or no new conversion yet
            return self.saw(self.seen, now)
        except Exception as e:      # (an interrupt's exception would be printed on the link)
            self.fault = e
            return 0

    def saw(self, raw, now=None):
        """`raw` is what the sensors read now (a tick's look, or a scan's read of the same kind):
        light the cells that moved.  The number of cells touched."""
        if now is None:
            now = self.clock()
        base = self.base
        if not self.primed:
            for c in range(self.cells):
                base[c] = raw[c]       # at rest: a touch is a move from here
            self.primed = True
            return 0
        moved = self.sensors.moved
        strip = self.strip
        n = 0
        for c in range(self.cells):
            m = moved[c]
            if m >= 0:
                d = raw[c] - base[c]
                if d > m or -d > m:
                    base[c] = raw[c]
                    strip.touch(c, now)
                    n += 1
        if n:
            strip.flush_touched()
            self.touches += n
        return n


def start(machine, sensors, strip, clock=ticks_ms):
    """The sensors watched by a periodic timer from now on; None where `machine` has no Timer.

    A port whose Timer has no hard callbacks gets a soft one (run between two bytecodes)."""
    Timer = getattr(machine, "Timer", None)
    if Timer is None or not hasattr(sensors, "peek"):
        return None
    w = Watch(sensors, strip, clock)
    sensors.watched_by(w.saw)
    try:
        import micropython
        micropython.alloc_emergency_exception_buf(100)   # an interrupt's exception keeps its message
    except (ImportError, AttributeError):
        pass
    try:
        w.timer = Timer(-1, mode=Timer.PERIODIC, period=WATCH_MS, callback=w.tick, hard=True)
    except TypeError:
        w.timer = Timer(-1, mode=Timer.PERIODIC, period=WATCH_MS, callback=w.tick)
    on_ready = getattr(sensors, "on_ready", None)
    if on_ready is not None:
        on_ready(w.ready)       # (the timer stays: a reading the pin's edge did not find)
    return w
