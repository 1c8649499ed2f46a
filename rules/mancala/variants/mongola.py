"""Mongola (Congo), as told in Count and Capture.

Rules: docs/variants/mongola.md (source 000, MONGOLA).  Four rows of seven;
each player first arranges his men by fours (a setup phase of one move each);
men never leave the board.
"""
from ..game import Mancala, RELAY_LIMIT
from ..errors import NotationError, PositionError
from ..trace import LIFT, RELAY, TAKE, PLACE, SKIP, HAND, OFF, DROP_CODE
from .fourrows import FourRows, men_stay_outcome


class Mongola(FourRows):
    id = "mongola"
    title = "Mongola"
    # The source's rows: X (player 0) has D (outer) and C (inner), Y has B (inner) and A (outer).
    row_letters = ("D", "C", "B", "A")
    pits_per_row = 7
    seeds = 2
    min_seeds = 2             # a house with a single man is never lifted (decision 3)
    has_state = True          # the setup phase

    # ----- setup --------------------------------------------------------

    def _start(self, fresh):
        # Setup stage: how many players have arranged their men (0, 1), or 2 in play.
        self._arranged = 0 if fresh else 2
        self._first = self.to_move
        self.phase = "setup" if fresh else "play"

    def _check_position(self):
        if self._b[self.n_pits] or self._b[self.n_pits + 1]:
            raise PositionError("Mongola keeps every man on the board: both stores must be 0")

    def total_seeds(self):
        return 56

    def _circuit(self, p):
        k = 2 * self.pits_per_row
        return range(p * k, p * k + k)

    def _setup_moves(self):
        base = self.to_move * 2 * self.pits_per_row
        return [("arrange", base), ("arrange", base + 1)]

    def _arrange(self, first, tr):
        """Gather the player's men by fours into every other house of his circuit, from `first`."""
        b = self._b
        k = 2 * self.pits_per_row
        base = first - first % k
        for i in range(k):
            e = base + i
            if (i - (first - base)) % 2:
                # An emptied house: its men join the house after it in the circuit.
                keep = base + (i + 1) % k
                m = b[e]
                if m:
                    b[e] = 0
                    b[keep] += m
                    if tr is not None:
                        tr.add(TAKE, e, m, OFF)
                        tr.add(PLACE, keep, m)

    # ----- moves --------------------------------------------------------

    def _moves(self):
        if self.phase == "setup":
            return self._setup_moves()
        return Mancala._moves(self)

    def is_legal(self, move):
        return self._over is None and move in self.legal_moves()

    def _move(self, move, tr):
        p = self.to_move
        if self.phase == "setup":
            self._arrange(move[1], tr)
            self._arranged += 1
            self.to_move = 1 - p
            if self._arranged == 2:
                self.phase = "play"
                self.to_move = self._first
            return
        self._walk(move, p, tr)
        self.to_move = 1 - p

    def _walk(self, pit, p, tr):
        """Lift `pit` and walk until exhausted (rules 2 to 6)."""
        b = self._b
        k = 2 * self.pits_per_row
        base = p * k
        n = b[pit]
        b[pit] = 0
        if tr is not None:
            tr.add(LIFT, pit, n)
        c = pit                          # sowing goes on from the house after c
        s = tr._s if tr is not None else None   # drop steps appended inline (Trace.drop): once a man
        code = DROP_CODE + 32                   # (c << 4) + code == ((c + 2) << 4) | DROP_CODE
        for _ in range(RELAY_LIMIT):
            while n > 1:
                c = base + (c - base + 1) % k
                b[c] += 1
                n -= 1
                if s is not None:
                    s.append((c << 4) + code)
            c = base + (c - base + 1) % k
            if b[c] < 2:
                # Exhausted: the last man passes this house and stays in the next.
                if tr is not None:
                    tr.add(SKIP, c)
                c = base + (c - base + 1) % k
                b[c] += 1
                if tr is not None:
                    tr.drop(c)
                return
            b[c] += 1
            if tr is not None:
                tr.drop(c)
            opp = self.opposite(c)
            if opp >= 0 and b[opp] and b[self.behind(opp)]:
                # Claim the column facing c, pick it up with c's men, and start
                # again after the nearest empty house back from c.
                n = self._take(opp, HAND, tr) + self._take(self.behind(opp), HAND, tr)
                m = b[c]
                b[c] = 0
                if tr is not None:
                    tr.add(RELAY, c, m)
                n += m
                e = c
                while True:
                    e = base + (e - base - 1) % k
                    if not b[e]:
                        break       # c itself is empty now, so the search always stops
                c = e
            else:
                n = b[c]
                b[c] = 0
                if tr is not None:
                    tr.add(RELAY, c, n)

    # ----- turns, repetition, the end -----------------------------------

    def _after(self, tr):
        if self.phase == "setup":
            self._key = self._position_key()
            self._seen[self._key] = 1
            self._legal = self._moves()
            return
        Mancala._after(self, tr)

    def _position_key(self):
        if self.phase == "setup":
            # Setup positions never count as repetitions of play positions.
            return ("setup", self._arranged)
        return Mancala._position_key(self)

    def _collect_leftovers(self, tr):
        """Men never leave the board: nothing is collected."""

    def _judge(self, reason):
        return men_stay_outcome(self, reason, "player %d can no longer walk (no house with two or more men) and is dead")

    # ----- state --------------------------------------------------------

    def _save(self):
        return (self.phase, self._arranged, self._first)

    def _restore(self, s):
        self.phase, self._arranged, self._first = s

    def _state_fields(self):
        if self.phase == "setup":
            return ["arranged=%d" % self._arranged, "first=%d" % self._first]
        return []

    def _load_state_fields(self, fields):
        fields = dict(fields)
        try:
            a = int(fields.pop("arranged"))
            f = int(fields.pop("first", self.to_move if a == 0 else 1 - self.to_move))
        except (KeyError, ValueError):
            raise PositionError("Mongola's setup fields are arranged=0|1 first=0|1, got %s" % (
                " ".join("%s=%s" % kv for kv in sorted(fields.items())) or "nothing"))
        if fields:
            raise PositionError("Mongola has no state field %s" % ", ".join(sorted(fields)))
        if a not in (0, 1) or f not in (0, 1) or (self.to_move == f) != (a == 0):
            raise PositionError("Mongola's setup fields arranged=%d first=%d do not fit player %d to move" % (a, f, self.to_move))
        self.phase = "setup"
        self._arranged = a
        self._first = f
        self._over = None
        self._seen = {}
        self._key = self._position_key()
        self._after(None)

    # ----- notation and reasons -------------------------------------------

    def move_name(self, move):
        if isinstance(move, tuple):
            return "arrange:%s" % self.pit_name(move[1])
        return self.pit_name(move)

    def parse_move(self, text):
        text = text.strip()
        word, colon, rest = text.partition(":")
        if colon:
            if word.strip().lower() != "arrange":
                raise NotationError("%r: the only move with a colon is the setup's arrange:<first house>, e.g. arrange:D7" % text)
            return ("arrange", self._parse_pit(rest))
        if not text:
            raise NotationError("an empty move: name a house, e.g. C4")
        return self._parse_pit(text)

    def _why_illegal(self, move):
        if self._over is not None:
            return "the game is over (%s)" % self._over.reason
        p = self.to_move
        if self.phase == "setup":
            return "%r is not a move now: player %d first arranges his men by fours in every other house, %s" % (
                move, p, " or ".join(self.move_name(m) for m in self._setup_moves()))
        if isinstance(move, tuple):
            return "%r: the men are already arranged; a move is a house number" % (move,)
        if not isinstance(move, int) or isinstance(move, bool) or not 0 <= move < self.n_pits:
            return "%r is not a house of Mongola (houses are 0 to %d)" % (move, self.n_pits - 1)
        name = self.pit_name(move)
        if self.owner(move) != p:
            return "house %s belongs to player %d, and player %d is to move" % (name, 1 - p, p)
        return "house %s holds %d: a walk starts from a house with two or more men" % (name, self._b[move])
