"""Sunca (Philippines).  Rules: docs/variants/sunca.md (source 000, SUNCA).

Dakon's game sown clockwise: each player's home is at his left end, and both
players open from the hole at their right-hand corner.
"""
from .dakon import Dakon


class Sunca(Dakon):
    id = "sunca"
    title = "Sunca"
    direction = -1
    # Each home is at its owner's left (decision 1): a board with an end store
    # at each side gives player 0 the one the counter-clockwise games give player 1.
    stores_at_left = True

    def _start_pit(self, player):
        # The right-hand corner: the first hole of the row going clockwise.
        k = self.pits_per_row
        return player * k + k - 1

    def _ring(self, d, player):
        # Clockwise, each home comes right after its owner's row (at his left):
        # k-1 .. 0, home 0, 2k-1 .. k, home 1 (decision 1).
        k = self.pits_per_row
        ring = []
        for p in range(2):
            ring.extend(range(p * k + k - 1, p * k - 1, -1))
            ring.append(self.n_pits + p)
        if d > 0:
            ring.reverse()
        return ring
