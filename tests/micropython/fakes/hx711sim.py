"""Simulated HX711 load-cell amplifiers on the fake `machine` pins, for tests.

    sim = HX711s(sck=2, douts=[3, 4, 5], machine=machine)
    sim.convert([100, -5, 8388607])    # new 24-bit readings; DOUT goes low (ready)

Like the chip: DOUT low means a reading is ready; each rising edge of SCK puts
the next bit (most significant first) on DOUT; the 25th, 26th and 27th pulses
choose the gain for the next reading (25: channel A x128, 27: A x64) and DOUT
goes high until the next conversion.  SCK held high for long powers it down.
"""


class HX711s:
    def __init__(self, sck, douts, machine):
        self.sck = sck
        self.douts = douts
        self.m = machine
        self.values = [0] * len(douts)
        self.pulse = 0
        self.pulses_last = 0       # clock pulses of the last read: 25 for gain 128, 27 for 64
        self._sck = 0
        for d in douts:
            machine.world.levels[d] = 1     # not ready
        machine.world.watchers.append(self._edge)

    def convert(self, values):
        self.values = [v & 0xFFFFFF for v in values]
        self.pulse = 0
        for d in self.douts:
            self.m.world.levels[d] = 0       # ready

    def _edge(self, pin, v):
        if pin != self.sck:
            return
        rising = v and not self._sck
        self._sck = v
        if not rising:
            return
        k = self.pulse
        self.pulse += 1
        for i in range(len(self.douts)):
            if k < 24:
                self.m.world.levels[self.douts[i]] = (self.values[i] >> (23 - k)) & 1
            else:
                self.m.world.levels[self.douts[i]] = 1
        if k >= 24:
            self.pulses_last = self.pulse
