"""A stand-in for MicroPython's `machine` module, for tests (CPython and the MicroPython VM).

Pins, the ADC and `bitstream` act on a small simulated world that tests set up:

    import machine
    machine.world.reset()
    machine.world.levels[10] = 0                 # an input pin held low (a button pressed)
    machine.world.analog = lambda pin: 1234      # what every ADC reads
    machine.world.watchers.append(f)             # f(pin, value) on every output write
    machine.world.outputs[16]                    # what was last written to an output pin

Only what the firmware uses is here; anything else raises AttributeError, as
a missing feature would on a real port.
"""


class World:
    def __init__(self):
        self.reset()

    def reset(self):
        self.levels = {}      # pin -> level of an input nobody drives
        self.inputs = {}      # pin -> callable() giving its level (a simulated part driving it)
        self.outputs = {}     # pin -> level last written as an output
        self.modes = {}       # pin -> the mode it was set to
        self.watchers = []    # callables(pin, value), told of every output write
        self.analog = None    # callable(pin) -> 0..65535 for ADC reads
        self.bitstreams = []  # (pin, bytes) of every bitstream() call
        self.irq_off = 0      # disable_irq() calls not yet matched by enable_irq()
        self.resets = 0


world = World()


class Pin:
    IN = 0
    OUT = 1
    OPEN_DRAIN = 2
    PULL_UP = 1
    PULL_DOWN = 2

    def __init__(self, id, mode=-1, pull=-1, value=None):
        self.id = id
        self.init(mode, pull, value)

    def init(self, mode=-1, pull=-1, value=None):
        if mode != -1:
            self.mode = mode
            world.modes[self.id] = mode
        elif not hasattr(self, "mode"):
            self.mode = world.modes.get(self.id, Pin.IN)
        if pull != -1 or not hasattr(self, "pull"):
            self.pull = pull
        if value is not None:
            self.value(value)

    def value(self, v=None):
        if v is None:
            if self.mode == Pin.OUT and self.id in world.outputs:
                return world.outputs[self.id]
            f = world.inputs.get(self.id)
            if f is not None:
                return f()
            return world.levels.get(self.id, 1 if self.pull == Pin.PULL_UP else 0)
        v = 1 if v else 0
        world.outputs[self.id] = v
        for w in world.watchers:
            w(self.id, v)
        return None

    def __call__(self, v=None):
        return self.value(v)

    def on(self):
        self.value(1)

    def off(self):
        self.value(0)

    def __repr__(self):
        return "Pin(%r)" % (self.id,)


class ADC:
    def __init__(self, pin):
        self.pin = pin.id if isinstance(pin, Pin) else pin

    def read_u16(self):
        if world.analog is None:
            return 0
        v = int(world.analog(self.pin))
        return 0 if v < 0 else 65535 if v > 65535 else v


def bitstream(pin, encoding, timing, buf):
    world.bitstreams.append((pin.id, bytes(buf)))


def unique_id():
    return b"\xe6\x61\x41\x03\xe7\x45\x2d\x2f"


def disable_irq():
    world.irq_off += 1
    return world.irq_off


def enable_irq(state):
    world.irq_off -= 1


def freq(hz=None):
    return 125000000


def reset():
    world.resets += 1
    raise SystemExit("machine.reset()")
