"""The LED strip: the controller's frame of colour roles, lit under the pits.

    strip = Strip(board, NeoPixelDriver(board.led_pin, board.led_count, board.led_order))
    strip.show(controller.frame, controller.brightness, now)    # writes only when something changed
    strip.touch(cell, now)          # the sensors saw `cell` change: shown at once (watch.py)

Every colour is scaled by the brightness level (0-255) and by the config's
brightness cap, so no frame can draw more current than the power check of the
config allowed.  A frame equal to the last one written is not written again
(the LED data line is the board's noisiest wire, and a write costs ~30 us per LED).

A touched cell shows TOUCH from the moment the sensors see it change, until the
controller's frame gives it another role (its answer, after the debounce) or
TOUCH_MS pass with nothing new: a player sees at once that the board felt the
hand, though the answer takes the debounce.  touch() may come at any moment
of show() or light() (a timer's interrupt): it then only marks the cell, and
show() paints it before it writes.  Nothing on touch()'s way allocates.

The LEDs take a frame as theirs once the data line has stayed low for RESET_US;
bits sent before that carry on past the strip's last LED and are lost, and the
LEDs keep the last frame.  A timer's tick held back by a write (interrupts are
off while it goes out) comes right after it, so every write waits out the rest
of RESET_US first; flush_touched(), which runs in the interrupt, does not wait
there: it leaves the touch to the next tick or show().

Two drivers, one small interface (palette, paint, flush):
- NeoPixelDriver: MicroPython's `neopixel` module (micropython-lib; firmware/
  manifest.py and package.json install it), writing the strip's bytes directly;
- AdafruitDriver: the Adafruit CircuitPython NeoPixel library, on CircuitPython
  boards or on a Raspberry Pi through Blinka (which can run this app on CPython).
  It imports that library only when made, so a MicroPython board never needs it.
"""
from ..colours import RGB, OFF, N_ROLES, TOUCH
from ..ticks import ticks_diff, ticks_us, sleep_us

TOUCH_MS = 300          # a touch shows this long after the last change, unless the controller answers
# The data line's low time after which WS2812B LEDs latch what they were sent (the datasheet of
# its V5 says 280 us; older ones 50 us, SK6812 80 us).
RESET_US = 300
_NONE = 0xFF

_CHANNEL = {"R": 0, "G": 1, "B": 2}


def scaled_palette(level, cap255):
    """Every role's (r, g, b), scaled by level/255 and the cap (cap255/255)."""
    k = level * cap255
    out = []
    for i in range(0, len(RGB), 3):
        out.append((RGB[i] * k // 65025, RGB[i + 1] * k // 65025, RGB[i + 2] * k // 65025))
    return out


class NeoPixelDriver:
    """MicroPython: the `neopixel` module's buffer, filled in the strip's own byte order."""

    def __init__(self, pin, count, order="GRB"):
        import machine
        import neopixel
        self.bpp = len(order)
        self.order = order
        self.np = neopixel.NeoPixel(machine.Pin(pin, machine.Pin.OUT), count, bpp=self.bpp)
        self.buf = self.np.buf
        self.table = bytearray(N_ROLES * self.bpp)

    def palette(self, colours):
        t = self.table
        bpp = self.bpp
        for k in range(len(colours)):
            rgb = colours[k]
            for i in range(bpp):
                ch = self.order[i]
                t[k * bpp + i] = rgb[_CHANNEL[ch]] if ch in _CHANNEL else 0   # W stays dark
        return t

    def paint(self, led, role):
        bpp = self.bpp
        buf = self.buf
        t = self.table
        a = led * bpp
        b = role * bpp
        for i in range(bpp):
            buf[a + i] = t[b + i]

    def flush(self):
        self.np.write()


class Strip:
    def __init__(self, board, driver):
        self.driver = driver
        self.count = board.led_count
        self.cell_leds = board.cell_leds
        self.cap255 = board.brightness_cap255
        self.cells = board.cells
        self._last = bytearray(b"\xff" * self.cells)   # nothing written yet
        self._level = -1
        self.writes = 0
        # What each cell means in the last frame: its role under any blink or count (show()'s `meant`).
        self._meant = bytearray(b"\xff" * self.cells)
        # A touched cell: what it meant when touched (_NONE: not touched), and when.
        self._under = bytearray(b"\xff" * self.cells)
        self._since = [0] * self.cells
        self._touched = 0         # cells touched, not yet painted
        self._busy = False
        self._sent = ticks_us() - RESET_US     # when the last write ended

    def _palette(self, level):
        if level != self._level:
            self.driver.palette(scaled_palette(level, self.cap255))
            self._level = level
            for c in range(self.cells):
                self._last[c] = _NONE     # every cell must be painted again
            return True
        return False

    def show(self, frame, level=255, now=None, meant=None):
        """Light each cell with its role; write the strip only if a cell changed.  True if written.

        `meant`: what each cell means, the role under its blinking or counting (the controller's
        roles; None: the frame, which then neither blinks nor counts).  A touched cell keeps
        TOUCH while it means what it meant when touched -- a blink's beat is not an answer -- and
        TOUCH_MS have not passed since (`now`, ticks_ms; None: touches end here)."""
        self._busy = True
        self._palette(level)
        last = self._last
        under = self._under
        was = self._meant
        if meant is None:
            meant = frame
        d = self.driver
        changed = False
        for c in range(self.cells):
            r = frame[c]
            m = meant[c]
            was[c] = m
            u = under[c]
            if u != _NONE:
                if m == u and now is not None and ticks_diff(now, self._since[c]) < TOUCH_MS:
                    r = TOUCH
                else:
                    under[c] = _NONE
            if r != last[c]:
                last[c] = r
                for led in self.cell_leds[c]:
                    d.paint(led, r)
                changed = True
        self._busy = False
        if self._touched:       # touched while this frame was painted
            changed = self._paint_touched() or changed
        if changed:
            self._write()
        return changed

    def touch(self, cell, now):
        """The sensors saw `cell` change: light it TOUCH (written by flush_touched(), or by show())."""
        if self._under[cell] == _NONE:
            self._under[cell] = self._meant[cell]
        self._since[cell] = now
        self._touched += 1

    def flush_touched(self):
        """Write the touched cells now, unless show() is under way (it will) or the last write
        has not latched yet (the next tick or show() will).  True if written."""
        if self._busy or not self._touched or 0 <= ticks_diff(ticks_us(), self._sent) < RESET_US:
            return False
        if self._paint_touched():
            self._write()
            return True
        return False

    def _write(self):
        """The frame out, once the last one has latched (at most RESET_US of waiting)."""
        busy = self._busy
        self._busy = True       # (a tick meanwhile leaves its touch for later, not a write right after)
        # (ticks_us wraps every 2**30 us on a board: a write more than 9 minutes ago reads as
        # one in the future, and is long latched.)
        since = ticks_diff(ticks_us(), self._sent)
        if 0 <= since < RESET_US:
            sleep_us(RESET_US - since)
        self.driver.flush()
        self._sent = ticks_us()
        self._busy = busy
        self.writes += 1

    def _paint_touched(self):
        self._touched = 0
        last = self._last
        d = self.driver
        changed = False
        for c in range(self.cells):
            if self._under[c] != _NONE and last[c] != TOUCH:
                last[c] = TOUCH
                for led in self.cell_leds[c]:
                    d.paint(led, TOUCH)
                changed = True
        return changed

    def light(self, leds, role, level=255):
        """Light only the given LED indices with one role (self-test, error pattern)."""
        self._busy = True             # (a touch now would be painted over the pattern)
        self._palette(level)
        d = self.driver
        for i in range(self.count):
            d.paint(i, OFF)
        for i in leds:
            d.paint(i, role)
        for c in range(self.cells):
            self._last[c] = _NONE
            self._meant[c] = _NONE       # (a touch during the pattern is not shown)
            self._under[c] = _NONE
        self._write()
        self._busy = False

    def off(self):
        self.light((), OFF)


class AdafruitDriver:
    """CircuitPython / Blinka: adafruit-circuitpython-neopixel, which orders the bytes itself."""

    def __init__(self, pin, count, order="GRB"):
        import neopixel
        if isinstance(pin, int):
            pin = _board_pin(pin)
        self.bpp = len(order)
        self.px = neopixel.NeoPixel(pin, count, bpp=self.bpp, brightness=1.0, auto_write=False, pixel_order=order)
        self.colours = []

    def palette(self, colours):
        self.colours = [c + (0,) if self.bpp == 4 else c for c in colours]
        return self.colours

    def paint(self, led, role):
        self.px[led] = self.colours[role]

    def flush(self):
        self.px.show()


def _board_pin(n):
    import board
    for name in ("GP%d" % n, "D%d" % n, "IO%d" % n):
        pin = getattr(board, name, None)
        if pin is not None:
            return pin
    raise ValueError("this board has no pin GP%d / D%d for the LEDs: give the pin object instead" % (n, n))
