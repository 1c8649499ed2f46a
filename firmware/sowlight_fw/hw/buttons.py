"""The three buttons: debounced presses, and a long press on confirm for the menu.

    buttons = Buttons(board, machine)
    for event in buttons.poll(now_ms):      # "confirm", "undo", "hint" or "menu"
        controller.press(event, now_ms)

A press counts when the pin has held its new level for `debounce_ms`.  A
short press is reported when the button is let go; holding confirm for the
config's `long_press_ms` reports "menu" at once (while it is still held) and
nothing when it is let go.  Held undo or hint is one press.  ButtonLogic is
the part without pins, so it is tested on its own.
"""
from ..ticks import ticks_diff

NAMES = ("confirm", "undo", "hint")


class ButtonLogic:
    def __init__(self, long_press_ms=800, debounce_ms=30, now_ms=0):
        self.long_press_ms = long_press_ms
        self.debounce_ms = debounce_ms
        n = len(NAMES)
        self.raw = bytearray(n)
        self.down = bytearray(n)        # debounced: 1 while pressed
        self.since = [now_ms] * n       # when raw last changed
        self.pressed_at = [now_ms] * n
        self.long_done = bytearray(n)

    def update(self, levels, now):
        """levels: 1 = pressed, per button in NAMES order.  Returns the events."""
        out = []
        for i in range(len(NAMES)):
            v = 1 if levels[i] else 0
            if v != self.raw[i]:
                self.raw[i] = v
                self.since[i] = now
            if v != self.down[i] and ticks_diff(now, self.since[i]) >= self.debounce_ms:
                self.down[i] = v
                if v:
                    self.pressed_at[i] = now
                    self.long_done[i] = 0
                elif not self.long_done[i]:
                    out.append(NAMES[i])
            if (i == 0 and self.down[i] and not self.long_done[i]
                    and ticks_diff(now, self.pressed_at[i]) >= self.long_press_ms):
                self.long_done[i] = 1
                out.append("menu")
        return out


class Buttons:
    def __init__(self, board, machine, debounce_ms=30, now_ms=0):
        Pin = machine.Pin
        pull = {"up": Pin.PULL_UP, "down": Pin.PULL_DOWN}.get(board.buttons_pull)
        self.pins = []
        for name in NAMES:
            p = board.buttons[name]
            self.pins.append(Pin(p, Pin.IN, pull) if pull is not None else Pin(p, Pin.IN))
        self.pressed_level = 0 if board.buttons_active_low else 1
        self.logic = ButtonLogic(board.long_press_ms, debounce_ms, now_ms)
        self._levels = bytearray(len(NAMES))

    def levels(self):
        for i in range(len(self.pins)):
            self._levels[i] = 1 if self.pins[i].value() == self.pressed_level else 0
        return self._levels

    def poll(self, now):
        return self.logic.update(self.levels(), now)

    def held(self, name="confirm"):
        """Whether a button is held right now (main.py: held at power-up, the app is not started)."""
        return self.pins[NAMES.index(name)].value() == self.pressed_level
