"""Adi (Gold Coast).  Rules: docs/variants/adi.md (source 000, THE AFRICAN GAME OF ADI)."""
try:
    from micropython import const
except ImportError:  # CPython
    def const(x):
        return x

from ..game import Mancala, RELAY_LAST

# With this many seeds or fewer still in play, whoever wins a four takes them all.
_EIGHT = const(8)


class Adi(Mancala):
    id = "adi"
    title = "Adi"
    relay = RELAY_LAST
    # A four made on the way goes to the owner of its house the moment it
    # forms, before the next seed is dropped (the engine's `fours` part).
    fours = True
    pass_when_stuck = True           # a player with no seeds passes (source, closing note)
    min_seeds_in_play = 4            # no four can be made any more
    few_seeds_reason = "fewer than four seeds left"

    def _move(self, move, tr):
        self._left = sum(self._b[:self.n_pits])   # seeds in play: houses and hand
        self._winner = -1                          # who won a four with eight or fewer in play
        Mancala._move(self, move, tr)

    def _four_made(self, pit, tr):
        if self._winner >= 0:
            return      # the eight-left rule has fired: the rest of the hand is just dropped
        owner = self.owner(pit)
        self._take(pit, self.n_pits + owner, tr)
        self._won_four(owner)

    def _won_four(self, player):
        if self._left <= _EIGHT:
            self._winner = player
        self._left -= 4

    def _relay_from(self, last, player, d):
        if self._winner >= 0 or self._b[last] == 4:
            return -1
        return Mancala._relay_from(self, last, player, d)

    def _capture(self, last, player, d, tr):
        b = self._b
        if self._winner < 0 and last < self.n_pits and b[last] == 4:
            # The last seed made four: the sower takes them, wherever they are.
            self._take(last, self.n_pits + player, tr)
            self._won_four(player)
        w = self._winner
        if w >= 0:
            # Eight left: the winner of that four takes every seed still in play.
            for i in range(self.n_pits):
                if b[i]:
                    self._take(i, self.n_pits + w, tr)
        self.few_seeds_reason = "eight left" if w >= 0 else Adi.few_seeds_reason
        return False
