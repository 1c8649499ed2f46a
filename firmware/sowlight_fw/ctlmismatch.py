"""The board against what it should hold: a mismatch (the board, once still, disagrees with
the game: the cells at fault flash), the set-up's lights, noisy and overruled sensors.

Loaded when a mismatch is flagged (or a sensor turns noisy, or a confirm
overrules sensors, or the set-up is shown) and kept while the mismatch or
the set-up lasts; the scan that finds the board agreeing again drops it
(Controller.drop_parts, unload.py): a game in progress runs without it.  What
is wrong, in words for the log, is ctlexplain.py's, loaded when a mismatch is
flagged only (the set-up never needs it).
"""
from .colours import OFF, ERROR, NEED, REMOVE, READY
from .unload import unload


def noise_events(ctl):
    ev = ctl.observer.events
    while ev:
        c, noisy = ev.pop(0)
        if noisy:
            ctl._log("warn", "the sensor of cell %d keeps changing: it is ignored until it holds still" % c)
        else:
            ctl._log("info", "the sensor of cell %d holds still again" % c)
    update_care(ctl)


def flag(ctl):
    f = ctl.follower
    obs = ctl.observer.stable
    counts = f.counts
    wrong = [c for c in range(ctl.cells) if not f.agrees(c, counts[c], obs[c])]   # (the cells that disagree)
    part = ctl._partial_place()
    if part is not None and part[0] in wrong and part[1] < obs[part[0]] < part[2]:
        wrong.remove(part[0])     # seeds on their way into a pit: not a mistake (yet)
    if not wrong:
        ctl._settled()
        return
    first = not ctl.mismatch
    ctl.mismatch = True
    ctl.wrong = wrong
    if first:
        nxt = ctl._next_step()
        c = wrong[0]
        msg = {"type": "step", "game": ctl.game_no, "ply": ctl.ply + 1, "ev": "mismatch",
               "cell": game_cell(ctl, c), "i": f.index,
               "expect": [nxt.kind, nxt.pit, nxt.count, nxt.to] if nxt is not None else None}
        ctl._send(msg)
        from . import ctlexplain
        try:
            ctl._log("warn", ctlexplain.explain(ctl, wrong, obs))
        finally:
            unload("ctlexplain")
        ctl._send(ctl.state_message())


def overrule(ctl, cells):
    for c in cells:
        ctl.masked[c] = 1
    if cells:
        ctl._log("warn", "sensor%s of cell%s %s overruled by confirm" % (
            "s" if len(cells) > 1 else "", "s" if len(cells) > 1 else "", ", ".join(str(c) for c in cells)))
    update_care(ctl)


def game_cell(ctl, board_cell):
    gm = ctl.gmap
    for i in range(len(gm)):
        if gm[i] == board_cell:
            return i
    return -1


# ----- the sensors trusted, the set-up

def update_care(ctl):
    ctl._cares += 1            # (the lights of cells not trusted may change)
    care = ctl.follower.care
    noisy = ctl.observer.noisy
    mapped = ctl._mapped
    faulty = False
    for c in range(ctl.cells):
        care[c] = 1 if (ctl.sensed[c] and not ctl.masked[c] and not noisy[c] and mapped[c]) else 0
        if noisy[c] or ctl.masked[c]:
            faulty = True
    ctl.faulty = faulty
    ctl.follower.care_changed()


def setup_wrong(ctl):
    f = ctl.follower
    obs = ctl.observer.stable
    return [c for c in range(ctl.cells) if f.care[c] and (obs[c] < 0 or not f.agrees(c, f.counts[c], obs[c]))]


def setup_check(ctl):
    # Load cells see every seed: the game starts by itself once the board is right.
    if ctl.counting and not setup_wrong(ctl):
        start_play(ctl)
    elif ctl._resumed_setup:
        # Back from a reset before the first move was journalled: the first move
        # may be under way already (a full board that is being set up never is).
        depth, steps, _ = ctl.follower.lookahead(ctl.observer.stable, ctl.settings["lookahead"])
        if depth:
            start_play(ctl)


# ----- the lights (display.show calls these)

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
                ctl.cnt[c] = min(k - o, 255)
            elif o > k:
                R[c] = REMOVE
                ctl.cnt[c] = min(o - k, 255)
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


def show_wrong(ctl):
    """The cells at fault flash what they should hold (more: NEED, fewer: REMOVE) with ERROR."""
    f = ctl.follower
    R = ctl.roles
    obs = ctl.observer.stable
    for c in ctl.wrong:
        k = f.counts[c]
        o = obs[c]
        more = (k > o) if ctl.counting else (k > 0)
        R[c] = NEED if more else REMOVE
        ctl.alt[c] = ERROR
        ctl.cnt[c] = 0


def start_play(ctl):
    """The set-up is complete: the first move is awaited (the `state` message made in an idle
    scan: this is a scan's work)."""
    ctl._resumed_setup = False
    ctl.state = ctl._await_state()
    ctl._log("info", "set-up complete: player %d to move" % ctl.game.to_move)
    ctl._state_later()
    ctl._hint_due = ctl.hints    # searched while the board is idle, not in this step
    ctl._dirty = True            # the board is looked at in the next scan (a move may be under way)
