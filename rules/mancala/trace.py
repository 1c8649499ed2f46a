"""The physical steps of a move, in the order a person's hands do them.

A trace is what the board's LEDs guide and its sensors verify, and what the
archive replays.  Steps are stored as one small int each (no allocation per
seed on MicroPython) and decoded into Step tuples when read.
"""
try:
    from micropython import const
except ImportError:  # CPython
    def const(x):
        return x

try:
    from collections import namedtuple
except ImportError:  # pragma: no cover - older MicroPython
    from ucollections import namedtuple

LIFT = const(1)    # lift all `count` seeds of `pit` to start sowing
DROP = const(2)    # drop one seed into cell `pit`
RELAY = const(3)   # lift `count` seeds again from `pit` and go on sowing
TAKE = const(4)    # take `count` seeds from `pit` to cell `to` (or HAND / OFF)
PLACE = const(5)   # setup: put `count` seeds into `pit` from the supply
EXTRA = const(6)   # the same player moves again
PASS = const(7)    # the player to move passes
END = const(8)     # the game is over
CHOICE = const(9)  # a choice the rules leave to the player (recorded as `pit`)
SKIP = const(10)   # a seed passes over cell `pit` without being dropped

HAND = const(-1)   # `to` of a take whose seeds are sown again
OFF = const(-2)    # `to` of a take whose seeds leave play
NONE = const(-1)   # pit of a step that names no pit

KINDS = ("", "lift", "drop", "relay", "take", "place", "extra_turn", "pass", "end", "choice", "skip")

Step = namedtuple("Step", ("kind", "pit", "count", "to"))

# Layout of an encoded step: kind in bits 0-3, pit+2 in 4-11, to+2 in 12-19,
# count from bit 20 (up to 1023 seeds: every board in the sources has fewer).
_PIT = const(4)
_TO = const(12)
_COUNT = const(20)

# A drop step without its pit: kind 2, to -1 (+2), count 1.  The engine's
# sowing loop appends ((cell + 2) << 4) | DROP_CODE itself (no call per seed).
DROP_CODE = const(0x101002)
# A take from pit 0 to cell 0 of no seeds: the game's end takes ((k << 20) + (to << 12) +
# (pit << 4)) + TAKE_CODE itself (Mancala._collect_leftovers).
TAKE_CODE = const(0x2024)


class Trace:
    """The steps of one move; iterate to get Step(kind, pit, count, to)."""

    def __init__(self):
        self._s = []

    def add(self, kind, pit=-1, count=0, to=-1):
        self._s.append(kind | ((pit + 2) << _PIT) | ((to + 2) << _TO) | (count << _COUNT))

    def drop(self, cell):
        # The hot call while sowing with a trace: no keyword handling.
        self._s.append(((cell + 2) << _PIT) | DROP_CODE)

    def clear(self):
        """Empty it, keeping its room: a board walking a turn a piece at a time (Omweso.walk)
        takes each piece into the same trace rather than a new one."""
        del self._s[:]

    def __len__(self):
        return len(self._s)

    def __getitem__(self, i):
        return _decode(self._s[i])

    def __iter__(self):
        for v in self._s:
            yield _decode(v)

    def extend(self, other):
        self._s.extend(other._s)

    def shared(self, known, out=None):
        """The steps as Step tuples appended to `out` (a new list by default), one tuple per
        distinct step: `known` maps a step's code to its Step and grows as steps are met, so
        traces decoded with the same dict share their tuples.  A board holding every trace of
        a turn keeps a few dozen tuples instead of one per step, and decodes a step it has
        met before with a look-up instead of a new tuple."""
        if out is None:
            out = []
        for v in self._s:
            st = known.get(v)
            if st is None:
                st = known[v] = _decode(v)
            out.append(st)
        return out

    def kinds(self):
        """The kinds only, e.g. ['lift', 'drop', 'drop', 'take']."""
        return [KINDS[v & 15] for v in self._s]

    def __repr__(self):
        return "Trace(%s)" % ", ".join(format_step(s) for s in self)


def _decode(v):
    return Step(KINDS[v & 15], ((v >> _PIT) & 255) - 2, v >> _COUNT, ((v >> _TO) & 255) - 2)


def format_step(s):
    """A short readable form of a step: 'lift 5 (6)', 'drop 7', 'take 3 (2) -> 12' (reasons.py)."""
    from .reasons import format_step
    return format_step(s)
