"""Kpo / Poo (Vei, Liberia) after Culin.  Rules: docs/variants/kpo.md (source 000, MANCALA by Culin).

Two, three or four players on one 2 x 6 board.  With three the board is cut
across into three parts of two columns, so the middle player's holes are two
pairs on opposite rows; with four each player has half a row.
"""
from ..game import Mancala

# Who owns each pit (canonical two-row numbering), by number of players.
_OWNERS = {
    2: (0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1),
    3: (0, 0, 1, 1, 2, 2, 2, 2, 1, 1, 0, 0),
    4: (0, 0, 0, 1, 1, 1, 2, 2, 2, 3, 3, 3),
}
_KILL = (2, 3)   # the last hole raised to one of these counts is won


class Kpo(Mancala):
    id = "kpo"
    title = "Kpo"
    pits_drain = True         # seeds leave the pits only for the stores
    # seeds=None: four a hole with two players, three with three or four (the source).
    options = (("players", 2, (2, 3, 4)), ("seeds", None, (None,) + tuple(range(1, 13))))
    pass_when_stuck = True          # a player with no seeds is skipped
    min_seeds_in_play = 2           # fewer than two seeds can never be won
    few_seeds_reason = "no capture possible"

    def _setup_board(self):
        if self.seeds is None:
            self.seeds = 4 if self.players == 2 else 3
        # Two players sow counter-clockwise; three or four choose each move.
        self.direction = 1 if self.players == 2 else 0
        Mancala._setup_board(self)
        owners = _OWNERS[self.players]
        self._owners = owners
        self._sides = tuple(tuple(i for i in range(self.n_pits) if owners[i] == p) for p in range(self.players))

    def owner(self, pit):
        if pit >= self.n_pits:
            return pit - self.n_pits
        return self._owners[pit]

    def has_seeds(self, player):
        b = self._b
        for i in self._sides[player]:
            if b[i]:
                return True
        return False

    def _capture(self, last, player, d, tr):
        b = self._b
        if b[last] in _KILL:
            store = self.n_pits + player
            self._take(last, store, tr)
            if self.players > 2:
                # With three or four players the next hole forward goes too.
                self._take((last + d) % self.n_pits, store, tr)
        return False

    def _why_rule(self, move):
        if isinstance(move, tuple) and (len(move) != 2 or move[1] not in (1, -1)):
            return "a Kpo move is (pit, direction) with direction 1 (counter-clockwise) or -1 (clockwise), not %r" % (move,)
        return Mancala._why_rule(self, move)

    def pit_name(self, pit):
        # Holes are named by their place on the board, whatever the number of
        # players: near row A-F, far row a-f from the far side's left.
        if pit >= self.n_pits:
            return "store%d" % (pit - self.n_pits)
        k = self.pits_per_row
        if pit < k:
            return chr(65 + pit)
        return chr(97 + pit - k)
