"""The sensor wiring a board config describes, simulated behind the fake `machine` of this folder:
the multiplexed analog sensors with their IR emitter switch (Muxes) and the HX711 load-cell
amplifiers on one clock (HX711s).

The one simulation of a board's sensors for the tests and the benches, on CPython
(tests/fakeload.py loads it) and on the MicroPython VM (this folder is its /lib):

    import machine, wiring
    sim = wiring.wire(board, machine)          # Muxes or HX711s, as board.sensor_kind says (gpio: None)
    sim.reflection[3] = 30000                  # Muxes: what cell 3's sensor adds with the emitters on
    sim.occupied = lambda cell: seeds.counts[cell] > 0   # or: EMPTY / COVERED as the seeds lie
    sim.convert([100, -5, 8388607])            # HX711s: new 24-bit readings; DOUT goes low (ready)

Multiplexers: the select pins' levels name a channel of every multiplexer; of those on the ADC
pin being read, the one whose enable pin is low (or that has none) drives it.  A reading is
room light (`ambient`) plus, with the emitters on (or no emitter switch), what the cell on that
channel reflects; none driving or two at once read 65535.  Reading allocates nothing: the heap
bench (bench/bench_heap.py) runs it beside the app on the VM.

HX711s, like the chip: DOUT low means a reading is ready; each rising edge of SCK puts the next
bit (most significant first) on DOUT; the 25th, 26th and 27th pulses choose the gain for the
next reading (25: channel A x128, 27: A x64) and DOUT goes high until the next convert().
"""

AMBIENT = 6000      # room light, read with the emitters off and on
EMPTY = 2500        # what an empty cell's sensor adds with the emitters on (the pit's floor reflects a little)
COVERED = 28000     # and a covered one's


class Muxes:
    """`muxes`: one (ADC pin, enable pin or None, cell of each of the 16 channels or -1) per multiplexer."""

    def __init__(self, machine, select, muxes, emitter=None, cells=0):
        self.world = machine.world
        self.select = select
        self.muxes = muxes
        self.emitter = emitter
        self.ambient = AMBIENT
        self.empty = EMPTY
        self.covered = COVERED
        self.reflection = [EMPTY] * cells   # per cell, what its sensor adds lit (when `occupied` is None)
        self.occupied = None                # callable(cell) -> true if covered: the reflection is `covered` or `empty`
        self.dead = ()                      # cells whose sensor reads 0, lit or not (a broken wire)
        # True: the first conversion after the channel or the emitters change still gives the one
        # before (the multiplexer and the ADC settling), which hardware/bringup.py reads past.
        self.stale = False
        self.reads = None                   # a list: (multiplexer, channel) of every reading is appended
        self._key = -1
        self._value = 0
        machine.world.analog = self.read

    def read(self, pin):
        out = self.world.outputs
        channel = 0
        for bit in range(len(self.select)):
            channel |= out.get(self.select[bit], 0) << bit
        lit = 1 if self.emitter is None else out.get(self.emitter, 0)
        driving = 0
        mux = -1
        cell = -1
        for m in range(len(self.muxes)):
            adc, enable, cells = self.muxes[m]
            if adc == pin and (enable is None or out.get(enable, 1) == 0):
                driving += 1
                mux = m
                cell = cells[channel]
        if self.reads is not None:
            self.reads.append((mux, channel))
        if driving != 1:
            value = 65535                   # outputs fighting, or nothing connected
        elif cell in self.dead:
            value = 0
        elif lit and cell >= 0:
            if self.occupied is None:
                value = self.ambient + self.reflection[cell]
            else:
                value = self.ambient + (self.covered if self.occupied(cell) else self.empty)
        else:
            value = self.ambient
        if self.stale:
            key = ((pin * 16 + mux + 1) * 16 + channel) * 2 + lit
            before = self._value
            self._value = value
            if key != self._key:
                self._key = key
                return before
        return value


def mux_wiring(board):
    """Muxes' arguments for a board (plain lists, for a VM that has no config module loaded):
    select pins, [(ADC pin, enable pin, cell per channel)], emitter pin, cells."""
    muxes = []
    for m in range(len(board.mux_list)):
        adc, enable = board.mux_list[m]
        cells = [-1] * 16
        for c in range(board.cells):
            s = board.cell_sensors[c]
            if s is not None and s[0] == m:
                cells[s[1]] = c
        muxes.append((adc, enable, cells))
    return list(board.mux_select), muxes, board.emitter_pin, board.cells


class HX711s:
    def __init__(self, sck, douts, machine):
        self.sck = sck
        self.douts = douts
        self.m = machine
        self.values = [0] * len(douts)
        self.stuck = ()            # DOUT pins of HX711s that never have a reading (a broken wire)
        self.pulse = 0
        self.pulses_last = 0       # clock pulses of the last read: 25 for gain 128, 27 for 64
        self._sck = 0
        for d in douts:
            if d is not None:
                machine.world.levels[d] = 1     # not ready
        machine.world.watchers.append(self._edge)

    def convert(self, values):
        self.values = [v & 0xFFFFFF for v in values]
        self.pulse = 0
        for d in self.douts:
            if d is not None:
                self.m.world.drive(d, 1 if d in self.stuck else 0)     # ready

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
            d = self.douts[i]
            if d is None or d in self.stuck:
                continue
            if k < 24:
                self.m.world.drive(d, (self.values[i] >> (23 - k)) & 1)
            else:
                self.m.world.drive(d, 1)
        if k >= 24:
            self.pulses_last = self.pulse


def wire(board, machine):
    """The simulation of `board`'s sensors on `machine` (Muxes, HX711s; None for gpio sensors, which
    are plain input levels: machine.world.levels)."""
    if board.sensor_kind == "occupancy-mux":
        return Muxes(machine, *mux_wiring(board))
    if board.sensor_kind == "hx711":
        return HX711s(board.hx711_sck, list(board.cell_sensors), machine)
    return None
