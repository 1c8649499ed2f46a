# Runs on MicroPython (the bench copies it into the VM): per-move cost of the
# rules core.  For each variant given, it plays games chosen by a small
# deterministic generator and records, for the search path (push), the traced
# path (play) and the move list (legal_moves, built afresh), the most bytes one
# call allocated (gc is disabled around each call so mem_alloc counts it all),
# and the moves with the longest traces.  Those moves are then timed by
# repeating each (the VM's clock ticks in milliseconds), in several batches
# of which the fastest counts (the machine may be busy with other work), and
# the slowest of them is reported.
import gc
from time import ticks_ms, ticks_diff   # (names of their own: pystone may run alongside)
import mancala


def _alloc(fn, arg):
    gc.collect()
    gc.disable()
    a = gc.mem_alloc()
    r = fn(arg) if arg is not None else fn()
    used = gc.mem_alloc() - a
    gc.enable()
    return used, r


def _fresh_moves(g):
    # legal_moves() as a player asks for it on a new position: not yet listed.
    g._legal = None
    return g.legal_moves()


def _time_ms(g, m, path, reps, batches):
    best = None
    for _ in range(batches):
        gc.collect()
        t = ticks_ms()
        for _ in range(reps):
            if path:
                g.play(m)
            else:
                g.push(m)
            g.pop()
        ms = ticks_diff(ticks_ms(), t) / reps
        if best is None or ms < best:
            best = ms
    return best


def _time_moves_ms(g, reps, batches):
    best = None
    for _ in range(batches):
        gc.collect()
        t = ticks_ms()
        for _ in range(reps):
            _fresh_moves(g)
        ms = ticks_diff(ticks_ms(), t) / reps
        if best is None or ms < best:
            best = ms
    return best


def probe(name, games=3, plies=300, reps=25, batches=8, timed=4):
    worst_push = worst_play = worst_list = 0
    longest = []  # (steps, position text, move), the `timed` longest traces, longest first
    most = None   # (moves listed, position text): the position with the longest move list
    x = 12345
    for gi in range(games):
        g = mancala.Game(name)
        for _ in range(plies):
            if g.is_over():
                break
            used, moves = _alloc(_fresh_moves, g)
            worst_list = max(worst_list, used)
            x = (x * 1103515245 + 12345) % 2147483648
            m = moves[(x >> 8) % len(moves)]
            text = mancala.to_text(g)
            if most is None or len(moves) > most[0]:
                most = (len(moves), text)
            used, _ = _alloc(g.push, m)
            worst_push = max(worst_push, used)
            g.pop()
            used, tr = _alloc(g.play, m)
            worst_play = max(worst_play, used)
            if len(longest) < timed or len(tr) > longest[-1][0]:
                longest.append((len(tr), text, m))
                longest.sort(key=lambda e: -e[0])
                del longest[timed:]
    slowest = None
    for steps, text, m in longest:
        g = mancala.from_text(text)
        play_ms = _time_ms(g, m, True, reps, batches)
        if slowest is None or play_ms > slowest[1]:
            slowest = (_time_ms(g, m, False, reps, batches), play_ms, "%s, %d steps" % (g.move_name(m), steps))
    g = mancala.from_text(most[1])
    list_ms = _time_moves_ms(g, max(1, reps // 4), batches)
    return [name, worst_push, worst_play, worst_list, slowest[0], slowest[1], list_ms, most[0], slowest[2]]
