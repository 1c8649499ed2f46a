"""Giuthi (Gayothe), the Kikuyu game, as two sources tell it.

Rules: docs/variants/giuthi.md (source 000, GIUTHI (Gayothe)) and
docs/variants/giuthi-driedger.md (source 004, 12 - KIKUYU, GIUTHI).
"""
try:
    from micropython import const
except ImportError:  # CPython
    def const(x):
        return x

from ..game import Mancala, RELAY_LAST
from ..trace import LIFT, RELAY, EXTRA

# The engine's limit on relays within one move (docs/rules.md, "Endless relays").
_RELAY_LIMIT = const(1000)


class Giuthi(Mancala):
    id = "giuthi"
    title = "Giuthi"
    pits_per_row = 6
    seeds = 6
    relay = RELAY_LAST      # every relay turns round: see _move
    direction = 0           # the player chooses the first handful's direction
    min_seeds = 2           # a single seed never starts a move
    pass_when_stuck = True  # a player without a pit of two passes; the game ends when neither can move
    options = (("pits_per_row", 6, (4, 6)), ("seeds", 6, range(4, 10)))

    def _move(self, move, tr):
        p = self.to_move
        pit = move[0]
        d = move[1]
        b = self._b
        n_pits = self.n_pits
        lo = p * self._per_player
        hi = lo + self._per_player
        n = b[pit]
        b[pit] = 0
        if tr is not None:
            tr.add(LIFT, pit, n)
        c = pit
        crossed = False
        for _ in range(_RELAY_LIMIT):
            while n:
                c += d
                if c == n_pits:
                    c = 0
                elif c < 0:
                    c = n_pits - 1
                b[c] += 1
                n -= 1
                if tr is not None:
                    tr.drop(c)
                if c < lo or c >= hi:
                    crossed = True
            if b[c] == 1:
                break
            # An occupied pit: lift it and sow back the other way.
            n = b[c]
            b[c] = 0
            d = -d
            if tr is not None:
                tr.add(RELAY, c, n)
        if b[c] == 1 and not crossed:
            # Ended at home before crossing: no capture, the player starts afresh.
            if tr is not None:
                tr.add(EXTRA)
            return
        if b[c] == 1 and lo <= c < hi:
            self._capture_string(c, d, p, lo, hi, tr)
        self.to_move = 1 - p

    def _capture_string(self, c, d, p, lo, hi, tr):
        """Take the capturing seed and its facing pit, then the string beyond it."""
        b = self._b
        last = self.n_pits - 1
        store = self.n_pits + p
        if not b[last - c]:
            return
        self._take(c, store, tr)
        self._take(last - c, store, tr)
        c += d
        while lo <= c < hi and not b[c] and b[last - c]:
            self._take(last - c, store, tr)
            c += d


class GiuthiDriedger(Giuthi):
    id = "giuthi-driedger"
    title = "Giuthi (Driedger)"
    pits_per_row = 8
    options = (("pits_per_row", 8, range(5, 11)), ("seeds", 6, range(4, 10)))

    def _moves(self):
        # A row with no stones ends the game (Decision 6).
        if not (self.has_seeds(0) and self.has_seeds(1)):
            return []
        return Giuthi._moves(self)

    def _no_moves(self, tr):
        if not (self.has_seeds(0) and self.has_seeds(1)):
            self._finish(tr, "empty row")
            return
        Giuthi._no_moves(self, tr)
