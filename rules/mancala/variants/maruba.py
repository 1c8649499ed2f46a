"""Maruba (Mofuba), Tschuba and Chuba: the Transvaal four-row games and the
Milton Bradley board game made from them.

Rules: docs/variants/maruba.md, tschuba.md, chuba.md (source 001, Maruba,
Mofuba / Tschuba / Chuba).  One engine: relays until the last man falls into
an empty hole; there, in the inner row facing an occupied hole, the mover kills
that column and takes one more hole (form 1) or one more column (form 2) of
his choice - the choice is the second item of the move tuple.
"""
from ..game import Mancala, RELAY_LIMIT
from ..trace import LIFT, RELAY
from .fourrows import FourRows


class Maruba(FourRows):
    id = "maruba"
    title = "Maruba"
    pits_per_row = 8
    seeds = 2
    outer = 2                 # men in each outer hole at the start
    start = "maruba"          # inner row: empty far left, one next to it, two elsewhere
    form = 1                  # 1: kill + any one other hole; 2: kill + any other column
    pass_when_stuck = True    # a player left with singles that all face occupied holes passes
    lazy_moves = True         # listing the moves sows out every start: only when asked
    options = (("pits_per_row", 8, range(3, 25)),)

    # ----- the board ----------------------------------------------------

    def _initial(self, b):
        n = self.pits_per_row
        for p in (0, 1):
            base = p * 2 * n
            for i in range(base, base + n):
                b[i] = self.outer
            for i in range(base + n, base + 2 * n):
                b[i] = self.seeds
            if self.start == "maruba":
                # The inner row runs from the owner's right: its last pit is his far left.
                b[base + 2 * n - 1] = 0
                b[base + 2 * n - 2] = 1

    def total_seeds(self):
        n = self.pits_per_row
        inner = n * self.seeds - (3 if self.start == "maruba" else 0)
        return 2 * (n * self.outer + inner)

    # ----- sowing -------------------------------------------------------

    def _sow_all(self, pit, p, tr):
        """Lift `pit` and sow, relaying from every occupied hole the last man reaches.

        Returns the hole where the last man fell into an empty hole, or -1 when
        the relay limit stopped the move (docs/rules.md, "Endless relays")."""
        b = self._b
        n = b[pit]
        b[pit] = 0
        if tr is not None:
            tr.add(LIFT, pit, n)
        last = self._sow(pit, n, p, 1, tr)
        for _ in range(RELAY_LIMIT):
            n = b[last]
            if n == 1:
                return last
            b[last] = 0
            if tr is not None:
                tr.add(RELAY, last, n)
            last = self._sow(last, n, p, 1, tr)
        return -1

    def _kill_at(self, last):
        """The opponent's inner hole a move ending at `last` kills, or -1."""
        if last < 0:
            return -1
        opp = self.opposite(last)
        if opp >= 0 and self._b[opp]:
            return opp
        return -1

    def _choices(self, opp):
        """What the mover may take besides the killed column: holes (form 1) or
        inner holes naming a column (form 2), each holding men."""
        b = self._b
        behind = self.behind(opp)
        out = []
        for i in self._sides[self.owner(opp)]:
            if i == opp or i == behind:
                continue
            if self.form == 1:
                if b[i]:
                    out.append(i)
            elif self.is_front(i) and (b[i] or b[self.behind(i)]):
                out.append(i)
        return out

    # ----- moves --------------------------------------------------------

    def _starts(self):
        """The holes the player to move may lift."""
        p = self.to_move
        b = self._b
        side = self._sides[p]
        out = [i for i in side if b[i] >= 2]
        if out:
            return out
        # Only single men left: any of them whose next hole is empty.
        for i in side:
            if b[i] == 1 and not b[self.track(p, 1, i)[0]]:
                out.append(i)
        return out

    def _moves(self):
        if not (self.has_seeds(0) and self.has_seeds(1)):
            return []
        p = self.to_move
        n = self.pits_per_row
        lo = p * 2 * n
        b = self._b
        mine = b[lo:lo + 2 * n]
        out = []
        for pit in self._starts():
            # Sow it on the board, see where it ends, put the player's rows back
            # (a move changes only the mover's own rows until the kill).
            opp = self._kill_at(self._sow_all(pit, p, None))
            b[lo:lo + 2 * n] = mine
            if opp < 0:
                out.append(pit)
                continue
            others = self._choices(opp)
            if not others:
                out.append(pit)
            for o in others:
                out.append((pit, o))
        return out

    def _can_move(self):
        return self.has_seeds(0) and self.has_seeds(1) and len(self._starts()) > 0

    def is_legal(self, move):
        """Whether a move is one legal_moves() lists, answered without the list when it is not
        built (the list sows out every start; a move needs its own only)."""
        if self._over is not None:
            return False
        if self._legal is not None:
            return move in self._legal
        if type(move) is int:
            pit, other = move, -1
        elif type(move) is tuple and len(move) == 2 and type(move[0]) is int and type(move[1]) is int and move[1] >= 0:
            pit, other = move
        else:
            return move in self.legal_moves()    # anything else: exactly what the list says
        if not (self.has_seeds(0) and self.has_seeds(1)) or pit not in self._starts():
            return False
        p = self.to_move
        lo = p * 2 * self.pits_per_row
        hi = lo + 2 * self.pits_per_row
        b = self._b
        mine = b[lo:hi]
        opp = self._kill_at(self._sow_all(pit, p, None))
        b[lo:hi] = mine
        others = self._choices(opp) if opp >= 0 else ()
        if not others:
            return other < 0
        return other in others

    def _move(self, move, tr):
        p = self.to_move
        if isinstance(move, tuple):
            pit, other = move
        else:
            pit, other = move, -1
        opp = self._kill_at(self._sow_all(pit, p, tr))
        if opp >= 0:
            store = self.n_pits + p
            self._take(opp, store, tr)
            self._take(self.behind(opp), store, tr)
            if other >= 0:
                self._take(other, store, tr)
                if self.form == 2:
                    self._take(self.behind(other), store, tr)
        self.to_move = 1 - p

    # ----- the end ------------------------------------------------------

    def _no_moves(self, tr):
        if not (self.has_seeds(0) and self.has_seeds(1)):
            # One side is cleared: nothing is left to kill.
            self._finish(tr, "player %d has no men left" % (0 if not self.has_seeds(0) else 1))
            return
        Mancala._no_moves(self, tr)

    def _collect_leftovers(self, tr):
        """Only killed and captured men count: those left stay where they are."""

    # ----- notation and reasons -------------------------------------------

    pair_mark = "x"           # a killing move and the hole or column it takes: b6xd6
    move_hint = "name a hole, e.g. b6, or a hole and what it takes, e.g. b6xd6"

    def _pair(self, pit, other):
        if self.form == 2 and not self.is_front(other):
            other = self.behind(other)      # a column may be named by either of its holes
        return (pit, other)

    def _why_illegal(self, move):
        if self._over is not None:
            return "the game is over (%s)" % self._over.reason
        p = self.to_move
        pit = move[0] if isinstance(move, tuple) and len(move) == 2 else move
        if not isinstance(pit, int) or isinstance(pit, bool) or not 0 <= pit < self.n_pits:
            return "%r is not a move of %s: a move is a hole number, or (hole, hole taken) when it kills" % (move, self.title)
        name = self.pit_name(pit)
        if self.owner(pit) != p:
            return "hole %s belongs to player %d, and player %d is to move" % (name, 1 - p, p)
        b = self._b
        if pit not in self._starts():
            if not b[pit]:
                return "hole %s is empty" % name
            if b[pit] == 1 and any(b[i] >= 2 for i in self._sides[p]):
                return "hole %s holds a single man: while a hole holds two or more, a move starts from one of those" % name
            return "hole %s holds a single man and the next hole is occupied: a single man may only move into an empty hole" % name
        choices = [m for m in self.legal_moves() if (m[0] if isinstance(m, tuple) else m) == pit]
        if isinstance(choices[0], tuple):
            what = "hole" if self.form == 1 else "column"
            return "%s kills: say which other %s it takes, one of %s" % (
                name, what, " ".join(self.move_name(m) for m in choices))
        return "%s kills nothing, so it takes nothing more: play %s" % (name, name)


class Tschuba(Maruba):
    id = "tschuba"
    title = "Tschuba"
    start = "full"            # two men in every hole
    options = (("pits_per_row", 8, range(3, 25)), ("form", 1, (1, 2)))


class Chuba(Maruba):
    id = "chuba"
    title = "Chuba"
    pits_per_row = 11
    outer = 1                 # one bead in each outer hole; the inner rows as in Maruba
    form = 2                  # the rules of Tschuba's second form
    options = ()
