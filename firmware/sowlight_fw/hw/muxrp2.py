"""A pass over the multiplexed pit sensors on an RP2040, in viper code through its registers.

Through machine.Pin and machine.ADC a cell costs four pin writes, a sleep and a
read: some 180 us of calls on a Pico, 5 ms for 28 cells, the bulk of a scan.
Here one loop writes each cell's select and enable pins with two SIO writes,
waits the settling time on the microsecond timer and reads the ADC's result
register: about the settling time per cell.  mux.py uses it on the rp2 port
only (viper needs the native emitter, and the registers are the RP2040's);
elsewhere it reads through machine.

`table` holds three words a cell: the GPIO mask to set, the GPIO mask to
clear, and the ADC input (0-3) with bit 8 set for a cell without a sensor.
Readings are scaled to 16 bits as machine.ADC.read_u16() does, so calibrations
carry over.
"""
import micropython
from micropython import const

_SIO_OUT_SET = const(0xD0000014)
_SIO_OUT_CLR = const(0xD0000018)
_ADC_CS = const(0x4004C000)         # EN bit 0, START_ONCE bit 2, READY bit 8, AINSEL bits 12-14
_ADC_RESULT = const(0x4004C004)
_TIMERAWL = const(0x40054028)       # the microsecond timer, low word


@micropython.viper
def read_pass(table: ptr32, out: ptr32, n: int, settle_us: int):
    out_set = ptr32(_SIO_OUT_SET)
    out_clr = ptr32(_SIO_OUT_CLR)
    cs = ptr32(_ADC_CS)
    result = ptr32(_ADC_RESULT)
    timer = ptr32(_TIMERAWL)
    i = 0
    while i < n:
        ain = table[3 * i + 2]
        if ain & 0x100 == 0:
            out_set[0] = table[3 * i]           # other muxes off before this one comes on
            out_clr[0] = table[3 * i + 1]
            t0 = timer[0]
            while timer[0] - t0 < settle_us:
                pass
            cs[0] = (cs[0] & (~0x7000)) | (ain << 12) | 4
            while cs[0] & 0x100 == 0:
                pass
            v = result[0] & 0xFFF
            out[i] = (v << 4) | (v >> 8)
        i += 1


def table(cells, cell_sensors, select_pins, mux_pins):
    """The words read_pass() reads, from the config's pins (mux_pins: (ADC GPIO, EN GPIO or None) a mux)."""
    from array import array
    t = array("I", bytes(12 * cells))
    for c in range(cells):
        s = cell_sensors[c]
        if s is None:
            t[3 * c + 2] = 0x100
            continue
        mux, channel = s
        on = off = 0
        for bit in range(4):
            if (channel >> bit) & 1:
                on |= 1 << select_pins[bit]
            else:
                off |= 1 << select_pins[bit]
        for i in range(len(mux_pins)):
            en = mux_pins[i][1]
            if en is not None:       # EN is active low: this cell's mux on, the others off
                if i == mux:
                    off |= 1 << en
                else:
                    on |= 1 << en
        t[3 * c] = on
        t[3 * c + 1] = off
        t[3 * c + 2] = mux_pins[mux][0] - 26
    return t
