"""A refused board config at boot: said on the serial port and shown on the LEDs, never a crash loop.

app.start() imports this only when config.load() refuses the file; a board
with a good config never loads it.  What can be trusted of the refused file
(the LED chain's pin, count and colour order) lights every LED red at a low,
fixed level, blinking; without even that, the Pico's own LED blinks.
"""
from . import config
from .link import codec
from .ticks import sleep_ms
from .colours import ERROR


def raw_config(path):
    """The config file's JSON object, or None when it cannot be read as one."""
    try:
        import json
        with open(path) as f:
            raw = json.load(f)
        return raw if isinstance(raw, dict) else None
    except (OSError, ValueError):
        return None


def show(message, path, machine, cycles=None, period_ms=500, say_every=20):
    """Say why on the serial port (as text and as a framed `log` line for the laptop) and blink
    the error pattern, `cycles` times (None: forever)."""
    text = "sowlight: the board config is refused: %s" % message
    frame = None
    try:
        frame = codec.encode(0, "log", {"level": "error", "msg": text[:160]})
    except ValueError:
        pass
    strip = _error_strip(raw_config(path), machine)
    onboard = None
    if strip is None:
        try:
            onboard = machine.Pin("LED", machine.Pin.OUT)
        except (TypeError, ValueError, AttributeError):
            onboard = None
    n = 0
    while cycles is None or n < cycles:
        if n % say_every == 0:
            print(text)
            if frame is not None:
                print(frame.decode().rstrip("\n"))
        on = n % 2 == 0
        if strip is not None:
            strip.light(range(strip.count) if on else (), ERROR)
        elif onboard is not None:
            onboard.value(1 if on else 0)
        sleep_ms(period_ms)
        n += 1


class _ErrorBoard:
    """Just enough of a Board for Strip, from the parts of a refused config that can be trusted."""

    def __init__(self, count, cap255):
        self.led_count = count
        self.cell_leds = ()
        self.cells = 0
        self.brightness_cap255 = cap255


def _error_strip(raw, machine):
    leds = raw.get("leds") if isinstance(raw, dict) else None
    if not isinstance(leds, dict):
        return None
    pin = leds.get("pin")
    count = leds.get("count")
    order = leds.get("colour_order", "GRB")
    if not (isinstance(pin, int) and isinstance(count, int) and 0 < count <= 1024
            and order in config.COLOUR_ORDERS):
        return None
    try:
        from .hw.leds import Strip, NeoPixelDriver
        # A low fixed level whatever the refused file says: its power budget is not to be trusted.
        return Strip(_ErrorBoard(count, 64), NeoPixelDriver(pin, count, order))
    except (ImportError, ValueError, OSError):
        return None
