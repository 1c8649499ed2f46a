"""What the controller runs rarely in a game: the menu and its choice, the start of a game
(new, resumed, a position set), the buttons, the link's requests, undo, a failure, service.

A stock Pico keeps the code of every module it imports in its heap, so the
controller (controller.py) keeps only what a game in progress runs scan after
scan; this module is imported when one of these is needed and dropped again
(unload.py) by the next scan (Controller.drop_parts; the app calls it after
boot).  Its functions take the controller first and are called through its
methods (Controller.press, .command, .new_game ...); state lives on the
controller only, never here.
"""
import mancala
from mancala.errors import RulesError, IllegalMoveError

from . import config as _config
from .controller import (MENU_STATE, SETUP, MOVE, PLACING, OVER, ERROR_STATE, SELF_TEST,
                         CALIBRATING, _PLAY, BUTTONS, SERVICE_ITEMS, UNDO_MOVES)
from .follow import Follower, placing
from .observe import Observer

# (Here, not in controller.py: only the calls of this module raise them, and catch them or
# let the caller see them; a class kept loaded would take its share of a board's heap.)
class SettingsError(ValueError):
    """An unknown controller setting, or a value of the wrong kind."""


class CommandError(ValueError):
    """A link command that cannot be carried out; `code` is the protocol's error code."""

    def __init__(self, code, msg):
        super().__init__(msg)
        self.code = code
        self.msg = msg


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

_MAX_MSG = 160               # error texts on the link are at most this long


def fitting_variants(board, names=None):
    """The playable variants (or those of `names`) whose board fits this one (docs/config.md,
    cell_map).  The rules' catalog is read once for all of them (variant_infos)."""
    out = []
    for info in mancala.variant_infos(names):
        if _config.cell_map(board, info["rows"], info["pits_per_row"], info["stores_sown"]) is not None:
            out.append(info["id"])
    return out


def _tuplify(move):
    if isinstance(move, list):
        return tuple(_tuplify(x) for x in move)
    return move


def _now_ms():
    try:
        from time import ticks_ms
        return ticks_ms()
    except ImportError:  # CPython
        import time
        return int(time.monotonic() * 1000)


def init(ctl, board, game_factory=None, clock=None, settings=None, variants=None, next_game=1, now_ms=0):
    s = dict(DEFAULTS)
    for k in (settings or {}):
        if k not in DEFAULTS:
            raise SettingsError("unknown controller setting %r; the settings are %s" % (k, ", ".join(sorted(DEFAULTS))))
        if type(settings[k]) is not type(DEFAULTS[k]):
            raise SettingsError("setting %s must be like %r, not %r" % (k, DEFAULTS[k], settings[k]))
        s[k] = settings[k]
    ctl.settings = s
    ctl.board = board
    ctl.cells = n = board.cells
    ctl.factory = game_factory or mancala.Game
    ctl.clock = clock
    ctl.counting = board.sensor_kind == "hx711"
    ctl.sensed = bytearray(n)
    for c in range(n):
        if board.cell_sensors[c] is not None:
            ctl.sensed[c] = 1
    ctl.masked = bytearray(n)          # sensors overruled by a confirm
    ctl.observer = Observer(n, s["debounce_ms"], s["settle_ms"], s["noisy_changes"], now_ms, s["noisy_ms"])
    ctl.follower = Follower(n, ctl.counting)
    ctl.variants = list(variants) if variants is not None else fitting_variants(board)
    ctl.menu_items = ctl.variants + list(SERVICE_ITEMS)
    # Outputs.
    ctl.frame = bytearray(n)
    ctl.roles = bytearray(n)
    ctl.alt = bytearray(b"\xff" * n)
    ctl.cnt = bytearray(n)
    ctl.blank = bytes(n)               # what display.show() starts from
    ctl.steady = bytes(ctl.alt)
    ctl.rendered_beat = None           # the blink beat ctl.frame was drawn for (None: draw it again)
    ctl.faulty = False                 # some sensor is noisy or overruled (its cell shows FAULT)
    ctl._said = (bytearray(n), bytearray(n), bytearray(n))   # roles, alternates, counts the last `leds` said
    ctl.records = []
    ctl.outbox = []
    ctl._later = []                    # work of idle scans: messages (`move` dicts, _StepMessages, "leds", "state"), "trim"
    ctl._due = 0                       # the pieces of work a finished move still leaves (_work_due)
    ctl._made = None                   # that move: (trail, move, trace)
    ctl._lm = None                     # the last move journalled (its JSON form), for the end record
    ctl._dirty = False                 # an observation waits to be looked at (_work_due came first)
    ctl._show_due = False              # the lights are to be made again (in the next scan)
    ctl._progress_for = None           # the move whose lift was seen: what follows is found next scan
    ctl._cares = 0                     # how many times the sensors trusted changed
    ctl._mapped = bytearray(n)         # 1: a cell the game plays (gmap's board cells)
    ctl.service_request = None         # "self_test" or "calibrate" when the menu asks the app for it
    # The game.
    ctl.state = MENU_STATE
    ctl._back = None                   # the state the menu returns to
    ctl.game = None
    ctl.game_no = None
    ctl.variant = None
    ctl.options = {}
    ctl.ply = -1                       # journal ply of the game's last record
    ctl.next_game = next_game
    ctl.gmap = ()
    ctl.hints = s["hints"]
    ctl.brightness = s["brightness"]
    ctl.menu_index = ctl.variants.index(s["variant"]) if s["variant"] in ctl.variants else 0
    ctl.mismatch = False
    ctl.wrong = []                     # cells flashing during a mismatch
    ctl._pending = False               # the board disagrees; flash once it is still
    ctl.trail = bytearray(n)           # turn over: seeds still to drop where sensors cannot see
    ctl.trail_lit = False
    ctl.placed = -1                    # placing: the cell of the placement just taken (lit READY)
    ctl.selected = 0                   # the alternative picked with hint at an unseen choice
    ctl.error_text = None
    ctl._resumed_setup = False
    ctl._hold = False
    ctl._back_from_error = MENU_STATE
    ctl._service_back = MENU_STATE
    ctl._hint_key = None
    ctl._hint_due = False
    ctl.hint_move = None
    ctl.hint_result = None
    ctl._tmp = [0] * n
    ctl.now = now_ms
    ctl._show()
    ctl.render(now_ms)


def press(ctl, button, now_ms):
    """A button press: confirm, undo, hint, or menu (a long press on confirm)."""
    if button not in BUTTONS:
        raise ValueError("unknown button %r: buttons are %s" % (button, ", ".join(BUTTONS)))
    ctl.now = now_ms
    ctl._finish_due()
    st = ctl.state
    before = summary(ctl)
    said = len(ctl.outbox)
    if button == "menu":
        toggle_menu(ctl)
    elif st == MENU_STATE:
        menu_button(ctl, button)
    elif st == SETUP:
        if button == "confirm":
            ctl._mismatch().overrule(ctl, ctl._mismatch().setup_wrong(ctl))
            ctl._mismatch().start_play(ctl)
        elif button == "hint":
            ctl.hints = not ctl.hints
    elif st in _PLAY:
        play_button(ctl, button, now_ms)
    elif st == PLACING:
        ctl._placing().button(ctl, button)
    elif st == OVER:
        try:
            if button == "confirm":
                new_game(ctl, ctl.variant, ctl.options)
            elif button == "undo":
                undo_move(ctl)
        except (CommandError, RulesError) as e:
            ctl._log("info", str(e))
    elif st == ERROR_STATE:
        if button == "confirm":
            recover(ctl)
    ctl._finish_due()         # a move ended by confirm is played at once
    if summary(ctl) != before:
        # A button changed the game (a new game, a move taken back, a move ended by confirm
        # ...) or what the board is doing: the host hears it as from a link request.
        for m in ctl.outbox[said:]:
            if m["type"] == "state":
                break
        else:
            if "state" not in ctl._later:   # (one queued is made when its turn comes, from the state then)
                ctl._send(ctl.state_message())
    ctl._refresh()
    ctl.render(now_ms)


def summary(ctl):
    return (ctl.state, ctl.game_no, ctl.ply, ctl.hints, ctl.mismatch, ctl.follower.index)


def command(ctl, msg, now_ms=None):
    """A link request (a dict with "type"); returns the reply: {"type": "ok", ...} or {"type": "error", ...}."""
    if now_ms is None:
        now_ms = _now_ms()
    ctl.now = now_ms
    ctl._finish_due()
    t = msg.get("type")
    try:
        if t == "get_state":
            return ctl.state_message()
        if t == "new_game":
            variant = msg.get("variant")
            options = msg.get("options") or {}
            if not isinstance(variant, str) or not isinstance(options, dict):
                raise CommandError("bad_payload", "new_game needs a variant name and an options object")
            new_game(ctl, variant, options)
            reply = {"type": "ok", "game": ctl.game_no}
        elif t == "set_pos":
            set_position(ctl, msg.get("pos"))
            reply = {"type": "ok"}
        elif t == "undo":
            if ctl.game is None:
                raise CommandError("no_game", "there is no game to take a move back in: start one first")
            if ctl.state == MOVE:
                abandon_move(ctl, "taken back from the link")
            else:
                undo_move(ctl)
            reply = {"type": "ok", "ply": ctl.ply}
        elif t == "hint":
            on = msg.get("on")
            if not isinstance(on, bool):
                raise CommandError("bad_payload", "hint needs on: true or false")
            ctl.hints = on
            ctl._update_hint()
            reply = {"type": "ok"}
        elif t == "brightness":
            level = msg.get("level")
            if not isinstance(level, int) or isinstance(level, bool) or not 0 <= level <= 255:
                raise CommandError("out_of_range", "brightness level must be 0 to 255, not %r" % (level,))
            ctl.brightness = level
            reply = {"type": "ok"}
        elif t == "press":
            button = msg.get("button")
            if button not in BUTTONS:
                raise CommandError("bad_payload", "press needs a button: one of %s" % ", ".join(BUTTONS))
            press(ctl, button, now_ms)
            reply = {"type": "ok"}
        elif t == "guide":
            guide(ctl, msg)
            reply = {"type": "ok", "ply": ctl.ply + 1}
        elif t in ("self_test", "calibrate"):
            raise CommandError("unsupported", "%s is run by the board's app, not the controller" % t)
        else:
            raise CommandError("unknown_type", "the board does not carry out %r" % (t,))
    except CommandError as e:
        return error(ctl, e.code, e.msg)
    except RulesError as e:
        code = "bad_variant" if t == "new_game" and isinstance(e, (mancala.UnknownVariantError, mancala.NoRulesError)) \
            else "bad_option" if t == "new_game" else "bad_position"
        return error(ctl, code, str(e))
    ctl._refresh()
    ctl.render(now_ms)
    if t in ("new_game", "set_pos", "undo"):
        ctl._send(ctl.state_message())
    return reply


def new_game(ctl, variant, options=None, pos=None):
    """Start a game (ends the one in progress in the journal); the board then shows the set-up."""
    ctl._finish_due()
    options = dict(options or {})
    game = make(ctl, variant, options, pos)
    ident = getattr(game, "id", variant)
    game_map(ctl, game)  # refuses a game whose board does not fit, saying which board it needs
    if ident not in ctl.variants:
        raise CommandError("bad_variant", "this board has no %s: it plays %s" % (ident, ", ".join(ctl.variants)))
    if placing(game) and not ctl.counting:
        raise CommandError("bad_option", uncountable(ctl, game))
    end_abandoned(ctl)
    ctl._resumed_setup = False
    ctl.game_no = ctl.next_game
    ctl.next_game += 1
    ctl.ply = -1
    ctl.variant = ident
    ctl.options = options
    rec = {"kind": "start", "variant": ident, "options": options}
    if pos is not None:
        rec["pos"] = ctl._pos(game)
    ctl._record(rec)
    begin(ctl, game)
    ctl.state = SETUP
    clear_marks(ctl)
    ctl._log("info", "new game %d: %s" % (ctl.game_no, ident))
    if ctl.counting:
        # The board may hold the set-up already (an empty one, for a game whose seeds are
        # placed by the handful): load cells see that, and the game starts at once.
        ctl._mismatch().setup_check(ctl)


def uncountable(ctl, game):
    """Why a free placing stage cannot be played on this board, and what can."""
    text = "%s begins with seeds placed in uncounted handfuls; occupancy sensors cannot count them" % game.title
    alt = countable_options(ctl, game)
    if alt:
        text += ": play it with %s or on load cells" % ", ".join("%s=%s" % (k, alt[k]) for k in sorted(alt))
    else:
        text += ": play it on load cells"
    return text


def countable_options(ctl, game):
    """Options of `game`'s variant under which it starts without a free placing stage (None if none)."""
    for name, default, choices in getattr(game, "options", ()):
        if not isinstance(choices, tuple):
            continue
        for v in choices:
            if v == default:
                continue
            try:
                g = ctl.factory(variant_id(ctl, game), **{name: v})
            except RulesError:
                continue
            if not placing(g):
                return {name: v}
    return None


def variant_id(ctl, game):
    return getattr(game, "id", None) or ctl.variant


def set_position(ctl, pos):
    ctl._finish_due()
    if ctl.game is None:
        raise CommandError("no_game", "there is no game to set a position in: start one first")
    if not isinstance(pos, dict) or not isinstance(pos.get("pits"), list):
        raise CommandError("bad_position", "pos must be an object with pits, stores and to_move")
    game = make(ctl, ctl.variant, ctl.options, pos)
    ctl._record({"kind": "setpos", "pos": ctl._pos(game)})
    begin(ctl, game)
    ctl.state = OVER if game.is_over() else ctl._await_state()
    clear_marks(ctl)
    ctl._update_hint()


def resume(ctl, game_no, records, now_ms=None):
    """Rebuild a game from its journal records (after a reset); True when it could."""
    ctl._finish_due()
    if game_no >= ctl.next_game:
        ctl.next_game = game_no + 1
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
                game = make(ctl, variant, options, r.get("pos"))
            elif k == "move":
                game.play(_tuplify(r["move"]))
                moves += 1
            elif k == "undo":
                game.undo()
                moves += 1
            elif k == "setpos":
                game = make(ctl, variant, options, r["pos"])
                moves += 1
    except (RulesError, KeyError, TypeError, AttributeError) as e:
        ctl._log("error", "game %d cannot be resumed (%s): choose a game" % (game_no, e))
        return False
    if game is None:
        return False
    ctl.game_no = game_no
    ctl.variant = getattr(game, "id", variant)
    ctl.options = options
    ctl.ply = last
    begin(ctl, game)
    clear_marks(ctl)
    if game.is_over():
        ctl.state = OVER
    elif moves == 0:
        ctl.state = SETUP
        ctl._resumed_setup = True
    else:
        ctl.state = ctl._await_state()
        ctl._update_hint()
    ctl._log("info", "resumed game %d at ply %d" % (game_no, last))
    ctl._refresh()
    ctl.render(ctl.now if now_ms is None else now_ms)
    return True


def fail(ctl, text):
    """Something outside the controller failed (storage, a sensor bus): show the error pattern."""
    ctl._finish_due()
    if ctl.state != ERROR_STATE:
        ctl._back_from_error = ctl.state
    ctl.state = ERROR_STATE
    ctl.error_text = text
    ctl._log("error", text)
    ctl._refresh()


def recover(ctl):
    if ctl.state == ERROR_STATE:
        ctl.state = getattr(ctl, "_back_from_error", MENU_STATE) or MENU_STATE
        ctl.error_text = None
        ctl._refresh()


def enter_service(ctl, which):
    """The app runs self-test or calibration: the controller stands aside."""
    ctl._finish_due()
    ctl._service_back = ctl.state
    ctl.state = SELF_TEST if which == "self_test" else CALIBRATING
    ctl._refresh()


def leave_service(ctl):
    ctl.state = getattr(ctl, "_service_back", MENU_STATE)
    if ctl.state in (SELF_TEST, CALIBRATING):
        ctl.state = MENU_STATE
    ctl._refresh()


def guide(ctl, msg):
    """`guide`: only `move` may be made as journal ply `ply` (a move made on another board, in
    remote play): the lights lead the hands through its steps, and anything else the sensors
    see is a mismatch, shown until it is put right.  `wait`: no move may be made yet (the
    other board's is awaited); neither: any move may be made again.
    A move under way is abandoned (its seeds are flagged until they are put back)."""
    g = ctl.game
    if g is None or ctl.state not in _PLAY:
        raise CommandError("no_game", "the board is not waiting for a move (%s): start or resume a game" % ctl.state)
    ply = msg.get("ply")
    if ply != ctl.ply + 1:
        raise CommandError("out_of_range", "the board's next move is ply %d, not %r" % (ctl.ply + 1, ply))
    move = () if msg.get("wait") else msg.get("move")
    if move is not None and move != ():
        move = _tuplify(move)
        legal = list(g.legal_moves())
        if move not in legal:
            raise CommandError("bad_payload", ("%r is not a legal move here; legal: %s" % (
                msg.get("move"), " ".join(g.move_name(m) for m in legal)))[:_MAX_MSG])
    if move == ctl.follower.only:
        return                          # (a repeat: the move in progress is kept)
    ctl.follower.only = move
    if ctl.state == MOVE:
        abandon_move(ctl, "the board now guides another move")
    else:
        ctl.follower.start(g, ctl.gmap)     # (a trail still lit stays: the seeds go in first)
    ctl.selected = 0


def abandon_move(ctl, why, hold=True):
    ctl.follower.start(ctl.game, ctl.gmap)
    ctl.state = ctl._await_state()
    ctl.selected = 0
    ctl._log("info", "move in progress abandoned: " + why)
    ctl._update_hint()
    if hold:
        recheck(ctl)


def recheck(ctl):
    """After undo: what the sensors see now is not a move again (it is what was taken
    back); it only shows what to put right, until the board changes."""
    ctl._hold = True
    ctl.mismatch = False
    ctl.wrong = []
    ctl._follow(ctl.now)


def undo_move(ctl):
    g = ctl.game
    if g is None:
        raise CommandError("no_game", "there is no game to take a move back in")
    try:
        g.undo()
    except IllegalMoveError as e:     # no move played, or one older than the game keeps (UNDO_MOVES)
        raise CommandError("cannot_undo", str(e))
    ctl._record({"kind": "undo"})
    ctl.follower.only = None
    ctl.follower.start(g, ctl.gmap)
    ctl._clear_trail()
    ctl.state = ctl._await_state()
    ctl.selected = 0
    ctl._log("info", "move taken back: put the seeds back where the lights show")
    ctl._update_hint()
    recheck(ctl)


def toggle_menu(ctl):
    if ctl.state == MENU_STATE:
        if ctl._back is not None and ctl.game is not None:
            ctl.state = ctl._back
            ctl._back = None
    elif ctl.state not in (SELF_TEST, CALIBRATING):
        ctl._back = ctl.state
        ctl.state = MENU_STATE
        if ctl.variant in ctl.variants:
            ctl.menu_index = ctl.variants.index(ctl.variant)


def menu_button(ctl, button):
    n = len(ctl.menu_items)
    if button == "hint":
        ctl.menu_index = (ctl.menu_index + 1) % n
    elif button == "undo":
        ctl.menu_index = (ctl.menu_index - 1) % n
    elif button == "confirm":
        item = ctl.menu_items[ctl.menu_index]
        if item in SERVICE_ITEMS:
            ctl.service_request = item
            return
        ctl._back = None
        try:
            new_game(ctl, item, menu_options(ctl, item))
        except (CommandError, RulesError) as e:
            ctl._log("error", str(e))
    ctl._log("info", "menu: %s" % ctl.menu_items[ctl.menu_index])


def menu_options(ctl, variant):
    """The options a game chosen from the menu starts with: its defaults, unless these start
    with a placing stage this board cannot count (then options that do not, said in the log)."""
    if ctl.counting:
        return {}
    game = ctl.factory(variant)
    if not placing(game):
        return {}
    alt = countable_options(ctl, game)
    if alt is None:
        return {}           # new_game refuses it, saying why
    ctl._log("info", uncountable(ctl, game))
    return alt


def play_button(ctl, button, now):
    f = ctl.follower
    if button == "undo":
        if ctl.state == MOVE:
            abandon_move(ctl, "undo pressed")
        else:
            try:
                undo_move(ctl)
            except CommandError as e:
                ctl._log("info", e.msg)
        return
    if button == "hint":
        if ctl.state != MOVE and len(ctl.follower.unseen_lifts()) > 1:
            ctl.selected += 1
        elif ctl.state == MOVE and ctl._selecting():
            ctl.selected += 1
        else:
            ctl.hints = not ctl.hints
            ctl._update_hint()
        return
    # confirm
    if ctl.mismatch:
        ctl._mismatch().overrule(ctl, ctl.wrong)
        ctl.mismatch = False
        ctl.wrong = []
        ctl._follow(now)
        return
    if f.mv is None:
        return
    if ctl.state != MOVE:
        unseen = ctl.follower.unseen_lifts()
        if unseen:
            # A lift the sensors cannot see, confirmed by the player.
            ctl._advance([unseen[ctl.selected % len(unseen)]])
            ctl.selected = 0
            ctl._progress()
        elif not f.mv.building() and f.mv.can_stop():
            ctl._commit(None)     # the move without steps (Lane's chooser keeps the board)
        else:
            _confirm_still(ctl)
        return
    ctl._confirm()     # "I did what the lights show" (Controller._confirm)


def _confirm_still(ctl):
    """Confirm before any act: a move the hands do nothing for (Kiothi's pass of its
    redeployment) is the move made."""
    from .follow import is_marker
    mv = ctl.follower.ready()
    for p in mv.paths():
        st = p[1]
        if st and all(is_marker(s) for s in st):
            ctl._advance(list(st))
            ctl._progress()
            return


def begin(ctl, game):
    """Make `game` the one being played (its board fits: checked here)."""
    ctl.follower.only = None
    gmap = game_map(ctl, game)
    ctl.game = game
    ctl.gmap = gmap
    mapped = ctl._mapped
    mapped[:] = ctl.blank
    for c in gmap:
        if c >= 0:
            mapped[c] = 1
    ctl.placed = -1
    ctl.follower.start(game, gmap)
    ctl._mismatch().update_care(ctl)
    ctl._hint_key = None
    ctl.hint_move = None


def make(ctl, variant, options, pos):
    if pos is None:
        g = ctl.factory(variant, **options)
    else:
        if not isinstance(pos, dict):
            raise CommandError("bad_position", "pos must be an object with pits, stores and to_move")
        pits = pos.get("pits")
        stores = pos.get("stores")
        if stores == []:
            stores = None
        g = ctl.factory(variant, pits=pits, stores=stores, to_move=pos.get("to_move", 0), **options)
    limit = getattr(g, "limit_undo", None)
    if limit is not None:
        limit(UNDO_MOVES)
    return g


def game_map(ctl, game):
    b = ctl.board
    cm = _config.cell_map(b, game.rows, game.pits_per_row, game.stores_sown, game.stores_at_left)
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
            gmap[n + p] = b.pits + (1 - p if game.stores_at_left else p)   # captures go into the board's stores
    return tuple(gmap)


def end_abandoned(ctl):
    g = ctl.game
    if g is not None and not g.is_over():
        ctl._record({"kind": "end", "winner": None, "scores": list(g.stores), "reason": "abandoned",
                     "pd": ctl._digest()})


def clear_marks(ctl):
    ctl.mismatch = False
    ctl.wrong = []
    ctl._pending = False
    ctl.selected = 0
    ctl._clear_trail()
    for c in range(ctl.cells):
        ctl.masked[c] = 0
    ctl._mismatch().update_care(ctl)


def error(ctl, code, text):
    if len(text) > _MAX_MSG:
        text = text[:_MAX_MSG - 3] + "..."
    return {"type": "error", "code": code, "msg": text}
