"""A game on the board: started (new, from a position, resumed from the journal), a move
abandoned or taken back, the game fitted onto the board's cells.
"""
from mancala.errors import RulesError, IllegalMoveError

from ..cellmap import game_cells
from ..follow import placing
from ..journal import move_tuple
from .states import SETUP, OVER, UNDO_MOVES
from .jobs import STILL


class CommandError(ValueError):
    """A command (a link request, a button) that cannot be carried out; `code` is the protocol's
    error code."""

    def __init__(self, code, msg):
        super().__init__(msg)
        self.code = code
        self.msg = msg
from . import mismatch


def new_game(ctl, variant, options=None, pos=None):
    """Start a game (ends the one in progress in the journal); the board then shows the set-up."""
    ctl._finish_due()
    options = dict(options or {})
    game = make(ctl, variant, options, pos)
    ident = getattr(game, "id", variant)
    gmap = game_map(ctl, game)  # refuses a game whose board does not fit, saying which board it needs
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
    begin(ctl, game, gmap)
    ctl.state = SETUP
    clear_marks(ctl)
    ctl.log("info", "new game %d: %s" % (ctl.game_no, ident))
    if ctl.counting:
        # The board may hold the set-up already (an empty one, for a game whose seeds are
        # placed by the handful): load cells see that, and the game starts at once.
        mismatch.setup_check(ctl)


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
                game.play(move_tuple(r["move"]))
                moves += 1
            elif k == "undo":
                game.undo()
                moves += 1
            elif k == "setpos":
                game = make(ctl, variant, options, r["pos"])
                moves += 1
    except (RulesError, KeyError, TypeError, AttributeError) as e:
        ctl.log("error", "game %d cannot be resumed (%s): choose a game" % (game_no, e))
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
    ctl.log("info", "resumed game %d at ply %d" % (game_no, last))
    ctl._refresh()
    ctl.render(ctl.now if now_ms is None else now_ms)
    return True


def abandon_move(ctl, why, hold=True):
    ctl.follower.start(ctl.game, ctl.gmap)
    ctl.state = ctl._await_state()
    ctl.selected = 0
    ctl.log("info", "move in progress abandoned: " + why)
    ctl._update_hint()
    if hold:
        recheck(ctl)


def recheck(ctl):
    """After undo: what the sensors see now is not a move again (it is what was taken
    back); it only shows what to put right, until the board changes."""
    ctl.mismatch = False
    ctl.wrong = []
    ctl._follow(ctl.now, hold=True)


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
    ctl.log("info", "move taken back: put the seeds back where the lights show")
    ctl._update_hint()
    recheck(ctl)


def begin(ctl, game, gmap=None):
    """Make `game` the one being played (its board fits: checked here, unless its `gmap`, the
    map game_map() made, is given)."""
    ctl.follower.only = None
    if gmap is None:
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
    mismatch.update_care(ctl)
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
    """The board cell of each of `game`'s cells (cellmap.game_cells); CommandError when the game
    does not fit this board, saying which board it needs."""
    gmap = game_cells(ctl.board, game)
    if gmap is None:
        b = ctl.board
        raise CommandError("bad_variant", "%s needs a %dx%d board%s; this board is %dx%d" % (
            game.title, game.rows, game.pits_per_row, " with stores" if game.stores_sown else "",
            b.rows, b.pits_per_row))
    return gmap


def end_abandoned(ctl):
    g = ctl.game
    if g is not None and not g.is_over():
        ctl._record({"kind": "end", "winner": None, "scores": list(g.stores), "reason": "abandoned",
                     "pd": ctl._digest()})


def clear_marks(ctl):
    ctl.mismatch = False
    ctl.wrong = []
    ctl.jobs.drop(STILL)
    ctl.selected = 0
    ctl._clear_trail()
    for c in range(ctl.cells):
        ctl.masked[c] = 0
    mismatch.update_care(ctl)
