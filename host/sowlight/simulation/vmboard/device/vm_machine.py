"""`machine` on the VM board: what the Sowlight firmware touches, with nothing wired to the pins.

An input reads its pull (1 with PULL_UP, else 0): no button is pressed, no
HX711 is ready.  Every ADC reads 0: a board with no hand over any sensor.
Outputs keep the level written; bitstream() keeps the last frame sent out of
each pin (`frames`), so the LEDs can be looked at from the REPL.  unique_id()
is the VM board's own id (stable for a flash directory); reset() restarts the
VM as power-cycling a board does (its flash kept), soft_reset() as Ctrl-D.
Anything else a port has is missing, and says so with AttributeError.
"""
import _vmboard

__name__ = "machine"

_uid = b"\x00" * 8
levels = {}     # pin id -> level last written as an output
frames = {}     # pin id -> bytes of the last bitstream() frame
_irq_off = 0


def _set_uid(uid):
    global _uid
    _uid = uid


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
        self.mode = Pin.IN
        self.pull = None
        self.init(mode, pull, value)

    def init(self, mode=-1, pull=-1, value=None, **kwargs):
        if mode != -1:
            self.mode = mode
        if pull != -1:
            self.pull = pull
        if value is not None:
            self.value(value)

    def value(self, v=None):
        if v is None:
            if self.mode in (Pin.OUT, Pin.OPEN_DRAIN) and self.id in levels:
                return levels[self.id]
            return 1 if self.pull == Pin.PULL_UP else 0
        levels[self.id] = 1 if v else 0
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
        return None     # no edges ever come: nothing is wired

    def __repr__(self):
        return "Pin(%r)" % (self.id,)


class ADC:
    def __init__(self, pin, **kwargs):
        self.pin = pin.id if isinstance(pin, Pin) else pin

    def read_u16(self):
        return 0


def bitstream(pin, encoding, timing, buf):
    frames[pin.id] = bytes(buf)


def unique_id():
    return _uid


def freq(hz=None):
    return None if hz is not None else 125000000


def disable_irq():
    global _irq_off
    _irq_off += 1
    return _irq_off


def enable_irq(state):
    global _irq_off
    _irq_off -= 1


def idle():
    _vmboard.sleep(1)


def lightsleep(ms=None):
    _vmboard.sleep(1000 if ms is None else ms)


def reset():
    _vmboard.reset("hard")
    raise SystemExit


def soft_reset():
    raise SystemExit


def deepsleep(ms=None):
    reset()


def reset_cause():
    return PWRON_RESET


PWRON_RESET = 1
WDT_RESET = 3
