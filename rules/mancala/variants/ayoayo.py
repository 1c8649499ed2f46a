"""Ayoayo (Yoruba).  Rules: docs/variants/ayoayo.md (source 003, AYÒAYÒ)."""
from ..game import Mancala, RELAY_LAST


class Ayoayo(Mancala):
    id = "ayoayo"
    title = "Ayoayo"
    pits_drain = True         # seeds leave the pits only for the stores
    skip_origin = True
    relay = RELAY_LAST

    def _capture(self, last, player, d, tr):
        # The sowing stopped in a pit that was empty (it now holds the last
        # seed); on the mover's own side that takes the seeds opposite.
        b = self._b
        if last < self.n_pits and b[last] == 1 and self.owner(last) == player:
            self._take(self.opposite(last), self.n_pits + player, tr)
        return False
