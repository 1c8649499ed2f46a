"""Closed pits: a board some of whose pits are out of play for a round.

Dakon's fallow fields, Pandi's papered shops, the unused cups of Giuthi's
Part II and Driedger's shortened board: a match closes them between rounds
(rules/mancala/rounds.py).  Closed pits hold nothing, are never sown and are
passed over by every rule that walks from pit to pit.
"""
from .game import Mancala
from .errors import NotationError, PositionError

# Tracks of boards with closed pits, shared by every game with the same
# variant, options and closed pits (the engine's own cache is per options).
_CLOSED_TRACKS = {}


def pit_list(game, value, what):
    """Pits given as ints or pit names (a list, or one string of names separated by commas)."""
    if isinstance(value, str):
        value = [v for v in value.split(",") if v]
    out = []
    for v in value:
        if isinstance(v, str):
            try:
                v = game._parse_pit(v.strip())
            except NotationError as e:
                raise PositionError("%s: %s" % (what, e))
        if not isinstance(v, int) or not 0 <= v < game.n_pits:
            raise PositionError("%s: %r is not a pit of %s (pits are 0 to %d or their names)" % (
                what, v, game.title, game.n_pits - 1))
        out.append(v)
    return out


class ClosedPits(Mancala):
    """A board on which some pits may be closed for the round.

    Closed pits hold nothing, no seed is ever sown into them, and no move
    starts there.  They stay closed for the whole round (the match decides
    them between rounds), so they are no part of a position's repetition key
    and undo has nothing to restore.  The position text carries them as
    `closed=A,B,f`.  Rules that step from pit to pit use `_succ[pit]` (the
    next open pit counter-clockwise) and `_pred[pit]` (clockwise).
    """

    def _setup_board(self):
        Mancala._setup_board(self)
        self._open_tracks = self._tracks
        self._closed = 0
        self._link()

    def _link(self):
        n = self.n_pits
        m = self._closed
        succ = []
        pred = []
        for i in range(n):
            j = (i + 1) % n
            while m >> j & 1 and j != i:
                j = (j + 1) % n
            succ.append(j)
            j = (i - 1) % n
            while m >> j & 1 and j != i:
                j = (j - 1) % n
            pred.append(j)
        self._succ = tuple(succ)
        self._pred = tuple(pred)

    @property
    def closed(self):
        """The closed pits, in canonical order (a tuple)."""
        m = self._closed
        return tuple(i for i in range(self.n_pits) if m >> i & 1)

    def is_closed(self, pit):
        return pit < self.n_pits and self._closed >> pit & 1 == 1

    def set_closed(self, pits):
        """Close these pits (and open every other) for the rest of the round.

        Refused (PositionError) while a closed pit holds seeds, or when it
        would leave a player no open pit."""
        if self._hist:
            raise PositionError("%s: pits are closed between rounds, not after moves have been made" % self.title)
        m = 0
        for p in pits:
            m |= 1 << p
        b = self._b
        for i in range(self.n_pits):
            if m >> i & 1 and b[i]:
                raise PositionError("%s: pit %s is closed, so it cannot hold %d seeds" % (
                    self.title, self.pit_name(i), b[i]))
        for p in range(self.players):
            if all(m >> i & 1 for i in self.side(p)):
                raise PositionError("%s: closing every pit of player %d leaves him no board to play on" % (self.title, p))
        self._closed = m
        if m:
            key = (self.__class__, tuple(getattr(self, o[0]) for o in self.options), m)
            t = _CLOSED_TRACKS.get(key)
            if t is None:
                t = _CLOSED_TRACKS[key] = {}
            self._tracks = t
        else:
            self._tracks = self._open_tracks
        self._link()
        if self._over is None:
            self._legal = None
            self._after(None)

    def _sowable(self, player, cell, origin):
        if cell < self.n_pits and self._closed >> cell & 1:
            return False
        return Mancala._sowable(self, player, cell, origin)

    def _state_fields(self):
        if not self._closed:
            return []
        return ["closed=" + ",".join(self.pit_name(i) for i in self.closed)]

    def _load_state_fields(self, fields):
        fields = dict(fields)
        text = fields.pop("closed", None)
        self._load_more_fields(fields)
        if fields:
            raise PositionError("%s has no state field %s (its fields: %s)" % (
                self.title, ", ".join(sorted(fields)), self._field_names()))
        if text is not None:
            self.set_closed(pit_list(self, text, "closed=%s" % text))

    def _field_names(self):
        return "closed"

    def _load_more_fields(self, fields):
        """Pop the variant's other state fields from the dict."""
