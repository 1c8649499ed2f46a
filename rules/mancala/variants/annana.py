"""Annana (Djamo, Kale).  Rules: docs/variants/annana.md (source 001, Annana; Djamo and Poo)."""
try:
    from micropython import const
except ImportError:  # CPython
    def const(x):
        return x

from ..game import Mancala, RELAY_LAST
from ..trace import LIFT, RELAY, PASS

# The engine's limit on relays within one move (docs/rules.md, "Endless relays").
_RELAY_LIMIT = const(1000)
_FOUR = const(4)


class Annana(Mancala):
    id = "annana"
    title = "Annana"
    relay = RELAY_LAST

    def _move(self, pit, tr):
        # Sown here rather than by the engine: a four made on the way is taken
        # by the owner of its row the moment it forms, before the next seed.
        p = self.to_move
        b = self._b
        n_pits = self.n_pits
        k = self._per_player
        n = b[pit]
        b[pit] = 0
        if tr is not None:
            tr.add(LIFT, pit, n)
        c = pit
        for _ in range(_RELAY_LIMIT):
            while n:
                c += 1
                if c == n_pits:
                    c = 0
                b[c] += 1
                n -= 1
                if tr is not None:
                    tr.drop(c)
                if n and b[c] == _FOUR:
                    self._take(c, n_pits + c // k, tr)
            if b[c] == _FOUR:
                # The last seed made four: the mover takes them, wherever they are.
                self._take(c, n_pits + p, tr)
                break
            if b[c] == 1:
                break
            n = b[c]
            b[c] = 0
            if tr is not None:
                tr.add(RELAY, c, n)
        self.to_move = 1 - p

    def _no_moves(self, tr):
        # An empty row passes (Decision 9); the game ends only on an empty board.
        p = self.to_move
        if self.has_seeds(1 - p):
            self.to_move = 1 - p
            self._legal = self._moves()
            if tr is not None:
                tr.add(PASS)
            return
        self._finish(tr, "board cleared")
