"""The link's requests the controller carries out (docs/protocol.md): a new game, a position,
undo, hints, brightness, a press, a guided move.
"""
import mancala
from mancala.errors import RulesError

from ..journal import move_tuple
from .states import MOVE, PLAY_STATES, BUTTONS

_MAX_MSG = 160               # error texts on the link are at most this long
from .games import abandon_move, new_game, set_position, undo_move
from .presses import press
from .games import CommandError


def _now_ms():
    try:
        from time import ticks_ms
        return ticks_ms()
    except ImportError:  # CPython
        import time
        return int(time.monotonic() * 1000)


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


def guide(ctl, msg):
    """`guide`: only `move` may be made as journal ply `ply` (a move made on another board, in
    remote play): the lights lead the hands through its steps, and anything else the sensors
    see is a mismatch, shown until it is put right.  `wait`: no move may be made yet (the
    other board's is awaited); neither: any move may be made again.
    A move under way is abandoned (its seeds are flagged until they are put back)."""
    g = ctl.game
    if g is None or ctl.state not in PLAY_STATES:
        raise CommandError("no_game", "the board is not waiting for a move (%s): start or resume a game" % ctl.state)
    ply = msg.get("ply")
    if ply != ctl.ply + 1:
        raise CommandError("out_of_range", "the board's next move is ply %d, not %r" % (ctl.ply + 1, ply))
    move = () if msg.get("wait") else msg.get("move")
    if move is not None and move != ():
        move = move_tuple(move)
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


def error(ctl, code, text):
    if len(text) > _MAX_MSG:
        text = text[:_MAX_MSG - 3] + "..."
    return {"type": "error", "code": code, "msg": text}
