"""Giuthi (Gayothe), the Kikuyu game, as two sources tell it.

Rules: docs/variants/giuthi.md (source 000, GIUTHI (Gayothe)) and
docs/variants/giuthi-driedger.md (source 004, 12 - KIKUYU, GIUTHI).
"""
try:
    from micropython import const
except ImportError:  # CPython
    def const(x):
        return x

from ..game import RELAY_LAST, RELAY_LIMIT
from ..errors import PositionError
from ..trace import LIFT, RELAY, EXTRA, DROP_CODE
from ..closed import ClosedPits



class Giuthi(ClosedPits):
    id = "giuthi"
    title = "Giuthi"
    pits_per_row = 6
    seeds = 6
    relay = RELAY_LAST      # every relay turns round: see _move
    direction = 0           # the player chooses the first handful's direction
    min_seeds = 2           # a single seed never starts a move
    pass_when_stuck = True  # a player without a pit of two passes; the game ends when neither can move
    options = (("pits_per_row", 6, (4, 6)), ("seeds", 6, range(4, 10)))

    def _move(self, move, tr):
        p = self.to_move
        pit = move[0]
        d = move[1]
        b = self._b
        # One step in the direction of sowing, past closed cups (Part II's unused cups).
        step = self._succ if d > 0 else self._pred
        lo = p * self._per_player
        hi = lo + self._per_player
        n = b[pit]
        b[pit] = 0
        if tr is not None:
            tr.add(LIFT, pit, n)
        c = pit
        crossed = False
        s = tr._s if tr is not None else None   # drop steps appended inline (Trace.drop): once a seed
        code = DROP_CODE + 32                   # (c << 4) + code == ((c + 2) << 4) | DROP_CODE
        for lap in range(RELAY_LIMIT):
            while n:
                c = step[c]
                b[c] += 1
                n -= 1
                if s is not None:
                    s.append((c << 4) + code)
                if c < lo or c >= hi:
                    crossed = True
            if b[c] == 1 or lap == RELAY_LIMIT - 1:
                break                   # (an endless relay stops where it is: docs/rules.md)
            # An occupied pit: lift it and sow back the other way.
            n = b[c]
            b[c] = 0
            d = -d
            step = self._succ if d > 0 else self._pred
            if tr is not None:
                tr.add(RELAY, c, n)
        if b[c] == 1 and not crossed:
            # Ended at home before crossing: no capture, the player starts afresh.
            if tr is not None:
                tr.add(EXTRA)
            return
        if b[c] == 1 and lo <= c < hi:
            self._capture_string(c, d, p, lo, hi, tr)
        self.to_move = 1 - p

    def _capture_string(self, c, d, p, lo, hi, tr):
        """Take the capturing seed and its facing pit, then the string beyond it."""
        b = self._b
        last = self.n_pits - 1
        store = self.n_pits + p
        if not b[last - c]:
            return
        self._take(c, store, tr)
        self._take(last - c, store, tr)
        step = self._succ if d > 0 else self._pred
        c = step[c]
        while lo <= c < hi and not b[c] and b[last - c]:
            self._take(last - c, store, tr)
            c = step[c]

    # ----- Part II (docs/variants/giuthi.md, "Matches") ----------------------
    # Each player keeps what he won.  The loser, the poor man, arranges some of
    # his seeds in three or more of his cups; the rich man puts twice as many
    # in each cup facing them; the other cups are not used.  The rich man
    # plays first.  Rounds go on until the poor man cannot set up.

    def _match_standing(self, match):
        """Seeds each player holds: his cups and his shed."""
        b = self._b
        return [sum(b[i] for i in self.side(p)) + b[self.n_pits + p] for p in (0, 1)]

    def _round_result(self, match):
        from ..rounds import RoundResult, fixed_first, other_first
        s = self.stores     # every seed is in a shed when a game is over
        w = self.outcome().winner
        r = RoundResult(match.round, match.first, w, s, s, other_first(match), False)
        if w is None:
            return r        # equal seeds: Part I again, on a full board
        fixed_first(r, w, "the rich man plays first")
        if s[1 - w] < 3:
            r.over = True
            r.match_winner = w
            r.reason = "player %d has %d seeds, too few to fill the three cups Part II needs" % (1 - w, s[1 - w])
        return r

    def _next_round(self, match, result, first, choices):
        from ..rounds import fresh_round, no_choices, options_of, row_counts
        arrangement = choices.pop("arrangement", None)
        no_choices(self.title, choices, "arrangement=")
        w = result.winner
        if w is None:
            if arrangement is not None:
                raise PositionError("%s: the game was drawn, so Part I is played again: there is no arrangement to make" % self.title)
            return fresh_round(self, first)
        poor = 1 - w
        held = result.points
        most = min(held[poor], held[w] // 2)   # the rich man must be able to double every cup
        n = self.pits_per_row
        if arrangement is None:
            used = min(n, most)
            arrangement = [0] * n
            for i in range(most):
                arrangement[i % used] += 1
        row = row_counts(self, poor, arrangement, "arrangement")
        used = [i for i in range(n) if row[i]]
        if len(used) < 3:
            raise PositionError("%s: the poor man (player %d) must use at least three cups, not %d" % (self.title, poor, len(used)))
        if sum(row) > most:
            raise PositionError("%s: the poor man (player %d) may place at most %d seeds (he holds %d, the rich man %d, who doubles them), not %d" % (
                self.title, poor, most, held[poor], held[w], sum(row)))
        pits = [0] * self.n_pits
        closed = []
        for i in range(n):
            mine = poor * n + i
            theirs = self.opposite(mine)
            if row[i]:
                pits[mine] = row[i]
                pits[theirs] = 2 * row[i]
            else:
                closed.append(mine)
                closed.append(theirs)
        stores = [0, 0]
        stores[poor] = held[poor] - sum(row)
        stores[w] = held[w] - 2 * sum(row)
        g = self.__class__(pits=pits, stores=stores, to_move=first, **options_of(self))
        if closed:
            g.set_closed(closed)
        return g


class GiuthiDriedger(Giuthi):
    id = "giuthi-driedger"
    title = "Giuthi (Driedger)"
    pits_per_row = 8
    options = (("pits_per_row", 8, range(5, 11)), ("seeds", 6, range(4, 10)))

    def _moves(self):
        # A row with no stones ends the game (Decision 6).
        if not (self.has_seeds(0) and self.has_seeds(1)):
            return []
        return Giuthi._moves(self)

    def _no_moves(self, tr):
        if not (self.has_seeds(0) and self.has_seeds(1)):
            self._finish(tr, "empty row")
            return
        Giuthi._no_moves(self, tr)

    # ----- the second game and after (docs/variants/giuthi-driedger.md, "Matches") --
    # The loser puts his stones back in any arrangement; the winner puts as
    # many in each pit facing them (twice as many with double="yes" when the
    # loser has less than half his first number).  A loser with less than half
    # may have the board shortened by two pits a row.  The loser begins the
    # second game, then the players take turns.

    match_options = (("double", "no", ("no", "yes")), ("keep", "no", ("no", "yes")))

    def _round_result(self, match):
        from ..rounds import RoundResult, fixed_first, other_first
        s = self.stores
        w = self.outcome().winner
        r = RoundResult(match.round, match.first, w, s, s, other_first(match), True)
        r.why_first = "the players take turns to begin"
        if w is None:
            return r        # equal stones: the first game again
        if match.round == 1:
            fixed_first(r, 1 - w, "the loser begins the second game")
        if s[1 - w] < 2:
            # With one stone he could never make a pit of two, so never move again.
            r.over = True
            r.match_winner = w
            r.reason = "player %d has %s" % (1 - w, "one stone left, and never a pit of two to move" if s[1 - w] else "no stones left")
        return r

    def _next_round(self, match, result, first, choices):
        from ..rounds import fresh_round, no_choices, options_of, row_counts
        arrangement = choices.pop("arrangement", None)
        shorten = choices.pop("shorten", False)
        no_choices(self.title, choices, "arrangement= and shorten=")
        w = result.winner
        if w is None:
            if arrangement is not None or shorten:
                raise PositionError("%s: the game was drawn, so the first game is played again as it began" % self.title)
            return fresh_round(self, first)
        loser = 1 - w
        held = result.points
        n = self.pits_per_row
        poor = 2 * held[loser] < n * self.seeds    # less than half of his first number
        closed = []
        if shorten:
            if not poor:
                raise PositionError("%s: only a loser with less than half of his %d stones may shorten the board (player %d has %d)" % (
                    self.title, n * self.seeds, loser, held[loser]))
            # One column off each end of the board: two pits a row fewer.
            closed = [0, 2 * n - 1, n - 1, n]
        if arrangement is None:
            # By default he fills his pits as the game began, from his left,
            # the odd stones going into the next pit.
            arrangement = [0] * n
            left = held[loser]
            last = 0
            for i in range(n):
                if loser * n + i not in closed:
                    arrangement[i] = min(left, self.seeds)
                    left -= arrangement[i]
                    last = i
            arrangement[last] += left
        row = row_counts(self, loser, arrangement, "arrangement")
        placed = sum(row)
        if match.keep == "no":
            if placed != held[loser]:
                raise PositionError("%s: the loser (player %d) puts all his %d stones back, not %d (keep=yes lets him keep some)" % (
                    self.title, loser, held[loser], placed))
        elif not 0 < placed <= held[loser]:
            raise PositionError("%s: the loser (player %d) puts back from 1 to his %d stones, not %d" % (
                self.title, loser, held[loser], placed))
        factor = 2 if match.double == "yes" and poor else 1
        pits = [0] * self.n_pits
        for i in range(n):
            mine = loser * n + i
            if row[i] and mine in closed:
                raise PositionError("%s: pit %s is cut off the shortened board" % (self.title, self.pit_name(mine)))
            pits[mine] = row[i]
            pits[self.opposite(mine)] = factor * row[i]
        if factor * placed > held[w]:
            raise PositionError("%s: the winner (player %d) holds %d stones, too few to match %d" % (
                self.title, w, held[w], factor * placed))
        stores = [0, 0]
        stores[loser] = held[loser] - placed
        stores[w] = held[w] - factor * placed
        g = self.__class__(pits=pits, stores=stores, to_move=first, **options_of(self))
        if closed:
            g.set_closed(closed)
        return g
