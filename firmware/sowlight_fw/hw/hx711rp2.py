"""The HX711s' bits clocked out on an RP2040, in viper code through its registers.

Through machine.Pin a reading costs 24 x (two clock writes and a read of every
data pin): some 6.7 ms for 14 chips on an RP2040 at 125 MHz, most of a scan's
work and of the watch's look.  Here each pulse is two SIO writes and one read of
every input at once (GPIO_IN): some 40 us for all of them, short enough to be
clocked out with interrupts off (a clock held high for 60 us would power the
chips down).  hx711.py uses it on the rp2 port only (viper needs the native
emitter, and the registers are the RP2040's); elsewhere it reads through machine.

`pins` holds each cell's data GPIO (-1: a cell without a chip).
"""
import micropython
from micropython import const

_SIO_IN = const(0xD0000004)
_SIO_OUT_SET = const(0xD0000014)
_SIO_OUT_CLR = const(0xD0000018)
_INTR0 = const(0x400140F0)          # IO_BANK0's raw interrupt status (edge_words())


@micropython.viper
def ready(mask: int) -> int:
    """1 if every data pin in `mask` is low (every chip has a reading), else 0."""
    gin = ptr32(_SIO_IN)
    if gin[0] & mask:
        return 0
    return 1


@micropython.viper
def read_bits(pins: ptr32, out: ptr32, n: int, sck: int, pulses: int):
    """Clock `pulses` pulses (24 data bits, then the gain's) and put each chip's 24-bit reading,
    sign extended, in out[cell]."""
    gin = ptr32(_SIO_IN)
    out_set = ptr32(_SIO_OUT_SET)
    out_clr = ptr32(_SIO_OUT_CLR)
    i = 0
    while i < n:
        out[i] = 0
        i += 1
    k = 0
    v = 0
    while k < pulses:
        out_set[0] = sck
        # Held high some 0.3 us (at least 0.2 us); DOUT is valid 0.1 us after the rising edge.
        j = 0
        while j < 8:
            v = gin[0]
            j += 1
        out_clr[0] = sck
        if k < 24:
            i = 0
            while i < n:
                p = pins[i]
                if p >= 0:
                    out[i] = (out[i] << 1) | ((v >> p) & 1)
                i += 1
        k += 1
    i = 0
    while i < n:
        if out[i] & 0x800000:               # two's complement, 24 bits
            out[i] = out[i] - 0x1000000
        i += 1


def edge_words(pins):
    """The words forget_edges() writes for data pins `pins`: each GPIO's EDGE_LOW bit in its
    bank's word of IO_BANK0's raw interrupt status (4 bits a GPIO, 8 GPIOs a word)."""
    from array import array
    words = array("I", bytes(16))
    for g in pins:
        words[g >> 3] |= 4 << ((g & 7) << 2)
    return words


@micropython.viper
def forget_edges(words: ptr32):
    """Clear the falling edges latched on the data pins (a 1 written to an EDGE_LOW bit clears
    it; `words` from edge_words()): those of the bits just clocked out, which are no reading
    ready.  With interrupts still off, the data pins' interrupt (watch.py) then comes for the
    next reading only."""
    intr = ptr32(_INTR0)
    i = 0
    while i < 4:
        if words[i]:
            intr[i] = words[i]
        i += 1
