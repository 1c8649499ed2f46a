"""Why the board disagrees with the game, in words for the log: ctlmismatch.flag() loads
this for the first flag of a mismatch and drops it again (unload.py): neither the set-up
nor a game in progress keeps it.
"""
from mancala.errors import IllegalMoveError

from .controller import AWAIT, TURN_OVER, PLACING
from .ctlmismatch import game_cell


def explain(ctl, wrong, obs):
    """Why the board disagrees, in words, for the log."""
    f = ctl.follower
    g = ctl.game
    parts = []
    for c in wrong:
        k = f.counts[c]
        o = obs[c]
        gc = game_cell(ctl, c)
        name = g.move_name(gc) if 0 <= gc < g.n_pits else ("store %d" % (gc - g.n_pits) if gc >= 0 else "cell %d" % c)
        if ctl.counting:
            parts.append("%s holds %d, should hold %d" % (name, o, k))
        else:
            parts.append("%s looks %s, should be %s" % (name, "empty" if o == 0 else "full", "empty" if k == 0 else "full"))
    text = "; ".join(parts)
    nxt = ctl._next_step()
    if ctl.state in (AWAIT, TURN_OVER):
        for c in wrong:
            gc = game_cell(ctl, c)
            if 0 <= gc < g.n_pits and obs[c] == 0 and f.counts[c] > 0:
                why = why_not(ctl, gc)
                if why:
                    text += " (%s)" % why
                    break
    elif nxt is not None and nxt.kind == "take":
        text += " (take the captured seeds first: %s)" % g.move_name(nxt.pit)
    elif ctl.state == PLACING:
        for c in wrong:
            gc = game_cell(ctl, c)
            if 0 <= gc < g.n_pits and obs[c] > f.counts[c]:
                most = g.max_place(gc)
                text += " (%s)" % ("%s may take %d more seeds now" % (g.move_name(gc), most) if most
                                   else "%s cannot take seeds now" % g.move_name(gc))
                break
    return text


def why_not(ctl, pit):
    g = ctl.game
    for m in (pit, (pit, 1)):
        try:
            g.copy().play(m)
        except IllegalMoveError as e:
            if m == pit or "direction" not in str(e):
                return str(e)
        except Exception:
            return None
    return None
