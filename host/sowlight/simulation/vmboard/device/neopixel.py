"""`neopixel` for the simulated boards, as a Pico has it frozen in (micropython-lib's API).

The one stand-in of the VM board (host/sowlight/simulation/vmboard/device) and of the
tests (tests/micropython/fakes/neopixel.py is a link to this file).  The
colours of each LED are kept in `buf` in wire order (GRB, or GRBW with
bpp=4); write() hands the buffer to machine.bitstream(), which on the
simulated `machine` records the frame (machine.world.frames, .bitstreams)
instead of clocking it out of a pin.
"""
import machine

__name__ = "neopixel"


class NeoPixel:
    ORDER = (1, 0, 2, 3)    # the byte each of r, g, b, w goes to

    def __init__(self, pin, n, bpp=3, timing=1):
        self.pin = pin
        self.n = n
        self.bpp = bpp
        self.buf = bytearray(n * bpp)
        self.timing = timing
        self.pin.init(pin.OUT)

    def __len__(self):
        return self.n

    def __setitem__(self, i, colour):
        at = i * self.bpp
        for k in range(self.bpp):
            self.buf[at + self.ORDER[k]] = colour[k]

    def __getitem__(self, i):
        at = i * self.bpp
        return tuple(self.buf[at + self.ORDER[k]] for k in range(self.bpp))

    def fill(self, colour):
        for i in range(self.n):
            self[i] = colour

    def write(self):
        machine.bitstream(self.pin, 0, self.timing, self.buf)
