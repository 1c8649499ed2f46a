"""Mankaleh (Lebanon, Syria).  Rules: docs/variants/mankaleh.md (source 000, MANKALEH)."""
from ..game import Mancala, RELAY_LAST, SIDE_ANY
from ..trace import PASS

# The counts a last pebble must make to win a well, and that keep a run going.
_EVEN = (2, 4, 6)


class Mankaleh(Mancala):
    id = "mankaleh"
    title = "Mankaleh"
    pits_per_row = 7
    seeds = 7
    relay = RELAY_LAST

    def _relay_from(self, last, player, d):
        # The turn goes on only from one of the mover's own wells that already
        # held pebbles and does not make a capture.
        c = self._b[last]
        if c > 1 and c not in _EVEN and last // self._per_player == player:
            return last
        return -1

    def _capture(self, last, player, d, tr):
        if self._b[last] in _EVEN:
            self._capture_counts(last, player, d, _EVEN, SIDE_ANY, True, tr)
        return False

    def _moves(self):
        p = self.to_move
        b = self._b
        if b[self.n_pits + p] >= 2:
            return [i for i in self._sides[p] if b[i]]
        # Before two pebbles are home, a single pebble may not start a turn.
        return [i for i in self._sides[p] if b[i] > 1]

    def _why_rule(self, move):
        if isinstance(move, int) and self._b[move] == 1:
            return "well %s holds a single pebble, which may start a turn only once you have two pebbles in your home (you have %d)" % (
                self._pit_name(move), self._b[self.n_pits + self.to_move])
        return Mancala._why_rule(self, move)

    def _after(self, tr):
        if self._over is None:
            seeds = 0
            for i in range(self.n_pits):
                seeds += self._b[i]
            if seeds < 2:
                self._finish(tr, "fewer than two pebbles left")
                return
        Mancala._after(self, tr)

    def _no_moves(self, tr):
        # A player who cannot move passes; the game ends when neither can.
        p = self.to_move
        self.to_move = 1 - p
        moves = self._moves()
        if moves:
            self._legal = moves
            if tr is not None:
                tr.add(PASS)
            return
        self.to_move = p
        self._finish(tr, "no moves")
