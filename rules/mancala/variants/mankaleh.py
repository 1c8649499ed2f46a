"""Mankaleh (Lebanon, Syria).  Rules: docs/variants/mankaleh.md (source 000, MANKALEH)."""
from ..game import Mancala, RELAY_LAST, SIDE_ANY

# The counts a last pebble must make to win a well, and that keep a run going.
_EVEN = (2, 4, 6)


class Mankaleh(Mancala):
    id = "mankaleh"
    title = "Mankaleh"
    pits_drain = True         # seeds leave the pits only for the stores
    pits_per_row = 7
    seeds = 7
    relay = RELAY_LAST
    pass_when_stuck = True          # a player who cannot move passes; the game ends when neither can
    min_seeds_in_play = 2
    few_seeds_reason = "fewer than two pebbles left"

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
                self.pit_name(move), self._b[self.n_pits + self.to_move])
        return Mancala._why_rule(self, move)
