"""Adi (Gold Coast).  Rules: docs/variants/adi.md (source 000, THE AFRICAN GAME OF ADI).

Relay sowing, fours won by the owner of their house, the eight-left rule; and,
for matches, houses that change hands between rounds (owner() is the buyer).
"""
try:
    from micropython import const
except ImportError:  # CPython
    def const(x):
        return x

from ..game import Mancala, RELAY_LAST
from ..errors import PositionError

# With this many seeds or fewer still in play, whoever wins a four takes them all.
_EIGHT = const(8)


class Adi(Mancala):
    id = "adi"
    title = "Adi"
    relay = RELAY_LAST
    # A four made on the way goes to the owner of its house the moment it
    # forms, before the next seed is dropped (the engine's `fours` part).
    fours = True
    pass_when_stuck = True           # a player with no seeds passes (source, closing note)
    min_seeds_in_play = 4            # no four can be made any more
    few_seeds_reason = "fewer than four seeds left"

    # ----- who owns each house ---------------------------------------------
    # In the first round each player owns the houses of his row; between
    # rounds the winner buys the houses the loser cannot fill (docs/variants/
    # adi.md, "Matches").  Owners change only between rounds, so they are no
    # part of the repetition key and undo has nothing to restore.

    def _setup_board(self):
        Mancala._setup_board(self)
        self._own = tuple(i // 6 for i in range(12))

    def _start(self, fresh):
        self._given = None    # the houses before a given position was scored at once
        # The player to move as given: with the first round's owners the
        # engine may pass him at once, before the owners of a later round
        # (set_owners, the position text's bought fields) are known.
        self._given_to_move = self.to_move

    def owner(self, pit):
        """The player who owns the house now (its buyer, once bought); stores are their player's."""
        if pit >= 12:
            return pit - 12
        return self._own[pit]

    def bought(self, player):
        """The houses on the opponent's row that `player` has bought (a tuple)."""
        return tuple(i for i in self._sides[player] if i // 6 != player)

    def set_owners(self, owners):
        """Give each house (12 player indices) its owner for the rest of the round."""
        if self._hist:
            raise PositionError("Adi: houses change hands between rounds, not after moves have been made")
        owners = tuple(owners)
        if len(owners) != 12 or any(o not in (0, 1) for o in owners):
            raise PositionError("Adi: owners must be 12 player indices (0 or 1), one for each house, not %r" % (owners,))
        if 0 not in owners or 1 not in owners:
            raise PositionError("Adi: a player who owns no house has lost the match: there is no round to play")
        if self._given is not None:
            # The position was scored at once with the old owners: score it again.
            self._b[:] = self._given
            self._given = None
        self._own = owners
        self._sides = (tuple(i for i in range(12) if owners[i] == 0), tuple(i for i in range(12) if owners[i] == 1))
        self.to_move = self._given_to_move
        self._over = None
        self._legal = None
        self._seen = {}
        self._key = self._position_key()
        self._seen[self._key] = 1
        self._after(None)

    def _collect_leftovers(self, tr):
        if not self._hist and self._given is None:
            self._given = self._b[:]
        Mancala._collect_leftovers(self, tr)

    def _judge(self, reason):
        # The round is won by having more than enough seeds to refill one's own
        # houses, four each (in the first round: more than the other player).
        o = Mancala._judge(self, reason)
        s = o.scores
        spare0 = s[0] - 4 * len(self._sides[0])
        spare1 = s[1] - 4 * len(self._sides[1])
        o.winner = None if spare0 == spare1 else (0 if spare0 > spare1 else 1)
        return o

    def pit_name(self, pit):
        # Houses are named by their row, whoever owns them now.
        if pit >= 12:
            return Mancala.pit_name(self, pit)
        return chr(65 + pit) if pit < 6 else chr(97 + pit - 6)

    def _state_fields(self):
        out = []
        for p in (0, 1):
            b = self.bought(p)
            if b:
                out.append("bought%d=%s" % (p, ",".join(self.pit_name(i) for i in b)))
        return out

    def _load_state_fields(self, fields):
        fields = dict(fields)
        owners = list(self._own)
        for p in (0, 1):
            text = fields.pop("bought%d" % p, None)
            if text is None:
                continue
            for name in text.split(","):
                try:
                    pit = self._parse_pit(name)
                except ValueError:
                    pit = -1
                if pit < 0 or pit // 6 == p:
                    raise PositionError("Adi: bought%d=%s: %r is not a house of player %d's opponent" % (p, text, name, p))
                owners[pit] = p
        if fields:
            raise PositionError("Adi has no state field %s (its fields: bought0, bought1)" % ", ".join(sorted(fields)))
        self.set_owners(owners)

    # ----- a move -------------------------------------------------------------

    def _move(self, move, tr):
        self._left = sum(self._b[:self.n_pits])   # seeds in play: houses and hand
        self._winner = -1                          # who won a four with eight or fewer in play
        Mancala._move(self, move, tr)

    def _four_made(self, pit, tr):
        if self._winner >= 0:
            return      # the eight-left rule has fired: the rest of the hand is just dropped
        owner = self.owner(pit)
        self._take(pit, self.n_pits + owner, tr)
        self._won_four(owner)

    def _won_four(self, player):
        if self._left <= _EIGHT:
            self._winner = player
        self._left -= 4

    def _relay_from(self, last, player, d):
        if self._winner >= 0 or self._b[last] == 4:
            return -1
        return Mancala._relay_from(self, last, player, d)

    def _capture(self, last, player, d, tr):
        b = self._b
        if self._winner < 0 and last < self.n_pits and b[last] == 4:
            # The last seed made four: the sower takes them, wherever they are.
            self._take(last, self.n_pits + player, tr)
            self._won_four(player)
        w = self._winner
        if w >= 0:
            # Eight left: the winner of that four takes every seed still in play.
            for i in range(self.n_pits):
                if b[i]:
                    self._take(i, self.n_pits + w, tr)
        self.few_seeds_reason = "eight left" if w >= 0 else Adi.few_seeds_reason
        return False

    # ----- matches (docs/variants/adi.md, "Matches") ----------------------

    def _match_standing(self, match):
        """Houses each player owns."""
        return [len(self._sides[0]), len(self._sides[1])]

    def _round_result(self, match):
        from ..rounds import RoundResult, fixed_first, other_first
        s = self.stores     # the houses are empty when a round is over
        held = self._match_standing(match)
        w = self.outcome().winner
        r = RoundResult(match.round, match.first, w, s, held, other_first(match), False)
        if w is None:
            return r        # each player refills his own houses: nothing changes hands
        loser = 1 - w
        keep = min(held[loser], s[loser] // 4)   # the houses he can still fill, four seeds each
        held[w] += held[loser] - keep
        held[loser] = keep
        fixed_first(r, loser, "he lost the round")
        if keep == 0:
            r.over = True
            r.match_winner = w
            r.reason = "player %d has bought all of player %d's houses" % (w, loser)
        return r

    def takeovers(self, winner):
        """The houses the round's winner may take over, in the order he must take them:
        first his own houses he sold earlier (he wins them back), then the loser's,
        each group from the middle of its row outwards (the source's advice for buying)."""
        loser = 1 - winner
        owned = self._sides[loser]
        out = []
        for row in (winner, loser):
            for k in _MIDDLE_OUT:
                if row * 6 + k in owned:
                    out.append(row * 6 + k)
        return out

    def _next_round(self, match, result, first, choices):
        from ..rounds import no_choices
        from ..closed import pit_list
        if sum(self.stores) != 48:
            raise PositionError("Adi: the next round needs all 48 seeds in the treasuries, but they hold %d" % sum(self.stores))
        owners = list(self._own)
        w = result.winner
        houses = choices.pop("houses", None)
        no_choices(self.title, choices, "houses=")
        if w is None:
            if houses:
                raise PositionError("Adi: the round was drawn, so no house changes hands")
        else:
            k = len(self._sides[1 - w]) - result.points[1 - w]
            order = self.takeovers(w)
            if houses is None:
                houses = order[:k]
            houses = pit_list(self, houses, "houses")
            back = min(k, len([h for h in order if h // 6 == w]))
            if len(houses) != k or len(set(houses)) != k or any(h not in order for h in houses):
                raise PositionError("Adi: player %d takes over exactly %d of player %d's houses (%s), not %s" % (
                    w, k, 1 - w, ",".join(self.pit_name(h) for h in order),
                    ",".join(self.pit_name(h) for h in houses) or "none"))
            if len([h for h in houses if h // 6 == w]) != back:
                raise PositionError("Adi: player %d must first win back the %d houses of his own row that he sold (%s)" % (
                    w, back, ",".join(self.pit_name(h) for h in order if h // 6 == w)))
            for h in houses:
                owners[h] = w
        # Every house gets four seeds from its owner's treasury (the loser's odd
        # seeds, if any, go into a house bought from him, which he could not fill).
        g = Adi(pits=[4] * 12, stores=[0, 0], to_move=first)
        g.set_owners(owners)
        return g


_MIDDLE_OUT = (2, 3, 1, 4, 0, 5)   # a row's houses from the middle outwards, from the owner's left
