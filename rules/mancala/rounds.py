"""Parts the variants share for their round rules (what mancala.Match calls).

A variant that plays rounds (docs/rules.md, "Matches") gives its game class
three hooks:

- _match_standing(match): the match's standing before the first round;
- _round_result(match): the RoundResult of this finished round;
- _next_round(match, result, first, choices): the next round's game.

Here: RoundResult, and the helpers that fill it for the usual kinds of match
(seeds carried into the next round, points summed to a target, a fixed
number of games), refill() for a row filled from what a player holds, and
the checks of the choices a player makes between rounds.

Only a match imports this module (the hooks import it when they run), so a
single game on the board does not pay for it.
"""
from .errors import PositionError


class RoundResult:
    """What a finished round means for its match.

    round: its number (1 = the first); first: the player who started it;
    winner: the round's winner (None for a draw); scores: the seeds each
    player ended it with (the round's outcome scores); points: the match's
    standing after it (what `Match.points` shows: gains, points, wins, seeds
    or houses held, as the variant counts); next_first: who starts the next
    round; fixed: whether the rules fix that player (otherwise the players
    may agree on another); off: seeds the match rules take out of play
    before the next round (Enkeshui's surplus); over: the round ends the
    match; match_winner and reason: the match's result when it does.
    """

    def __init__(self, round, first, winner, scores, points, next_first, fixed=True,
                 over=False, match_winner=None, reason=""):
        self.round = round
        self.first = first
        self.winner = winner
        self.scores = scores
        self.points = points
        self.next_first = next_first
        self.fixed = fixed
        self.why_first = ""       # the rule that makes next_first start, for error messages
        self.off = 0              # seeds the match takes out of play before the next round
        self.over = over
        self.match_winner = match_winner
        self.reason = reason

    def __eq__(self, other):
        return isinstance(other, RoundResult) and self._fields() == other._fields()

    def _fields(self):
        return (self.round, self.first, self.winner, self.scores, self.points, self.next_first,
                self.fixed, self.off, self.over, self.match_winner, self.reason)

    def __repr__(self):
        return ("RoundResult(round=%d, first=%d, winner=%r, scores=%r, points=%r, next_first=%d%s)" % (
            self.round, self.first, self.winner, self.scores, self.points, self.next_first,
            (", over: %s" % self.reason) if self.over else ""))


def fixed_first(r, player, why):
    """The rules make `player` start the next round (`why` says which rule)."""
    r.next_first = player
    r.fixed = True
    r.why_first = why
    return r


def options_of(game):
    """The game's options as keywords for a new game of the same variant."""
    opts = {}
    for o in game.options:
        opts[o[0]] = getattr(game, o[0])
    return opts


def round_winner(game):
    """The round's winner (None for a draw) from its outcome."""
    return game.outcome().winner


def other_first(match):
    """The default starter where the rules leave it open: the player who did not start this round."""
    return 1 - match.first


def carried_result(game, match, held, short, what):
    """A round after which each player goes on with what he holds (seeds, houses).

    held: the standing after the round; short: the players who cannot go on
    (the match is over, won by the other); what: the words for the reason."""
    r = RoundResult(match.round, match.first, round_winner(game), game.stores, held, other_first(match), False)
    if short:
        loser = short[0]
        r.over = True
        r.match_winner = 1 - loser
        r.reason = "player %d %s" % (loser, what)
    return r


def summed_result(game, match, gained, target, lead=0):
    """A round whose winner adds `gained` points; a player with `target` or more (and
    at least `lead` more than the other) wins the match."""
    w = round_winner(game)
    pts = list(match.standing)
    if w is not None:
        pts[w] += gained
    r = RoundResult(match.round, match.first, w, game.stores, pts, other_first(match), False)
    if w is not None and pts[w] >= target and pts[w] - pts[1 - w] >= lead:
        r.over = True
        r.match_winner = w
        r.reason = "player %d reached %d points" % (w, pts[w])
        if lead:
            r.reason += ", %d ahead" % (pts[w] - pts[1 - w])
    return r


def series_result(game, match, gained, games):
    """A round of a series of `games` rounds; its winner adds `gained` points;
    after the last round the player with more points wins (equal: a draw)."""
    w = round_winner(game)
    pts = list(match.standing)
    if w is not None:
        pts[w] += gained
    r = RoundResult(match.round, match.first, w, game.stores, pts, other_first(match), False)
    if match.round >= games:
        r.over = True
        if pts[0] != pts[1]:
            r.match_winner = 0 if pts[0] > pts[1] else 1
            r.reason = "after %d rounds player %d has more points (%d to %d)" % (
                games, r.match_winner, pts[r.match_winner], pts[1 - r.match_winner])
        else:
            r.reason = "after %d rounds the points are equal (%d each)" % (games, pts[0])
    return r


def fresh_round(game, first):
    """The next round as a new game of the same variant and options."""
    return game.__class__(to_move=first, **options_of(game))


def refill(held, per_pit, order, n_pits):
    """Fill pits in `order` with `per_pit` seeds each from `held` seeds.

    Returns (counts per pit over the whole board, pits left unfilled, seeds
    left over).  Pits not in `order` get nothing."""
    counts = [0] * n_pits
    left = held
    unfilled = []
    for pit in order:
        if left >= per_pit:
            counts[pit] = per_pit
            left -= per_pit
        else:
            unfilled.append(pit)
    return counts, unfilled, left


def refilled_round(game, points, first, orders):
    """The next round of a refill game (Dakon, Sunca, Pandi, Pallam Kuzhi).

    Each player p fills pits in orders[p] with the variant's seeds per pit from
    points[p]; pits that cannot be filled are closed, what is left stays in the
    store."""
    pits = [0] * game.n_pits
    stores = [0] * game.players
    closed = []
    for p in range(game.players):
        counts, unfilled, left = refill(points[p], game.seeds, orders[p], game.n_pits)
        for i in orders[p]:
            pits[i] = counts[i]
        stores[p] = left
        closed.extend(unfilled)
    g = game.__class__(pits=pits, stores=stores, to_move=first, **options_of(game))
    if closed:
        g.set_closed(closed)
    return g


def no_choices(title, choices, takes=""):
    """Refuse choices a variant's next round does not take (`takes`: those it does)."""
    if choices:
        raise PositionError("%s's next round takes %s, not %s" % (
            title, ("only " + takes) if takes else "no choices", ", ".join(sorted(choices))))


def row_counts(game, player, value, what):
    """A row of counts for `player`'s pits from his left (a list of ints, or text "1,7,1,0,0,0")."""
    k = game._per_player
    if isinstance(value, str):
        try:
            value = [int(v) for v in value.split(",")]
        except ValueError:
            raise PositionError("%s: %r must be whole numbers separated by commas" % (what, value))
    value = list(value)
    if len(value) != k:
        raise PositionError("%s needs %d counts, one for each of player %d's pits from his left, not %d" % (
            what, k, player, len(value)))
    for c in value:
        if not isinstance(c, int) or c < 0:
            raise PositionError("%s: counts must be whole numbers of 0 or more, not %r" % (what, c))
    return value


