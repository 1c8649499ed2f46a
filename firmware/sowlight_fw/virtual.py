"""The virtual board's hardware, in software: seeds in cells, and the parts that see and show them.

    world = Seeds(board.cells)            # seeds per cell, in the hand, beside the board, in the bag
    buttons = Buttons()                   # pressed by `sim` acts
    app = App(board, Machine(uid), storage=..., link=..., strip=Strip(board),
              sensors=Sensors(board, world), buttons=buttons)
    app.handlers["sim"] = Sim(world, buttons).handle

The app on top is the real one (controller, journal, link): only what a
board's hands and pins would do is simulated here.  A `sim` request moves
seeds the way hands would (docs/protocol.md, `sim`); the sensors then report
them as the config's kind of sensor would: occupancy sensors see whether a
cell holds seeds, load cells how many (sensed()).  host/sowlight/simulation/virtual.py
serves it behind a pseudo-terminal, host/sowlight/simulation/emuboard feeds it to the
emulated RP2040's pins.

The seeds (Seeds), what a sensor reads of them (sensed()) and the seeds a
position puts in each cell (position_counts()) are the one model of every
simulated board: the robot hands (host/sowlight/simulation/robot.py) and the tests'
hands (tests/micropython/fakes/hands.py, on CPython and on the MicroPython
VM) use them too.

This module compiles for MicroPython but is never deployed to a real board:
a real board has real seeds and answers `sim` with `unsupported`.
"""
try:
    from micropython import const
except ImportError:  # CPython
    def const(x):
        return x

from .cellmap import board_counts
from .link.codec import BUTTONS
from .colours import OFF
from .hw.calibration import DEFAULT_EMPTY, DEFAULT_COVERED, DEFAULT_COUNTS_PER_SEED

BAG = const(1000)        # seeds in the bag at power-up: more than any game on any preset needs


SEED_ACTS = ("lift", "drop", "take", "add", "remove")     # the `sim` acts that move seeds


def sensed(count, counting):
    """What a cell's sensor reads when the cell holds `count` seeds: the count for a load cell
    (`counting`), else 1 if it holds any (an occupancy sensor)."""
    if counting:
        return count
    return 1 if count else 0


def position_counts(game_cells, gmap, cells):
    """The seeds each of a board's `cells` holds in a position: `game_cells` the rules core's
    cells (Game.cells()), `gmap` the board cell of each (-1: none on the board)."""
    return board_counts(game_cells, gmap, [0] * cells)


class SimError(ValueError):
    """A `sim` act that hands could not do (no such cell, an empty hand, ...); `code` is the protocol's."""

    def __init__(self, code, msg):
        super().__init__(msg)
        self.code = code
        self.msg = msg


# ----- the seeds ------------------------------------------------------------------------------

class Seeds:
    """What is really on (and around) the virtual board: the world the sensors look at."""

    def __init__(self, cells, bag=BAG):
        self.cells = cells
        self.counts = [0] * cells
        self.hand = 0          # seeds held in the hand, being sown
        self.beside = 0        # captured seeds kept off the board
        self.bag = bag         # seeds not in play

    def total(self):
        return sum(self.counts) + self.hand + self.beside + self.bag

    def report(self):
        """The `sim` reply's fields (the contract's three, and the bag)."""
        return {"counts": list(self.counts), "hand": self.hand, "beside": self.beside, "bag": self.bag}

    def _cell(self, cell, what):
        if cell is None:
            raise SimError("bad_payload", "%s needs a cell (0 to %d)" % (what, self.cells - 1))
        if type(cell) is not int or not 0 <= cell < self.cells:
            raise SimError("out_of_range", "there is no cell %r: this board has cells 0 to %d (pits, then stores)"
                           % (cell, self.cells - 1))
        return cell

    @staticmethod
    def _n(n, default, what):
        if n is None:
            return default
        if type(n) is not int or n < 1:
            raise SimError("out_of_range", "%s needs n of 1 or more, not %r" % (what, n))
        return n

    def lift(self, cell, n=None):
        """`n` seeds of `cell` into the hand (all if not given: a feed in Lane takes one)."""
        cell = self._cell(cell, "lift")
        k = self.counts[cell]
        if not k:
            raise SimError("out_of_range", "cell %d is empty: there is nothing to lift" % cell)
        n = self._n(n, k, "lift")
        if n > k:
            raise SimError("out_of_range", "cell %d holds %d seed%s, not %d" % (cell, k, "" if k == 1 else "s", n))
        self.hand += n
        self.counts[cell] = k - n

    def drop(self, cell, n=None):
        """`n` seeds (1 if not given) from the hand into `cell`."""
        cell = self._cell(cell, "drop")
        n = self._n(n, 1, "drop")
        if self.hand < n:
            raise SimError("out_of_range", "the hand is empty: lift seeds first" if not self.hand
                           else "the hand holds %d seed%s, not %d" % (self.hand, "" if self.hand == 1 else "s", n))
        self.hand -= n
        self.counts[cell] += n

    def take(self, cell, to=None):
        """Every seed of `cell` to cell `to`, or off the board (beside it) when `to` is -1 or not given."""
        cell = self._cell(cell, "take")
        if to is None or to == -1:
            to = -1
        else:
            to = self._cell(to, "take")
            if to == cell:
                raise SimError("out_of_range", "take moves seeds from cell %d to another cell, not to itself" % cell)
        k = self.counts[cell]
        if not k:
            raise SimError("out_of_range", "cell %d is empty: there is nothing to take" % cell)
        self.counts[cell] = 0
        if to < 0:
            self.beside += k
        else:
            self.counts[to] += k

    def add(self, cell, n=None):
        """`n` seeds (1 if not given) from the bag into `cell`."""
        cell = self._cell(cell, "add")
        n = self._n(n, 1, "add")
        if self.bag < n:
            raise SimError("out_of_range", "the bag holds only %d seeds, not %d: remove some from the board first"
                           % (self.bag, n))
        self.bag -= n
        self.counts[cell] += n

    def remove(self, cell, n=None):
        """`n` seeds (all if not given) from `cell` back to the bag."""
        cell = self._cell(cell, "remove")
        k = self.counts[cell]
        n = self._n(n, k, "remove")
        if not k:
            raise SimError("out_of_range", "cell %d is empty: there is nothing to remove" % cell)
        if n > k:
            raise SimError("out_of_range", "cell %d holds %d seed%s, not %d" % (cell, k, "" if k == 1 else "s", n))
        self.counts[cell] -= n
        self.bag += n

    def do(self, act, cell, n=None, to=None):
        """One physical act: lift (all, or `n`) or pick (`n` into the hand), drop, take (to cell
        `to`, or off the board), add or place (from the bag), remove (back to the bag)."""
        if act == "lift" or act == "pick":
            self.lift(cell, n)
        elif act == "drop":
            self.drop(cell, n)
        elif act == "take":
            self.take(cell, to)
        elif act == "add" or act == "place":
            self.add(cell, n)
        elif act == "remove":
            self.remove(cell, n)
        else:
            raise SimError("bad_payload", "there is no act %r: the acts are lift, pick, drop, take, add, "
                                          "place and remove" % (act,))

    def lay_out(self, counts):
        """Put the board in `counts` at once, every other seed back in the bag (a board set up before power-up)."""
        if len(counts) != self.cells:
            raise SimError("bad_payload", "lay_out needs %d counts, one per cell" % self.cells)
        self.bag = self.total()
        self.hand = 0
        self.beside = 0
        for c in range(self.cells):
            if counts[c] < 0 or counts[c] > self.bag:
                raise SimError("out_of_range", "cannot lay out %r seeds in cell %d" % (counts[c], c))
            self.counts[c] = counts[c]
            self.bag -= counts[c]


# ----- the parts the app reads and drives -----------------------------------------------------

class Sensors:
    """The config's kind of pit sensor, looking at `world`: the interface of sensors.make()'s objects.

    read() gives what the controller takes (0/1 per cell for occupancy, a
    count for load cells, None for a cell with no sensor); read_raw() the
    readings a real sensor of that kind would give, from its calibration
    (or the firmware's defaults), so self-test and calibration work too."""

    def __init__(self, board, world):
        self.world = world
        self.cells = board.cells
        self.cell_sensors = board.cell_sensors
        self.sensor_kind = board.sensor_kind
        self.counting = board.sensor_kind == "hx711"
        self.kind = "counting" if self.counting else "occupancy"
        self.calibrated = True
        self.active_low = getattr(board, "gpio_active_low", True)
        cal = board.calibration or {}
        if self.sensor_kind == "hx711":
            self.low = _levels(cal.get("offset"), board.cells, 0)
            self.step = _levels(cal.get("counts_per_seed"), board.cells, DEFAULT_COUNTS_PER_SEED)
        else:
            self.low = _levels(cal.get("empty"), board.cells, DEFAULT_EMPTY)
            self.high = _levels(cal.get("covered"), board.cells, DEFAULT_COVERED)

    def read(self, values):
        counts = self.world.counts
        for c in range(self.cells):
            values[c] = None if self.cell_sensors[c] is None else sensed(counts[c], self.counting)
        return values

    def read_raw(self, raw):
        counts = self.world.counts
        for c in range(self.cells):
            k = counts[c] if self.cell_sensors[c] is not None else 0
            if self.sensor_kind == "hx711":
                raw[c] = self.low[c] + k * self.step[c]
            elif self.sensor_kind == "gpio":
                raw[c] = (0 if self.active_low else 1) if k else (1 if self.active_low else 0)
            else:
                raw[c] = self.high[c] if k else self.low[c]
        return raw


def _levels(values, n, default):
    out = []
    for c in range(n):
        v = values[c] if isinstance(values, list) and c < len(values) else None
        out.append(default if v is None else v)
    return out


class Strip:
    """The LED strip's stand-in (Strip's interface): keeps what was last shown.

    `frame` holds the colour role of each cell, `leds` of each LED, and
    `level` the brightness they were shown at; leds.scaled_palette() turns
    them into colours."""

    def __init__(self, board):
        self.count = board.led_count
        self.cells = board.cells
        self.cell_leds = board.cell_leds
        self.frame = bytearray(board.cells)
        self.leds = bytearray(board.led_count)
        self.level = 0
        self.writes = 0

    def show(self, frame, level=255, now=None, meant=None):
        """Show a frame of roles per cell; True if anything changed (a write, as on the real strip).
        (No timer watches a virtual board's sensors: nothing is touched, `now` and `meant` are not
        needed.)"""
        changed = level != self.level
        for c in range(self.cells):
            if frame[c] != self.frame[c]:
                changed = True
                self.frame[c] = frame[c]
                for led in self.cell_leds[c]:
                    self.leds[led] = frame[c]
        if changed:
            self.level = level
            self.writes += 1
        return changed

    def light(self, leds, role, level=255):
        """Light only the given LEDs with one role (self-test, calibration)."""
        for i in range(self.count):
            self.leds[i] = OFF
        for i in leds:
            self.leds[i] = role
        for c in range(self.cells):
            self.frame[c] = self.leds[self.cell_leds[c][0]]
        self.level = level
        self.writes += 1

    def off(self):
        self.light((), OFF)


class Buttons:
    """The three buttons (Buttons' interface), pressed from software: press("confirm"), ...

    A press is reported by the next poll(), as a real button's is once let go;
    "menu" stands for the long press on confirm."""

    def __init__(self):
        self.queue = []

    def press(self, name):
        if name not in BUTTONS:
            raise SimError("bad_payload", "there is no button %r: the buttons are %s" % (name, ", ".join(BUTTONS)))
        self.queue.append(name)

    def poll(self, now):
        out = self.queue
        if out:
            self.queue = []
        return out

    def held(self, name="confirm"):
        return False       # nothing is held at power-up: the app always starts


class Reset(BaseException):
    """machine.reset() on the virtual board: whoever runs the app's loop starts a new app.

    A BaseException, so that no `except Exception` between the reset and the
    loop's runner (the link's guard around a request) takes it for an error."""


class Machine:
    """What the app asks of the `machine` module here: the board's unique id, and a reset that
    restarts the app (the parts are handed to the app, so it makes no pins)."""

    def __init__(self, uid):
        self.uid = bytes(uid)
        self.resets = 0

    def unique_id(self):
        return self.uid

    def reset(self):
        self.resets += 1
        raise Reset()

    def freq(self, hz=None):
        return 125000000


# ----- the `sim` request ----------------------------------------------------------------------

class Sim:
    """Carries out `sim` requests on the seeds: handle(payload, now) -> the reply (a dict with "type")."""

    def __init__(self, world, buttons):
        self.world = world
        self.buttons = buttons
        self.acts = 0

    def handle(self, payload, now=None):
        try:
            self.act(payload)
        except SimError as e:
            return {"type": "error", "code": e.code, "msg": e.msg}
        self.acts += 1
        return dict(self.world.report(), type="ok")

    def act(self, p):
        act = p.get("act")
        if act == "seeds":
            return
        if act == "press":
            self.buttons.press(p.get("button"))
        elif act in SEED_ACTS:
            self.world.do(act, p.get("cell"), p.get("n"), p.get("to"))
        else:
            raise SimError("bad_payload", "there is no act %r: the acts are %s, press and seeds"
                                          % (act, ", ".join(SEED_ACTS)))


# ----- setting up a game ---------------------------------------------------------------------------

def game_counts(controller):
    """The seeds each board cell holds in the controller's game position (what a player lays out)."""
    c = controller
    return position_counts(c.game.cells(), c.gmap, c.cells)


def set_out(sim, controller):
    """Put the seeds of the game's position out by `sim` acts, as a player would at the set-up:
    seeds added to cells that hold too few, removed from those that hold too many.  Returns the acts."""
    want = game_counts(controller)
    have = sim.world.counts
    acts = []
    for c in range(len(want)):
        if have[c] > want[c]:
            acts.append({"act": "remove", "cell": c, "n": have[c] - want[c]})
        elif have[c] < want[c]:
            acts.append({"act": "add", "cell": c, "n": want[c] - have[c]})
    for a in acts:
        sim.act(a)
    return acts


def ready_to_confirm(controller):
    """True when the set-up shows every pit right and asks for confirm (occupancy sensors cannot count)."""
    c = controller
    if c.state != "setup":
        return False
    from .colours import NEED, REMOVE, READY
    asks = False
    for cell in range(c.cells):
        r = c.roles[cell]
        if r == NEED or r == REMOVE:
            return False
        if r == READY and c.alt[cell] == OFF:
            asks = True
    return asks
