# Runs on MicroPython (the bench copies it into the VM): per-move cost of the
# rules core.  For each variant given, it plays games chosen by a small
# deterministic generator and records, for the search path (push) and the
# traced path (play), the most bytes one move allocated (gc is disabled
# around each move so mem_alloc counts it all) and which move made the
# longest trace.  That move is then timed by repeating it (the VM's clock is
# too coarse to time one move), on both paths.
import gc
import time
import mancala


def _alloc(fn, arg):
    gc.collect()
    gc.disable()
    a = gc.mem_alloc()
    r = fn(arg)
    used = gc.mem_alloc() - a
    gc.enable()
    return used, r


def _time_ms(g, m, path, reps):
    t = time.ticks_ms()
    for _ in range(reps):
        if path:
            g.play(m)
        else:
            g.push(m)
        g.pop()
    return time.ticks_diff(time.ticks_ms(), t) / reps


def probe(name, games=3, plies=300, reps=200):
    worst_push = worst_play = 0
    longest = None  # (steps, position text, move)
    x = 12345
    for gi in range(games):
        g = mancala.Game(name)
        for _ in range(plies):
            if g.is_over():
                break
            moves = g.legal_moves()
            x = (x * 1103515245 + 12345) % 2147483648
            m = moves[(x >> 8) % len(moves)]
            used, _ = _alloc(g.push, m)
            worst_push = max(worst_push, used)
            g.pop()
            text = mancala.to_text(g)
            used, tr = _alloc(g.play, m)
            worst_play = max(worst_play, used)
            if longest is None or len(tr) > longest[0]:
                longest = (len(tr), text, m)
    steps, text, m = longest
    g = mancala.from_text(text)
    push_ms = _time_ms(g, m, False, reps)
    play_ms = _time_ms(g, m, True, reps)
    return [name, worst_push, worst_play, push_ms, play_ms, "%s, %d steps" % (g.move_name(m), steps)]
