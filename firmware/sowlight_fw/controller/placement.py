"""The controller in a free placing stage (Lane, the Egyptian games): handfuls of seeds put
into pits, counted by load cells, each a placement once the board is still.
"""
from ..colours import NEED, READY
from .states import PLACING
from .games import CommandError, undo_move
from . import mismatch
from .jobs import STILL



def look(ctl, now, hold=False):
    """The board changed while seeds are being placed: placements are taken once it is still
    (with `hold`, after an undo, only what to put right is shown)."""
    f = ctl.follower
    obs = ctl.observer.stable
    p = ctl.placed
    if p >= 0 and obs[p] != f.counts[p]:
        ctl.placed = -1        # more seeds there: no longer the placement taken
    ctl._unmask(obs)
    if f.bad(obs, f.counts) == 0:
        ctl._settled()
        return
    if ctl.mismatch:
        mismatch.flag(ctl)   # the cells at fault may have changed
    ctl.jobs.add(STILL, not hold)
    ctl._check_quiet(now)


def take(ctl):
    """The board is still: every pit holding more seeds than before is a placement (a
    handful), if the rules allow that many there; what cannot be is flashed."""
    f = ctl.follower
    g = ctl.game
    obs = ctl.observer.stable
    gmap = ctl.gmap
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
        pd = ctl._digest()
        trace = list(g.play(move))
        ctl._played(player, move, name, trace, pd)
        f.start(g, gmap)
        ctl._next_turn()
        ctl.placed = c         # shown taken (READY) until that pit changes or the next is taken
        if ctl.state != PLACING:
            break          # every seed is out: the next stage is a move like any other
    mismatch.flag(ctl)


def button(ctl, button):
    if button == "undo":
        try:
            undo_move(ctl)                      # the last placement
        except CommandError as e:
            ctl.log("info", e.msg)
    elif button == "hint":
        ctl.hints = not ctl.hints
    elif ctl.mismatch:
        mismatch.overrule(ctl, ctl.wrong)
        ctl.mismatch = False
        ctl.wrong = []


def show(ctl):
    """A free placing stage: the pits that may take seeds now want them (NEED)."""
    g = ctl.game
    gm = ctl.gmap
    R = ctl.roles
    for i in range(g.n_pits):
        c = gm[i]
        if c >= 0 and g.max_place(i) > 0:
            R[c] = NEED
    if ctl.placed >= 0:
        # The handful just put here was taken as a placement: it glows READY until seeds go
        # in there again or the next placement is taken, so each one shows it was seen.
        R[ctl.placed] = READY
    if ctl.mismatch:
        mismatch.show_wrong(ctl)
