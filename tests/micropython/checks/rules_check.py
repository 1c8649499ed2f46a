# A self-check of one variant that runs the same on MicroPython and CPython.
# It plays a game chosen by a small deterministic generator (not `random`,
# whose sequences differ between the two), checks every trace against the
# position it produced and that seeds are conserved, undoes the whole game,
# and returns a summary; the tests compare the summaries of both interpreters.
# A trace is replayed by the variant tests' replay() (tests/variants/tracesteps.py:
# this folder has a link to it, for the VM).
import mancala
from tracesteps import replay


def check(name, seed, plies=400, options=None):
    g = mancala.Game(name, **(options or {}))
    start = g.cells()
    total = sum(start) + g.outside()
    x = seed * 2654435761 % 4294967296
    digest = 7
    names = []
    for _ in range(plies):
        if g.is_over():
            break
        moves = g.legal_moves()
        x = (x * 1103515245 + 12345) % 2147483648
        m = moves[(x >> 8) % len(moves)]
        names.append(g.move_name(m))
        before = g.cells()
        outside = g.outside()
        steps = list(g.play(m))
        for s in steps:
            digest = (digest * 31 + len(s.kind) * 1000003 + (s.pit + 3) * 1009 + s.count * 17 + s.to + 5) % 2147483647
        cells, outside = replay(before, steps, outside)
        if cells != g.cells() or outside != g.outside():
            raise AssertionError("%s: the trace of %s does not give the position after it" % (name, names[-1]))
        if sum(g.cells()) + g.outside() != total:
            raise AssertionError("%s: seeds not conserved" % name)
    o = g.outcome()
    final = g.cells()
    n = g.ply
    while g.ply:
        g.undo()
    if g.cells() != start:
        raise AssertionError("%s: undoing every move does not give the start back" % name)
    return {
        "name": name, "plies": n, "final": final, "digest": digest, "moves": " ".join(names),
        "outcome": None if o is None else [o.winner, o.scores, o.reason],
    }
