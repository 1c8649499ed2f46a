"""Sita's Solitaire (India).  Rules: docs/variants/sitas-solitaire.md
(source 000, "SITA'S SOLITAIRE").

One player on the Pandi board: each handful is the hole after the one the last
marble fell into; the game ends when the start pattern (k..1 in each row, in
the sowing order) is back.
"""
from ..errors import PositionError
from ..game import Mancala, Outcome
from ..trace import LIFT, END


class SitasSolitaire(Mancala):
    id = "sitas-solitaire"
    title = "Sita's Solitaire"
    pits_per_row = 7
    players = 1
    end_on_repetition = False     # coming back to the start is the goal (decision 7)
    has_state = True              # the hole to lift next (decision 3)
    options = (("pits_per_row", 7, range(2, 10)),)

    def __init__(self, pits=None, stores=None, to_move=0, next_pit=0, **options):
        # Set before the engine looks at the position (it asks for the legal moves).
        self._next = next_pit
        Mancala.__init__(self, pits=pits, stores=stores, to_move=to_move, **options)

    def _pattern(self, i):
        """The marbles hole i holds at the start: k, k-1, ..., 1 along each row."""
        k = self.pits_per_row
        return k - i % k

    def _initial(self, b):
        for i in range(self.n_pits):
            b[i] = self._pattern(i)

    def total_seeds(self):
        k = self.pits_per_row
        return k * (k + 1)

    def _start(self, fresh):
        self._check_next(self._next)

    def _check_position(self):
        if self._b[self.n_pits]:
            raise PositionError("%s stores nothing: its store must be 0" % self.title)

    def _check_next(self, pit):
        if not isinstance(pit, int) or not 0 <= pit < self.n_pits:
            raise PositionError("%s: the next hole must be a pit from 0 to %d, not %r" % (
                self.title, self.n_pits - 1, pit))

    def _is_pattern(self):
        b = self._b
        for i in range(self.n_pits):
            if b[i] != self._pattern(i):
                return False
        return True

    def _moves(self):
        if self._b[self._next]:
            return [self._next]
        return []

    def _move(self, pit, tr):
        b = self._b
        n = b[pit]
        b[pit] = 0
        if tr is not None:
            tr.add(LIFT, pit, n)
        last = self._sow(pit, n, 0, 1, tr)
        nxt = last + 1
        if nxt == self.n_pits:
            nxt = 0
        self._next = nxt

    def _after(self, tr):
        if self._over is not None:
            return
        played = len(self._hist)
        if played:
            if self._is_pattern():
                self._end(tr, 0, "the start pattern is back")
                return
            n = self.n_pits
            if played >= n * (n + 1) // 2:
                # Decision 5: a position that comes back does so within N(N+1)/2 handfuls.
                self._end(tr, None, "the start pattern cannot come back from this position")
                return
        moves = self._moves()
        self._legal = moves
        if not moves:
            self._end(tr, None, "stuck: the next hole (%s) is empty" % self.pit_name(self._next))

    def _end(self, tr, winner, reason):
        # The marbles stay where they are: there is nobody to give them to.
        self._legal = []
        self._over = Outcome(winner, [len(self._hist)], reason)
        if tr is not None:
            tr.add(END)

    def _save(self):
        return self._next

    def _restore(self, saved):
        self._next = saved

    def _state_fields(self):
        return ["next=%d" % self._next]

    def _load_state_fields(self, fields):
        fields = dict(fields)
        value = fields.pop("next", None)
        if fields:
            raise PositionError("%s has no state field %s (its field: next)" % (
                self.title, ", ".join(sorted(fields))))
        if value is None:
            return
        if not value.isdigit():
            raise PositionError("%s: next= must be a pit number, not %r" % (self.title, value))
        pit = int(value)
        self._check_next(pit)
        self._next = pit
        self._over = None
        self._legal = None
        self._after(None)

    def _why_rule(self, move):
        return "%s lifts the hole after the last marble: %s, not %s" % (
            self.title, self.pit_name(self._next), self.pit_name(move))

    def pit_name(self, pit):
        # Named by rows as in two-player games: the near row A.., the far row a..
        if pit >= self.n_pits:
            return "store"
        k = self.pits_per_row
        if pit < k:
            return chr(65 + pit)
        return chr(97 + pit - k)
