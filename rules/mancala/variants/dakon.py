"""Dakon (Java).  Rules: docs/variants/dakon.md (source 000, THE STORY OF DAKON).

Relay sowing through one's own store, another move after ending in it, capture
across from an empty cup of one's own row - and an opening in which both
players sow at once.  Between the rounds of a match the cups a player cannot
fill lie fallow (closed pits).  Sunca (variants/sunca.py) is this game sown
clockwise.
"""
from ..game import Mancala, RELAY_LAST
from ..errors import PositionError
from ..trace import LIFT, EXTRA, PASS
from ..closed import ClosedPits


class Dakon(ClosedPits):
    id = "dakon"
    title = "Dakon"
    pits_per_row = 7
    seeds = 7
    stores_sown = True
    relay = RELAY_LAST
    extra_turn_in_store = True
    options = (("pits_per_row", 7, range(3, 10)), ("seeds", 7, range(1, 10)))

    def _start(self, fresh):
        self._last = -1     # who made the last move, when a finished round is read from text

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

    # ----- matches (docs/variants/dakon.md, "Matches") --------------------

    def _sowing_row(self, player):
        """The player's cups in sowing order, from his starting cup: the beginning holes first."""
        a = self._start_pit(player)
        d = self.direction
        return [a + d * i for i in range(self.pits_per_row)]

    def last_mover(self):
        """The player who made the last move (-1 if unknown): he finished last."""
        if self._hist:
            return self._hist[-1][2]
        return self._last

    def _state_fields(self):
        out = ClosedPits._state_fields(self)
        if self._over is not None and self.last_mover() >= 0:
            out.append("last=%d" % self.last_mover())
        return out

    def _field_names(self):
        return "closed, last"

    def _load_more_fields(self, fields):
        last = fields.pop("last", None)
        if last is not None:
            if last not in ("0", "1") or self._over is None:
                raise PositionError("%s: last=0 or last=1 says who finished a round that is over, not %r" % (
                    self.title, last))
            self._last = int(last)

    def _match_standing(self, match):
        """Seeds each player holds: his cups and his shed."""
        b = self._b
        return [sum(b[i] for i in self.side(p)) + b[self.n_pits + p] for p in (0, 1)]

    def _round_result(self, match):
        from ..rounds import carried_result, fixed_first
        held = self.stores      # every seed is in a shed when a round is over
        short = [p for p in (0, 1) if held[p] < self.seeds]
        r = carried_result(self, match, held, short, "cannot fill a single cup")
        last = self.last_mover()
        if last >= 0:
            return fixed_first(r, last, "he finished last")
        if r.winner is not None:
            return fixed_first(r, r.winner, "he won the round (who finished last is not known)")
        return r

    def _next_round(self, match, result, first, choices):
        from ..rounds import no_choices, refilled_round
        no_choices(self.title, choices)
        # The cups nearest the shed are filled first; the beginning holes lie fallow.
        orders = []
        for p in (0, 1):
            order = self._sowing_row(p)
            order.reverse()
            orders.append(order)
        return refilled_round(self, result.points, first, orders)
