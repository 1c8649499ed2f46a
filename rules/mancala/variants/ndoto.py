"""Ndoto (Kilinje).  Rules: docs/variants/ndoto.md (source 004, 13 - KILINJE, NDOTO)."""
from ..game import Mancala, RELAY_LAST


class Ndoto(Mancala):
    id = "ndoto"
    title = "Ndoto"
    pits_per_row = 8
    seeds = 2
    relay = RELAY_LAST

    def _capture(self, last, player, d, tr):
        # The last seed fell into an empty pit of the mover's row: the facing
        # seeds are taken, the capturing seed stays.
        if self._b[last] == 1 and self.owner(last) == player:
            self._take(self.n_pits - 1 - last, self.n_pits + player, tr)
        return False

    def _moves(self):
        # A single seed may move only into an empty pit (it cannot start a relay).
        b = self._b
        n_pits = self.n_pits
        out = []
        for i in self._sides[self.to_move]:
            c = b[i]
            if c > 1 or (c == 1 and not b[(i + 1) % n_pits]):
                out.append(i)
        return out

    def _why_rule(self, move):
        if self._b[move] == 1:
            return "pit %s holds a single seed and the next pit is occupied: a single seed may only move into an empty pit" % self.pit_name(move)
        return Mancala._why_rule(self, move)
