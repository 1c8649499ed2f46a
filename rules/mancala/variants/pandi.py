"""Pandi (India).  Rules: docs/variants/pandi.md (source 000, PANDI).

Sowing goes on from the hole after the last stone; an empty hole there ends
the move and wins the hole beyond it and the hole opposite that one; fours
("calves") go to the owner of their row the moment they form.  Pallam Kuzhi
(variants/pallam_kuzhi.py) is the same game without the opposite hole.

With claims="chosen" each calf is a choice of its owner's hands, taken or left
as it forms: a move is then the pit, or (pit, letters) with one letter for each
calf made on the way, in order, "t" taken (the default) or "l" left.
"""
try:
    from micropython import const
except ImportError:  # CPython
    def const(x):
        return x

from ..game import Mancala, RELAY_LIMIT
from ..errors import NotationError
from ..trace import LIFT, RELAY
from ..closed import ClosedPits

_FOUR = const(4)

# A move that makes more calves than this lists its moves with the rest taken (the
# default): every calf left doubles the moves of a pit (docs/variants/pandi.md, decision 13).
_MAX_CLAIMS = const(6)


class Pandi(ClosedPits):
    id = "pandi"
    title = "Pandi"
    pits_per_row = 7
    seeds = 5
    fours = True              # a drop that makes four sends them to the row's owner (rule 7)
    take_opposite = True      # a capture wins the hole opposite the one beyond the empty hole too
    options = (("pits_per_row", 7, range(3, 10)), ("seeds", 5, range(1, 10)),
               ("claims", "automatic", ("automatic", "chosen")))
    _claiming = None      # claims="chosen", during a move: the letters it follows (None: every calf taken)
    _met = 0              # the calves met so far in that move

    def _four_made(self, pit, tr):
        letters = self._claiming
        if letters is not None:
            # A calf its owner may take or leave: the move's letter for it, or the default.
            i = self._met
            self._met = i + 1
            if i < len(letters) and letters[i] == "l":
                return            # left: the four stay in the hole as ordinary stones
        self._take(pit, self.n_pits + self.owner(pit), tr)

    def _moves(self):
        pits = Mancala._moves(self)
        if self.claims == "automatic":
            return pits
        out = []
        for pit in pits:
            self._expand(pit, "", out)
        return out

    def _expand(self, pit, letters, out):
        """Append the moves from pit whose letters begin with `letters`: the one taking every
        later calf, then (depth first) those leaving one of them."""
        b = self._b
        saved = b[:]
        p = self.to_move
        try:
            self._move((pit, letters), None)
            met = self._met
        finally:
            b[:] = saved
            self.to_move = p
            self._claiming = None
        met = min(met, _MAX_CLAIMS)
        full = letters + "t" * (met - len(letters))
        out.append((pit, full) if "l" in full else pit)
        for i in range(len(letters), met):
            self._expand(pit, full[:i] + "l", out)

    def _move(self, move, tr):
        if type(move) is tuple:
            pit, letters = move
        else:
            pit = move
            letters = None if self.claims == "automatic" else ""
        self._claiming = letters
        self._met = 0
        try:
            self._sow_turn(pit, tr)
        finally:
            self._claiming = None

    def _sow_turn(self, pit, tr):
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

    def move_name(self, move):
        if type(move) is tuple:
            return "%s/%s" % (self.pit_name(move[0]), move[1])
        return self.pit_name(move)

    def parse_move(self, text):
        name, slash, letters = text.strip().partition("/")
        pit = Mancala.parse_move(self, name)
        if not slash:
            return pit
        if self.claims != "chosen":
            raise NotationError("%r: calves are claimed by themselves here; letters after / need the option claims=chosen" % text)
        if not letters or [x for x in letters if x not in "tl"]:
            raise NotationError("%r: after / one letter for each calf the move makes, t (taken) or l (left)" % text)
        if "l" not in letters:
            return pit
        # Letters for the calves the move makes; those left off at the end are taken.
        for m in self.legal_moves():
            if type(m) is tuple and m[0] == pit and m[1].rstrip("t") == letters.rstrip("t"):
                return m
        return (pit, letters)

    def _why_illegal(self, move):
        if (self._over is None and type(move) is tuple and len(move) == 2 and type(move[0]) is int
                and type(move[1]) is str and 0 <= move[0] < self.n_pits):
            mine = [self.move_name(m) for m in self.legal_moves() if m == move[0] or (type(m) is tuple and m[0] == move[0])]
            if mine:
                return "%s does not match the calves of a move from %s (one letter t or l for each, in order): legal are %s" % (
                    self.move_name(move), self.pit_name(move[0]), " ".join(mine))
            if self.claims != "chosen":
                return "%s: calves are claimed by themselves here; a move with letters needs the option claims=chosen" % self.title
        return ClosedPits._why_illegal(self, move)

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
