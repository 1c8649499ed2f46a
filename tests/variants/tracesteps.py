"""Helpers shared by the variant tests: expected trace steps, views of a trace, replaying a
trace against the cells it changed, and small position builders.

A trace yields mancala.Step(kind, pit, count, to) namedtuples, so the step constructors
below return plain 4-tuples that compare equal to steps (and `steps(trace)` turns a trace
into such tuples for a readable assertion diff).  Import what a test file needs:
`from tracesteps import lift, drop, steps, ...` (tests/variants/conftest.py puts this
folder on sys.path).
"""
import mancala

HAND = mancala.HAND   # `to` of a take whose seeds are sown again
OFF = mancala.OFF     # `to` of a take whose seeds leave play
_NONE = -1            # pit / to of a step that names none

# ----- expected steps ---------------------------------------------------------

def lift(p, n):
    """Lift all n seeds of pit p to start sowing."""
    return ("lift", p, n, _NONE)


def drop(p):
    """Drop one seed into cell p."""
    return ("drop", p, 1, _NONE)


def drops(*pits):
    """One drop step per pit, in order: drops(3, 4, 5)."""
    return [drop(p) for p in pits]


def relay(p, n):
    """Lift the n seeds of pit p again and go on sowing."""
    return ("relay", p, n, _NONE)


def take(p, n, to=HAND):
    """Take n seeds from pit p to cell `to` (or HAND to sow them, OFF to put them out of play)."""
    return ("take", p, n, to)


def place(p, n=1):
    """Put n seeds from the supply into pit p (setup)."""
    return ("place", p, n, _NONE)


def skip(p):
    """A seed passes over cell p without being dropped."""
    return ("skip", p, 0, _NONE)


EXTRA = ("extra_turn", _NONE, 0, _NONE)
PASS = ("pass", _NONE, 0, _NONE)
END = ("end", _NONE, 0, _NONE)


# ----- views of a trace -------------------------------------------------------

def steps(trace):
    """The whole trace as (kind, pit, count, to) tuples, comparable with the constructors above."""
    return [(s.kind, s.pit, s.count, s.to) for s in trace]


def kinds(trace):
    """The step kinds only: ['lift', 'drop', ..., 'take']."""
    return [s.kind for s in trace]


def dropped(trace):
    """The cells sown into, in order."""
    return [s.pit for s in trace if s.kind == "drop"]


def skipped(trace):
    """The cells passed over, in order."""
    return [s.pit for s in trace if s.kind == "skip"]


def of_kind(trace, kind):
    """(pit, count) of every step of one kind, e.g. of_kind(trace, "relay")."""
    return [(s.pit, s.count) for s in trace if s.kind == kind]


def relays(trace):
    """(pit, count) of every relay."""
    return of_kind(trace, "relay")


def takes(trace):
    """(pit, count, to) of every take."""
    return [(s.pit, s.count, s.to) for s in trace if s.kind == "take"]


# ----- names (games whose notation names holes, e.g. "b6") --------------------

def cell_name(g, pit):
    """The notation's name of a pit; stores are "store0", "store1", ..."""
    return g.move_name(pit) if pit < g.n_pits else "store%d" % (pit - g.n_pits)


def named_steps(g, trace):
    """The trace as (kind, hole) for drops and (kind, hole, count) for every other step."""
    return [(s.kind, cell_name(g, s.pit)) + ((s.count,) if s.kind != "drop" else ()) for s in trace]


def pit_of(move):
    """The pit a move starts from (moves with a direction or a choice are tuples)."""
    return move[0] if isinstance(move, tuple) else move


# ----- positions --------------------------------------------------------------

_LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"


def board(p0, p1):
    """All pits from the two players' pit lists."""
    return list(p0) + list(p1)


def side_of(pits_per_side, **counts):
    """One player's pits from letters, A = his first pit: side_of(16, H=2, J=1) (either case).

    Bind the size once per board: `side = functools.partial(side_of, 16)`."""
    letters = _LETTERS[:pits_per_side]
    row = [0] * pits_per_side
    for name, n in counts.items():
        row[letters.index(name.upper())] = n
    return row


def printed(rows):
    """A four-row diagram as the sources print it (top row first, as the bottom player sees
    it: player 1's back and front rows, then player 0's front and back rows) -> pits."""
    back1, front1, front0, back0 = rows
    n = len(back0)
    p0 = list(back0) + list(reversed(front0))
    p1 = list(reversed(back1)) + list(front1)
    assert len(p0) == 2 * n
    return p0 + p1


def position(g, holes):
    """Pits for g's board with the named holes filled and the rest empty: position(g, {"b6": 2})."""
    pits = [0] * g.n_pits
    for hole, men in holes.items():
        pits[g.parse_move(hole)] = men
    return pits


def new_game(variant, pits, stores=None, to_move=0, **options):
    """A game of `variant` from a position; stores=None leaves every store empty."""
    return mancala.Game(variant, pits=list(pits), stores=None if stores is None else list(stores),
                        to_move=to_move, **options)


# ----- replaying a trace ------------------------------------------------------

def replay(cells, trace, outside=0, into=None, never_sown=(), only=None):
    """Apply a trace's seed movements to a copy of `cells`; return (cells, outside) after it.

    `outside` counts the seeds in no cell before the move (a setup supply, seeds out of
    play): takes to OFF add to it, places draw from it.  Checks that the trace accounts for
    every seed: a lift or relay empties its pit, a drop comes out of a non-empty hand, a take
    removes seeds that are there, no cell goes below zero, and the hand is empty at the end.

    into: the only cells takes may go to (e.g. the stores); None allows any cell, HAND or OFF.
    never_sown: cells no seed may be dropped into (stores that only receive captures).
    only: the step kinds the trace may hold; None allows any.
    """
    cells = list(cells)
    hand = 0
    for s in trace:
        assert only is None or s.kind in only, "unexpected step %r" % (s,)
        if s.kind in ("lift", "relay"):
            assert cells[s.pit] == s.count, "%r but cell %d holds %d" % (s, s.pit, cells[s.pit])
            cells[s.pit] = 0
            hand += s.count
        elif s.kind == "drop":
            assert hand > 0, "a drop into %d with an empty hand" % s.pit
            assert s.pit not in never_sown, "cell %d is never sown" % s.pit
            cells[s.pit] += 1
            hand -= 1
        elif s.kind == "take":
            assert into is None or s.to in into, "%r: takes go only to %s" % (s, list(into))
            assert cells[s.pit] >= s.count, "%r but cell %d holds %d" % (s, s.pit, cells[s.pit])
            cells[s.pit] -= s.count
            if s.to == HAND:
                hand += s.count
            elif s.to == OFF:
                outside += s.count
            else:
                cells[s.to] += s.count
        elif s.kind == "place":
            cells[s.pit] += s.count
            outside -= s.count
        assert min(cells) >= 0
    assert hand == 0, "%d seeds left in hand" % hand
    return cells, outside


def replay_cells(cells, trace, **checks):
    """replay() for a move that keeps every seed in a cell: return the cells after it."""
    after, outside = replay(cells, trace, 0, **checks)
    assert outside == 0, "the trace moved %d seeds out of the cells" % outside
    return after


def checked_play(g, move, **checks):
    """Play `move` on `g`, check its trace replays to the new cells and outside(); return the trace.

    `checks` are replay()'s into / never_sown / only."""
    before, outside = g.cells(), g.outside()
    trace = g.play(move)
    assert replay(before, trace, outside, **checks) == (g.cells(), g.outside())
    return trace


def play_steps(g, move, **checks):
    """checked_play(), returning steps(trace)."""
    return steps(checked_play(g, move, **checks))


def place_all(g, placements, **checks):
    """Play a setup: one checked ("place", pit, count) move per (pit, count)."""
    for pit, count in placements:
        checked_play(g, ("place", pit, count), **checks)


def make_play(variant, **checks):
    """A play(pits, move, stores=None, to_move=0, **options) for one variant: set up the
    position, play the move with checked_play(..., **checks), return (game, steps(trace))."""
    def play(pits, move, stores=None, to_move=0, **options):
        g = new_game(variant, pits, stores, to_move, **options)
        return g, play_steps(g, move, **checks)
    return play
