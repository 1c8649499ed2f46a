"""Mbothe (Pokomo).  Rules: docs/variants/mbothe.md (source 004, 11 - POKOME, MBOTHE)."""
try:
    from micropython import const
except ImportError:  # CPython
    def const(x):
        return x

from ..errors import PositionError
from ..game import Mancala, RELAY_LAST, RELAY_LIMIT
from ..trace import LIFT, RELAY, EXTRA, PASS, SKIP, DROP_CODE

_TWO = const(2)


class Mbothe(Mancala):
    id = "mbothe"
    title = "Mbothe"
    pits_per_row = 10
    seeds = 2
    relay = RELAY_LAST
    has_state = True        # whether the opening turn (no passing over twos) is still to come
    # What the opening exemption from passing over twos covers: the opening player's whole
    # first turn, or its first handful only (docs/variants/mbothe.md, decision 2).
    options = (("exemption", "turn", ("turn", "handful")),)

    def _start(self, fresh):
        self._opening = fresh

    def _save(self):
        return self._opening

    def _restore(self, saved):
        self._opening = saved

    def _state_fields(self):
        return ["opening=1"] if self._opening else []

    def _load_state_fields(self, fields):
        for name in fields:
            if name != "opening" or fields[name] not in ("0", "1"):
                raise PositionError("Mbothe's only state field is opening=0 or opening=1, not %s=%s" % (name, fields[name]))
        self._opening = fields["opening"] == "1"
        self._legal = None

    # ----- a turn -----------------------------------------------------------

    def _sow_from(self, pit, p, tr):
        """Lift `pit`, sow with relays and passing over, capture; return True after a capture."""
        b = self._b
        n_pits = self.n_pits
        lo = p * self._per_player
        hi = lo + self._per_player
        skip = not self._opening
        n = b[pit]
        b[pit] = 0
        if tr is not None:
            tr.add(LIFT, pit, n)
        c = pit
        s = tr._s if tr is not None else None   # drop steps appended inline (Trace.drop): once a seed
        code = DROP_CODE + 32                   # (c << 4) + code == ((c + 2) << 4) | DROP_CODE
        for lap in range(RELAY_LIMIT):
            while n:
                c += 1
                if c == n_pits:
                    c = 0
                if skip and b[c] == _TWO and (c < lo or c >= hi):
                    # The opponent's pits of two are passed over (own pits never
                    # are, so a lap always has somewhere to drop).
                    if tr is not None:
                        tr.add(SKIP, c)
                    continue
                b[c] += 1
                n -= 1
                if s is not None:
                    s.append((c << 4) + code)
            if b[c] == 1:
                break
            if lap == RELAY_LIMIT - 1:
                return False            # an endless relay stops where it is (docs/rules.md)
            n = b[c]
            b[c] = 0
            if tr is not None:
                tr.add(RELAY, c, n)
            if self.exemption == "handful":
                skip = True             # the exemption was the first handful's only
        opp = n_pits - 1 - c
        if lo <= c < hi and b[opp] == _TWO:
            self._take(opp, n_pits + p, tr)
            return True
        return False

    def _move(self, pit, tr):
        p = self.to_move
        again = self._sow_from(pit, p, tr)
        self._opening = False
        if again:
            # A capture gives a free move.
            if tr is not None:
                tr.add(EXTRA)
        else:
            self.to_move = 1 - p

    # ----- which pits may start ----------------------------------------------

    def _starts(self, p):
        """Pits a turn of player p may start from, before the feeding rule."""
        b = self._b
        side = self._sides[p]
        out = [i for i in side if b[i] and b[i] != _TWO]
        if not out:
            # Only twos (or nothing): the rightmost pit holding stones must be played.
            for j in range(len(side) - 1, -1, -1):
                if b[side[j]]:
                    out.append(side[j])
                    break
        return out

    def _moves(self):
        p = self.to_move
        moves = self._starts(p)
        if moves and not self.has_seeds(1 - p):
            moves = [m for m in moves if self._feeds(m, p)]
        return moves

    def _feeds(self, pit, p):
        """Whether playing `pit` leaves the opponent (now empty) some stones."""
        b = self._b
        saved = b[:]
        opening = self._opening
        self._sow_from(pit, p, None)
        fed = self.has_seeds(1 - p)
        b[:] = saved
        self._opening = opening
        return fed

    def _no_moves(self, tr):
        p = self.to_move
        if not self.has_seeds(p):
            # Nothing to play with: pass, and the opponent must feed (rule 8).
            self.to_move = 1 - p
            moves = self._moves()
            if moves:
                self._legal = moves
                if tr is not None:
                    tr.add(PASS)
                return
            self.to_move = p
        self._finish(tr, "no moves")

    def _why_rule(self, move):
        p = self.to_move
        b = self._b
        if move not in self._starts(p):
            if b[move] == _TWO:
                return "pit %s holds two stones: a move may start from it only when no pit of yours holds one or three or more, and then only from the rightmost" % self.pit_name(move)
            return "pit %s cannot start a move here" % self.pit_name(move)
        if not self.has_seeds(1 - p):
            return "the opponent has no stones: you must play a move that gives him some, and %s does not" % self.pit_name(move)
        return Mancala._why_rule(self, move)
