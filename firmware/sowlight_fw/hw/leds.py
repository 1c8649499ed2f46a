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

Two drivers, one small interface (palette, paint, flush):
- NeoPixelDriver: MicroPython's `neopixel` module (micropython-lib; firmware/
  manifest.py and package.json install it), writing the strip's bytes directly;
- AdafruitDriver: the Adafruit CircuitPython NeoPixel library, on CircuitPython
  boards or on a Raspberry Pi through Blinka (which can run this app on CPython).
  It imports that library only when made, so a MicroPython board never needs it.
"""
from ..colours import RGB, OFF, N_ROLES, TOUCH
from ..ticks import ticks_diff

TOUCH_MS = 300          # a touch shows this long after the last change, unless the controller answers
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
        # A touched cell: the controller's role it had when touched (_NONE: not touched), and when.
        self._under = bytearray(b"\xff" * self.cells)
        self._since = [0] * self.cells
        self._touched = 0         # cells touched, not yet painted
        self._busy = False

    def _palette(self, level):
        if level != self._level:
            self.driver.palette(scaled_palette(level, self.cap255))
            self._level = level
            for c in range(self.cells):
                self._last[c] = _NONE     # every cell must be painted again
            return True
        return False

    def show(self, frame, level=255, now=None):
        """Light each cell with its role; write the strip only if a cell changed.  True if written.

        A touched cell keeps TOUCH while its role in `frame` is the one it had when touched and
        TOUCH_MS have not passed since (`now`, ticks_ms; None: touches end here)."""
        self._busy = True
        self._palette(level)
        last = self._last
        under = self._under
        d = self.driver
        changed = False
        for c in range(self.cells):
            r = frame[c]
            u = under[c]
            if u != _NONE:
                if r == u and now is not None and ticks_diff(now, self._since[c]) < TOUCH_MS:
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
            d.flush()
            self.writes += 1
        return changed

    def touch(self, cell, now):
        """The sensors saw `cell` change: light it TOUCH (written by flush_touched(), or by show())."""
        if self._under[cell] == _NONE:
            self._under[cell] = self._last[cell]
        self._since[cell] = now
        self._touched += 1

    def flush_touched(self):
        """Write the touched cells now, unless show() is under way (it will).  True if written."""
        if self._busy or not self._touched:
            return False
        if self._paint_touched():
            self.driver.flush()
            self.writes += 1
            return True
        return False

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
            self._under[c] = _NONE
        d.flush()
        self.writes += 1
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
