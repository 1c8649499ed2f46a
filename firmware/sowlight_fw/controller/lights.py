"""What the LEDs show: the controller's state as a colour role per board cell.

    show(ctl)               fills ctl.roles (colours.py), ctl.alt (the role a cell
                            alternates with, or STEADY) and ctl.cnt (flashes to count)
    render(ctl, now_ms)     the frame at a moment: blinking and counting applied
    lit(ctl)                the lit cells and their roles, for the `leds` link message:
                            [cell, name], or [cell, name, n] for a cell that counts n flashes

docs/firmware.md has the table for players.  Only the controller calls these;
they read its state and never change the game.  The lights of the set-up and
of a mismatch are drawn by mismatch.py, those of a placing stage by placement.py.
"""

from mancala.trace import HAND

from ..colours import (OFF, PLAYER, HINT, DROP, TRAIL, RELAY, TAKE, DEST, ERROR, NEED, MENU, FAULT, STEADY,
                      ROLE_NAMES)
from ..follow import is_marker
from . import mismatch, placement
from .states import PLAY_STATES

_SHOWS_FAULTS = PLAY_STATES + ("setup", "placing")
_CHOICES = (DROP, RELAY, TAKE, DEST, NEED)    # steps that blink at a choice
_MOST_FLASHES = 9    # a count above this flashes this many times (the `leds` message says the number)


def lit(ctl):
    """The cells lit and their roles, as the `leds` message says them: [cell, name], and
    [cell, name, n] when the cell counts n flashes (n seeds: a trail of n, "need 4")."""
    out = []
    roles = ctl.roles
    alt = ctl.alt
    cnt = ctl.cnt
    for c in range(ctl.cells):
        r = roles[c]
        if r:
            a = alt[c]
            if a == ERROR:
                name = "error"
            elif a == OFF and r in _CHOICES:
                name = "choice"
            else:
                name = ROLE_NAMES[r]
                if r == TRAIL and a != STEADY and a != OFF:
                    # A trail seed goes here first, then the cell is the next step (a relay, a
                    # take, the next lift): the LEDs alternate the two.  Both are said, the step
                    # first and the trail last (a viewer that keeps one entry a cell keeps what
                    # comes first: the seed).
                    out.append([c, ROLE_NAMES[a]])
            k = cnt[c]
            out.append([c, name, k] if k > 1 or (k and r == TAKE) else [c, name])
    return out


def render(ctl, now_ms, out=None):
    """The frame at time now_ms (blinking applied), into `out` or ctl.frame; True if ctl.frame changed.

    ctl.frame changes only when show() ran or the beat moved on: other scans return at once."""
    blink = ctl.settings["blink_ms"]
    beat = (now_ms // blink) if now_ms >= 0 else 0
    if out is None:
        if beat == ctl.rendered_beat:
            return False
        ctl.rendered_beat = beat
        frame = ctl.frame
    else:
        frame = out
    phase = beat & 1
    roles = ctl.roles
    alt = ctl.alt
    cnt = ctl.cnt
    # Every cell as its role (copied in C), then the lit cells that blink or count: twice as
    # fast on MicroPython as a loop that sets each cell.
    old = bytes(frame)
    frame[:] = roles
    if cnt == ctl.blank and (not phase or alt == ctl.steady):
        return frame != old         # (no cell counts, none blinks now: the roles are the frame)
    c = -1
    for v in roles:
        c += 1
        if v:
            k = cnt[c]
            if k > 1 or (k and v == TAKE):     # (a take of one seed of several counts one)
                if k > _MOST_FLASHES:
                    k = _MOST_FLASHES
                pos = beat % (2 * k + 2)
                if pos >= 2 * k or pos & 1:
                    frame[c] = OFF
            elif phase and alt[c] != STEADY:
                frame[c] = alt[c]
    return frame != old


def show(ctl):
    R = ctl.roles
    n = ctl.cells
    R[:] = ctl.blank           # every cell off, steady, counting nothing (slice copies run in C)
    ctl.alt[:] = ctl.steady
    ctl.cnt[:] = ctl.blank
    ctl.rendered_beat = None   # render() draws the frame again
    st = ctl.state
    if st == "menu":
        i = ctl.menu_index
        page = i // n
        R[i % n] = MENU + (page if page < 3 else 2)
    elif st == "setup":
        mismatch.show_setup(ctl)     # (the board against the start)
    elif st in PLAY_STATES:
        show_play(ctl)
    elif st == "placing":
        placement.show(ctl)
    elif st == "over":
        show_over(ctl)
    elif st == "error":
        A = ctl.alt
        for c in range(n):
            R[c] = ERROR
            A[c] = OFF
    if ctl.faulty and st in _SHOWS_FAULTS:
        noisy = ctl.observer.noisy
        masked = ctl.masked
        for c in range(n):
            if (noisy[c] or masked[c]) and R[c] == OFF:
                R[c] = FAULT


def light(ctl, s, steady=True):
    """Light the cells of one step."""
    R = ctl.roles
    A = ctl.alt
    gm = ctl.gmap
    k = s.kind
    c = gm[s.pit] if s.pit >= 0 else -1
    if c < 0:
        return
    if k == "drop":
        R[c] = DROP
    elif k == "lift":
        R[c] = PLAYER + ctl.game.to_move % 4
    elif k == "relay" or (k == "take" and s.to == HAND and s.count >= ctl.follower.counts[c]):
        R[c] = RELAY                    # (a pit's seeds into the hand, to sow on: as a relay)
    elif k == "take":
        R[c] = TAKE
        if s.count < ctl.follower.counts[c]:
            ctl.cnt[c] = s.count        # not all it holds (Lane's feed: one seed): counted
        if s.to >= 0 and gm[s.to] >= 0:
            d = gm[s.to]
            R[d] = DEST
            if not steady:
                A[d] = OFF
    elif k == "place":
        R[c] = NEED
        if s.count > 1:
            ctl.cnt[c] = min(s.count, 255)
    if not steady:
        A[c] = OFF


def show_play(ctl):
    f = ctl.follower
    R = ctl.roles
    A = ctl.alt
    gm = ctl.gmap
    trail = ctl.trail
    lit_trail = ctl.trail_lit
    if lit_trail:
        for c in range(ctl.cells):
            if trail[c]:
                R[c] = TRAIL
                ctl.cnt[c] = trail[c]
    if f.mv is None:
        return
    if f.index == 0 and (f.mv.pits is not None or not f.forced_run(ctl.settings["lookahead"])[0]):
        # The first steps of the moves (unless only one way can begin: then as below).
        p = PLAYER + ctl.game.to_move % 4
        # A move with no steps at all may be made (Lane's chooser keeping the board): the
        # first steps of the others blink, and confirm makes the move without steps.
        steady = not f.mv.can_stop()     # (a move begun by a lift cannot: built lazily, they all are)
        for s in f.first_steps():
            if s[0] == "lift":               # (a Step is a (kind, pit, count, to) tuple)
                c = gm[s[1]] if s[1] >= 0 else -1
                if c < 0:
                    continue
                if lit_trail and trail[c]:
                    A[c] = p         # drop the trail's seed first, then it may be lifted
                    continue
                R[c] = p
                if not steady:
                    A[c] = OFF
            else:
                light(ctl, s, steady)
        unseen = ctl.follower.unseen_lifts()
        for i in range(len(unseen)):
            # Its sensor is not trusted: lift it, then confirm (blinking: the one confirm takes).
            A[gm[unseen[i].pit]] = OFF if i == ctl.selected % len(unseen) else FAULT
        h = ctl._hint_cell() if ctl.hints else -1
        if h >= 0 and not trail[h]:
            R[h] = HINT
        if lit_trail:
            for c in range(ctl.cells):
                if ctl.cnt[c] == 1 and R[c] != TAKE:
                    ctl.cnt[c] = 0
    else:
        # The steps up to the next one the sensors will see: those before it, unseen, as
        # a trail (drops) or lit as they are; then that step (forced_run stops there).
        run, seen, ends = f.forced_run(ctl.settings["lookahead"])
        unseen = len(run) - 1 if seen else len(run)
        cnt = ctl.cnt
        for i in range(unseen):
            s = run[i]
            if s[0] == "drop":
                c = gm[s[1]]
                if c >= 0:
                    R[c] = TRAIL
                    if cnt[c] < 255:
                        cnt[c] += 1
            elif not is_marker(s):
                light(ctl, s)
        if seen:
            s = run[unseen]
            c = gm[s.pit] if s.pit >= 0 else -1
            k = cnt[c] if c >= 0 else 0
            light(ctl, s)
            if s.kind == "place" and ctl.counting and c >= 0:
                # Load cells: flash what is still missing as the seeds go in.
                o = ctl.observer.stable[c]
                had = f.ahead[c]          # what the cell holds before it
                if had < o < had + s.count:
                    cnt[c] = min(had + s.count - o, 255)
            if k == 1:
                # A trail seed goes here first: the cell alternates trail / next step.
                ctl.alt[c] = R[c]
                R[c] = TRAIL
            elif k > 1:
                R[c] = TRAIL    # the trail's seeds first; the step shows once they are confirmed
        elif not ends:
            alts = ctl._alternatives(len(run))
            selecting = ctl._selecting()
            pick = ctl.selected % (len(alts) + (1 if ctl._stop_possible(len(run)) else 0)) if alts else 0
            for i in range(len(alts)):
                light(ctl, alts[i], steady=selecting and i == pick)
        for c in range(ctl.cells):
            if ctl.cnt[c] == 1 and R[c] != TAKE:
                ctl.cnt[c] = 0
    if ctl.mismatch:
        mismatch.show_wrong(ctl)


def show_over(ctl):
    g = ctl.game
    o = g.outcome()
    R = ctl.roles
    for i in range(len(ctl.gmap)):
        c = ctl.gmap[i]
        if c < 0:
            continue
        owner = g.owner(i)
        if o.winner is None:
            R[c] = PLAYER + (owner % 4)
            ctl.alt[c] = OFF
        elif owner == o.winner:
            R[c] = PLAYER + (owner % 4)
