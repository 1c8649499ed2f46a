"""Hus (Otjitoto).  Rules: docs/variants/hus.md (source 001, I. The Game of Hus).

Four rows; men never leave the board.  Hole names and the end of the game are
those of the four-row games (mancala.variants.fourrows).
"""
from ..game import RELAY_LIMIT
from ..errors import PositionError
from ..trace import LIFT, RELAY, HAND
from .fourrows import FourRows, men_stay_outcome


class Hus(FourRows):
    id = "hus"
    title = "Hus"
    pits_per_row = 12
    seeds = 2
    min_seeds = 2               # a move never starts from a hole with one man
    options = (("pits_per_row", 12, tuple(range(4, 25, 2))),)

    # ----- the board ----------------------------------------------------

    def _initial(self, b):
        # Two men in every outer hole and in the right half of the inner row
        # (the inner row runs from the owner's right, so its first n/2 pits).
        n = self.pits_per_row
        for p in (0, 1):
            base = p * 2 * n
            for i in range(base, base + n + n // 2):
                b[i] = 2

    def total_seeds(self):
        return 6 * self.pits_per_row

    def _check_position(self):
        if self._b[self.n_pits] or self._b[self.n_pits + 1]:
            raise PositionError("Hus keeps every man on the board: both stores must be 0")

    def _start_side(self, p):
        """Whether player p's two rows are still exactly as set up (the opening move's condition)."""
        n = self.pits_per_row
        b = self._b
        base = p * 2 * n
        for i in range(2 * n):
            if b[base + i] != (2 if i < n + n // 2 else 0):
                return False
        return True

    def _opening(self, p):
        """The opening move (IIa): the outer hole behind the last filled inner hole, sown into the inner row after it."""
        n = self.pits_per_row
        front = p * 2 * n + n + n // 2 - 1      # the inner row's right half ends here
        return (self.behind(front), front + 1)

    # ----- moves --------------------------------------------------------

    def _moves(self):
        p = self.to_move
        b = self._b
        out = [i for i in self._sides[p] if b[i] >= 2]
        if out and self._start_side(p):
            out.append(self._opening(p))
        return out

    def _move(self, move, tr):
        p = self.to_move
        b = self._b
        if isinstance(move, tuple):
            pit = move[0]
            origin = move[1] - 1        # sow on from the inner hole before the first one filled
        else:
            pit = origin = move
        n = b[pit]
        b[pit] = 0
        if tr is not None:
            tr.add(LIFT, pit, n)
        last = self._sow(origin, n, p, 1, tr)
        for _ in range(RELAY_LIMIT):
            c = b[last]
            if c == 1:
                break                   # the last man fell into an empty hole
            opp = self.opposite(last)
            if opp >= 0 and b[opp]:
                # Inner hole facing an occupied one: take that hole and the one
                # behind it, and sow them on from the hole just reached.
                k = self._take(opp, HAND, tr) + self._take(self.behind(opp), HAND, tr)
            else:
                k = c
                b[last] = 0
                if tr is not None:
                    tr.add(RELAY, last, k)
            last = self._sow(last, k, p, 1, tr)
        self.to_move = 1 - p

    # ----- the end ------------------------------------------------------

    def _collect_leftovers(self, tr):
        """Men never leave the board: nothing is collected."""

    def _judge(self, reason):
        return men_stay_outcome(self, reason, "player %d has no hole with two or more men and loses")

    # ----- notation and reasons -------------------------------------------

    def _why_illegal(self, move):
        if self._over is not None:
            return "the game is over (%s)" % self._over.reason
        p = self.to_move
        if isinstance(move, tuple):
            opening = self.move_name(self._opening(p))
            if move == self._opening(p):
                return "the opening move %s carries men from the outer row into the inner row, which only a player's first move may do (his rows must be as set up)" % opening
            return "%r is not a move of Hus: a move is a hole number (or, as a player's first move, the opening move %s)" % (move, opening)
        if not isinstance(move, int) or isinstance(move, bool) or not 0 <= move < self.n_pits:
            return "%r is not a hole of Hus (holes are 0 to %d)" % (move, self.n_pits - 1)
        name = self.pit_name(move)
        if self.owner(move) != p:
            return "hole %s belongs to player %d, and player %d is to move" % (name, 1 - p, p)
        if self._b[move] < 2:
            return "hole %s holds %d: a move never starts from a hole with fewer than two men" % (name, self._b[move])
        return "%s is not legal here" % name
