"""Oware (Wari, Awele, Ayo, Ourri).  Rules: docs/variants/oware.md (source 003, OWARE)."""
from ..game import Mancala, SIDE_OPPONENT

_COUNTS = (2, 3)


class Oware(Mancala):
    id = "oware"
    title = "Oware"
    skip_origin = True
    pits_drain = True         # seeds leave the pits only for the stores
    # What happens to a capture that would take every seed the opponent has
    # (the source's main rule, then its two other ways).
    options = (("grand_slam", "no-capture", ("no-capture", "illegal", "sow-again")),)

    def _capture(self, last, player, d, tr):
        # Runs on every move: the count first (most moves end elsewhere than
        # on a 2 or a 3), then the side, without calls.
        if self._b[last] not in _COUNTS or last >= self.n_pits or last // self._per_player == player:
            return False
        if self._is_grand_slam(last, player, d) and self.grand_slam != "sow-again":
            # "no-capture"; and "illegal" when no other move was left (decision 3).
            return False
        self._capture_counts(last, player, d, _COUNTS, SIDE_OPPONENT, True, tr)
        # "sow-again": the capture of everything stands, and the mover moves
        # again; the feeding rule then makes that move give the opponent seeds.
        return self.grand_slam == "sow-again" and not self.has_seeds(1 - player)

    def _is_grand_slam(self, last, player, d):
        """Would the capture chain from `last` empty the opponent's whole side?"""
        b = self._b
        opp = 1 - player
        taken = 0
        c = last
        while 0 <= c < self.n_pits and self.owner(c) == opp and b[c] in _COUNTS:
            taken += b[c]
            c -= d
        return taken == sum(b[i] for i in self.side(opp))

    def _reaches_opponent(self, pit):
        # Sowing from pit i of player p's side reaches the other side when its
        # seeds pass the end of the player's row.
        k = self._per_player
        return self._b[pit] > k - 1 - (pit % k)

    def _moves(self):
        p = self.to_move
        b = self._b
        own = []
        for i in self._sides[p]:
            if b[i]:
                own.append(i)
        for i in self._sides[1 - p]:
            if b[i]:
                break
        else:
            # The opponent has no seeds: only a move that gives some is allowed.
            own = [i for i in own if self._reaches_opponent(i)]
        if self.grand_slam == "illegal":
            # Decision 3: when every move is a grand slam, they stay legal and capture nothing.
            fair = [i for i in own if not self._grand_slams(i)]
            if fair:
                return fair
        return own

    def _grand_slams(self, pit):
        """Would sowing `pit` end in a capture of every seed the opponent has?"""
        saved = self._b[:]
        p = self.to_move
        n = self._b[pit]
        self._b[pit] = 0
        last = self._sow(pit, n, p, 1, None)
        slam = self.owner(last) != p and self._b[last] in _COUNTS and self._is_grand_slam(last, p, 1)
        self._b = saved
        return slam

    def _why_rule(self, move):
        p = self.to_move
        if not self.has_seeds(1 - p) and not self._reaches_opponent(move):
            return "the opponent has no seeds: %s must give them some, and %s does not reach their side" % (
                "you", self.move_name(move))
        if self.grand_slam == "illegal" and self._grand_slams(move):
            return "%s would capture every seed the opponent has, which these rules forbid" % self.move_name(move)
        return Mancala._why_rule(self, move)
