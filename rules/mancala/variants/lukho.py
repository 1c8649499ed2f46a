"""Lukho (Bukuso).  Rules: docs/variants/lukho.md (source 004, 15 - BUKUSO, LUKHO).

Built on Enkeshui: the source takes its captures from Enkeshui's rules 3 and 4,
its knives behave as Enkeshui's bulls, and its racing move is the same lockstep
race (sown from the hand).  The opening is a setup phase of small moves.
"""
from ..game import Mancala
from ..trace import TAKE, OFF
from .enkeshui import Enkeshui


class Lukho(Enkeshui):
    id = "lukho"
    title = "Lukho"
    pits_per_row = 8
    seeds = 3
    options = (("pits_per_row", 8, (8, 10, 12)),)
    race = "first-to-sleep"
    advance = "no"
    mark_key = "knives"
    optional_capture = False    # the execution phase has no decisions
    turn_after_circuit = False
    makes_bulls = False
    lazy_moves = False          # one move at most, found without playing it out

    def _initial(self, b):
        Mancala._initial(self, b)

    def total_seeds(self):
        return self.n_pits * self.seeds

    # ----- the opening: take off, place in one hole, race ---------------------

    def _stages(self):
        a = self._first
        return (("remove", a), ("remove", 1 - a), ("place", a), ("place", 1 - a), ("race", a))

    def _setup_moves(self):
        word, p = self._stage()
        if word == "race":
            return [("race",)]
        b = self._b
        out = [("done",)]
        if word == "remove":
            for i in self.side(p):
                if b[i]:
                    out.append(("remove", i))
        elif self._sub >= 0:
            out.append(("place", self._sub))     # the hole is chosen: the rest go there too
        else:
            for i in self.side(1 - p):
                out.append(("place", i))
        return out

    def _setup_move(self, move, tr):
        word = move[0]
        p = self.to_move
        if word == "race":
            self._race(tr)
        elif word == "done":
            self._next_stage(tr)
        elif word == "remove":
            self._b[move[1]] -= 1
            self._add_hand(p, 1)
            if tr is not None:
                tr.add(TAKE, move[1], 1, OFF)
        else:
            self._place_from_hand(move[1], p, tr)
            self._sub = move[1]
            if not self._hand[p]:
                self._next_stage(tr)

    def _race_start(self, p, tr):
        # The stones in the hand are sown from the opponent's first pit on:
        # the pit "before" it is the player's own last pit.
        k = self._hand[p]
        self._add_hand(p, -k)
        return self.side(p)[-1], k, True

    # ----- the execution phase ----------------------------------------------

    def _alive(self, p):
        """Whether p has a stone on his side outside the knives."""
        b = self._b
        marked = self._m0 | self._m1
        for i in self.side(p):
            if b[i] and not marked >> i & 1:
                return True
        return False

    def _play_moves(self):
        if not (self._alive(0) and self._alive(1)):
            return []
        return self._movable(self.to_move)[:1]     # the leftmost pit holding stones

    def _occupied_end(self, last, c, p):
        # A knife: after his first capture, a player whose handful ends on a
        # single stone (now two) owns that pit; the move sleeps.
        if c == 2 and self.phase == "play" and self._b[self.n_pits + p]:
            self._mark(last, p)
            return -1
        return last

    def _no_moves(self, tr):
        self._finish(tr, "side empty")

    def _collect_leftovers(self, tr):
        """Knives go to their owners; other stones are no one's winnings and stay."""
        n2 = self.n_pits
        for i in range(n2):
            if self._b[i]:
                if self._m0 >> i & 1:
                    self._take(i, n2, tr)
                elif self._m1 >> i & 1:
                    self._take(i, n2 + 1, tr)

    def _judge(self, reason):
        o = Mancala._judge(self, reason)
        if reason == "side empty":
            empty = [p for p in (0, 1) if not self._alive(p)]
            o.reason = "player %s has no stones left outside knives" % " and ".join(str(p) for p in empty)
        pts = self.round_points()
        if o.winner is not None:
            o.reason += "; %d points to player %d" % (pts, o.winner)
        return o

    def round_points(self):
        """Points the winner of this round scores in a set: 2, or 4 when only he captured or
        he won by exactly two stones (a 'bull'); 0 for a draw.  Read it once the game is over.

        The 12 points for winning the first game of a set by a bull belong to the set."""
        s = self.stores
        if self.phase != "play" or s[0] == s[1]:
            return 0
        if min(s) == 0 or abs(s[0] - s[1]) == 2:
            return 4
        return 2

    def _why_rule(self, move):
        legal = self.legal_moves()
        if legal:
            return "Lukho's execution phase has no choices: player %d must move %s, the leftmost pit holding stones" % (
                self.to_move, self.move_name(legal[0]))
        return "%r is not a move now" % (move,)

    # ----- sets (docs/variants/lukho.md, "Matches") ----------------------------

    match_options = (("games", 12, range(1, 100)),)

    def _match_standing(self, match):
        return [0, 0]

    def _round_result(self, match):
        from ..rounds import series_result
        pts = self.round_points()
        s = self.stores
        if match.round == 1 and pts and abs(s[0] - s[1]) == 2:
            pts = 12        # the first game of a set won by a bull
        return series_result(self, match, pts, match.games)

    def _next_round(self, match, result, first, choices):
        from ..rounds import fresh_round, no_choices
        no_choices(self.title, choices)
        return fresh_round(self, first)
