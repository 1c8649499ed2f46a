"""Pandi (India).  Rules: docs/variants/pandi.md (source 000, PANDI).

Sowing goes on from the hole after the last stone; an empty hole there ends
the move and wins the hole beyond it and the hole opposite that one; fours
("calves") go to the owner of their row the moment they form.  Pallam Kuzhi
(variants/pallam_kuzhi.py) is the same game without the opposite hole.
"""
try:
    from micropython import const
except ImportError:  # CPython
    def const(x):
        return x

from ..game import RELAY_LIMIT
from ..trace import LIFT, RELAY
from ..closed import ClosedPits

_FOUR = const(4)


class Pandi(ClosedPits):
    id = "pandi"
    title = "Pandi"
    pits_per_row = 7
    seeds = 5
    fours = True              # a drop that makes four sends them to the row's owner (rule 7)
    take_opposite = True      # a capture wins the hole opposite the one beyond the empty hole too
    options = (("pits_per_row", 7, range(3, 10)), ("seeds", 5, range(1, 10)))

    def _move(self, pit, tr):
        p = self.to_move
        b = self._b
        succ = self._succ     # the next open hole (closed shops are passed over)
        n = b[pit]
        b[pit] = 0
        if tr is not None:
            tr.add(LIFT, pit, n)
        last = self._sow(pit, n, p, 1, tr)
        relays = 0
        while True:
            if b[last] == _FOUR:
                # The engine's fours rule leaves a four made by the last seed to
                # the variant: here it is a calf like any other (rule 7).
                self._four_made(last, tr)
            nxt = succ[last]
            n = b[nxt]
            if not n:
                self._capture_beyond(nxt, p, tr)
                break
            if relays == RELAY_LIMIT:
                break     # decision 9
            relays += 1
            # The hole after the last stone holds stones: lift them and sow on.
            b[nxt] = 0
            if tr is not None:
                tr.add(RELAY, nxt, n)
            last = self._sow(nxt, n, p, 1, tr)
        self.to_move = 1 - p

    def _capture_beyond(self, empty, player, tr):
        """The move stopped at the empty hole `empty`: win the hole beyond it (and its opposite)."""
        beyond = self._succ[empty]
        if not self._b[beyond]:
            return    # two empty holes: nothing is won (rule 6)
        store = self.n_pits + player
        self._take(beyond, store, tr)
        if self.take_opposite:
            self._take(self.opposite(beyond), store, tr)

    def _no_moves(self, tr):
        # The player to move has nothing to play with: the round is over and the
        # other player keeps what is on his side (decision 8).
        self._finish(tr, "player %d has no stones to move" % self.to_move)

    # ----- matches (docs/variants/pandi.md, "Matches") --------------------

    shortfall = "cannot fill a single hole"

    def _match_standing(self, match):
        """Stones each player holds: his holes and his store house."""
        b = self._b
        return [sum(b[i] for i in self.side(p)) + b[self.n_pits + p] for p in (0, 1)]

    def _round_result(self, match):
        from ..rounds import carried_result
        held = self.stores      # the round's leftovers have gone to the stores
        short = [p for p in (0, 1) if held[p] < self.seeds]
        return carried_result(self, match, held, short, self.shortfall)

    def _next_round(self, match, result, first, choices):
        from ..rounds import no_choices, refilled_round
        no_choices(self.title, choices)
        # Holes are filled from No. 1 on; the last ones (7th, then 6th...) are closed.
        return refilled_round(self, result.points, first, (self.side(0), self.side(1)))
