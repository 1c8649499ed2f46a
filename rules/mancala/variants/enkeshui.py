"""Enkeshui (Maasai).  Rules: docs/variants/enkeshui.md (source 004, 9 - MAASI, ENKESHUI).

The setup phase (advance moves, the racing start) is played as moves: see
mancala.staged.  Lukho is built on this class and shares its lockstep racing
start (Enkeshui._race_start / _race): both players sow at once, one seed each
per tick, and whoever sleeps first (or goes farthest) begins the game.
"""
from ..game import RELAY_LIMIT
from ..trace import LIFT, RELAY, PLACE
from ..staged import Staged

# Start rows (each player's row from his own left), Diagram j (2x8) and
# Diagram I (2x12); 2x10 has no diagram (see the doc's decisions).
_ROWS = {
    8: (0, 0, 4, 4, 4, 4, 4, 4),
    10: (0, 0, 3, 3, 3, 3, 3, 3, 3, 3),
    12: (0, 3, 3, 0, 3, 3, 0, 3, 3, 0, 3, 3),
}


def _all_ints(items):
    for x in items:
        if type(x) is not int:
            return False
    return True


class Enkeshui(Staged):
    id = "enkeshui"
    title = "Enkeshui"
    pits_per_row = 8
    options = (
        ("pits_per_row", 8, (8, 10, 12)),
        ("zeros", "left", ("left", "right")),          # which end of each row starts empty
        ("race", "first-to-sleep", ("first-to-sleep", "farthest", "none")),
        ("advance", "no", ("no", "yes")),              # rule 8's advance move
    )
    mark_key = "bulls"
    # Rule parts Lukho turns off (its execution phase has no decisions and no bulls).
    optional_capture = True     # rule 6: a capture may be declined
    turn_after_circuit = True   # rule 5: either direction once round the opponent's side
    makes_bulls = True          # rule 2: a handful ending on three makes a bull
    lazy_moves = True           # listing the moves plays a turn out from every pit (_probe)

    def _initial(self, b):
        row = self._start_row()
        n = self.pits_per_row
        for i in range(n):
            b[i] = row[i]
            b[n + i] = row[i]

    def _start_row(self):
        """A row of the start, from its owner's left."""
        row = _ROWS[self.pits_per_row]
        if self.zeros == "left":
            return row
        n = len(row)
        return tuple(row[n - 1 - i] for i in range(n))

    def total_seeds(self):
        return 48

    def _stages(self):
        a = self._first
        st = ()
        if self.advance == "yes":
            st = (("advance", a), ("advance", 1 - a))
        if self.race != "none":
            st += (("race", a),)
        return st

    # ----- setup moves --------------------------------------------------

    def _setup_moves(self):
        word, p = self._stage()
        if word == "race":
            return [("race",)]
        side = self.side(p)
        return self._deploy_moves(p, side, side)

    def _setup_move(self, move, tr):
        if move[0] == "race":
            self._race(tr)
        else:
            self._deploy_move(move, tr)

    # ----- the racing start (rule 7) -------------------------------------

    def _race_start(self, p, tr):
        """Where racer p starts: (the pit before his first drop, seeds in hand, sown from the hand?).

        Enkeshui: the far right-hand pit is lifted; if the advance move left it
        empty, the rightmost pit of the row that holds seeds (a decision)."""
        b = self._b
        marked = self._m0 | self._m1
        side = self.side(p)
        for i in range(len(side) - 1, -1, -1):
            pit = side[i]
            if b[pit] and not marked >> pit & 1:
                k = b[pit]
                b[pit] = 0
                if tr is not None:
                    tr.add(LIFT, pit, k)
                return pit, k, False
        return side[-1], 0, False

    def _race(self, tr):
        """Both players sow at once, one seed each per tick, player 0's drop first in a tick.

        Each racer follows the sowing rules (relays, bulls, captures taken at
        once, always counter-clockwise).  The winner begins the game."""
        b = self._b
        n2 = self.n_pits
        pos = [0, 0]
        hand = [0, 0]
        size = [0, 0]
        from_hand = [False, False]
        slept = [0, 0]
        relays = [0, 0]
        for p in (0, 1):
            pos[p], hand[p], from_hand[p] = self._race_start(p, tr)
            size[p] = hand[p]
        tick = 0
        while hand[0] or hand[1]:
            tick += 1
            for p in (0, 1):
                if not hand[p]:
                    continue
                c = pos[p] + 1
                if c == n2:
                    c = 0
                pos[p] = c
                b[c] += 1
                hand[p] -= 1
                if tr is not None:
                    if from_hand[p]:
                        tr.add(PLACE, c, 1)
                    else:
                        tr.drop(c)
                if hand[p]:
                    continue
                slept[p] = tick
                nxt = self._end_handful(c, size[p], p, 1, True, tr)
                if nxt < 0 or relays[p] >= RELAY_LIMIT:
                    continue
                relays[p] += 1
                from_hand[p] = False
                k = b[nxt]
                b[nxt] = 0
                if tr is not None:
                    tr.add(RELAY, nxt, k)
                hand[p] = size[p] = k
                slept[p] = 0
        self._first = self._race_winner(slept)
        self._next_stage(tr)

    def _race_winner(self, slept):
        """slept[p]: the tick of racer p's last drop (0: he had nothing to sow)."""
        if slept[0] == slept[1]:
            return self._first
        if self.race == "farthest":
            return 0 if slept[0] > slept[1] else 1
        return 0 if slept[0] < slept[1] else 1

    # ----- play ---------------------------------------------------------

    def _movable(self, p):
        b = self._b
        marked = self._m0 | self._m1
        return [i for i in self.side(p) if b[i] and not marked >> i & 1]

    def _play_moves(self):
        p = self.to_move
        out = []
        for i in self._movable(p):
            out.append(i)
            if not (self.optional_capture or self.turn_after_circuit):
                continue
            circuit, cap = self._probe(i, 1)
            if cap and self.optional_capture:
                out.append((i, 1, 0))
            if circuit:
                out.append((i, -1))
                if self.optional_capture and self._probe(i, -1)[1]:
                    out.append((i, -1, 0))
        return out

    def _can_move(self):
        if self.phase != "play":
            return len(self._setup_moves()) > 0
        return len(self._movable(self.to_move)) > 0

    def is_legal(self, move):
        """Whether a move is one legal_moves() lists, answered without the list when it is not built
        (the list plays out a turn or two from every pit; a move needs at most two)."""
        if self._legal is not None or self._over is not None or self.phase != "play":
            return Staged.is_legal(self, move)
        t = type(move)
        if t is int:
            return move in self._movable(self.to_move)
        if t is tuple and 2 <= len(move) <= 3 and _all_ints(move):
            pit, d = move[0], move[1]
            if pit not in self._movable(self.to_move):
                return False
            if len(move) == 3 and not (move[2] == 0 and self.optional_capture):
                return False
            if d == 1:
                return len(move) == 3 and self._probe(pit, 1)[1]
            if d == -1:
                if not self._probe(pit, 1)[0]:
                    return False              # never round the opponent's side: no turning back
                return len(move) == 2 or self._probe(pit, -1)[1]
            return False
        # Anything else (a list, a bool...) is legal exactly when the list says so.
        return Staged.is_legal(self, move)

    def _probe(self, pit, turn):
        """Play pit on a scratch board: (reached the circuit choice?, ended on a capture?)."""
        saved = self._b[:]
        m0, m1 = self._m0, self._m1
        self._turn(pit, self.to_move, turn, True, None)
        self._b[:] = saved
        self._m0, self._m1 = m0, m1
        return self._circuit_seen, self._capture_seen

    def _play_move(self, move, tr):
        p = self.to_move
        if isinstance(move, int):
            self._turn(move, p, 1, True, tr)
        elif len(move) == 2:
            self._turn(move[0], p, move[1], True, tr)
        else:
            self._turn(move[0], p, move[1], move[2] != 0, tr)
        self.to_move = 1 - p

    def _turn(self, pit, p, turn, take, tr):
        """A whole turn: lift pit, sow, relay until the player sleeps.

        turn: the direction taken at the circuit choice (rule 5); take: whether a
        capture is made when one is offered (rule 6)."""
        b = self._b
        n2 = self.n_pits
        self._circuit_seen = False
        self._capture_seen = False
        k = b[pit]
        b[pit] = 0
        if tr is not None:
            tr.add(LIFT, pit, k)
        # Drops needed to pass the opponent's whole side and come back to one's
        # own: the path of a turn is unbroken, so counting drops is enough.
        need = n2 - (pit - self.side(p)[0])
        chosen = not self.turn_after_circuit
        drops = 0
        d = 1
        origin = pit
        for i in range(RELAY_LIMIT + 1):
            last = self._sow(origin, k, p, d, tr)
            drops += k
            nxt = self._end_handful(last, k, p, d, take, tr)
            if nxt < 0 or i == RELAY_LIMIT:
                return
            if not chosen and drops >= need:
                chosen = True
                self._circuit_seen = True
                # No step marks the choice: the next drop shows the direction taken.
                d = turn
            k = b[nxt]
            b[nxt] = 0
            if tr is not None:
                tr.add(RELAY, nxt, k)
            origin = nxt

    def _end_handful(self, last, k, p, d, take, tr):
        """The handful of k seeds ended in `last`: the pit to relay from, or -1 when p sleeps."""
        b = self._b
        marked = self._m0 | self._m1
        if marked >> last & 1:
            return -1                       # ended in a bull: sleep
        c = b[last]
        if self.makes_bulls:
            if k >= 2:
                pen = (last - d) % self.n_pits
                if not marked >> pen & 1 and (b[pen], c) in ((3, 4), (4, 3)):
                    self._mark(pen, p)      # a pair of bulls
                    self._mark(last, p)
                    return -1
            if c == 4:
                self._mark(last, p)
                return -1
        if c == 1:
            if self.owner(last) == p:
                self._eat(last, p, d, take, tr)
            return -1
        return self._occupied_end(last, c, p)

    def _occupied_end(self, last, c, p):
        return last

    def _mark(self, pit, p):
        if p == 0:
            self._m0 |= 1 << pit
        else:
            self._m1 |= 1 << pit

    def _eat(self, last, p, d, take, tr):
        """Rules 3 and 4: the pit opposite, then the string of empty pits after `last`."""
        b = self._b
        n2 = self.n_pits
        marked = self._m0 | self._m1
        opp = n2 - 1 - last
        if not b[opp] or marked >> opp & 1:
            return
        self._capture_seen = True
        if not take:
            return
        store = n2 + p
        self._take(last, store, tr)
        self._take(opp, store, tr)
        side = self.side(p)
        lo, hi = side[0], side[-1]
        c = last + d
        while lo <= c <= hi and not b[c] and not marked >> c & 1:
            o = n2 - 1 - c
            if not b[o] or marked >> o & 1:
                break
            self._take(o, store, tr)
            c += d

    # ----- the end (rule 9) ----------------------------------------------

    def _collect_leftovers(self, tr):
        """Each bull to its owner; the other seeds to the owner of the side they are on."""
        n2 = self.n_pits
        for i in range(n2):
            if self._b[i]:
                if self._m0 >> i & 1:
                    to = 0
                elif self._m1 >> i & 1:
                    to = 1
                else:
                    to = self.owner(i)
                self._take(i, n2 + to, tr)

    # ----- series (docs/variants/enkeshui.md, "Matches") -------------------
    # series="carry": the cows each player won are put back from the right,
    # a surplus leaves the game, and a player who cannot fill his right-hand
    # boma loses.  series="count": `games` games, one point a win.

    match_options = (("series", "carry", ("carry", "count")), ("games", 5, range(1, 100)))

    def _match_standing(self, match):
        if match.series == "count":
            return [0, 0]
        b = self._b
        return [sum(b[i] for i in self.side(p)) + b[self.n_pits + p] + self._hand[p] for p in (0, 1)]

    def _round_result(self, match):
        from ..rounds import carried_result, series_result
        if match.series == "count":
            return series_result(self, match, 1, match.games)
        s = self.stores     # the round's leftovers and bulls have gone to the stores
        row = self._start_row()
        full = sum(row)
        need = 0
        for c in row:       # the right-hand boma: the last of the start row that holds cows
            if c:
                need = c
        short = [p for p in (0, 1) if s[p] < need]
        r = carried_result(self, match, [min(s[p], full) for p in (0, 1)], short, "cannot fill his right-hand boma")
        r.off = max(0, s[0] - full) + max(0, s[1] - full)
        return r

    def _next_round(self, match, result, first, choices):
        from ..rounds import fresh_round, no_choices, options_of
        no_choices(self.title, choices)
        if match.series == "count":
            return fresh_round(self, first)
        row = self._start_row()
        n = self.pits_per_row
        pits = [0] * self.n_pits
        for p in (0, 1):
            left = result.points[p]
            for i in range(n - 1, -1, -1):     # from the right-hand boma leftwards
                c = min(row[i], left)
                pits[p * n + i] = c
                left -= c
        g = self.__class__(pits=pits, stores=[0, 0], to_move=first, **options_of(self))
        if g._stages():
            # Each round opens as a new game does (advance moves, racing start).
            g._load_state_fields({"setup": "0.0", "first": str(first)})
        return g

    # ----- notation and reasons -----------------------------------------

    def _play_move_name(self, move):
        if isinstance(move, int):
            return self.pit_name(move)
        name = self.pit_name(move[0]) + ("+" if move[1] > 0 else "-")
        if len(move) == 3 and not move[2]:
            name += "0"
        return name

    def _parse_play_move(self, text):
        if text.endswith("+0") or text.endswith("-0"):
            return (self._parse_pit(text[:-2]), 1 if text[-2] == "+" else -1, 0)
        if text.endswith("-"):
            return (self._parse_pit(text[:-1]), -1)
        if text.endswith("+"):
            return self._parse_pit(text[:-1])     # counter-clockwise is the plain move
        return self._parse_pit(text)

    def _why_rule(self, move):
        pit = move[0] if isinstance(move, tuple) else move
        name = self.pit_name(pit)
        if (self._m0 | self._m1) >> pit & 1:
            return "pit %s is a bull: its seeds stay there" % name
        if isinstance(move, tuple):
            if move == (pit, 1) or move == (pit, 1, 1):
                return "%r is written %d (the plain counter-clockwise move)" % (move, pit)
            if move == (pit, -1, 1):
                return "%r is written (%d, -1)" % (move, pit)
            if len(move) >= 2 and move[1] == -1 and (pit, -1) not in self.legal_moves():
                return "%s never goes round the opponent's side and back, so it cannot turn clockwise" % name
            if len(move) == 3 and move[2] == 0:
                return "%s does not end in a capture, so there is none to decline" % self._play_move_name(move[:2] if move[1] < 0 else pit)
        return "%r is not a move of %s: moves are a pit, (pit, -1) or (pit, direction, 0)" % (move, self.title)
