"""Kiothi (Meru).  Rules: docs/variants/kiothi.md (source 004, 14 - MERU, KIOTHI).

The setup phase (the opening redeployment) comes from mancala.staged, shared
with Enkeshui, Lukho and the mweso family.
"""
from ..game import Mancala, RELAY_LIMIT
from ..trace import LIFT, RELAY
from ..staged import Staged, pits_text

_CHAIN = 4   # the left-end boma takes the pit opposite and up to three more


class Kiothi(Staged):
    id = "kiothi"
    title = "Kiothi"
    pits_per_row = 10
    seeds = 5
    skip_origin = True    # the boma just emptied gets no warrior when a handful comes round
    options = (("redeploy", "yes", ("yes", "no")),)

    def _start(self, fresh):
        # Bit i set: pit i held warriors when play began and has not been
        # lifted since (by its owner's move or a relay), so it cannot be captured.
        self._unmoved = 0
        self._ending = ""
        Staged._start(self, fresh)

    def _initial(self, b):
        # Five warriors in each of the six right-hand bomas of each player.
        for p in (0, 1):
            for i in self.side(p)[4:]:
                b[i] = 5

    def total_seeds(self):
        return 60

    def _stages(self):
        if self.redeploy == "no":
            return ()
        a = self._first
        return (("deploy", a), ("deploy", 1 - a))

    def _begin_play(self, tr):
        self.to_move = self._first
        # Every boma holding warriors when play begins is unmoved until it is lifted.
        m = 0
        for i in range(self.n_pits):
            if self._b[i]:
                m |= 1 << i
        self._unmoved = m

    # ----- the opening redeployment ---------------------------------------

    def _setup_moves(self):
        p = self._stage()[1]
        return self._deploy_moves(p, self.side(p), range(self.n_pits))

    def _setup_move(self, move, tr):
        self._deploy_move(move, tr)

    # ----- play ---------------------------------------------------------

    def _first_end(self, pit):
        """Where the first handful from `pit` ends, and how many seeds that pit held before its last one."""
        b = self._b
        k = b[pit]
        t = self.track(self.to_move, 1, pit)
        lap = len(t)
        last = t[(k - 1) % lap]
        return last, b[last] + (k - 1) // lap

    def _play_moves(self):
        p = self.to_move
        b = self._b
        tracks = self._tracks
        k = self._per_player
        lo = p * k
        out = []
        for i in self._sides[p]:
            n = b[i]
            if n:
                # Where the first handful ends (_first_end, worked out inline:
                # this runs after every move).  The move may not end in one of
                # the mover's own occupied bomas.
                t = tracks.get((p * 2 + 1) * 256 + i)
                if t is None:
                    t = self.track(p, 1, i)
                lap = len(t)
                last = t[(n - 1) % lap]
                if not (lo <= last < lo + k and b[last] + (n - 1) // lap):
                    out.append(i)
        return out

    def _play_move(self, move, tr):
        p = self.to_move
        self._turn(move, p, tr)
        self.to_move = 1 - p

    def _turn(self, pit, p, tr):
        b = self._b
        k = b[pit]
        b[pit] = 0
        if tr is not None:
            tr.add(LIFT, pit, k)
        origin = pit
        for i in range(RELAY_LIMIT + 1):     # endless relays stop (docs/rules.md)
            self._unmoved &= ~(1 << origin)     # a lifted boma has been moved
            last = self._sow(origin, k, p, 1, tr)
            c = b[last]
            if c == 1:
                if self.owner(last) == p:
                    self._capture(last, p, 1, tr)
                return
            if i == RELAY_LIMIT:
                return
            # An occupied boma: pick up all its warriors and go on (the pit
            # just emptied is passed over when the handful comes round).
            k = c
            b[last] = 0
            if tr is not None:
                tr.add(RELAY, last, k)
            origin = last

    def _capture(self, last, p, d, tr):
        """The last warrior landed alone in one of p's bomas: take the enemy boma opposite
        (and from the left-end boma up to three more), unless it is empty or unmoved."""
        b = self._b
        n2 = self.n_pits
        um = self._unmoved
        opp = n2 - 1 - last
        if not b[opp] or um >> opp & 1:
            return False
        store = n2 + p
        self._take(last, store, tr)         # the warrior that made the capture
        self._take(opp, store, tr)
        if last == self.side(p)[0]:
            for j in range(1, _CHAIN):
                o = opp - j
                if not b[o] or um >> o & 1:
                    break
                self._take(o, store, tr)
        return False

    # ----- the end ------------------------------------------------------

    def _finish(self, tr, reason):
        self._ending = reason
        Mancala._finish(self, tr, reason)

    def _collect_leftovers(self, tr):
        n2 = self.n_pits
        if self._ending == "no moves":
            # Everything left goes to the player who can still move.
            to = n2 + 1 - self.to_move
            for i in range(n2):
                self._take(i, to, tr)
        else:
            Mancala._collect_leftovers(self, tr)

    def _judge(self, reason):
        o = Mancala._judge(self, reason)
        if reason == "no moves":
            o.reason = "player %d cannot move; the warriors left go to player %d" % (self.to_move, 1 - self.to_move)
        if o.winner is not None and abs(o.scores[0] - o.scores[1]) == 2:
            o.reason += "; won by two, the supreme victory"
        return o

    # ----- state --------------------------------------------------------

    def _extra_key(self):
        return self._unmoved

    def _save(self):
        return (Staged._save(self), self._unmoved)

    def _restore(self, s):
        Staged._restore(self, s[0])
        self._unmoved = s[1]

    def _state_fields(self):
        out = Staged._state_fields(self)
        if self._unmoved:
            out.append("unmoved=%s" % pits_text(self, self._unmoved))
        return out

    def _load_more_fields(self, fields):
        from ..reasons import pits_mask
        self._unmoved = pits_mask(self, fields.pop("unmoved", ""), "unmoved")

    def _why_rule(self, move):
        if isinstance(move, tuple):
            return "Kiothi moves are pit numbers (warriors always move to the right), not %r" % (move,)
        last, before = self._first_end(move)
        return "sowing %s would end in your own boma %s, which already holds %d: a move may not end in an occupied boma of your own" % (
            self.pit_name(move), self.pit_name(last), before)

    # ----- series (docs/variants/kiothi.md, "Matches") -----------------------
    # `games` games; a win counts one, the supreme victory (a margin of two)
    # counts `supreme` (some tribes two, some as many as ten).

    match_options = (("games", 5, range(1, 100)), ("supreme", 2, range(1, 11)))

    def _match_standing(self, match):
        return [0, 0]

    def _round_result(self, match):
        from ..rounds import series_result
        s = self.stores
        return series_result(self, match, match.supreme if abs(s[0] - s[1]) == 2 else 1, match.games)

    def _next_round(self, match, result, first, choices):
        from ..rounds import fresh_round, no_choices
        no_choices(self.title, choices)
        return fresh_round(self, first)
