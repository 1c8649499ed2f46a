"""The hint search on the board (Controller._update_hint, when hints are shown, in an idle scan).

The search module is imported with the first hint: a board on which nobody asks for hints
keeps its heap (about 1 KB) for the game.
"""
from .states import AWAIT, TURN_OVER



def update_hint(ctl):
    """A new search for the position on the board, unless this one was searched already."""
    g = ctl.game
    if not ctl.hints or g is None or g.is_over() or ctl.state not in (AWAIT, TURN_OVER):
        return
    key = (ctl.game_no, ctl.ply)
    if key == ctl._hint_key:
        return
    s = ctl.settings
    from mancala.search import best_move
    r = best_move(g, depth=s["hint_depth"], max_nodes=s["hint_nodes"], time_ms=s["hint_ms"])
    ctl._hint_key = key
    ctl.hint_move = r.best
    ctl.hint_result = r
