"""A match: the rounds of one variant, played one after the other by its round rule.

    >>> import mancala
    >>> m = mancala.Match("dakon")
    >>> g = m.game                  # round 1: a normal game of the variant
    >>> # ... play g to its end, then:
    >>> g = m.next_round()          # round 2, built from round 1 by the rules

What carries from one round to the next (seeds, closed pits, bought houses,
points) and who starts is the variant's own rule: the game class supplies it
through three hooks (docs/rules.md, "Matches"; their shared parts are in
rules/mancala/rounds.py).  The match itself keeps the round number, who
started the round, the standing before it, the finished rounds' results and
the seeds the match rules took out of play.

The match text is two lines, the match's own state and the round's position:

    match dakon round=2 first=0 points=30,68 off=0 history=1:1:30,68:30,68:0:1:0
    dakon pits_per_row=7,seeds=7 0,0,0,7,7,7,7/7,7,7,7,7,7,7 2,19 0 closed=A,B,C

See docs/rules.md, "Matches".
"""
from .errors import IllegalMoveError, NoRulesError, PositionError
from .game import Outcome
from .reasons import show_allowed as _show_allowed
from .position import to_text as _position_text, from_text as _position_from_text
from .registry import variant_class

# The variants whose sources give match rules (docs/rules.md, "Matches").
MATCH_VARIANTS = ("dakon", "sunca", "pandi", "pallam-kuzhi", "adi", "egyptian-simple", "egyptian-advanced",
                  "lane", "syrian", "enkeshui", "giuthi", "giuthi-driedger", "lukho", "kiothi")


class Match:
    """Rounds of one variant.  Match(name, first=0, **options): `options` are the
    variant's match options (see its doc) and game options, told apart by name."""

    def __init__(self, name, first=0, **options):
        cls = variant_class(name)
        if not hasattr(cls, "_round_result"):
            raise NoRulesError("%s is played as single games: its sources give no rules for a match "
                               "(matches: %s)" % (cls.title, ", ".join(MATCH_VARIANTS)))
        if first not in (0, 1):
            raise PositionError("first must be 0 or 1 (the player who starts round 1), not %r" % (first,))
        self._cls = cls
        self._set_match_options(cls, options)
        self.game = cls(to_move=first, **options)
        self.round = 1
        self.first = first
        self.off = 0
        self._done = []
        self.standing = self.game._match_standing(self)

    def _set_match_options(self, cls, options):
        for name, default, allowed in getattr(cls, "match_options", ()):
            value = options.pop(name, default)
            if value not in allowed:
                raise PositionError("%s matches: option %s=%r is not allowed; choose one of %s" % (
                    cls.title, name, value, _show_allowed(allowed)))
            setattr(self, name, value)

    @property
    def variant(self):
        return self._cls.id

    def match_options(self):
        """The match's own options as a dict."""
        out = {}
        for o in getattr(self._cls, "match_options", ()):
            out[o[0]] = getattr(self, o[0])
        return out

    # ----- where the match stands ----------------------------------------

    def result(self):
        """The current round's RoundResult once it is over, else None."""
        if not self.game.is_over():
            return None
        return self.game._round_result(self)

    @property
    def history(self):
        """The RoundResult of every finished round, the current one included once it is over."""
        out = list(self._done)
        r = self.result()
        if r is not None:
            out.append(r)
        return out

    @property
    def points(self):
        """The match's standing: after the current round once it is over, else before it."""
        r = self.result()
        return list(r.points if r is not None else self.standing)

    def is_over(self):
        r = self.result()
        return r is not None and r.over

    def outcome(self):
        """Outcome(winner, points, reason) of the match; None while it goes on."""
        r = self.result()
        if r is None or not r.over:
            return None
        return Outcome(r.match_winner, list(r.points), r.reason)

    def next_first(self):
        """Who starts the next round (the rules' player, or the default where they leave it open)."""
        r = self._finished_round()
        return r.next_first

    def _finished_round(self):
        r = self.result()
        if r is None:
            raise IllegalMoveError("round %d of this %s match is not over yet: play it to its end first" % (
                self.round, self._cls.title))
        if r.over:
            raise IllegalMoveError("the match is over (%s)" % r.reason)
        return r

    # ----- the next round ---------------------------------------------------

    def next_round(self, first=None, **choices):
        """Start the next round from the finished one; return its game (also `self.game`).

        first: who starts it, where the rules leave that to the players (a
        variant whose rules name the starter refuses another).  choices: what
        the round rule lets a player decide (Adi's `houses`, Giuthi's
        `arrangement` and `shorten`); see the variant's doc."""
        r = self._finished_round()
        if first is None:
            first = r.next_first
        elif first not in (0, 1):
            raise PositionError("first must be 0 or 1, not %r" % (first,))
        elif r.fixed and first != r.next_first:
            raise PositionError("%s: player %d starts round %d (%s), not player %d" % (
                self._cls.title, r.next_first, self.round + 1, r.why_first or "the rules say so", first))
        game = self.game._next_round(self, r, first, dict(choices))
        self._done.append(r)
        self.off += r.off
        self.standing = list(r.points)
        self.round += 1
        self.first = first
        self.game = game
        return game

    # ----- text -------------------------------------------------------------

    def to_text(self):
        """Two lines: the match's state, then the current round's position text."""
        fields = ["match", self._cls.id]
        for o in getattr(self._cls, "match_options", ()):
            fields.append("%s=%s" % (o[0], getattr(self, o[0])))
        fields.append("round=%d" % self.round)
        fields.append("first=%d" % self.first)
        fields.append("points=%s" % _ints(self.standing))
        fields.append("off=%d" % self.off)
        if self._done:
            fields.append("history=" + "|".join(_result_text(r) for r in self._done))
        return " ".join(fields) + "\n" + _position_text(self.game)

    @staticmethod
    def from_text(text):
        """The match written by to_text(); a malformed text raises PositionError saying what is wrong."""
        lines = [line for line in text.strip().split("\n") if line.strip()]
        if len(lines) != 2:
            raise PositionError("a match text has two lines (the match, then the round's position), not %d" % len(lines))
        fields = lines[0].split()
        if len(fields) < 2 or fields[0] != "match":
            raise PositionError("a match text starts with 'match <variant>', not %r" % lines[0])
        cls = variant_class(fields[1])
        if not hasattr(cls, "_round_result"):
            raise NoRulesError("%s has no match rules" % cls.title)
        values = {}
        for item in fields[2:]:
            name, eq, value = item.partition("=")
            if not eq or not name:
                raise PositionError("a match field must be name=value, not %r" % item)
            values[name] = value
        game = _position_from_text(lines[1])
        if game.__class__ is not cls:
            raise PositionError("the position is a game of %s, but the match is of %s" % (game.title, cls.title))
        m = object.__new__(Match)
        m._cls = cls
        opts = {}
        for name, default, allowed in getattr(cls, "match_options", ()):
            if name in values:
                v = values.pop(name)
                opts[name] = int(v) if v.isdigit() else v
        m._set_match_options(cls, opts)
        try:
            m.round = int(values.pop("round"))
            m.first = int(values.pop("first"))
            m.standing = _parse_ints(values.pop("points"))
            m.off = int(values.pop("off", "0"))
            hist = values.pop("history", "")
            m._done = [_parse_result(t, i + 1) for i, t in enumerate(hist.split("|"))] if hist else []
        except KeyError as e:
            raise PositionError("the match line needs a %s= field" % e.args[0])
        except ValueError:
            raise PositionError("the match line %r has a malformed number" % lines[0])
        if values:
            raise PositionError("a %s match has no field %s" % (cls.title, ", ".join(sorted(values))))
        if m.round < 1 or m.first not in (0, 1) or len(m.standing) != 2 or m.off < 0 or len(m._done) != m.round - 1:
            raise PositionError("the match line %r is inconsistent: round from 1, first 0 or 1, two points, "
                                "one history entry per finished round" % lines[0])
        m.game = game
        return m

    def __repr__(self):
        return "<%s match, round %d, points %s>" % (self._cls.title, self.round, self.points)


def _ints(values):
    return ",".join(str(v) for v in values)


def _parse_ints(text):
    return [int(v) for v in text.split(",")]


def _result_text(r):
    """first:winner:scores:points:next_first:fixed:off (winner - for a draw)."""
    return "%d:%s:%s:%s:%d:%d:%d" % (r.first, "-" if r.winner is None else r.winner, _ints(r.scores),
                                     _ints(r.points), r.next_first, 1 if r.fixed else 0, r.off)


def _parse_result(text, round):
    from .rounds import RoundResult
    parts = text.split(":")
    if len(parts) != 7:
        raise ValueError(text)
    r = RoundResult(round, int(parts[0]), None if parts[1] == "-" else int(parts[1]), _parse_ints(parts[2]),
                    _parse_ints(parts[3]), int(parts[4]), parts[5] == "1")
    r.off = int(parts[6])
    return r
