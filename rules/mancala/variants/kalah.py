"""Kalah (W. J. Champion, 1958).  Rules: docs/variants/kalah.md (source 003, KALAH)."""
from ..game import Mancala


class Kalah(Mancala):
    id = "kalah"
    title = "Kalah"
    stores_sown = True
    extra_turn_in_store = True
    # Seeds only move forward along a row into the stores, so no position can
    # come round again (decision 7): no repetition keys to compute.
    end_on_repetition = False
    options = (("pits_per_row", 6, range(3, 13)), ("seeds", 4, range(1, 13)),
               ("empty_capture", "take", ("take", "leave")))

    def _capture(self, last, player, d, tr):
        # The last seed landed in one of the mover's own pits that was empty:
        # it and the seeds opposite go to the mover's store; with nothing opposite
        # the lone seed goes too, or stays with empty_capture="leave" (decision 2).
        # (The count first: this runs after every move, and most end elsewhere.)
        if self._b[last] == 1 and last < self.n_pits and last // self._per_player == player:
            o = self.n_pits - 1 - last
            if not self._b[o] and self.empty_capture == "leave":
                return False
            store = self.n_pits + player
            self._take(o, store, tr)
            self._take(last, store, tr)
        return False
