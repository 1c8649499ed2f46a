"""Mancala after Lane (Egypt) and the Syrian game.  Rules: docs/variants/lane.md, syrian.md.

Also the base of the two Egyptian Mankalah modes (variants/egyptian.py), which
share everything here but the setup arrangements, the choice of pit and the
two-seed ending.

The family's own parts:
- a setup phase: the distributor puts the seeds on the board uncounted, in
  handfuls ("place" moves) that must add up to an allowed arrangement; then
  the chooser keeps the board or turns it round;
- relay on 3, 5 or more, capture on 2 or 4 with the opposite pit and a chain
  of preceding 2s and 4s judged on the board as the sowing left it;
- feeding one seed into an empty row, passing a player whose row was emptied,
  and the last-seed endings.
"""
try:
    from micropython import const
except ImportError:  # CPython
    def const(x):
        return x

from ..game import Mancala, RELAY_LAST
from ..errors import NotationError, PositionError
from ..trace import TAKE, PLACE, PASS, HAND, OFF

_PLACING = const(0)   # setup stage: the distributor places seeds
_CHOOSING = const(1)  # setup stage: the chooser keeps or turns the board

_KEEP = ("keep",)
_TURN = ("turn",)


class Lane(Mancala):
    id = "lane"
    title = "Mancala after Lane"
    seeds = 6                 # 72 seeds: six a pit on average (and with setup="even")
    relay = RELAY_LAST        # with _relay_from below: relay unless the last pit holds 1, 2 or 4
    has_state = True
    forced_origin = False     # the simple mode plays its rightmost non-empty pit
    two_seed_rule = True      # Lane: two seeds left in one row go to its owner
    options = (("setup", "lane", ("lane", "wise", "ignorant", "even")),)

    # ----- construction and setup --------------------------------------

    def _initial(self, b):
        if self.setup == "even":
            Mancala._initial(self, b)
        # Otherwise the board starts empty: the distributor fills it.

    def _start(self, fresh):
        self._first = self.to_move        # who plays first if the chooser keeps the board
        self._given = None                # the counts of a given position that ended at once
        self._stage = _PLACING
        self._supply = 0
        self.phase = "play"
        if fresh and self.setup != "even":
            self.phase = "setup"
            self._supply = self.total_seeds()
            self.to_move = 1 - self._first   # the distributor

    def _check_position(self):
        # A player whose row is empty cannot move: the round goes on with the
        # other player (the pass has been made).  See the docs' decisions.
        p = self.to_move
        if not self.has_seeds(p) and self.has_seeds(1 - p) and not self._round_over():
            self.to_move = 1 - p

    def outside(self):
        return self._supply

    # ----- what can be played -------------------------------------------

    def _moves(self):
        if self.phase == "play":
            return self._play_moves()
        if self._stage == _CHOOSING:
            return [_KEEP, _TURN]
        out = []
        for pit in range(self.n_pits):
            for c in range(1, self.max_place(pit) + 1):
                out.append(("place", pit, c))
        return out

    def _play_moves(self):
        if self._round_over():
            return []
        p = self.to_move
        b = self._b
        own = [i for i in self._sides[p] if b[i]]
        if not own:
            return own
        if not self.has_seeds(1 - p):
            return [("feed", i) for i in own]
        if self.forced_origin:
            return [own[-1]]
        return own

    def _round_over(self):
        """The last-seed endings: no seed, one seed, or (Lane) two seeds in one row."""
        left = sum(self._b[:self.n_pits])
        if left < 2:
            return True
        return left == 2 and self.two_seed_rule and not (self.has_seeds(0) and self.has_seeds(1))

    def max_place(self, pit):
        """Setup: the most seeds the distributor may put into `pit` now (0: none).

        Every count from 1 to this is a legal ("place", pit, count); a board can
        light the pits that may take seeds without listing every move.

        The supply must keep one seed for every pit the arrangement still
        needs once `pit` holds seeds."""
        s = self._supply
        if s <= 0:
            return 0
        b = self._b
        N = self.n_pits
        n = self.pits_per_row
        mode = self.setup
        if mode == "ignorant":
            need = 0
            for q in range(N):
                if not b[q] and q != pit:
                    need += 1
            return max(0, s - need)
        if mode == "wise":
            need = 0
            for q in range(N):
                if not b[q] and q != pit:
                    r = (q + n) % N
                    if b[r] or r == pit:
                        need += 1
            return max(0, s - need)
        # "lane": all middle pits, or both leftmost pits (A and a).
        best = 0
        for middle in (False, True):
            if self._in_lane_set(pit, middle):
                need = 0
                fits = True
                for q in range(N):
                    inside = self._in_lane_set(q, middle)
                    if b[q] and not inside:
                        fits = False
                        break
                    if inside and not b[q] and q != pit:
                        need += 1
                if fits and s - need > best:
                    best = s - need
        return best

    def _in_lane_set(self, pit, middle):
        k = pit % self.pits_per_row
        if middle:
            return 0 < k < self.pits_per_row - 1
        return k == 0

    def is_legal(self, move):
        if self._over is not None:
            return False
        if self.phase != "play" and self._stage == _PLACING:
            return (isinstance(move, tuple) and len(move) == 3 and move[0] == "place"
                    and isinstance(move[1], int) and isinstance(move[2], int)
                    and 0 <= move[1] < self.n_pits and 1 <= move[2] <= self.max_place(move[1]))
        return move in self.legal_moves()

    # ----- making a move --------------------------------------------------

    def _move(self, move, tr):
        if self.phase != "play":
            self._setup_move(move, tr)
            return
        p = self.to_move
        if isinstance(move, tuple):
            # Feeding: one seed into the opponent's leftmost pit; that is the turn.
            pit = move[1]
            first = (1 - p) * self.pits_per_row
            self._b[pit] -= 1
            self._b[first] += 1
            if tr is not None:
                tr.add(TAKE, pit, 1, HAND)
                tr.drop(first)
            self.to_move = 1 - p
            return
        Mancala._move(self, move, tr)
        if not self.has_seeds(1 - p) and not self._round_over():
            # The move emptied the opponent's row: he cannot move, and the
            # mover goes on at once (he must feed him).
            if tr is not None:
                tr.add(PASS)
            self.to_move = p

    def _setup_move(self, move, tr):
        b = self._b
        if move[0] == "place":
            pit, c = move[1], move[2]
            b[pit] += c
            self._supply -= c
            if tr is not None:
                tr.add(PLACE, pit, c)
            if self._supply == 0:
                self._stage = _CHOOSING
                self.to_move = self._first
            return
        self.phase = "play"
        self.to_move = self._first
        if move[0] == "turn":
            # Turning the board round: each row gets the other's seeds.
            n = self.pits_per_row
            N = self.n_pits
            if tr is not None:
                for i in range(N):
                    if b[i]:
                        tr.add(TAKE, i, b[i], OFF)
                for i in range(N):
                    if b[i]:
                        tr.add(PLACE, (i + n) % N, b[i])
            for i in range(n):
                b[i], b[i + n] = b[i + n], b[i]
            self.to_move = 1 - self._first

    def _relay_from(self, last, player, d):
        # One seed: the turn ends; two or four: a capture; any other number: relay.
        if last < self.n_pits:
            c = self._b[last]
            if c == 3 or c > 4:
                return last
        return -1

    def _capture(self, last, player, d, tr):
        b = self._b
        c = b[last]
        if c != 2 and c != 4:
            return False
        N = self.n_pits
        # How far back the chain of twos and fours runs, judged before taking.
        k = 1
        q = (last - 1) % N
        while k < N:
            c = b[q]
            if c != 2 and c != 4:
                break
            k += 1
            q = (q - 1) % N
        store = N + player
        q = last
        for _ in range(k):
            self._take(q, store, tr)
            self._take(N - 1 - q, store, tr)
            q = (q - 1) % N
        return False

    def _no_moves(self, tr):
        if not self._hist:
            # A given position that is over at once: keep its counts, in case
            # the position text goes on to say it is a setup position.
            self._given = self._b[:]
        self._finish(tr, "board cleared" if not any(self._b[:self.n_pits]) else "last seeds")

    # ----- repetition, undo, position text ------------------------------

    def _position_key(self):
        if self.phase != "play":
            # Setup positions never repeat (each placement adds seeds); a key of
            # their own keeps them apart from play positions with the same counts.
            return ("setup", len(self._hist))
        return Mancala._position_key(self)

    def _after(self, tr):
        if self._over is not None:
            return
        if self.phase != "play":
            if self._hist:
                self._key = self._position_key()
                self._seen[self._key] = 1
            # Not listed ahead: a placing stage has up to 14 x 97 moves (some
            # 60 KB on MicroPython). legal_moves() lists them when asked;
            # is_legal() and max_place() answer without the list.
            self._legal = None
            return
        Mancala._after(self, tr)

    def _save(self):
        return (self.phase, self._stage, self._supply, self._first)

    def _restore(self, s):
        self.phase, self._stage, self._supply, self._first = s

    def _state_fields(self):
        if self.phase == "play":
            return []
        return ["setup=" + ("place" if self._stage == _PLACING else "choose"), "first=%d" % self._first]

    def _load_state_fields(self, fields):
        fields = dict(fields)
        stage = fields.pop("setup", None)
        first = fields.pop("first", None)
        if fields:
            raise PositionError("%s has no state field %s (its fields: setup, first)" % (
                self.title, ", ".join(sorted(fields))))
        if stage is None:
            if first is not None:
                raise PositionError("%s: first= is only for a position in the setup phase (setup=place or setup=choose)" % self.title)
            return
        if stage not in ("place", "choose") or first not in ("0", "1"):
            raise PositionError("%s: the setup fields must be setup=place or setup=choose, and first=0 or first=1" % self.title)
        if self.setup == "even":
            raise PositionError("%s: setup=even has no setup phase" % self.title)
        if self._given is not None:
            self._b[:] = self._given   # the engine ended it as a play position: undo that
            self._given = None
        if any(self._b[self.n_pits:]):
            raise PositionError("%s: nothing can be stored during the setup" % self.title)
        self.phase = "setup"
        self._first = int(first)
        self._supply = self.total_seeds() - sum(self._b)
        if stage == "choose":
            if self._supply:
                raise PositionError("%s: setup=choose needs every seed on the board (%d are missing)" % (self.title, self._supply))
            self._stage = _CHOOSING
            self.to_move = self._first
        else:
            self._stage = _PLACING
            self.to_move = 1 - self._first
            if not self._supply or not self._arrangement_ok():
                raise PositionError("%s: these counts cannot be part of a %s setup with %d seeds to place" % (
                    self.title, self.setup, self._supply))
        self._over = None
        self._hist = []
        self._seen = {}
        self._key = self._position_key()
        self._seen[self._key] = 1
        self._after(None)

    def _arrangement_ok(self):
        """Whether the placed seeds can still be completed into the arrangement."""
        for pit in range(self.n_pits):
            if self.max_place(pit) >= 1:
                return True
        return False

    # ----- why a move is illegal, and notation --------------------------

    def _why_illegal(self, move):
        if self._over is not None:
            return "the round is over (%s)" % self._over.reason
        if self.phase != "play":
            who = "player %d" % self.to_move
            if self._stage == _CHOOSING:
                return "the seeds are all placed: %s (the chooser) plays keep or turn" % who
            if not (isinstance(move, tuple) and len(move) == 3 and move[0] == "place"):
                return "during the setup %s (the distributor) places seeds: a move is ('place', pit, count), e.g. 6C" % who
            pit, c = move[1], move[2]
            if not (isinstance(pit, int) and 0 <= pit < self.n_pits):
                return "%r is not a pit of %s (pits are 0 to %d)" % (pit, self.title, self.n_pits - 1)
            if not (isinstance(c, int) and 1 <= c <= self._supply):
                return "the count must be from 1 to the %d seeds left to place, not %r" % (self._supply, c)
            top = self.max_place(pit)
            if top == 0:
                return "pit %s cannot take seeds in the %s arrangement now" % (self.pit_name(pit), self.setup)
            return "%d seeds in %s would leave too few to finish the %s arrangement: at most %d" % (
                c, self.pit_name(pit), self.setup, top)
        p = self.to_move
        if isinstance(move, tuple):
            if len(move) == 2 and move[0] == "feed":
                if self.has_seeds(1 - p):
                    return "feeding is only for an empty row, and player %d has seeds" % (1 - p)
                return "a feed takes one seed from one of your own non-empty pits"
            if move == _KEEP or move == _TURN or (len(move) == 3 and move[0] == "place"):
                return "the setup is over: %r is a setup move" % (move,)
            return "%r is not a move of %s: play a pit number, or ('feed', pit)" % (move, self.title)
        if not (isinstance(move, int) and 0 <= move < self.n_pits and self.owner(move) == p and self._b[move]):
            return Mancala._why_illegal(self, move)   # not a pit, not yours, or empty
        if not self.has_seeds(1 - p):
            return "player %d's row is empty: you must feed a seed (e.g. %s)" % (
                1 - p, self.move_name(("feed", move)))
        if self.forced_origin:
            return "in this mode a player always plays his rightmost non-empty pit: %s" % self.move_name(self.legal_moves()[0])
        return Mancala._why_illegal(self, move)

    def move_name(self, move):
        if isinstance(move, tuple):
            word = move[0]
            if word == "feed":
                pit = move[1]
                return "%s>%s" % (self.pit_name(pit), self.pit_name((1 - self.owner(pit)) * self.pits_per_row))
            if word == "place":
                return "%d%s" % (move[2], self.pit_name(move[1]))
            return word
        return self.pit_name(move)

    def parse_move(self, text):
        text = text.strip()
        if text in ("keep", "turn"):
            return (text,)
        if ">" in text:
            src, _, dst = text.partition(">")
            pit = self._parse_pit(src.strip())
            want = self.pit_name((1 - self.owner(pit)) * self.pits_per_row)
            if dst.strip() != want:
                raise NotationError("a seed fed from %s goes into %s, the opponent's leftmost pit: write %s>%s" % (
                    src.strip(), want, src.strip(), want))
            return ("feed", pit)
        i = 0
        while i < len(text) and text[i].isdigit():
            i += 1
        if i:
            if i == len(text):
                raise NotationError("%r: a placement is a count then a pit, e.g. 6C" % text)
            return ("place", self._parse_pit(text[i:]), int(text[:i]))
        if not text:
            raise NotationError("an empty move: name a pit (%s), or keep / turn during the setup" % (
                " ".join(self.pit_name(i) for i in range(self.n_pits))))
        return self._parse_pit(text)


    # ----- matches (docs/variants/lane.md, "Matches") ---------------------
    # Each board's winner gains the excess of his seeds over the other's; the
    # first whose gains reach `target` (and lead the other's by `lead`) wins.

    match_options = (("target", 60, range(1, 10000)), ("lead", 0, range(0, 10000)))

    def _match_standing(self, match):
        return [0, 0]

    def _round_result(self, match):
        from ..rounds import fixed_first, summed_result
        s = self.stores
        r = summed_result(self, match, abs(s[0] - s[1]), match.target, match.lead)
        if r.winner is not None:
            fixed_first(r, r.winner, "the gainer begins the next board, the loser distributes")
        return r

    def _next_round(self, match, result, first, choices):
        from ..rounds import fresh_round, no_choices
        no_choices(self.title, choices)
        return fresh_round(self, first)


class Syrian(Lane):
    id = "syrian"
    title = "Syrian Mancala"
    pits_per_row = 7
    seeds = 7                 # 98 seeds (see syrian.md, decision 1)
    options = (("setup", "wise", ("wise", "ignorant", "even")),)
