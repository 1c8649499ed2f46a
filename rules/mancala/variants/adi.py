"""Adi (Gold Coast).  Rules: docs/variants/adi.md (source 000, THE AFRICAN GAME OF ADI)."""
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
# With this many seeds or fewer still in play, whoever wins a four takes them all.
_EIGHT = const(8)


class Adi(Mancala):
    id = "adi"
    title = "Adi"
    relay = RELAY_LAST        # documents the rule; the sowing itself is done in _move
    _eight = False            # set by a move that ended the round by the eight-left rule

    def _move(self, pit, tr):
        # Sown here rather than by the engine: a four made on the way goes to the
        # owner of its house the moment it forms, before the next seed is dropped.
        p = self.to_move
        b = self._b
        n_pits = self.n_pits
        k = self._per_player
        left = 0                  # seeds in play: in the houses and in the hand
        for i in range(n_pits):
            left += b[i]
        n = b[pit]
        b[pit] = 0
        if tr is not None:
            tr.add(LIFT, pit, n)
        c = pit
        winner = -1               # who won a four with eight or fewer in play
        relays = 0
        while True:
            while n:
                c += 1
                if c == n_pits:
                    c = 0
                b[c] += 1
                n -= 1
                if tr is not None:
                    tr.drop(c)
                if n and b[c] == _FOUR and winner < 0:
                    owner = c // k
                    self._take(c, n_pits + owner, tr)
                    if left <= _EIGHT:
                        winner = owner
                    left -= _FOUR
            if winner >= 0:
                break
            if b[c] == _FOUR:
                # The last seed made four: the sower takes them, wherever they are.
                self._take(c, n_pits + p, tr)
                if left <= _EIGHT:
                    winner = p
                break
            if b[c] == 1 or relays == _RELAY_LIMIT:
                break
            relays += 1
            n = b[c]
            b[c] = 0
            if tr is not None:
                tr.add(RELAY, c, n)
        self._eight = winner >= 0
        if winner >= 0:
            # Eight left: the winner of that four takes every seed still in play.
            for i in range(n_pits):
                if b[i]:
                    self._take(i, n_pits + winner, tr)
        self.to_move = 1 - p

    def _after(self, tr):
        if self._over is None:
            seeds = 0
            for i in range(self.n_pits):
                seeds += self._b[i]
            if seeds < _FOUR:
                # No four can be made any more (or the eight-left rule took them all).
                eight = self._eight
                self._eight = False
                self._finish(tr, "eight left" if eight else "fewer than four seeds left")
                return
        Mancala._after(self, tr)

    def _no_moves(self, tr):
        # A player with no seeds passes; the other plays again (source, closing note).
        p = self.to_move
        if self.has_seeds(1 - p):
            self.to_move = 1 - p
            self._legal = self._moves()
            if tr is not None:
                tr.add(PASS)
            return
        self._finish(tr, "no moves")
