"""What the four-row games of source 001 and 000 share (Hus, Maruba, Mongola).

Holes named by a row letter and a column ('b6'), a move of two holes written
with a mark between them ('b6>a5', 'b6xd6'), and the end of a game whose men
never leave the board.  One copy here, so the three variants name and read
holes the same way.
"""
from ..game import Mancala, Outcome
from ..errors import NotationError


class FourRows(Mancala):
    """Base of the four-row games whose holes are named by row and column."""

    rows = 4
    # The row letters: player 0's back, player 0's front, player 1's front,
    # player 1's back.  Wagner's diagrams (001): P's outer a and inner b, Q's
    # inner c and outer d.
    row_letters = ("a", "b", "c", "d")
    pair_mark = ">"                      # between the two holes of a two-hole move
    move_hint = "name a hole, e.g. b6"   # what an empty move is told to write

    def pit_name(self, pit):
        """A hole as its row letter and column, e.g. 'b6'; columns are counted
        from player 0's right (player 1's left)."""
        if pit >= self.n_pits:
            return "store%d" % (pit - self.n_pits)
        letters = self.row_letters
        n = self.pits_per_row
        p, k = divmod(pit, 2 * n)
        if p == 0:
            if k < n:
                return "%s%d" % (letters[0], n - k)
            return "%s%d" % (letters[1], k - n + 1)
        if k < n:
            return "%s%d" % (letters[3], k + 1)
        return "%s%d" % (letters[2], 2 * n - k)

    def _parse_pit(self, text):
        """The hole named by a row letter and a column ('b6' or 'b-6', any case)."""
        letters = self.row_letters
        t = text.strip().lower().replace("-", "")
        n = self.pits_per_row
        if len(t) >= 2 and t[1:].isdigit():
            col = int(t[1:])
            row = -1
            for i in range(4):
                if letters[i].lower() == t[0]:
                    row = i
            if row >= 0 and 1 <= col <= n:
                if row == 0:
                    return n - col
                if row == 1:
                    return n + col - 1
                if row == 3:
                    return 2 * n + col - 1
                return 4 * n - col
        raise NotationError("%r is not a hole of %s: name a row (%s) and a column (1 to %d), e.g. %s%d" % (
            text, self.title, ", ".join(letters), n, letters[1], n // 2 or 1))

    def move_name(self, move):
        if isinstance(move, tuple):
            return "%s%s%s" % (self.pit_name(move[0]), self.pair_mark, self.pit_name(move[1]))
        return self.pit_name(move)

    def parse_move(self, text):
        text = text.strip()
        if not text:
            raise NotationError("an empty move: " + self.move_hint)
        i = text.lower().find(self.pair_mark)
        if i < 0:
            return self._parse_pit(text)
        return self._pair(self._parse_pit(text[:i]), self._parse_pit(text[i + len(self.pair_mark):]))

    def _pair(self, pit, other):
        """The two-hole move from `pit` that names `other`."""
        return (pit, other)


def men_stay_outcome(game, reason, why_lost):
    """The end of a game whose men never leave the board (Hus, Mongola).

    Scores are the men on each side; a player who cannot move (reason
    "no moves") loses, `why_lost` % that player saying why."""
    b = game._b
    k = 2 * game.pits_per_row
    scores = [sum(b[:k]), sum(b[k:2 * k])]
    if reason == "no moves":
        loser = game.to_move
        return Outcome(1 - loser, scores, why_lost % loser)
    winner = None if scores[0] == scores[1] else (0 if scores[0] > scores[1] else 1)
    return Outcome(winner, scores, reason)
