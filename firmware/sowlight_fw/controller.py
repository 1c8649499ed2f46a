"""The board's controller: a pure state machine between the sensors, the buttons, the link and the LEDs.

    c = Controller(board)                    # board: config.check()/load() result
    c.feed_observation(values, now_ms)       # one scan of the sensors, a value per board cell
    c.press("confirm", now_ms)               # confirm | undo | hint | menu (a long press on confirm)
    reply = c.command({"type": "undo"}, now_ms)
    c.tick(now_ms)                           # time passes (blinking, settling)
    c.frame                                  # bytearray: the colour role of each board cell (colours.py)
    c.records, c.outbox                      # journal records and link messages to send; the shell empties them

It never touches hardware and never blocks, except for a hint search (bounded
by `hint_ms`).  Times are `time.ticks_ms()` values (compared with ticks_diff,
so they may wrap).  docs/firmware.md describes the states and colours.

States (`c.state`):

- "menu"        choose a variant (or self-test, calibration): undo/hint step, confirm chooses
- "setup"       put the seeds out: cells lit NEED want seeds, REMOVE want fewer (load cells
                flash how many); occupancy boards then wait for confirm, load cells start by themselves
- "await_lift"  the player to move's legal pits lit in their colour; the hint pit green
- "sowing"      a move in progress: the next step lit (drop, lift again, take + where to),
                drops the sensors cannot see as a dim trail, alternatives blinking at a choice
- "turn_over"   the move is complete in the rules but its last drops cannot be seen: their trail
                stays lit with the next player's pits, until the next player lifts
- "placing"     a free placing stage (Lane, the Egyptian games): the pits that may take seeds lit
                NEED; each handful the load cells count, once the board is still, is a placement
- "over"        the winner's side lit in their colour (a draw: both sides blink)
- "error"       every cell flashes red; confirm goes back
- "self_test", "calibrating"   the app drives the LEDs and sensors itself

`c.mismatch` is set on top of the play states when the board, once still,
disagrees with what it should hold: the cells at fault flash (NEED/REMOVE
with ERROR).  It clears itself when the board is put right; confirm instead
overrules the sensors of those cells (they stop being compared until they
agree again); undo takes the move back.
"""
import mancala
from mancala.errors import RulesError, IllegalMoveError

from . import config as _config
from . import display
from .follow import Follower, placing
from .observe import Observer

try:
    from time import ticks_diff
except ImportError:  # CPython
    def ticks_diff(a, b):
        return a - b

MENU_STATE = "menu"
SETUP = "setup"
AWAIT = "await_lift"
MOVE = "sowing"
TURN_OVER = "turn_over"
PLACING = "placing"
OVER = "over"
ERROR_STATE = "error"
SELF_TEST = "self_test"
CALIBRATING = "calibrating"
_PLAY = (AWAIT, MOVE, TURN_OVER)

BUTTONS = ("confirm", "undo", "hint", "menu")
SERVICE_ITEMS = ("self_test", "calibrate")

DEFAULTS = {
    "debounce_ms": 150,      # a cell's reading must hold this long to count
    "settle_ms": 800,        # the board must be still this long before a disagreement is flashed
    "noisy_changes": 6,      # a reading that changes this often ...
    "noisy_ms": 1500,        # ... without once holding still for debounce_ms in this long is noise
    "blink_ms": 250,         # half a blink, and one beat of a count
    "hint_ms": 1000,         # time budget of a hint search
    "hint_depth": 16,        # its deepest ply (bounds its memory: one frame and one undo entry a ply)
    "hint_nodes": 30000,     # and its node count
    "hints": False,          # hints shown from the start
    "brightness": 255,       # LED level 0-255, scaled by the config's brightness cap
    "lookahead": 400,        # steps looked ahead for what the hands did
    "variant": "oware",      # the menu starts here
}

_MAX_TRACE_STEPS = 150       # a `move` message with a longer trace sends null (the frame limit is 4 KB)
_MAX_MSG = 160               # error texts on the link are at most this long
_STEPS_A_SCAN = 24           # trace steps an idle scan writes out for a `move` message


class SettingsError(ValueError):
    """An unknown controller setting, or a value of the wrong kind."""


class CommandError(ValueError):
    """A link command that cannot be carried out; `code` is the protocol's error code."""

    def __init__(self, code, msg):
        super().__init__(msg)
        self.code = code
        self.msg = msg


def _now_ms():
    try:
        from time import ticks_ms
        return ticks_ms()
    except ImportError:  # CPython
        import time
        return int(time.monotonic() * 1000)


def fitting_variants(board, names=None):
    """The playable variants whose board fits this one (docs/config.md, cell_map)."""
    out = []
    for name in (names if names is not None else mancala.variants()):
        info = mancala.variant_info(name)
        if _config.cell_map(board, info["rows"], info["pits_per_row"], info["stores_sown"]) is not None:
            out.append(info["id"])
    return out


def _jsonable(move):
    if isinstance(move, tuple):
        return [_jsonable(x) for x in move]
    return move


def _tuplify(move):
    if isinstance(move, list):
        return tuple(_tuplify(x) for x in move)
    return move


# Messages for the link are made in idle scans, a few steps' worth a scan (Controller._idle):
# each job's work(ctl, most) puts what it has made into ctl.outbox, True once it is done.

class _MoveMessage:
    """A `move` message whose trace (Steps: (kind, pit, count, to) tuples) becomes the
    protocol's lists a few steps at a time."""

    def __init__(self, msg, steps):
        self.msg = msg
        self.steps = steps
        if steps is not None:
            msg["trace"] = []

    def work(self, ctl, most):
        steps = self.steps
        if steps is not None:
            out = self.msg["trace"]
            i = len(out)
            end = min(len(steps), i + most)
            while i < end:
                out.append(list(steps[i]))
                i += 1
            if i < len(steps):
                return False
        ctl.outbox.append(self.msg)
        return True


class _StepMessages:
    """The `step` events of steps the hands made (dropped, lifted), a few a scan."""

    def __init__(self, game_no, ply, first, steps, counting):
        self.head = (game_no, ply, first, counting)
        self.steps = list(steps)
        self.done = 0

    def more(self, game_no, ply, first, steps):
        """Take the steps the hands made next into this job; False if they do not follow on."""
        head = self.head
        if head[0] != game_no or head[1] != ply or head[2] + len(self.steps) != first:
            return False
        self.steps.extend(steps)
        return True

    def work(self, ctl, most):
        game_no, ply, first, counting = self.head
        steps = self.steps
        k = self.done
        end = min(len(steps), k + (most >> 2) + 1)
        while k < end:
            s = steps[k]
            kind = s[0]
            if kind == "drop" or kind == "place":
                ev = "dropped"
            elif kind == "lift" or kind == "relay" or kind == "take":
                ev = "lifted"
            else:
                ev = None           # extra turn, pass ...: nothing the hands did
            if ev is not None:
                msg = {"type": "step", "game": game_no, "ply": ply, "ev": ev, "cell": s[1], "i": first + k}
                if counting and ev == "lifted":
                    msg["n"] = s[2]
                ctl.outbox.append(msg)
            k += 1
        self.done = k
        return k == len(steps)


class _LedsMessage:
    """The `leds` message, made from what is lit when it is sent."""

    def work(self, ctl, most):
        ctl.outbox.append({"type": "leds", "lit": ctl.lit(), "game": ctl.game_no})
        return True


class Controller:
    def __init__(self, board, game_factory=None, clock=None, settings=None, variants=None, next_game=1, now_ms=0):
        s = dict(DEFAULTS)
        for k in (settings or {}):
            if k not in DEFAULTS:
                raise SettingsError("unknown controller setting %r; the settings are %s" % (k, ", ".join(sorted(DEFAULTS))))
            if type(settings[k]) is not type(DEFAULTS[k]):
                raise SettingsError("setting %s must be like %r, not %r" % (k, DEFAULTS[k], settings[k]))
            s[k] = settings[k]
        self.settings = s
        self.board = board
        self.cells = n = board.cells
        self.factory = game_factory or mancala.Game
        self.clock = clock
        self.counting = board.sensor_kind == "hx711"
        self.sensed = bytearray(n)
        for c in range(n):
            if board.cell_sensors[c] is not None:
                self.sensed[c] = 1
        self.masked = bytearray(n)          # sensors overruled by a confirm
        self.observer = Observer(n, s["debounce_ms"], s["settle_ms"], s["noisy_changes"], now_ms, s["noisy_ms"])
        self.follower = Follower(n, self.counting)
        self.variants = list(variants) if variants is not None else fitting_variants(board)
        self.menu_items = self.variants + list(SERVICE_ITEMS)
        # Outputs.
        self.frame = bytearray(n)
        self.roles = bytearray(n)
        self.alt = bytearray(b"\xff" * n)
        self.cnt = bytearray(n)
        self.blank = bytes(n)               # what display.show() starts from
        self.steady = bytes(self.alt)
        self.rendered_beat = None           # the blink beat self.frame was drawn for (None: draw it again)
        self.faulty = False                 # some sensor is noisy or overruled (its cell shows FAULT)
        self._said = (bytearray(n), bytearray(n), bytearray(n))   # roles, alternates, counts the last `leds` said
        self.records = []
        self.outbox = []
        self._later = []                    # messages finished in idle scans (_MoveMessage, _StepMessages, _LedsMessage)
        self._due = 0                       # the pieces of work a finished move still leaves (_work_due)
        self._made = None                   # that move: (trail, move, trace)
        self._dirty = False                 # an observation waits to be looked at (_work_due came first)
        self._show_due = False              # the lights are to be made again (in the next scan)
        self._cares = 0                     # how many times the sensors trusted changed
        self._mapped = bytearray(n)         # 1: a cell the game plays (gmap's board cells)
        self.service_request = None         # "self_test" or "calibrate" when the menu asks the app for it
        # The game.
        self.state = MENU_STATE
        self._back = None                   # the state the menu returns to
        self.game = None
        self.game_no = None
        self.variant = None
        self.options = {}
        self.ply = -1                       # journal ply of the game's last record
        self.next_game = next_game
        self.gmap = ()
        self.hints = s["hints"]
        self.brightness = s["brightness"]
        self.menu_index = self.variants.index(s["variant"]) if s["variant"] in self.variants else 0
        self.mismatch = False
        self.wrong = []                     # cells flashing during a mismatch
        self._pending = False               # the board disagrees; flash once it is still
        self.trail = bytearray(n)           # turn over: seeds still to drop where sensors cannot see
        self.trail_lit = False
        self.placed = -1                    # placing: the cell of the placement just taken (lit READY)
        self.selected = 0                   # the alternative picked with hint at an unseen choice
        self.error_text = None
        self._resumed_setup = False
        self._hold = False
        self._back_from_error = MENU_STATE
        self._service_back = MENU_STATE
        self._hint_key = None
        self._hint_due = False
        self.hint_move = None
        self.hint_result = None
        self._tmp = [0] * n
        self.now = now_ms
        self._show()
        self.render(now_ms)

    # ================================================================ inputs

    def feed_observation(self, values, now_ms):
        """One scan of the sensors: a value per board cell (0/1 or a count; -1 unknown/hand; None unsensed)."""
        self.now = now_ms
        self._scanned(self.observer.feed(values, now_ms), now_ms)
        self.render(now_ms)

    def tick(self, now_ms):
        """Time passes with no new reading."""
        self.now = now_ms
        self.observer.moved = False
        self._scanned(self.observer.settle(now_ms), now_ms)
        return self.render(now_ms)

    def _scanned(self, changed, now):
        if self.observer.events:
            self._noise_events()   # which sensors count changes what agrees: look again
            changed = True
        if self._due:
            # A move was just finished: its work comes first, a piece a scan; what the
            # sensors saw meanwhile is looked at once it is done.
            if changed:
                self._dirty = True
            self._work_due()
        elif self._show_due:
            # The lights for what the last scan found come before anything new is looked at.
            if changed:
                self._dirty = True
            self._refresh()
        elif changed or self._dirty:
            self._dirty = False
            self._observed(now)
        else:
            self._check_quiet(now)
            if not self.observer.moved:
                self._idle()    # (not while readings move: hands over the board, a scan's work is theirs)

    def _idle(self):
        # Nothing happened: a good moment for the work a move's end leaves, one piece a
        # scan: the messages for the link, the next move's traces, then the hint search
        # (up to hint_ms).
        mv = self.follower.mv
        if self._later:
            if self._later[0].work(self, _STEPS_A_SCAN):
                self._later.pop(0)
        elif mv is not None and mv.prebuild and mv.building():
            mv.build_one()
        elif self._hint_due:
            self._update_hint()
            self._refresh()

    def press(self, button, now_ms):
        """A button press: confirm, undo, hint, or menu (a long press on confirm)."""
        if button not in BUTTONS:
            raise ValueError("unknown button %r: buttons are %s" % (button, ", ".join(BUTTONS)))
        self.now = now_ms
        self._finish_due()
        st = self.state
        before = self._summary()
        said = len(self.outbox)
        if button == "menu":
            self._toggle_menu()
        elif st == MENU_STATE:
            self._menu_button(button)
        elif st == SETUP:
            if button == "confirm":
                self._overrule(self._setup_wrong())
                self._start_play()
            elif button == "hint":
                self.hints = not self.hints
        elif st in _PLAY:
            self._play_button(button, now_ms)
        elif st == PLACING:
            self._placing_button(button)
        elif st == OVER:
            try:
                if button == "confirm":
                    self.new_game(self.variant, self.options)
                elif button == "undo":
                    self._undo_move()
            except (CommandError, RulesError) as e:
                self._log("info", str(e))
        elif st == ERROR_STATE:
            if button == "confirm":
                self.recover()
        self._finish_due()         # a move ended by confirm is played at once
        if self._summary() != before:
            # A button changed the game (a new game, a move taken back, a move ended by confirm
            # ...) or what the board is doing: the host hears it as from a link request.
            for m in self.outbox[said:]:
                if m["type"] == "state":
                    break
            else:
                self._send(self.state_message())
        self._refresh()
        self.render(now_ms)

    def _summary(self):
        return (self.state, self.game_no, self.ply, self.hints, self.mismatch, self.follower.index)

    def command(self, msg, now_ms=None):
        """A link request (a dict with "type"); returns the reply: {"type": "ok", ...} or {"type": "error", ...}."""
        if now_ms is None:
            now_ms = _now_ms()
        self.now = now_ms
        self._finish_due()
        t = msg.get("type")
        try:
            if t == "get_state":
                return self.state_message()
            if t == "new_game":
                variant = msg.get("variant")
                options = msg.get("options") or {}
                if not isinstance(variant, str) or not isinstance(options, dict):
                    raise CommandError("bad_payload", "new_game needs a variant name and an options object")
                self.new_game(variant, options)
                reply = {"type": "ok", "game": self.game_no}
            elif t == "set_pos":
                self.set_position(msg.get("pos"))
                reply = {"type": "ok"}
            elif t == "undo":
                if self.game is None:
                    raise CommandError("no_game", "there is no game to take a move back in: start one first")
                if self.state == MOVE:
                    self._abandon_move("taken back from the link")
                else:
                    self._undo_move()
                reply = {"type": "ok", "ply": self.ply}
            elif t == "hint":
                on = msg.get("on")
                if not isinstance(on, bool):
                    raise CommandError("bad_payload", "hint needs on: true or false")
                self.hints = on
                self._update_hint()
                reply = {"type": "ok"}
            elif t == "brightness":
                level = msg.get("level")
                if not isinstance(level, int) or isinstance(level, bool) or not 0 <= level <= 255:
                    raise CommandError("out_of_range", "brightness level must be 0 to 255, not %r" % (level,))
                self.brightness = level
                reply = {"type": "ok"}
            elif t == "press":
                button = msg.get("button")
                if button not in BUTTONS:
                    raise CommandError("bad_payload", "press needs a button: one of %s" % ", ".join(BUTTONS))
                self.press(button, now_ms)
                reply = {"type": "ok"}
            elif t in ("self_test", "calibrate"):
                raise CommandError("unsupported", "%s is run by the board's app, not the controller" % t)
            else:
                raise CommandError("unknown_type", "the board does not carry out %r" % (t,))
        except CommandError as e:
            return self._error(e.code, e.msg)
        except RulesError as e:
            code = "bad_variant" if t == "new_game" and isinstance(e, (mancala.UnknownVariantError, mancala.NoRulesError)) \
                else "bad_option" if t == "new_game" else "bad_position"
            return self._error(code, str(e))
        self._refresh()
        self.render(now_ms)
        if t in ("new_game", "set_pos", "undo"):
            self._send(self.state_message())
        return reply

    # ================================================================ games

    def new_game(self, variant, options=None, pos=None):
        """Start a game (ends the one in progress in the journal); the board then shows the set-up."""
        self._finish_due()
        options = dict(options or {})
        game = self._make(variant, options, pos)
        ident = getattr(game, "id", variant)
        self._gmap(game)      # refuses a game whose board does not fit, saying which board it needs
        if ident not in self.variants:
            raise CommandError("bad_variant", "this board has no %s: it plays %s" % (ident, ", ".join(self.variants)))
        if placing(game) and not self.counting:
            raise CommandError("bad_option", self._uncountable(game))
        self._end_abandoned()
        self._resumed_setup = False
        self.game_no = self.next_game
        self.next_game += 1
        self.ply = -1
        self.variant = ident
        self.options = options
        rec = {"kind": "start", "variant": ident, "options": options}
        if pos is not None:
            rec["pos"] = self._pos(game)
        self._record(rec)
        self._begin(game)
        self.state = SETUP
        self._clear_marks()
        self._log("info", "new game %d: %s" % (self.game_no, ident))
        if self.counting:
            # The board may hold the set-up already (an empty one, for a game whose seeds are
            # placed by the handful): load cells see that, and the game starts at once.
            self._setup_check()

    def _uncountable(self, game):
        """Why a free placing stage cannot be played on this board, and what can."""
        text = "%s begins with seeds placed in uncounted handfuls; occupancy sensors cannot count them" % game.title
        alt = self._countable_options(game)
        if alt:
            text += ": play it with %s or on load cells" % ", ".join("%s=%s" % (k, alt[k]) for k in sorted(alt))
        else:
            text += ": play it on load cells"
        return text

    def _countable_options(self, game):
        """Options of `game`'s variant under which it starts without a free placing stage (None if none)."""
        for name, default, choices in getattr(game, "options", ()):
            if not isinstance(choices, tuple):
                continue
            for v in choices:
                if v == default:
                    continue
                try:
                    g = self.factory(self.variant_id(game), **{name: v})
                except RulesError:
                    continue
                if not placing(g):
                    return {name: v}
        return None

    def variant_id(self, game):
        return getattr(game, "id", None) or self.variant

    def set_position(self, pos):
        self._finish_due()
        if self.game is None:
            raise CommandError("no_game", "there is no game to set a position in: start one first")
        if not isinstance(pos, dict) or not isinstance(pos.get("pits"), list):
            raise CommandError("bad_position", "pos must be an object with pits, stores and to_move")
        game = self._make(self.variant, self.options, pos)
        self._record({"kind": "setpos", "pos": self._pos(game)})
        self._begin(game)
        self.state = OVER if game.is_over() else self._await_state()
        self._clear_marks()
        self._update_hint()

    def resume(self, game_no, records, now_ms=None):
        """Rebuild a game from its journal records (after a reset); True when it could."""
        self._finish_due()
        if game_no >= self.next_game:
            self.next_game = game_no + 1
        game = None
        variant = None
        options = {}
        moves = 0
        last = -1
        try:
            for r in records:
                k = r["kind"]
                last = r["ply"]
                if k == "start":
                    variant = r["variant"]
                    options = r.get("options") or {}
                    game = self._make(variant, options, r.get("pos"))
                elif k == "move":
                    game.play(_tuplify(r["move"]))
                    moves += 1
                elif k == "undo":
                    game.undo()
                    moves += 1
                elif k == "setpos":
                    game = self._make(variant, options, r["pos"])
                    moves += 1
        except (RulesError, KeyError, TypeError, AttributeError) as e:
            self._log("error", "game %d cannot be resumed (%s): choose a game" % (game_no, e))
            return False
        if game is None:
            return False
        self.game_no = game_no
        self.variant = getattr(game, "id", variant)
        self.options = options
        self.ply = last
        self._begin(game)
        self._clear_marks()
        if game.is_over():
            self.state = OVER
        elif moves == 0:
            self.state = SETUP
            self._resumed_setup = True
        else:
            self.state = self._await_state()
            self._update_hint()
        self._log("info", "resumed game %d at ply %d" % (game_no, last))
        self._refresh()
        self.render(self.now if now_ms is None else now_ms)
        return True

    def fail(self, text):
        """Something outside the controller failed (storage, a sensor bus): show the error pattern."""
        self._finish_due()
        if self.state != ERROR_STATE:
            self._back_from_error = self.state
        self.state = ERROR_STATE
        self.error_text = text
        self._log("error", text)
        self._refresh()

    def recover(self):
        if self.state == ERROR_STATE:
            self.state = getattr(self, "_back_from_error", MENU_STATE) or MENU_STATE
            self.error_text = None
            self._refresh()

    def enter_service(self, which):
        """The app runs self-test or calibration: the controller stands aside."""
        self._finish_due()
        self._service_back = self.state
        self.state = SELF_TEST if which == "self_test" else CALIBRATING
        self._refresh()

    def leave_service(self):
        self.state = getattr(self, "_service_back", MENU_STATE)
        if self.state in (SELF_TEST, CALIBRATING):
            self.state = MENU_STATE
        self._refresh()

    # ================================================================ messages

    def state_message(self):
        g = self.game
        f = self.follower
        expect = None
        if g is not None and self.state in (MOVE, TURN_OVER) or self.mismatch:
            nxt = self._next_step()
            if nxt is not None:
                expect = [nxt.kind, nxt.pit, nxt.count, nxt.to]
        phase = "mismatch" if self.mismatch else self.state
        if phase == MENU_STATE and g is None:
            phase = "idle"
        if phase == MOVE and f.mv is not None and self._choice_here():
            phase = "choice"
        msg = {"type": "state", "game": self.game_no if g is not None else None,
               "variant": self.variant if g is not None else None,
               "pos": self._pos(g) if g is not None else None, "ply": self.ply if self.ply >= 0 else 0,
               "phase": phase, "expect": expect, "hint": self.hints, "brightness": self.brightness}
        if g is not None:
            msg["options"] = self.options
        return msg

    def lit(self):
        """The cells lit and their roles, as the `leds` message says them."""
        return display.lit(self)

    # ================================================================ the LED frame

    def render(self, now_ms, out=None):
        """The frame at time now_ms (blinking applied), into `out` or self.frame; True if self.frame changed."""
        return display.render(self, now_ms, out)

    # ================================================================ internals: observations

    def _observed(self, now):
        self._hold = False
        st = self.state
        f = self.follower
        before = (f.index, f.mv, self.mismatch, self.wrong, self.trail_lit, self._cares)
        if st == SETUP:
            self._setup_check()
        elif st in _PLAY or st == PLACING:
            self._follow(now)
        if self._due:
            return                  # (a move just finished: the next move's lights come with its work)
        if st in _PLAY and self.state in _PLAY:
            # The lights for the step the hands made in the next scan: one piece of work a scan
            # (none when the look found nothing new: the hands are still under way).
            if (f.index, f.mv, self.mismatch, self.wrong, self.trail_lit, self._cares) != before \
                    or self._partial_place() is not None:       # (seeds going in: how many are missing)
                self._show_due = True
        else:
            self._refresh()

    def _check_quiet(self, now):
        if self._pending and (self.state in _PLAY or self.state == PLACING) and self.observer.quiet(now):
            self._pending = False
            if self.state == PLACING and not self._hold:
                self._take_placements()
            else:
                self._flag_mismatch()
            self._refresh()

    def _noise_events(self):
        ev = self.observer.events
        while ev:
            c, noisy = ev.pop(0)
            if noisy:
                self._log("warn", "the sensor of cell %d keeps changing: it is ignored until it holds still" % c)
            else:
                self._log("info", "the sensor of cell %d holds still again" % c)
        self._update_care()

    def _update_care(self):
        self._cares += 1            # (the lights of cells not trusted may change)
        care = self.follower.care
        noisy = self.observer.noisy
        mapped = self._mapped
        faulty = False
        for c in range(self.cells):
            care[c] = 1 if (self.sensed[c] and not self.masked[c] and not noisy[c] and mapped[c]) else 0
            if noisy[c] or self.masked[c]:
                faulty = True
        self.faulty = faulty
        self.follower.care_changed()

    def _follow(self, now):
        """Find what the hands did; advance; or note that the board disagrees."""
        self._dirty = False         # (what the sensors see now is looked at here)
        if self.state == PLACING:
            self._placing_look(now)
            return
        f = self.follower
        obs = self.observer.stable
        self._unmask(obs)
        for _ in range(8 if not self._hold else 0):   # a commit may uncover the next player's lift
            if f.mv is None:
                self._settled()
                return
            depth, steps, ambiguous = f.lookahead(obs, self.settings["lookahead"])
            if depth == 0:
                self._settled()
                return
            if depth is None:
                break
            if steps:
                self._advance(steps)
                self._progress()
                if self._due:
                    self._dirty = True      # looked at again once the move is played
                    return
                self._unmask(obs)
            if ambiguous:
                # The board matches more than one way the hands could have gone: wait.
                self._settled()
                return
        if f.mv is not None and f.bad(obs, f.counts) == 0:
            self._settled()
            return
        if f.mv is not None and self.state == MOVE:
            stop = f.next_lift_after_stop(obs) if f.mv.can_stop() else None
            if stop is not None:
                self._commit(None)
                self._dirty = True          # then the next player's lift
                return
            # Seeds put back where they were: the move in progress is taken back.
            start = f.load(self.game.cells(), self._tmp)
            if f.bad(obs, start) == 0:
                self._abandon_move("the seeds are back where the move started", False)
                self._settled()
                return
        if self.mismatch:
            self._flag_mismatch()   # the cells at fault may have changed
        else:
            self._pending = True
            self._check_quiet(now)

    def _settled(self):
        self._pending = False
        if self.mismatch:
            self.mismatch = False
            self.wrong = []
            self._log("info", "the board agrees again")
            self._send(self.state_message())

    def _flag_mismatch(self):
        f = self.follower
        obs = self.observer.stable
        wrong = f.disagreeing(obs)
        part = self._partial_place()
        if part is not None and part[0] in wrong and part[1] < obs[part[0]] < part[2]:
            wrong.remove(part[0])     # seeds on their way into a pit: not a mistake (yet)
        if not wrong:
            self._settled()
            return
        first = not self.mismatch
        self.mismatch = True
        self.wrong = wrong
        if first:
            nxt = self._next_step()
            c = wrong[0]
            msg = {"type": "step", "game": self.game_no, "ply": self.ply + 1, "ev": "mismatch",
                   "cell": self._game_cell(c), "i": f.index,
                   "expect": [nxt.kind, nxt.pit, nxt.count, nxt.to] if nxt is not None else None}
            self._send(msg)
            self._log("warn", self._explain(wrong, obs))
            self._send(self.state_message())

    def _explain(self, wrong, obs):
        """Why the board disagrees, in words, for the log."""
        f = self.follower
        g = self.game
        parts = []
        for c in wrong:
            k = f.counts[c]
            o = obs[c]
            gc = self._game_cell(c)
            name = g.move_name(gc) if 0 <= gc < g.n_pits else ("store %d" % (gc - g.n_pits) if gc >= 0 else "cell %d" % c)
            if self.counting:
                parts.append("%s holds %d, should hold %d" % (name, o, k))
            else:
                parts.append("%s looks %s, should be %s" % (name, "empty" if o == 0 else "full", "empty" if k == 0 else "full"))
        text = "; ".join(parts)
        nxt = self._next_step()
        if self.state in (AWAIT, TURN_OVER):
            for c in wrong:
                gc = self._game_cell(c)
                if 0 <= gc < g.n_pits and obs[c] == 0 and f.counts[c] > 0:
                    why = self._why_not(gc)
                    if why:
                        text += " (%s)" % why
                        break
        elif nxt is not None and nxt.kind == "take":
            text += " (take the captured seeds first: %s)" % g.move_name(nxt.pit)
        elif self.state == PLACING:
            for c in wrong:
                gc = self._game_cell(c)
                if 0 <= gc < g.n_pits and obs[c] > f.counts[c]:
                    most = g.max_place(gc)
                    text += " (%s)" % ("%s may take %d more seeds now" % (g.move_name(gc), most) if most
                                       else "%s cannot take seeds now" % g.move_name(gc))
                    break
        return text

    def _partial_place(self):
        """On load cells, when the next step the sensors can see puts several seeds into a pit:
        (its board cell, the count before, the count after); else None.  A pit between the
        two is being filled: the lights count what is still missing, nothing flashes."""
        f = self.follower
        if not self.counting or f.mv is None or (f.index == 0 and f.mv.building()):
            return None
        run, seen, ends = f.forced_run(self.settings["lookahead"])
        if not seen:
            return None
        s = run[-1]
        c = self.gmap[s.pit] if s.pit >= 0 else -1
        if s.kind != "place" or s.count <= 1 or c < 0:
            return None
        had = f.ahead[c]        # what it holds after the steps before it, unseen
        return c, had, had + s.count

    def _why_not(self, pit):
        g = self.game
        for m in (pit, (pit, 1)):
            try:
                g.copy().play(m)
            except IllegalMoveError as e:
                if m == pit or "direction" not in str(e):
                    return str(e)
            except Exception:
                return None
        return None

    def _unmask(self, obs):
        """An overruled sensor that agrees again is trusted again."""
        if not self.faulty:
            return              # no sensor is overruled (nor noisy)
        f = self.follower
        changed = False
        for c in range(self.cells):
            if self.masked[c] and obs[c] >= 0:
                k = f.counts[c]
                if (k == obs[c]) if self.counting else ((k > 0) == (obs[c] > 0)):
                    self.masked[c] = 0
                    changed = True
        if changed:
            self._update_care()

    def _overrule(self, cells):
        for c in cells:
            self.masked[c] = 1
        if cells:
            self._log("warn", "sensor%s of cell%s %s overruled by confirm" % (
                "s" if len(cells) > 1 else "", "s" if len(cells) > 1 else "", ", ".join(str(c) for c in cells)))
        self._update_care()

    # ================================================================ internals: steps and moves

    def _advance(self, steps):
        """The hands made `steps` (a list): the follower goes on; the link hears of them in idle scans."""
        f = self.follower
        first = f.index
        f.advance_run(steps)
        if self.trail_lit:
            self._clear_trail()
        if self.state != MOVE:
            self.state = MOVE
        later = self._later
        if not (later and isinstance(later[-1], _StepMessages) and later[-1].more(self.game_no, self.ply + 1, first, steps)):
            later.append(_StepMessages(self.game_no, self.ply + 1, first, steps, self.counting))

    def _progress(self):
        """After steps were made: pass markers, end the move if nothing more can come or be seen."""
        f = self.follower
        f.skip_markers()
        if f.mv.done():
            self._commit(None)
            return
        run, seen, ends = f.forced_run(self.settings["lookahead"])
        if seen or not ends or not run:
            return
        # The rest of the move is forced and the sensors cannot see any of it:
        # it is complete as far as the board can ever know.  Its drops stay lit.
        trail = self.trail
        for c in range(self.cells):
            trail[c] = 0
        for s in run:
            if s.kind == "drop":
                b = self.gmap[s.pit]
                if b >= 0 and trail[b] < 255:
                    trail[b] += 1
        self.trail_lit = True
        # Every trace still possible ends with this run, step for step: the move is the
        # first's (as MoveInProgress.move() would say once the run was made), and the
        # follower starts afresh after it, so the run's steps need not be walked.
        p = f.mv.paths()[0]
        self._commit(trail, p[0], p[1])

    def _commit(self, trail, move=None, trace=None):
        """The move is made: it is played, journalled, told to the link, and the next one
        expected over the next scans (_work_due)."""
        f = self.follower
        if move is None:
            move = f.mv.move()
            for p in f.mv.paths():
                if p[0] == move and len(p[1]) == f.index:
                    trace = p[1]
                    break
        self._made = (trail, move, trace)
        self._due = 1

    def _work_due(self):
        """One piece of the work a finished move leaves, one piece a scan so that no scan takes
        long (a step of the hands and the move's end in one would): 1. the move made in the
        rules core, journalled, told to the link; 2. the next move expected (or the game's
        end); 3. the lights for it.  Until then the lights stay as they were (some 60 ms)."""
        d = self._due
        trail = self._made[0]
        if d == 1:
            g = self.game
            move = self._made[1]
            player = g.to_move
            # The move's trace is known already: the fast path makes the same move
            # without tracing it again (MoveInProgress.finish would play it traced).
            name = g.move_name(move)
            g.push(move)
            self._played(player, move, name, self._made[2])
            self._due = 2
        elif d == 2:
            self.follower.start(self.game, self.gmap)
            self.selected = 0
            if trail is None:
                self._clear_trail()
            self._next_turn(trail)
            self._due = 3
        else:
            self._due = 0
            self._made = None
            self._refresh()
            self._dirty = True      # the board is looked at again: the next player may have begun

    def _finish_due(self):
        """The work a finished move leaves, all of it now (a button, a link request)."""
        while self._due:
            self._work_due()

    def _played(self, player, move, name, trace):
        """Journal a move played and tell the link (its trace: the Steps the hands made)."""
        rec = {"kind": "move", "player": player, "move": _jsonable(move), "name": name}
        self._record(rec)
        msg = {"type": "move", "game": self.game_no, "ply": self.ply, "player": player, "move": rec["move"],
               "name": name, "trace": None, "pos": self._pos(self.game)}
        # The trace is written out for the link in idle scans, a few steps a scan: a long
        # relay's would hold up the lights of the next turn.
        self._later.append(_MoveMessage(msg, trace if len(trace) <= _MAX_TRACE_STEPS else None))

    def _next_turn(self, trail=None):
        """After a move: the game's end, or the next player's turn."""
        g = self.game
        if g.is_over():
            o = g.outcome()
            self._record({"kind": "end", "winner": o.winner, "scores": list(o.scores), "reason": o.reason})
            self.state = OVER
            self._send(self.state_message())
        else:
            self.state = TURN_OVER if trail is not None else self._await_state()
            self._hint_due = self.hints      # searched while the board is idle, not in this step

    # ================================================================ internals: a free placing stage

    def _await_state(self):
        return PLACING if placing(self.game) else AWAIT

    def _placing_look(self, now):
        """The board changed while seeds are being placed: placements are taken once it is still."""
        f = self.follower
        obs = self.observer.stable
        p = self.placed
        if p >= 0 and obs[p] != f.counts[p]:
            self.placed = -1        # more seeds there: no longer the placement taken
        self._unmask(obs)
        if f.bad(obs, f.counts) == 0:
            self._settled()
            return
        if self.mismatch:
            self._flag_mismatch()   # the cells at fault may have changed
        self._pending = True
        self._check_quiet(now)

    def _take_placements(self):
        """The board is still: every pit holding more seeds than before is a placement (a
        handful), if the rules allow that many there; what cannot be is flashed."""
        f = self.follower
        g = self.game
        obs = self.observer.stable
        gmap = self.gmap
        for i in range(g.n_pits):
            c = gmap[i]
            if c < 0 or not f.care[c] or obs[c] < 0:
                continue
            d = obs[c] - f.counts[c]
            if d <= 0 or d > g.max_place(i):
                continue
            move = ("place", i, d)
            player = g.to_move
            name = g.move_name(move)
            trace = list(g.play(move))
            self._played(player, move, name, trace)
            f.start(g, gmap)
            self._next_turn()
            self.placed = c         # shown taken (READY) until that pit changes or the next is taken
            if self.state != PLACING:
                break          # every seed is out: the next stage is a move like any other
        self._flag_mismatch()

    def _placing_button(self, button):
        if button == "undo":
            try:
                self._undo_move()          # the last placement
            except CommandError as e:
                self._log("info", e.msg)
        elif button == "hint":
            self.hints = not self.hints
        elif self.mismatch:
            self._overrule(self.wrong)
            self.mismatch = False
            self.wrong = []

    def _abandon_move(self, why, hold=True):
        self.follower.start(self.game, self.gmap)
        self.state = self._await_state()
        self.selected = 0
        self._log("info", "move in progress abandoned: " + why)
        self._update_hint()
        if hold:
            self._recheck()

    def _recheck(self):
        """After undo: what the sensors see now is not a move again (it is what was taken
        back); it only shows what to put right, until the board changes."""
        self._hold = True
        self.mismatch = False
        self.wrong = []
        self._follow(self.now)

    def _undo_move(self):
        g = self.game
        if g is None:
            raise CommandError("no_game", "there is no game to take a move back in")
        if not g.moves_played():
            raise CommandError("cannot_undo", "there is no move to take back")
        g.undo()
        self._record({"kind": "undo"})
        self.follower.start(g, self.gmap)
        self._clear_trail()
        self.state = self._await_state()
        self.selected = 0
        self._log("info", "move taken back: put the seeds back where the lights show")
        self._update_hint()
        self._recheck()

    def _next_step(self):
        f = self.follower
        if f.mv is None:
            return None
        opts = f.first_steps() if f.index == 0 else f.mv.options()
        return opts[0] if opts else None

    def _choice_here(self):
        run, seen, ends = self.follower.forced_run(self.settings["lookahead"])
        return not seen and not ends and len(self._alternatives(len(run))) > 1

    def _alternatives(self, ahead):
        """The distinct steps that may come `ahead` steps from now (where the traces part)."""
        f = self.follower
        j = f.index + ahead
        out = []
        for p in f.mv.paths():
            st = p[1]
            if j < len(st) and st[j] not in out:
                out.append(st[j])
        return out

    def _stop_possible(self, ahead):
        f = self.follower
        j = f.index + ahead
        for p in f.mv.paths():
            if len(p[1]) == j:
                return True
        return False

    # ================================================================ internals: buttons

    def _toggle_menu(self):
        if self.state == MENU_STATE:
            if self._back is not None and self.game is not None:
                self.state = self._back
                self._back = None
        elif self.state not in (SELF_TEST, CALIBRATING):
            self._back = self.state
            self.state = MENU_STATE
            if self.variant in self.variants:
                self.menu_index = self.variants.index(self.variant)

    def _menu_button(self, button):
        n = len(self.menu_items)
        if button == "hint":
            self.menu_index = (self.menu_index + 1) % n
        elif button == "undo":
            self.menu_index = (self.menu_index - 1) % n
        elif button == "confirm":
            item = self.menu_items[self.menu_index]
            if item in SERVICE_ITEMS:
                self.service_request = item
                return
            self._back = None
            try:
                self.new_game(item, self._menu_options(item))
            except (CommandError, RulesError) as e:
                self._log("error", str(e))
        self._log("info", "menu: %s" % self.menu_items[self.menu_index])

    def _menu_options(self, variant):
        """The options a game chosen from the menu starts with: its defaults, unless these start
        with a placing stage this board cannot count (then options that do not, said in the log)."""
        if self.counting:
            return {}
        game = self.factory(variant)
        if not placing(game):
            return {}
        alt = self._countable_options(game)
        if alt is None:
            return {}           # new_game refuses it, saying why
        self._log("info", self._uncountable(game))
        return alt

    def _play_button(self, button, now):
        f = self.follower
        if button == "undo":
            if self.state == MOVE:
                self._abandon_move("undo pressed")
            else:
                try:
                    self._undo_move()
                except CommandError as e:
                    self._log("info", e.msg)
            return
        if button == "hint":
            if self.state != MOVE and len(self._unseen_lifts()) > 1:
                self.selected += 1
            elif self.state == MOVE and self._selecting():
                self.selected += 1
            else:
                self.hints = not self.hints
                self._update_hint()
            return
        # confirm
        if self.mismatch:
            self._overrule(self.wrong)
            self.mismatch = False
            self.wrong = []
            self._follow(now)
            return
        if f.mv is None:
            return
        if self.state != MOVE:
            unseen = self._unseen_lifts()
            if unseen:
                # A lift the sensors cannot see, confirmed by the player.
                self._advance([unseen[self.selected % len(unseen)]])
                self.selected = 0
                self._progress()
            elif not f.mv.building() and f.mv.can_stop():
                self._commit(None)     # the move without steps (Lane's chooser keeps the board)
            return
        # "I did what the lights show": the drops the sensors cannot see are taken as made.
        run, seen, ends = f.forced_run(self.settings["lookahead"])
        k = len(run) - 1 if seen else len(run)
        if k:
            self._advance(run[:k])
        if seen or ends:
            self._progress()
            return
        alts = self._alternatives(0)
        stop = self._stop_possible(0)
        if self._selecting():
            n = len(alts) + (1 if stop else 0)
            pick = self.selected % n
            self.selected = 0
            if pick < len(alts):
                self._advance([alts[pick]])
                self._progress()
                return
        if stop:
            self._commit(None)   # the move ends here (what could follow is left undone)
            return
        self._progress()

    def _unseen_lifts(self):
        """The first steps of the move the sensors cannot see (a lift of a pit whose sensor is ignored)."""
        return self.follower.unseen_lifts()

    def _selecting(self):
        """At a choice whose alternatives the sensors cannot tell apart: hint picks one, confirm takes it."""
        f = self.follower
        if f.mv is None or f.index == 0:
            return False
        run, seen, ends = f.forced_run(self.settings["lookahead"])
        if ends or seen:
            return False
        tmp = f.ahead           # the board after the run (no step of it is seen)
        # Any alternative the sensors cannot see makes it a pick: the hands cannot
        # show that one, so hint picks it and confirm takes it (a visible one may
        # still simply be done).
        for s in self._alternatives(len(run)):
            if not f.visible(tmp, s):
                return True
        return False

    # ================================================================ internals: set-up

    def _begin(self, game):
        """Make `game` the one being played (its board fits: checked here)."""
        gmap = self._gmap(game)
        self.game = game
        self.gmap = gmap
        mapped = self._mapped
        mapped[:] = self.blank
        for c in gmap:
            if c >= 0:
                mapped[c] = 1
        self.placed = -1
        self.follower.start(game, gmap)
        self._update_care()
        self._hint_key = None
        self.hint_move = None

    def _make(self, variant, options, pos):
        if pos is None:
            return self.factory(variant, **options)
        if not isinstance(pos, dict):
            raise CommandError("bad_position", "pos must be an object with pits, stores and to_move")
        pits = pos.get("pits")
        stores = pos.get("stores")
        if stores == []:
            stores = None
        return self.factory(variant, pits=pits, stores=stores, to_move=pos.get("to_move", 0), **options)

    def _gmap(self, game):
        b = self.board
        cm = _config.cell_map(b, game.rows, game.pits_per_row, game.stores_sown)
        if cm is None:
            raise CommandError("bad_variant", "%s needs a %dx%d board%s; this board is %dx%d" % (
                game.title, game.rows, game.pits_per_row, " with stores" if game.stores_sown else "",
                b.rows, b.pits_per_row))
        n = game.n_pits
        gmap = [-1] * (n + game.players)
        for i in range(n):
            gmap[i] = cm[i]
        for p in range(game.players):
            if game.stores_sown:
                gmap[n + p] = cm[n + p]
            elif b.stores == 2 and b.pits == n and p < 2:
                gmap[n + p] = b.pits + p      # captures go into the board's stores
        return tuple(gmap)

    def _game_cell(self, board_cell):
        gm = self.gmap
        for i in range(len(gm)):
            if gm[i] == board_cell:
                return i
        return -1

    def _setup_wrong(self):
        f = self.follower
        obs = self.observer.stable
        return [c for c in range(self.cells) if f.care[c] and (obs[c] < 0 or not f.agrees(c, f.counts[c], obs[c]))]

    def _setup_check(self):
        # Load cells see every seed: the game starts by itself once the board is right.
        if self.counting and not self._setup_wrong():
            self._start_play()
        elif self._resumed_setup:
            # Back from a reset before the first move was journalled: the first move
            # may be under way already (a full board that is being set up never is).
            depth, steps, _ = self.follower.lookahead(self.observer.stable, self.settings["lookahead"])
            if depth:
                self._start_play()

    def _start_play(self):
        self._resumed_setup = False
        self.state = self._await_state()
        self._log("info", "set-up complete: player %d to move" % self.game.to_move)
        self._send(self.state_message())
        self._update_hint()
        self._dirty = True          # the board is looked at in the next scan (a move may be under way)

    def _end_abandoned(self):
        g = self.game
        if g is not None and not g.is_over():
            self._record({"kind": "end", "winner": None, "scores": list(g.stores), "reason": "abandoned"})

    # ================================================================ internals: hints

    def _update_hint(self):
        self._hint_due = False
        g = self.game
        if not self.hints or g is None or g.is_over() or self.state not in (AWAIT, TURN_OVER):
            return
        key = (self.game_no, self.ply)
        if key == self._hint_key:
            return
        from mancala.search import best_move
        s = self.settings
        r = best_move(g, depth=s["hint_depth"], max_nodes=s["hint_nodes"], time_ms=s["hint_ms"])
        self._hint_key = key
        self.hint_move = r.best
        self.hint_result = r

    def _hint_cell(self):
        m = self.hint_move
        if m is None or self._hint_key != (self.game_no, self.ply):
            return -1
        pit = m if isinstance(m, int) else m[0]
        if isinstance(pit, int) and 0 <= pit < len(self.gmap):
            return self.gmap[pit]
        for p in self.follower.ready().paths():
            if p[0] == m:
                return self.gmap[p[1][0].pit] if p[1] else -1
        return -1

    # ================================================================ internals: showing it

    def _refresh(self):
        self._show_due = False
        self._show()
        said = self._said
        if said[0] != self.roles or said[1] != self.alt or said[2] != self.cnt:
            said[0][:] = self.roles
            said[1][:] = self.alt
            said[2][:] = self.cnt
            # Said in an idle scan (what is lit then: a later change in between is said once).
            later = self._later
            if not later or not isinstance(later[-1], _LedsMessage):
                later.append(_LedsMessage())

    def _show(self):
        display.show(self)

    # ================================================================ small helpers

    def _clear_trail(self):
        if self.trail_lit:
            self.trail[:] = self.blank
            self.trail_lit = False

    def _clear_marks(self):
        self.mismatch = False
        self.wrong = []
        self._pending = False
        self.selected = 0
        self._clear_trail()
        for c in range(self.cells):
            self.masked[c] = 0
        self._update_care()

    def _record(self, rec):
        self.ply += 1
        rec["game"] = self.game_no
        rec["ply"] = self.ply
        if self.clock is not None:
            t = self.clock()
            if t is not None:
                rec["t"] = t
        self.records.append(rec)

    def _pos(self, g):
        return {"pits": g.pits, "stores": g.stores, "to_move": g.to_move}

    def _send(self, msg):
        """Queue a message for the link, after any still being finished (they keep their order)."""
        if self._later:
            self._flush_later()
        self.outbox.append(msg)

    def _flush_later(self):
        later = self._later
        while later:
            later.pop(0).work(self, 1 << 30)

    def _log(self, level, text):
        self._send({"type": "log", "level": level, "msg": text})

    def _error(self, code, text):
        if len(text) > _MAX_MSG:
            text = text[:_MAX_MSG - 3] + "..."
        return {"type": "error", "code": code, "msg": text}
