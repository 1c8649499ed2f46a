"""Dakon (Java).  Rules: docs/variants/dakon.md (source 000, THE STORY OF DAKON).

Relay sowing through one's own store, another move after ending in it, capture
across from an empty cup of one's own row - and an opening in which both
players sow at once.  Sunca (variants/sunca.py) is this game sown clockwise.
"""
from ..game import Mancala, RELAY_LAST
from ..trace import LIFT, EXTRA, PASS


class Dakon(Mancala):
    id = "dakon"
    title = "Dakon"
    pits_per_row = 7
    seeds = 7
    stores_sown = True
    relay = RELAY_LAST
    extra_turn_in_store = True
    options = (("pits_per_row", 7, range(3, 10)), ("seeds", 7, range(1, 10)))

    def _start_pit(self, player):
        """The cup a player's opening handful comes from: the first of his row in the sowing direction."""
        return player * self.pits_per_row

    def _is_opening(self):
        """Whether the position is the start: every pit full and nothing stored (decision 3)."""
        b = self._b
        n = self.n_pits
        if b[n] or b[n + 1]:
            return False
        s = self.seeds
        for i in range(n):
            if b[i] != s:
                return False
        return True

    def _moves(self):
        if self._is_opening():
            return [self._start_pit(self.to_move)]
        return Mancala._moves(self)

    def _move(self, move, tr):
        if self._is_opening():
            self._opening(tr)
        else:
            Mancala._move(self, move, tr)

    def _opening(self, tr):
        # Both players lift at once; their handfuls are sown one after the other,
        # the mover's first (decision 3).  With the source's numbers they never meet.
        p = self.to_move
        q = 1 - p
        d = self.direction
        b = self._b
        a = self._start_pit(p)
        c = self._start_pit(q)
        na = b[a]
        nc = b[c]
        b[a] = 0
        b[c] = 0
        if tr is not None:
            tr.add(LIFT, a, na)
            tr.add(LIFT, c, nc)
        last = self._sow_move(a, na, p, d, tr)
        self._capture(last, p, d, tr)
        p_goes_on = last == self.n_pits + p
        last = self._sow_move(c, nc, q, d, tr)
        self._capture(last, q, d, tr)
        if not p_goes_on and last == self.n_pits + q:
            self.to_move = q      # the other hand is still going when the mover stopped
        elif tr is not None:
            tr.add(EXTRA)         # the mover restarts first (or stopped first)

    def _capture(self, last, player, d, tr):
        # Last seed into an empty cup of one's own row: the seeds across go to
        # the store; the sowing seed stays (decision 5).
        b = self._b
        if last < self.n_pits and b[last] == 1 and self.owner(last) == player:
            self._take(self.opposite(last), self.n_pits + player, tr)
        return False

    def _no_moves(self, tr):
        # A player with an empty row passes and waits to be fed; the round is
        # over only when every seed is in a store (decision 7).
        p = self.to_move
        if self.has_seeds(1 - p):
            self.to_move = 1 - p
            self._legal = self._moves()
            if tr is not None:
                tr.add(PASS)
            return
        self._finish(tr, "every seed is in a store")
