"""The board against what it should hold: a mismatch (the board, once still, disagrees with
the game: the cells at fault flash, and the log says why in words), the set-up's check and
lights, noisy and overruled sensors.
"""
from mancala.errors import IllegalMoveError

from ..colours import OFF, ERROR, NEED, REMOVE, READY
from .jobs import LOOK
from .states import AWAIT, TURN_OVER, PLACING



def noise_events(ctl):
    ev = ctl.observer.events
    while ev:
        c, noisy = ev.pop(0)
        if noisy:
            ctl.log("warn", "the sensor of cell %d keeps changing: it is ignored until it holds still" % c)
        else:
            ctl.log("info", "the sensor of cell %d holds still again" % c)
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
        ctl.log("warn", explain(ctl, wrong, obs))
        ctl._send(ctl.state_message())


def overrule(ctl, cells):
    for c in cells:
        ctl.masked[c] = 1
    if cells:
        ctl.log("warn", "sensor%s of cell%s %s overruled by confirm" % (
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


# ----- the lights (lights.show calls these)

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
    ctl.log("info", "set-up complete: player %d to move" % ctl.game.to_move)
    ctl._state_later()
    ctl.hint_due = ctl.hints    # searched while the board is idle, not in this step
    ctl.jobs.add(LOOK)           # the board is looked at in the next scan (a move may be under way)


# ----- what is wrong, in words



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
