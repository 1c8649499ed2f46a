"""What the controller does at a game's start and end, and when it is asked what it is doing:
play begins after the set-up, the `state` message, the hint search.

Kept apart from ctlrare.py because a game's start and end are scans like any other: loading
ctlrare's code for them took a board some 25 ms (RP2040 estimate, from .mpy), this small
module a few.  Imported when needed through Controller._state() and dropped again by the
next scan (Controller.drop_parts); its functions take the controller first and keep no state.
"""
from .controller import MENU_STATE, AWAIT, MOVE, TURN_OVER


def state_message(ctl):
    """Controller.state_message."""
    g = ctl.game
    f = ctl.follower
    expect = None
    if g is not None and ctl.state in (MOVE, TURN_OVER) or ctl.mismatch:
        nxt = ctl._next_step()
        if nxt is not None:
            expect = [nxt.kind, nxt.pit, nxt.count, nxt.to]
    phase = "mismatch" if ctl.mismatch else ctl.state
    if phase == MENU_STATE and g is None:
        phase = "idle"
    if phase == MOVE and f.mv is not None and ctl._choice_here():
        phase = "choice"
    msg = {"type": "state", "game": ctl.game_no if g is not None else None,
           "variant": ctl.variant if g is not None else None,
           "pos": ctl._pos(g) if g is not None else None, "ply": ctl.ply if ctl.ply >= 0 else 0,
           "phase": phase, "expect": expect, "hint": ctl.hints, "brightness": ctl.brightness}
    if g is not None:
        msg["options"] = ctl.options
    return msg


def update_hint(ctl):
    """The hint search (Controller._update_hint, when hints are shown)."""
    g = ctl.game
    if not ctl.hints or g is None or g.is_over() or ctl.state not in (AWAIT, TURN_OVER):
        return
    key = (ctl.game_no, ctl.ply)
    if key == ctl._hint_key:
        return
    from mancala.search import best_move
    s = ctl.settings
    r = best_move(g, depth=s["hint_depth"], max_nodes=s["hint_nodes"], time_ms=s["hint_ms"])
    ctl._hint_key = key
    ctl.hint_move = r.best
    ctl.hint_result = r
