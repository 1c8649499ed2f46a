"""The sensors watched between scans, so a player sees at once that the board felt a hand.

A scan comes every SCAN_MS, and the controller answers a change of a cell only
once it has held for the debounce (150 ms): a lift would show on the LEDs some
200 ms after it.  On a board, App.loop() also runs Watch.tick() from a timer
every WATCH_MS.  A tick takes a quick look at the sensors (peek(): one pass with
the emitters on; a new HX711 conversion, which the next scan then takes), and
every cell whose reading has moved by more than its sensor's `moved` step since
its last touch lights TOUCH at once (leds.Strip.touch).  The scans read the
sensors as they would without it, and the controller's answer comes after the
debounce, as before, and replaces the touch.

The timer's callback is a soft one: it runs between two bytecodes of the scan
(viper code, a collection or a strip write run to their end first).  While the
scan itself reads the sensors (`busy`) a tick leaves them to it.
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
        self.seen = array("i", bytes(4 * self.cells))   # what the last look saw
        self.base = array("i", bytes(4 * self.cells))   # each cell's reading at its last touch
        self.primed = False
        self.touches = 0
        self.fault = None         # the last exception a tick met (the app logs it), else None
        self.last = clock() - WATCH_MS    # when the last look was

    def rebase(self):
        """The readings the last look saw are at rest: a touch is a move from them."""
        for c in range(self.cells):
            self.base[c] = self.seen[c]
        self.primed = True

    def tick(self, _timer=None):
        """One look at the sensors (a timer's callback).  The number of cells touched."""
        try:
            return self._look()
        except Exception as e:      # (a soft callback's exception would be printed on the link)
            self.fault = e
            return 0

    def _look(self):
        now = self.clock()
        if ticks_diff(now, self.last) < WATCH_MS // 2:
            return 0            # ticks held back by a collection come in a burst: one look is enough
        self.last = now
        s = self.sensors
        raw = self.seen
        if not s.peek(raw):
            return 0            # a scan is reading them, or no new conversion yet
        base = self.base
        moved = s.moved
        if not self.primed:
            self.rebase()
            return 0
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
    """The sensors watched by a periodic timer from now on; None where `machine` has no Timer."""
    Timer = getattr(machine, "Timer", None)
    if Timer is None or not hasattr(sensors, "peek"):
        return None
    w = Watch(sensors, strip, clock)
    w.timer = Timer(-1, mode=Timer.PERIODIC, period=WATCH_MS, callback=w.tick)
    return w
