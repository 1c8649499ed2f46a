"""A game that opens with a setup phase played as moves (Enkeshui, Kiothi, Lukho,
the mweso family): seeds taken into a player's hand, placed one by one, a
racing start, before the sowing starts.  Variants subclass Staged.

A module of its own so that a variant built on it imports no other variant.
"""
from .game import Mancala
from .trace import TAKE, PLACE, PASS, OFF


def pits_text(game, mask):
    """A bit mask of pits as the position text writes it: pit names joined by commas."""
    return ",".join(game.pit_name(i) for i in range(game.n_pits) if mask >> i & 1)


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
        """Whether a stage is played: a "place" stage is passed over when its player has nothing
        in hand to place; every other stage is."""
        return word != "place" or self._hand[player] > 0

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
        # on CPython; the marked pits join it the same way.  Bytes after the engine's
        # (the counts and the player, a length fixed for the variant): undo still reads
        # the counts from it, and a key no longer in undo's reach is kept as a digest
        # (mancala/recent.py), which a tuple (32 bytes more) could not be.
        if isinstance(key, int):
            return hash((key, self._m0, self._m1, x))
        return key + b"%d,%d,%d" % (self._m0, self._m1, x)

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
                    out.append("%s%d=%s" % (self.mark_key, p, pits_text(self, m)))
        return out

    def _load_state_fields(self, fields):
        from .reasons import load_staged_fields   # (a position text only)
        load_staged_fields(self, fields)

    def _load_more_fields(self, fields):
        """Pop the variant's other state fields from the dict."""

    # ----- notation -----------------------------------------------------

    def move_name(self, move):
        if isinstance(move, tuple) and move and isinstance(move[0], str):
            if len(move) == 1:
                return move[0]
            return "%s:%s" % (move[0], self.pit_name(move[1]))
        return self._play_move_name(move)

    def _play_move_name(self, move):
        return Mancala.move_name(self, move)

    def parse_move(self, text):
        from .reasons import parse_staged_move
        return parse_staged_move(self, text)

    def _parse_play_move(self, text):
        return Mancala.parse_move(self, text)

    def _why_illegal(self, move):
        from .reasons import staged_why_illegal   # (code kept out of memory until a move is refused)
        return staged_why_illegal(self, move)

    _stage_words = {
        "advance": "the advance move",
        "deploy": "the opening redeployment",
        "race": "the racing start",
        "remove": "taking stones off the own side",
        "place": "placing stones in one hole on the opponent's side",
    }

    def _why_play(self, move):
        from .reasons import why_play
        return why_play(self, move)
