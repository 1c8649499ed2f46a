"""Pallam Kuzhi (Pallanguzhi, South India).  Rules: docs/variants/pallam-kuzhi.md
(source 000, PALLAM KUZHI).

Pandi's sowing from the next cup and its fours, four seeds a cup, and a capture
of the cup beyond the empty one only.
"""
from .pandi import Pandi


class PallamKuzhi(Pandi):
    id = "pallam-kuzhi"
    title = "Pallam Kuzhi"
    seeds = 4
    take_opposite = False
    options = (("pits_per_row", 7, range(3, 10)), ("seeds", 4, range(1, 10)),
               ("claims", "automatic", ("automatic", "chosen")))
    shortfall = "cannot fill a single cup"   # rule 8: the match is over

    def _no_moves(self, tr):
        self._finish(tr, "player %d has no seeds to move" % self.to_move)
