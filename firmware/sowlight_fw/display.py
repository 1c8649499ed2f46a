"""What the LEDs show: the controller's state as a colour role per board cell.

    show(ctl)               fills ctl.roles (colours.py), ctl.alt (the role a cell
                            alternates with, or STEADY) and ctl.cnt (flashes to count)
    render(ctl, now_ms)     the frame at a moment: blinking and counting applied
    lit(ctl)                the lit cells and their roles, for the `leds` link message

docs/firmware.md has the table for players.  Only the controller calls these;
they read its state and never change the game.
"""
from mancala.trace import HAND

from .colours import (OFF, PLAYER, HINT, DROP, TRAIL, RELAY, TAKE, DEST, ERROR, NEED, REMOVE, READY, MENU,
                      FAULT, STEADY, ROLE_NAMES)
from .follow import is_marker

PLAY_STATES = ("await_lift", "sowing", "turn_over")


def lit(ctl):
    """The cells lit and their roles, as the `leds` message says them."""
    out = []
    for c in range(ctl.cells):
        r = ctl.roles[c]
        if r:
            a = ctl.alt[c]
            if a == ERROR:
                name = "error"
            elif a == OFF and r in (DROP, RELAY, TAKE, DEST, NEED):
                name = "choice"
            else:
                name = ROLE_NAMES[r]
            out.append([c, name])
    return out


def render(ctl, now_ms, out=None):
    """The frame at time now_ms (blinking applied), into `out` or ctl.frame; True if ctl.frame changed."""
    frame = ctl.frame if out is None else out
    blink = ctl.settings["blink_ms"]
    beat = (now_ms // blink) if now_ms >= 0 else 0
    phase = beat & 1
    changed = False
    roles = ctl.roles
    alt = ctl.alt
    cnt = ctl.cnt
    for c in range(ctl.cells):
        v = roles[c]
        if v:
            k = cnt[c]
            if k > 1:
                pos = beat % (2 * k + 2)
                if pos >= 2 * k or pos & 1:
                    v = OFF
            elif alt[c] != STEADY and phase:
                v = alt[c]
        if frame[c] != v:
            frame[c] = v
            changed = True
    return changed


def show(ctl):
    R = ctl.roles
    A = ctl.alt
    K = ctl.cnt
    n = ctl.cells
    for c in range(n):
        R[c] = OFF
        A[c] = STEADY
        K[c] = 0
    st = ctl.state
    if st == "menu":
        i = ctl.menu_index
        page = i // n
        R[i % n] = MENU + (page if page < 3 else 2)
    elif st == "setup":
        show_setup(ctl)
    elif st in PLAY_STATES:
        show_play(ctl)
    elif st == "over":
        show_over(ctl)
    elif st == "error":
        for c in range(n):
            R[c] = ERROR
            A[c] = OFF
    if st in PLAY_STATES or st == "setup":
        noisy = ctl.observer.noisy
        for c in range(n):
            if (noisy[c] or ctl.masked[c]) and R[c] == OFF:
                R[c] = FAULT


def show_setup(ctl):
    f = ctl.follower
    obs = ctl.observer.stable
    R = ctl.roles
    all_ok = True
    for c in range(ctl.cells):
        if not f.care[c]:
            continue
        k = f.counts[c]
        o = obs[c]
        if o < 0:
            all_ok = False
            continue
        if ctl.counting:
            if o < k:
                R[c] = NEED
                ctl.cnt[c] = min(k - o, 9)
            elif o > k:
                R[c] = REMOVE
                ctl.cnt[c] = min(o - k, 9)
        elif k > 0 and o == 0:
            R[c] = NEED
        elif k == 0 and o > 0:
            R[c] = REMOVE
        else:
            R[c] = READY
        if R[c] in (NEED, REMOVE):
            all_ok = False
    if all_ok and not ctl.counting:
        # Everything looks right: blink READY to ask for confirm (the sensors cannot count).
        for c in range(ctl.cells):
            if R[c] == READY:
                ctl.alt[c] = OFF


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
    elif k == "relay" or (k == "take" and s.to == HAND):
        R[c] = RELAY
    elif k == "take":
        R[c] = TAKE
        if s.to >= 0 and gm[s.to] >= 0:
            d = gm[s.to]
            R[d] = DEST
            if not steady:
                A[d] = OFF
    elif k == "place":
        R[c] = NEED
        if s.count > 1:
            ctl.cnt[c] = min(s.count, 9)
    if not steady:
        A[c] = OFF


def show_play(ctl):
    f = ctl.follower
    R = ctl.roles
    trail = ctl.trail
    for c in range(ctl.cells):
        if trail[c]:
            R[c] = TRAIL
            ctl.cnt[c] = trail[c] if trail[c] < 9 else 9
    if f.mv is None:
        return
    if f.index == 0:
        p = PLAYER + ctl.game.to_move % 4
        unseen = ctl._unseen_lifts()
        for s in f.first_steps():
            c = ctl.gmap[s.pit] if s.pit >= 0 else -1
            if c >= 0 and trail[c] and s.kind == "lift":
                ctl.alt[c] = p       # drop the trail's seed first, then it may be lifted
            else:
                light(ctl, s)
        for i in range(len(unseen)):
            # Its sensor is not trusted: lift it, then confirm (blinking: the one confirm takes).
            ctl.alt[ctl.gmap[unseen[i].pit]] = OFF if i == ctl.selected % len(unseen) else FAULT
        h = ctl._hint_cell() if ctl.hints else -1
        if h >= 0 and not trail[h]:
            R[h] = HINT
        for c in range(ctl.cells):
            if ctl.cnt[c] == 1:
                ctl.cnt[c] = 0
    else:
        run, ends = f.forced_run(ctl.settings["lookahead"])
        tmp = ctl._tmp
        for c in range(ctl.cells):
            tmp[c] = f.counts[c]
        shown_next = False
        for s in run:
            if is_marker(s):
                f.apply(tmp, s)
                continue
            if f.visible(tmp, s):
                c = ctl.gmap[s.pit] if s.pit >= 0 else -1
                k = ctl.cnt[c] if c >= 0 else 0
                light(ctl, s)
                if k == 1:
                    # A trail seed goes here first: the cell alternates trail / next step.
                    ctl.alt[c] = R[c]
                    R[c] = TRAIL
                elif k > 1:
                    R[c] = TRAIL    # the trail's seeds first; the step shows once they are confirmed
                shown_next = True
                break
            f.apply(tmp, s)
            if s.kind == "drop":
                c = ctl.gmap[s.pit]
                if c >= 0:
                    R[c] = TRAIL
                    if ctl.cnt[c] < 9:
                        ctl.cnt[c] += 1
            else:
                light(ctl, s)
        if not shown_next and not ends:
            alts = ctl._alternatives(len(run))
            selecting = ctl._selecting()
            pick = ctl.selected % (len(alts) + (1 if ctl._stop_possible(len(run)) else 0)) if alts else 0
            for i in range(len(alts)):
                light(ctl, alts[i], steady=selecting and i == pick)
        for c in range(ctl.cells):
            if ctl.cnt[c] == 1:
                ctl.cnt[c] = 0
    if ctl.mismatch:
        obs = ctl.observer.stable
        for c in ctl.wrong:
            k = f.counts[c]
            o = obs[c]
            more = (k > o) if ctl.counting else (k > 0)
            R[c] = NEED if more else REMOVE
            ctl.alt[c] = ERROR
            ctl.cnt[c] = 0


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
