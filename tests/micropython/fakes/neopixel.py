"""A stand-in for micropython-lib's `neopixel` module (same API), for tests.

It keeps the strip's bytes in `buf`, in wire order, and hands them to
machine.bitstream() on write(), as the real module does; machine's fake
records every write in machine.world.bitstreams.
"""
import machine


class NeoPixel:
    ORDER = (1, 0, 2, 3)   # GRB(W): the byte each of r, g, b, w goes to

    def __init__(self, pin, n, bpp=3, timing=1):
        self.pin = pin
        self.n = n
        self.bpp = bpp
        self.buf = bytearray(n * bpp)
        self.timing = timing
        self.pin.init(pin.OUT)

    def __len__(self):
        return self.n

    def __setitem__(self, i, v):
        offset = i * self.bpp
        for j in range(self.bpp):
            self.buf[offset + self.ORDER[j]] = v[j]

    def __getitem__(self, i):
        offset = i * self.bpp
        return tuple(self.buf[offset + self.ORDER[j]] for j in range(self.bpp))

    def fill(self, v):
        for i in range(self.n):
            self[i] = v

    def write(self):
        machine.bitstream(self.pin, 0, self.timing, self.buf)
