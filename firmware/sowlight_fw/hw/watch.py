"""The sensors watched between scans, so a player sees at once that the board felt a hand.

A scan comes every SCAN_MS, and the controller answers a change of a cell only
once it has held for the debounce (150 ms): a lift would show on the LEDs some
200 ms after it.  On a board, App.loop() also runs Watch.tick() from a timer
every WATCH_MS.  A tick takes the sensors' readings (sample(): the scans then
read these rather than the hardware, so the pins are read once), and every cell
whose reading has moved by more than its sensor's `moved` step since the last
touch lights TOUCH at once (leds.Strip.touch).  The controller's answer comes
after the debounce, as before, and replaces it.

The timer's callback is a soft one: it runs between two bytecodes of the scan
(viper code, a collection or a strip write run to their end first).  While the
scan itself reads the sensors (`busy`) a tick leaves them to it.
"""
from array import array

from ..ticks import ticks_ms

WATCH_MS = 3        # a change shows within this, plus a pass over the sensors and a strip write


class Watch:
    def __init__(self, sensors, strip):
        self.sensors = sensors
        self.strip = strip
        self.cells = sensors.cells
        self.base = array("i", bytes(4 * self.cells))   # each cell's reading at its last touch
        self.primed = False
        self.touches = 0
        self.looks = 0            # ticks so far (a scan with none since the last reads the sensors itself)
        self.fault = None         # the last exception a tick met (the app logs it), else None

    def rebase(self):
        """The readings as they are now are at rest: a touch is a move from them."""
        raw = self.sensors.raw
        for c in range(self.cells):
            self.base[c] = raw[c]
        self.primed = True

    def tick(self, _timer=None):
        """One look at the sensors (a timer's callback).  The number of cells touched."""
        self.looks += 1
        try:
            return self._look()
        except Exception as e:      # (a soft callback's exception would be printed on the link)
            self.fault = e
            return 0

    def _look(self):
        s = self.sensors
        if not s.sample():
            return 0            # the scan is reading them, or no new conversion yet
        raw = s.raw
        base = self.base
        moved = s.moved
        if not self.primed:
            self.rebase()
            return 0
        strip = self.strip
        now = ticks_ms()
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


def start(machine, sensors, strip):
    """The sensors watched by a periodic timer from now on; None where `machine` has no Timer."""
    Timer = getattr(machine, "Timer", None)
    if Timer is None or not hasattr(sensors, "sample"):
        return None
    w = Watch(sensors, strip)
    if sensors.sample():        # the first scan's readings are there before it comes
        w.rebase()
    sensors.watched = True
    w.timer = Timer(-1, mode=Timer.PERIODIC, period=WATCH_MS, callback=w.tick)
    return w
