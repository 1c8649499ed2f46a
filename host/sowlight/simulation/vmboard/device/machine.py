"""`machine` for the simulated boards: what the Sowlight firmware touches, on a small simulated world.

The one stand-in for MicroPython's `machine` of the VM board (the bridge puts
it in the VM, host/sowlight/simulation/vmboard/device) and of the tests, on CPython and
on the MicroPython VM (tests/micropython/fakes/machine.py is a link to this
file).  Pins, the ADC and bitstream() act on `world`, which tests set up:

    import machine
    machine.world.reset()
    machine.world.levels[10] = 0                 # an input pin held low (a button pressed)
    machine.world.inputs[3] = f                  # f() gives the level of an input a simulated part drives
    machine.world.analog = lambda pin: 1234      # what every ADC reads
    machine.world.watchers.append(f)             # f(pin, value) on every output write
    machine.world.drive(5, 0)                    # a simulated part moves an input: its Pin.irq() runs
    machine.world.outputs[16]                    # what was last written to an output pin
    machine.world.frames[16]                     # the last bitstream() frame sent out of a pin

With nothing set up -- the VM board -- an input reads its pull (1 with
PULL_UP, else 0): no button is pressed, no HX711 is ready; every ADC reads 0,
a board with no hand over any sensor.  unique_id() is `world.uid` (the VM
board sets its own, stable for a flash directory).  On the VM board (module
_vmboard there) reset() restarts the VM as power-cycling a board does (its
flash kept), soft_reset() as Ctrl-D, and idle()/lightsleep() wait in the
bridge; elsewhere reset() counts in `world.resets` and ends the program.
Anything else a port has is missing, and says so with AttributeError.
"""
try:
    import _vmboard     # the VM board's bridge (host/sowlight/simulation/vmboard/bridge.mjs)
except ImportError:
    _vmboard = None

__name__ = "machine"

PWRON_RESET = 1
WDT_RESET = 3


class World:
    def __init__(self):
        self.uid = b"\xe6\x61\x41\x03\xe7\x45\x2d\x2f"
        self.reset()

    def reset(self):
        self.levels = {}      # pin -> level of an input nobody drives
        self.inputs = {}      # pin -> callable() giving its level (a simulated part driving it)
        self.outputs = {}     # pin -> level last written as an output
        self.modes = {}       # pin -> the mode it was set to
        self.watchers = []    # callables(pin, value), told of every output write
        self.analog = None    # callable(pin) -> 0..65535 for ADC reads
        self.frames = {}      # pin -> bytes of the last bitstream() frame
        # (pin, bytes) of every bitstream() call; None keeps only `frames` (the VM board runs for hours)
        self.bitstreams = []
        self.irq_off = 0      # disable_irq() calls not yet matched by enable_irq()
        self.irqs = {}        # pin -> (handler, trigger) of Pin.irq()
        self.pending = []     # pins whose edge came with interrupts off: handled at enable_irq()
        self.resets = 0

    def drive(self, pin, level):
        """A simulated part sets the level of an input pin.  An edge that the pin's irq() asked
        for calls its handler at once, or, while interrupts are off, once they are on again
        (a chip latches the edge)."""
        level = 1 if level else 0
        old = self.levels.get(pin)
        self.levels[pin] = level
        irq = self.irqs.get(pin)
        if irq is None or old == level:
            return
        if irq[1] & (Pin.IRQ_RISING if level else Pin.IRQ_FALLING):
            if self.irq_off:
                if pin not in self.pending:
                    self.pending.append(pin)
            else:
                irq[0](Pin(pin))


world = World()


class Pin:
    IN = 0
    OUT = 1
    OPEN_DRAIN = 2
    ALT = 3
    PULL_UP = 1
    PULL_DOWN = 2
    IRQ_FALLING = 4
    IRQ_RISING = 8

    def __init__(self, id, mode=-1, pull=-1, value=None, **kwargs):
        self.id = id
        self.init(mode, pull, value)

    def init(self, mode=-1, pull=-1, value=None, **kwargs):
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
            # (No tuple made here: a read allocates nothing, as the firmware's timer interrupt needs.)
            if (self.mode == Pin.OUT or self.mode == Pin.OPEN_DRAIN) and self.id in world.outputs:
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

    high = on
    low = off

    def toggle(self):
        self.value(0 if self.value() else 1)

    def irq(self, handler=None, trigger=IRQ_FALLING | IRQ_RISING, hard=False):
        # Edges come from world.drive(); a level set in world.levels directly has none.
        if handler is None:
            world.irqs.pop(self.id, None)
        else:
            world.irqs[self.id] = (handler, trigger)
        return None

    def __repr__(self):
        return "Pin(%r)" % (self.id,)


class ADC:
    def __init__(self, pin, **kwargs):
        self.pin = pin.id if isinstance(pin, Pin) else pin

    def read_u16(self):
        if world.analog is None:
            return 0
        v = int(world.analog(self.pin))
        return 0 if v < 0 else 65535 if v > 65535 else v


def bitstream(pin, encoding, timing, buf):
    frame = bytes(buf)
    world.frames[pin.id] = frame
    if world.bitstreams is not None:
        world.bitstreams.append((pin.id, frame))


def unique_id():
    return world.uid


def freq(hz=None):
    return None if hz is not None else 125000000


def disable_irq():
    world.irq_off += 1
    return world.irq_off


def enable_irq(state):
    world.irq_off -= 1
    while not world.irq_off and world.pending:
        pin = world.pending.pop(0)
        irq = world.irqs.get(pin)
        if irq is not None:
            irq[0](Pin(pin))


def idle():
    if _vmboard is not None:
        _vmboard.sleep(1)


def lightsleep(ms=None):
    if _vmboard is not None:
        _vmboard.sleep(1000 if ms is None else ms)


def reset():
    world.resets += 1
    if _vmboard is None:
        raise SystemExit("machine.reset()")
    _vmboard.reset("hard")
    raise SystemExit


def soft_reset():
    raise SystemExit


def deepsleep(ms=None):
    reset()


def reset_cause():
    return PWRON_RESET
