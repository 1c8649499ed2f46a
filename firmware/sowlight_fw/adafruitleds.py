"""AdafruitDriver: the LED strip through the Adafruit CircuitPython NeoPixel library.

For CircuitPython boards, or a Raspberry Pi running this app on CPython
through Blinka; leds.py has the interface (palette, paint, flush) and the
MicroPython driver, and gives `leds.AdafruitDriver` from here.
"""


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
