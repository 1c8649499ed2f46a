"""Enkeshui (Maasai).  Rules: docs/variants/enkeshui.md (source 004, 9 - MAASI, ENKESHUI).

Also home of two parts Kiothi and Lukho share (they import them from here):
- Staged: a game that opens with a setup phase of small tuple moves (seeds
  taken into a player's hand, placed one by one, a racing start) before play;
- the lockstep racing start (Enkeshui._race_start / _race): both players sow at
  once, one seed each per tick, and whoever sleeps first (or goes farthest)
  begins the game.
"""
from ..game import Mancala, RELAY_LIMIT
from ..errors import NotationError, PositionError
from ..trace import LIFT, RELAY, TAKE, PLACE, PASS, OFF

# Start rows (each player's row from his own left), Diagram j (2x8) and
# Diagram I (2x12); 2x10 has no diagram (see the doc's decisions).
_ROWS = {
    8: (0, 0, 4, 4, 4, 4, 4, 4),
    10: (0, 0, 3, 3, 3, 3, 3, 3, 3, 3),
    12: (0, 3, 3, 0, 3, 3, 0, 3, 3, 0, 3, 3),
}

# Setup-phase move words: moves are 1- or 2-tuples starting with one of them.
_WORDS = ("pass", "race", "done", "lift", "place", "remove")


def _pits_text(game, mask):
    return ",".join(game._pit_name(i) for i in range(game.n_pits) if mask >> i & 1)


def _pits_mask(game, text, what):
    mask = 0
    if text:
        for name in text.split(","):
            try:
                mask |= 1 << game._parse_pit(name)
            except NotationError:
                raise PositionError("%s=%s: %r is not a pit of %s" % (what, text, name, game.title))
    return mask


class Staged(Mancala):
    """A game whose setup phase is played as moves before the sowing starts.

    The setup is a list of stages (stage word, player); each stage takes one or
    more moves of that player.  Seeds a player takes off the board stay in his
    hand (self._hand, counted by outside()) until he places or sows them.
    Subclasses give _stages(), the stage moves and _begin_play().
    """

    has_state = True
    mark_key = ""   # the position-text name of the marked pits (bulls, knives); "" for none

    def _start(self, fresh):
        self._first = self.to_move       # the player who begins (before any race)
        self._hand = (0, 0)
        self._si = 0                     # index of the current setup stage
        self._sub = 0                    # progress inside the stage
        self._m0 = 0                     # pits marked for player 0 / player 1
        self._m1 = 0                     # (bulls, knives) as bit masks
        self.phase = "play"
        if fresh and self._stages():
            self.phase = "setup"
            self._enter_stage(None)
        elif fresh:
            self._begin_play(None)

    # ----- stages -------------------------------------------------------

    def _stages(self):
        """The setup stages of a new game: a tuple of (word, player)."""
        return ()

    def _stage(self):
        return self._stages()[self._si]

    def _enter_stage(self, tr):
        """Make the current stage's player the one to move; skip stages with nothing to do."""
        st = self._stages()
        while self._si < len(st):
            word, player = st[self._si]
            if self._stage_needed(word, player):
                self.to_move = player
                # Progress: lifts made (+4 once placing began); for "place"
                # (Lukho's one hole) the hole chosen, -1 before the first stone.
                self._sub = -1 if word == "place" else 0
                return
            self._si += 1
        self.phase = "play"
        self._begin_play(tr)

    def _stage_needed(self, word, player):
        return True

    def _next_stage(self, tr):
        self._si += 1
        self._enter_stage(tr)

    def _begin_play(self, tr):
        """The setup is over: the first player of the game moves."""
        self.to_move = self._first

    def outside(self):
        return self._hand[0] + self._hand[1]

    def _add_hand(self, player, k):
        h = self._hand
        self._hand = (h[0] + k, h[1]) if player == 0 else (h[0], h[1] + k)

    # ----- the hand moves every setup shares ----------------------------

    def _lift_to_hand(self, pit, player, tr):
        """Take every seed of `pit` into the player's hand."""
        k = self._b[pit]
        self._b[pit] = 0
        self._add_hand(player, k)
        if tr is not None:
            tr.add(TAKE, pit, k, OFF)

    def _place_from_hand(self, pit, player, tr):
        self._b[pit] += 1
        self._add_hand(player, -1)
        if tr is not None:
            tr.add(PLACE, pit, 1)

    def _deploy_moves(self, player, lift_from, place_into):
        """Moves of a redeployment: pass, lift up to two pits, then place every seed lifted."""
        lifts = self._sub & 3
        placing = self._sub & 4
        out = []
        if lifts == 0:
            out.append(("pass",))
        if lifts < 2 and not placing:
            b = self._b
            marked = self._m0 | self._m1
            for i in lift_from:
                if b[i] and not marked >> i & 1:
                    out.append(("lift", i))
        if lifts:
            for i in place_into:
                out.append(("place", i))
        return out

    def _deploy_move(self, move, tr):
        p = self.to_move
        word = move[0]
        if word == "pass":
            if tr is not None:
                tr.add(PASS)
            self._next_stage(tr)
        elif word == "lift":
            self._lift_to_hand(move[1], p, tr)
            self._sub += 1
        else:
            self._place_from_hand(move[1], p, tr)
            self._sub |= 4
            if self._hand[p] == 0:
                self._next_stage(tr)

    # ----- moves, legality, turns ------------------------------------

    def _moves(self):
        if self.phase == "play":
            return self._play_moves()
        return self._setup_moves()

    def _move(self, move, tr):
        if self.phase == "play":
            self._play_move(move, tr)
        else:
            self._setup_move(move, tr)

    def _position_key(self):
        if self.phase != "play":
            # Setup positions may come round again (seeds lifted, then put back)
            # and a play position may look like the setup's: neither is a
            # repetition, so each setup position gets a key of its own.
            return ("setup", len(self._hist))
        key = Mancala._position_key(self)
        x = self._extra_key()
        if not (self._m0 or self._m1 or x):
            return key
        # The engine's key is an exact one on MicroPython (bytes), a 64-bit hash
        # on CPython; the marked pits join it the same way.
        if isinstance(key, int):
            return hash((key, self._m0, self._m1, x))
        return (key, self._m0, self._m1, x)

    def _extra_key(self):
        return 0

    # ----- undo, copy, position text -------------------------------------

    def _save(self):
        return (self.phase, self._si, self._sub, self._hand, self._m0, self._m1, self._first)

    def _restore(self, s):
        self.phase, self._si, self._sub, self._hand, self._m0, self._m1, self._first = s

    def _state_fields(self):
        out = []
        if self.phase != "play":
            out.append("setup=%d.%d" % (self._si, self._sub))
            out.append("first=%d" % self._first)
            if self._hand[0] or self._hand[1]:
                out.append("hand=%d,%d" % self._hand)
        if self.mark_key:
            for p, m in ((0, self._m0), (1, self._m1)):
                if m:
                    out.append("%s%d=%s" % (self.mark_key, p, _pits_text(self, m)))
        return out

    def _load_state_fields(self, fields):
        fields = dict(fields)
        try:
            if "setup" in fields:
                si, _, sub = fields.pop("setup").partition(".")
                self._si = int(si)
                self._sub = int(sub)
                if not 0 <= self._si < len(self._stages()):
                    raise ValueError
                self.phase = "setup"
                self._first = int(fields.pop("first", self.to_move))
                h = fields.pop("hand", "0,0").split(",")
                self._hand = (int(h[0]), int(h[1]))
                if min(self._hand) < 0 or self._first not in (0, 1):
                    raise ValueError
        except (ValueError, IndexError):
            raise PositionError("%s: the setup fields (setup=stage.progress first=player hand=h0,h1) are malformed" % self.title)
        if self.phase != "play" and self._stage()[1] != self.to_move:
            raise PositionError("%s: in setup stage %d (%s) player %d is to move, not player %d" % (
                self.title, self._si, self._stage()[0], self._stage()[1], self.to_move))
        if self.mark_key:
            self._m0 = _pits_mask(self, fields.pop(self.mark_key + "0", ""), self.mark_key + "0")
            self._m1 = _pits_mask(self, fields.pop(self.mark_key + "1", ""), self.mark_key + "1")
            if self._m0 & self._m1:
                raise PositionError("%s: a pit cannot belong to both players" % self.title)
        self._load_more_fields(fields)
        if fields:
            raise PositionError("%s has no state field %s" % (self.title, ", ".join(sorted(fields))))
        if sum(self._b) + self.outside() > self.total_seeds():
            raise PositionError("%s is played with %d seeds, but this position has %d" % (
                self.title, self.total_seeds(), sum(self._b) + self.outside()))
        # The engine looked at the position before this state was known: look again.
        self._over = None
        self._legal = None
        self._seen = {}
        self._key = self._position_key()
        self._seen[self._key] = 1
        self._after(None)

    def _load_more_fields(self, fields):
        """Pop the variant's other state fields from the dict."""

    # ----- notation -----------------------------------------------------

    def move_name(self, move):
        if isinstance(move, tuple) and move and isinstance(move[0], str):
            if len(move) == 1:
                return move[0]
            return "%s:%s" % (move[0], self._pit_name(move[1]))
        return self._play_move_name(move)

    def _play_move_name(self, move):
        return Mancala.move_name(self, move)

    def parse_move(self, text):
        text = text.strip()
        word, colon, pit = text.partition(":")
        if word in _WORDS:
            if colon:
                return (word, self._parse_pit(pit))
            return (word,)
        return self._parse_play_move(text)

    def _parse_play_move(self, text):
        return Mancala.parse_move(self, text)

    def _why_illegal(self, move):
        if self._over is not None:
            return "the game is over (%s)" % self._over.reason
        if self.phase != "play":
            word, player = self._stage()
            legal = self.legal_moves()
            names = " ".join(self.move_name(m) for m in legal[:8]) + (" ..." if len(legal) > 8 else "")
            return "%r is not a move now: %s is in its setup (%s, player %d), where the moves are %s" % (
                move, self.title, self._stage_words.get(word, word), player, names)
        if isinstance(move, tuple) and move and isinstance(move[0], str):
            return "%s is a setup move, and the setup is over" % (move[0],)
        return self._why_play(move)

    _stage_words = {
        "advance": "the advance move",
        "deploy": "the opening redeployment",
        "race": "the racing start",
        "remove": "taking stones off the own side",
        "place": "placing stones in one hole on the opponent's side",
    }

    def _why_play(self, move):
        pit = move[0] if isinstance(move, tuple) and move else move
        if not isinstance(pit, int) or isinstance(pit, bool) or not 0 <= pit < self.n_pits:
            return "%r is not a move of %s: name one of your pits (0 to %d), as in %s" % (
                move, self.title, self.n_pits - 1, " ".join(self.move_name(m) for m in self.legal_moves()))
        name = self._pit_name(pit)
        if self.owner(pit) != self.to_move:
            return "pit %s belongs to player %d, and player %d is to move" % (name, self.owner(pit), self.to_move)
        if not self._b[pit]:
            return "pit %s is empty" % name
        return self._why_rule(move)


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
            return self._pit_name(move)
        name = self._pit_name(move[0]) + ("+" if move[1] > 0 else "-")
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
        name = self._pit_name(pit)
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
