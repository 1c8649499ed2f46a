"""The undo records of a game that keeps those of its last moves only (Mancala.limit_undo).

A module of its own: only such a game (a board's) loads it.
"""
from .errors import UndoLimitError


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

    def __init__(self, game, recs, moves, movers, most):
        self.g = game
        self.recs = recs
        self.moves = moves
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
            return (self.moves[i], None, self.movers[i], None, None)
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
            self.moves.append(gone[0])
            self.movers.append(gone[2])
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

    def copy(self, game):
        return Recent(game, self.recs[:], self.moves[:], self.movers[:], self.most)


def limit(game, most):
    """Mancala.limit_undo(most): `most` records kept (the next move played keeps one more)."""
    if not (isinstance(most, int) and most > 0):
        raise ValueError("limit_undo: a number of moves, 1 or more, not %r" % (most,))
    h = game._hist
    if type(h) is list:
        h = game._hist = Recent(game, h, [], bytearray(), most)
    h.most = most
    h.trim(True, 0)
