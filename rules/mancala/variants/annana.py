"""Annana (Djamo, Kale).  Rules: docs/variants/annana.md (source 001, Annana; Djamo and Poo)."""
from ..game import Mancala, RELAY_LAST


class Annana(Mancala):
    id = "annana"
    title = "Annana"
    pits_drain = True         # seeds leave the pits only for the stores
    relay = RELAY_LAST
    # A four made on the way is taken by the owner of its row the moment it
    # forms, before the next seed (the engine's `fours` part).
    fours = True
    pass_when_stuck = True          # an empty row passes (decision 9)
    no_moves_reason = "board cleared"

    def _relay_from(self, last, player, d):
        if self._b[last] == 4:
            return -1               # the last seed made four: _capture takes it
        return Mancala._relay_from(self, last, player, d)

    def _capture(self, last, player, d, tr):
        if last < self.n_pits and self._b[last] == 4:
            # The last seed made four: the mover takes them, wherever they are.
            self._take(last, self.n_pits + player, tr)
        return False
