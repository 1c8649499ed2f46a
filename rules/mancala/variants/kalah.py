"""Kalah (W. J. Champion, 1958).  Rules: docs/variants/kalah.md (source 003, KALAH)."""
from ..game import Mancala


class Kalah(Mancala):
    id = "kalah"
    title = "Kalah"
    stores_sown = True
    extra_turn_in_store = True
    options = (("pits_per_row", 6, range(3, 13)), ("seeds", 4, range(1, 13)))

    def _capture(self, last, player, d, tr):
        # The last seed landed in one of the mover's own pits that was empty:
        # it and the seeds opposite go to the mover's store.
        b = self._b
        if last < self.n_pits and b[last] == 1 and self.owner(last) == player:
            opp = self.opposite(last)
            if b[opp]:
                store = self.n_pits + player
                self._take(opp, store, tr)
                self._take(last, store, tr)
        return False

    def _moves(self):
        moves = Mancala._moves(self)
        if moves and not self.has_seeds(1 - self.to_move):
            # The side opposite is empty: the game is over (see the doc's decisions).
            return []
        return moves
