"""Simulated hands for the firmware's scenario tests: a physical board of seeds,
and a player who does only what the LEDs show.

Runs on CPython and on the MicroPython VM (tests mount this directory), so
the same scenario plays on both and the journals can be compared.

    board = Seeds(cells)                       # what is really in each cell
    hands = Hands(controller, board, seed=3)
    hands.play(max_actions=2000)               # until the LEDs show a finished game

The hands read the LEDs by watching them: `watch()` renders the controller's
frame over a few seconds of simulated time and decodes each cell into its
colour role, whether it blinks (and with what), and how many beats it counts.
They never look at the controller's game or follower.  Each action is one
physical change (a seed dropped, a pit lifted, seeds taken), after which the
sensors are fed the board as a sensor of the configured kind sees it.

The seeds, what a sensor reads of them and the seeds of a position are the
virtual board's model (sowlight_fw.virtual: Seeds, sensed, position_counts);
what is the hands' own is the player, and the faults a test gives a sensor.
"""
from sowlight_fw import colours as C
from sowlight_fw.virtual import Seeds, SimError, sensed, position_counts   # noqa: F401 (Seeds: for the tests)

ACTIONS = (C.DROP, C.RELAY, C.TAKE, C.NEED)


class Rng:
    """xorshift32: the same numbers on CPython and MicroPython."""

    def __init__(self, seed):
        self.x = (seed * 2654435761 + 1) & 0xFFFFFFFF or 1

    def next(self):
        x = self.x
        x ^= (x << 13) & 0xFFFFFFFF
        x ^= x >> 17
        x ^= (x << 5) & 0xFFFFFFFF
        self.x = x
        return x

    def below(self, n):
        return self.next() % n

    def chance(self, per_mille):
        return self.below(1000) < per_mille


class Sensors:
    """What the board's sensors report for the real seeds (kind from the config)."""

    def __init__(self, board, counts_seeds=None):
        self.counting = board.sensor_kind == "hx711" if counts_seeds is None else counts_seeds
        self.sensed = [s is not None for s in board.cell_sensors]
        self.stuck = {}          # cell -> value the sensor reports whatever is there
        self.flapping = []       # cells whose sensor reads right and wrong on alternate scans
        self.flicker = 0         # per mille chance that a cell reads wrong for one scan
        self.rng = Rng(99)
        self._flap = 0
        self._blipped = []

    def read(self, seeds, hands_over=()):
        out = []
        self._flap ^= 1
        for c in range(seeds.cells):
            if not self.sensed[c]:
                out.append(None)
                continue
            if c in self.stuck:
                out.append(self.stuck[c])
                continue
            if c in hands_over:
                out.append(-1)
                continue
            v = sensed(seeds.counts[c], self.counting)
            blip = False
            if self.flicker and c not in self._blipped and self.rng.chance(self.flicker):
                blip = True     # a spike of one scan (never two scans running)
                self._blipped.append(c)
            elif c in self._blipped:
                self._blipped.remove(c)
            if blip or (self._flap and c in self.flapping):
                v = (v + 1) if self.counting else (1 - v)
            out.append(v)
        return out


def watch(controller, now, beats=44, counted=None):
    """Decode the LEDs by looking at them for `beats` beats: per cell (role, other, count).

    role: the colour shown on even beats (or the one colour of a counting cell);
    other: None if steady, else what it alternates with (OFF for plain blinking);
    count: how many flashes a counting cell makes per cycle (1 otherwise).
    counted: a list to put the counting cells in (one flash and a pause is a count of 1).
    """
    n = controller.cells
    blink = controller.settings["blink_ms"]
    start = (now // blink + 1) * blink
    if (start // blink) & 1:
        start += blink
    seq = [bytearray(beats) for _ in range(n)]
    frame = bytearray(n)
    for b in range(beats):
        controller.render(start + b * blink, frame)
        for c in range(n):
            seq[c][b] = frame[c]
    out = []
    for c in range(n):
        s = seq[c]
        first = s[0]
        same = True
        for v in s:
            if v != first:
                same = False
                break
        if same:
            out.append((first, None, 1))
            continue
        # A long gap (three dark beats or more) means a count.
        gaps = []
        run = 0
        for b in range(beats):
            if s[b] == C.OFF:
                run += 1
                if run == 3:
                    gaps.append(b)
            else:
                run = 0
        if len(gaps) >= 2:
            b = gaps[0] + 1
            while s[b] == C.OFF:
                b += 1
            flashes = 0
            colour = s[b]
            prev = C.OFF
            while b < beats and b <= gaps[1]:
                if s[b] != C.OFF and prev == C.OFF:
                    flashes += 1
                prev = s[b]
                b += 1
            out.append((colour, None, flashes))
            if counted is not None:
                counted.append(c)
            continue
        out.append((s[0], s[1], 1))
    return out


class Stuck(Exception):
    """The hands see nothing they can do."""


class Hands:
    """A player (both players) who does what the LEDs show, one physical action at a time."""

    def __init__(self, controller, seeds, sensors, seed=1, setup_counts=None, action_ms=300, scan_ms=50,
                 shadows=False, prefer_hint=False, log=None, patience_ms=600, scanner=None):
        self.c = controller
        self.seeds = seeds
        self.sensors = sensors
        self.rng = Rng(seed)
        self.setup_counts = setup_counts    # what the player knows the set-up is (occupancy boards cannot count)
        self.action_ms = action_ms
        self.patience_ms = patience_ms
        self.scanner = scanner
        self.scan_ms = scan_ms
        self.shadows = shadows              # a hand over a cell reads as unknown while it acts there
        self.prefer_hint = prefer_hint
        self.now = 1000
        self.done = {}                      # trail seeds dropped while the LEDs stay the same
        self._view_key = None
        self.actions = 0
        self.presses = 0
        self.confirms_when_idle = 0
        self.choice = None                  # [alternatives, the one wanted, done]
        self.log = log
        self.idle = 0
        self.counted = []                   # the cells the last look saw counting

    # ----- time and sensors ----------------------------------------------------

    def scan(self, over=()):
        if self.scanner is not None:
            self.scanner(self.now)     # the whole app: its sensor adapters read the simulated parts
        else:
            self.c.feed_observation(self.sensors.read(self.seeds, over), self.now)

    def wait(self, ms):
        end = self.now + ms
        while self.now < end:
            self.now += self.scan_ms
            self.scan()

    def press(self, button):
        self.presses += 1
        self.c.press(button, self.now)
        self.wait(self.scan_ms)
        # A move the press ended is played over the next few scans, as one the sensors saw end,
        # and the lights move on then: a player sees them change before going on.
        end = self.now + self.patience_ms
        while self.now < end and self.c.jobs.moving():
            self.wait(self.scan_ms)

    def _act(self, cell, change):
        if self.shadows and cell >= 0:
            self.scan((cell,))
            self.now += self.scan_ms
            self.scan((cell,))
            self.now += self.scan_ms
        before = self._pattern()
        try:
            change()
        except SimError as e:
            raise Stuck("the hands cannot do what the LEDs ask at cell %d: %s" % (cell, e.msg))
        self.actions += 1
        self.wait(self.action_ms)
        # A player waits to see the lights move on before doing anything more
        # (some changes show nothing: those cost the whole patience).
        end = self.now + self.patience_ms
        while self.now < end and self._pattern() == before:
            self.wait(self.scan_ms)

    def _pattern(self):
        # The LED pattern (what is lit, how it blinks or counts), not its blink phase.
        c = self.c
        return bytes(c.roles) + bytes(c.alt) + bytes(c.cnt)

    # ----- physical actions ----------------------------------------------------

    def drop(self, cell, n=1):
        self._act(cell, lambda: self.seeds.drop(cell, n))

    def lift(self, cell):
        self._act(cell, lambda: self.seeds.lift(cell))

    def take(self, cell, dest):
        self._act(cell, lambda: self.seeds.take(cell, dest))

    def pick(self, cell, n):
        self._act(cell, lambda: self.seeds.lift(cell, n))

    def add(self, cell, n):
        self._act(cell, lambda: self.seeds.add(cell, n))

    def remove(self, cell, n):
        self._act(cell, lambda: self.seeds.remove(cell, n))

    # ----- reading the LEDs and doing what they say ---------------------------

    def step(self):
        """Do one thing the LEDs ask for; False when the game is over."""
        c = self.c
        counted = []
        view = watch(c, self.now, counted=counted)
        self.counted = counted
        key = tuple(v[0] for v in view) + tuple(0 if v[1] is None else v[1] + 1 for v in view)
        if key != self._view_key:
            self._view_key = key
            self.done = {}
            self.idle = 0
        state = c.state
        if state == "over":
            return False
        if state == "setup":
            return self._setup(view)
        if state == "menu":
            raise Stuck("the board shows its menu")
        # Mismatch flashes: the scenario did something wrong (or a test made it so).
        for cell in range(len(view)):
            if view[cell][1] == C.ERROR:
                raise Stuck("cell %d flashes an error: %r" % (cell, view[cell]))
        # 1. Seeds to sow where the sensors cannot see: one into each dim cell (as many as it counts).
        for cell in range(len(view)):
            role, other, count = view[cell]
            if role == C.TRAIL and self.done.get(cell, 0) < count:
                self.drop(cell)
                self.done[cell] = self.done.get(cell, 0) + 1
                return True
        # A dim cell alternating with a step: its trail seed is in, so the step is what it asks for now.
        for cell in range(len(view)):
            role, other, count = view[cell]
            if role == C.TRAIL and other in ACTIONS:
                view[cell] = (other, None, 1)
        # 2. One step to do.
        steady = [cell for cell in range(len(view)) if view[cell][1] is None and view[cell][0] in ACTIONS]
        # Seeds taken into the hand come before the drops they make (both may be lit when the
        # sensors cannot see the taking).
        steady = [x for x in steady if view[x][0] in (C.RELAY, C.TAKE)] + \
            [x for x in steady if view[x][0] not in (C.RELAY, C.TAKE)]
        # (Several steps lit at once, the first unseen: each is done once while the lights stay.
        # Seeds wanted in a pit are counted in: more may be wanted than its flashes say.)
        steady = [x for x in steady if not self.done.get(("did", x)) or view[x][0] == C.NEED]
        blinking = [cell for cell in range(len(view)) if view[cell][1] == C.OFF and view[cell][0] in ACTIONS]
        if steady and not blinking:
            self.done[("did", steady[0])] = 1
            self._do(steady[0], view)
            return True
        # 3. A choice: blinking alternatives (one steady among them: the board cannot tell them apart,
        #    hint picks and confirm takes the picked one).
        if blinking:
            if steady:
                # The board cannot see every alternative: it shows its pick steady.
                key = tuple(sorted(steady + blinking))
                if self.choice is None or self.choice[0] != key:
                    self.choice = [key, key[self.rng.below(len(key))], False]
                target = self.choice[1]
                if steady[0] != target:
                    self.press("hint")
                elif not self.choice[2]:
                    self.choice[2] = True
                    self._do(target, view)
                else:
                    self.choice = None
                    self.press("confirm")
                return True
            if not self.done.get("stop_tried") and self.rng.chance(200):
                self.done["stop_tried"] = 1
                self.press("confirm")
                return True
            self._do(blinking[self.rng.below(len(blinking))], view)
            return True
        # 4. A move to start: the lit pits of the player to move (or the hint).
        lifts = [cell for cell in range(len(view)) if C.PLAYER <= view[cell][0] < C.PLAYER + 4 and view[cell][1] is None
                 and view[cell][0] != C.TRAIL]
        lifts += [cell for cell in range(len(view)) if view[cell][0] == C.TRAIL and view[cell][1] is not None
                  and C.PLAYER <= view[cell][1] < C.PLAYER + 4]
        hints = [cell for cell in range(len(view)) if view[cell][0] == C.HINT]
        unseen = [cell for cell in range(len(view)) if C.PLAYER <= view[cell][0] < C.PLAYER + 4
                  and view[cell][1] in (C.OFF, C.FAULT)]
        if unseen and not lifts and not hints:
            # Only pits whose sensors are not trusted may be lifted: the blinking one, then confirm.
            chosen = [cell for cell in unseen if view[cell][1] == C.OFF]
            if not chosen:
                self.press("hint")
                return True
            self.lift(chosen[0])
            self.press("confirm")
            return True
        if hints and (self.prefer_hint or not lifts):
            self.lift(hints[0])
            return True
        if lifts:
            pool = lifts + hints
            self.lift(pool[self.rng.below(len(pool))])
            return True
        self.idle += 1
        if self.idle == 2:
            # Done all the LEDs asked and nothing changed: a player presses confirm.
            self.confirms_when_idle += 1
            self.press("confirm")
            return True
        if self.idle > 3:
            raise Stuck("nothing to do: %r (state %s)" % (view, state))
        self.wait(self.action_ms)
        return True

    def _do(self, cell, view):
        role = view[cell][0]
        if role == C.DROP:
            self.drop(cell)
        elif role == C.RELAY:
            self.lift(cell)
        elif role == C.TAKE:
            dest = -1
            for d in range(len(view)):
                if view[d][0] == C.DEST:
                    dest = d
            if dest < 0 and cell in self.counted:
                self.pick(cell, view[cell][2])      # that many of its seeds, into the hand
            else:
                self.take(cell, dest)
        elif role == C.NEED:
            if self.seeds.hand:
                self.drop(cell, min(self.seeds.hand, view[cell][2]))
            else:
                self.add(cell, view[cell][2])
                if self.c.state == "placing":
                    # A handful is taken once the board has been still a while; the pit then
                    # glows READY: wait for that, as a distributor would.
                    end = self.now + 3000
                    while self.now < end and self.c.state == "placing" and watch(self.c, self.now, 4)[cell][0] != C.READY:
                        self.wait(self.scan_ms)

    def _setup(self, view):
        for cell in range(len(view)):
            role, other, count = view[cell]
            if role == C.NEED:
                n = count if self.sensors.counting else self.setup_counts[cell]
                self.add(cell, n - (self.seeds.counts[cell] if not self.sensors.counting else 0))
                return True
            if role == C.REMOVE:
                self.remove(cell, count if self.sensors.counting else self.seeds.counts[cell])
                return True
        ready = [v for v in view if v[0] == C.READY]
        if ready and all(v[1] == C.OFF for v in ready):
            self.press("confirm")
            return True
        self.idle += 1
        if self.idle > 3:
            raise Stuck("set-up: nothing to do: %r" % (view,))
        self.wait(self.action_ms)
        return True

    def play(self, max_actions=5000):
        n = 0
        while self.step():
            n += 1
            if n > max_actions:
                raise Stuck("no end after %d actions" % max_actions)
        return n


def start(board, variant, seed=1, settings=None, options=None, counts_seeds=None, **kw):
    """A controller with a new game, and hands that have put the seeds out as the LEDs asked."""
    from sowlight_fw.controller import Controller
    c = Controller(board, settings=settings)
    c.new_game(variant, options or {})
    seeds = Seeds(board.cells)
    sensors = Sensors(board, counts_seeds)
    h = Hands(c, seeds, sensors, seed=seed, setup_counts=expected_counts(c), **kw)
    h.wait(200)
    n = 0
    while c.state == "setup":
        h.step()
        n += 1
        if n > 500:
            raise Stuck("the set-up never ends")
    return h


def expected_counts(controller, cells=None):
    """The board cells' seeds for a game position, the game's own if not given (the player reads
    it off the rules)."""
    c = controller
    return position_counts(c.game.cells() if cells is None else cells, c.gmap, c.cells)


def arrange(h, counts):
    """Put the seeds out as `counts` (board cells) by hand, and let the sensors settle."""
    h.seeds.lay_out(counts)
    h.wait(h.action_ms)
