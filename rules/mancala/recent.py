"""The undo records of a game that keeps those of its last moves only (Mancala.limit_undo), and
the repetition keys of the positions before them as digests.

A module of its own: only such a game (a board's) loads it.
"""
from .errors import UndoLimitError

try:
    from binascii import crc32
except ImportError:  # a port built without binascii
    crc32 = None
try:
    from array import array
except ImportError:  # a port built without array: the moves let go stay in a list
    array = None

# A position undo can no longer reach cannot be taken back, so its repetition key need not be
# kept whole: it moves from the game's _seen into _old as a digest of two small ints, the key's
# CRC-32 less two bits and a hash of its bytes modulo a prime below 2**23 (the product of one
# with 127, plus a byte, stays a small int on a 32-bit MicroPython).  On a board the whole key
# (the counts and the player as bytes, 64 bytes of heap and 8 more of _seen) then costs one
# entry of a dict of small ints.  Two positions' digests are the same about once in 2**53: less
# often than two CPython keys (a 64-bit hash) collide over a game of a few hundred moves.
# CPython's keys (ints, that hash) are kept as they are; keys of other kinds (a variant's state
# in a tuple) stay in _seen.
_PRIME = 8388593
_PRIME_B = 8388617     # (a port without binascii: a second such hash, by another prime)
_LOW30 = 0x3FFFFFFF


# A move let go is kept in two bytes of an array, where a list would hold an object for each
# (4 bytes, and 48-64 more for a move with choices): a pit below _RARE as itself; a pit with its
# choices (the Omweso family's (15, "crn"), letters) as _TEXT + where they start in `text`, a
# bytearray of the pit, the letters' count and the letters; any other move in a list of its own
# (`rare`) by its place there, _RARE + i.  Should either run out of numbers the moves become a
# plain list.
_RARE = 0x4000
_TEXT = 0x8000


def _hash(key, prime):
    h = 0
    for c in key:
        h = (h * 127 + c) % prime
    return h


def _digest(key):
    """(a, b): the dict entry that stands for `key` in _old, or None for a key kept whole."""
    if type(key) is int:
        return key, 0
    if type(key) is not bytes:
        return None
    return (crc32(key) & _LOW30 if crc32 is not None else _hash(key, _PRIME_B)), _hash(key, _PRIME)


class Recent:
    """A game's undo records when it keeps only the last ones (Mancala.limit_undo), in place
    of the list: its len is every move played, [i] and iteration give every record (only
    the move and its mover, [0] and [2], of one let go), append and pop as a list's.

    The records of the last most + 1 moves are kept, so that `most` can always be taken
    back: a move played and taken back at once (a board's follower tracing it) takes
    nothing from the others.  limit_undo() called again lets go of that spare one at once
    (a board does after each real move), so that such a move does not even pay for letting
    one go.  In a variant whose pits never gain seeds (pits_drain), a record let go with
    more seeds in the pits than the oldest position undo can reach lets the repetition rule
    forget every position before that one: none can come back."""

    def __init__(self, game, recs, moves, text, rare, movers, most):
        self.g = game
        self.recs = recs
        self.moves = moves      # the moves let go: two bytes each in an array (see _TEXT), or a list
        self.text = text
        self.rare = rare
        self.movers = movers
        self.most = most

    def __len__(self):
        return len(self.moves) + len(self.recs)

    def __getitem__(self, i):
        # (Iteration goes through here too, up to the IndexError.)
        old = len(self.moves)
        if i < 0:
            i += old + len(self.recs)
        if 0 <= i < old:
            return (self._move_at(i), None, self.movers[i], None, None)
        return self.recs[i - old]

    def append(self, rec):
        self.recs.append(rec)
        if len(self.recs) > self.most + 1:
            self.trim(False, 1)

    def pop(self):
        if not self.recs:
            raise UndoLimitError("only the last %d moves can be taken back" % self.most)
        return self.recs.pop()

    def trim(self, now, spare):
        # now: the game's position is not the last record's (limit_undo, not append).
        # Keeps most + spare records (append: one spare, for a move tried and taken back).
        recs = self.recs
        g = self.g
        while len(recs) > self.most + spare:
            gone = recs.pop(0)
            self._keep_move(gone[0])
            self.movers.append(gone[2])
            if g.end_on_repetition:
                self._keep_digest(gone[3])
            a = gone[1]
            if a is None:
                a = gone[3]       # (the counts are the key's: game._undo_counts)
            b = recs[0][1]
            if b is None:
                b = recs[0][3]
            if g.pits_drain and g.end_on_repetition and a is not None and b is not None:
                x = 0
                for i in range(g.n_pits):
                    x += a[i] - b[i]
                if x > 0:
                    # The repetition keys left: the position before each move kept, and the
                    # game's own (in append the last record's; the next one is _after's).
                    # Counted again in the same table and the others dropped: a new table
                    # would be allocated and the old one freed, at every capture.
                    seen = g._seen
                    for k in seen:
                        seen[k] = 0
                    for r in recs:
                        seen[r[3]] = seen.get(r[3], 0) + 1
                    if now and g._key is not None:     # (None: the game ended with no position counted)
                        seen[g._key] = seen.get(g._key, 0) + 1
                    for k in [k for k in seen if not seen[k]]:
                        del seen[k]
                    if g._old is not None:
                        g._old.clear()

    def _keep_move(self, move):
        moves = self.moves
        if type(moves) is list:
            moves.append(move)
            return
        t = type(move)
        if t is int and 0 <= move < _RARE:
            moves.append(move)
            return
        text = self.text
        if t is tuple and len(move) == 2 and type(move[0]) is int and type(move[1]) is str \
                and 0 <= move[0] < 256 and len(move[1]) < 256 and len(text) < _TEXT and move[1].isalpha():
            moves.append(_TEXT + len(text))
            text.append(move[0])
            text.append(len(move[1]))
            text.extend(move[1].encode())
            return
        if len(self.rare) < _TEXT - _RARE:
            moves.append(_RARE + len(self.rare))
            self.rare.append(move)
            return
        self.moves = [self._move_at(i) for i in range(len(moves))]
        self.moves.append(move)

    def _move_at(self, i):
        v = self.moves[i]
        if type(self.moves) is list or v < _RARE:
            return v
        if v < _TEXT:
            return self.rare[v - _RARE]
        o = v - _TEXT
        return (self.text[o], bytes(self.text[o + 2:o + 2 + self.text[o + 1]]).decode())

    def _keep_digest(self, key):
        # `key`: the position before the move whose record is let go, which undo can no longer
        # reach.  A key counted twice (the game ended on it) stays whole, as undo may still
        # take one count back.
        g = self.g
        seen = g._seen
        if seen.get(key) != 1:
            return
        d = _digest(key)
        if d is None:
            return
        del seen[key]
        old = g._old
        if old is None:
            old = g._old = {}
        a, b = d
        was = old.get(a)
        if was is None:
            old[a] = b
        elif type(was) is tuple:
            if b not in was:
                old[a] = was + (b,)
        elif was != b:
            old[a] = (was, b)      # (two positions with the same first half: about once in 2**30)

    def had(self, key):
        """Whether `key` is one of the positions kept as digests (the game's _old)."""
        d = _digest(key)
        if d is None:
            return False
        was = self.g._old.get(d[0])
        if was is None:
            return False
        return was == d[1] or (type(was) is tuple and d[1] in was)

    def copy(self, game):
        return Recent(game, self.recs[:], self.moves[:], self.text[:], self.rare[:], self.movers[:], self.most)


def limit(game, most):
    """Mancala.limit_undo(most): `most` records kept (the next move played keeps one more)."""
    if not (isinstance(most, int) and most > 0):
        raise ValueError("limit_undo: a number of moves, 1 or more, not %r" % (most,))
    h = game._hist
    if type(h) is list:
        h = game._hist = Recent(game, h, [] if array is None else array("H"), bytearray(), [], bytearray(), most)
    h.most = most
    h.trim(True, 0)
