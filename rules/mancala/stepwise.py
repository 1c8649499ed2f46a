"""A move made step by step, as hands make it on a real board.

    mv = MoveInProgress(game)
    mv.options()          # the steps that may come next (at first: a lift of each legal pit)
    mv.advance(step)      # what the hands did; narrows the moves still possible
    mv.forced()           # the one step that must come next, or None at a choice point
    mv.can_stop()         # the steps so far are a whole legal move (more may be possible)
    mv.done()             # the move is complete and nothing more can follow
    mv.finish()           # plays it on the game; returns the same Trace as game.play(move)

Every legal move's trace is computed up front (a handful per turn); a move in
progress is the set of those traces that agree with the steps seen so far.
Where they part, the rules leave the player a choice (a pit, a direction, a
capture to take or leave), and the next step the hands make settles it.  So
no variant needs code of its own for this, and the result is exactly what
play(move) gives.
"""
from .errors import IllegalMoveError


class MoveInProgress:
    def __init__(self, game):
        if game.is_over():
            raise IllegalMoveError("the game is over: no move can be started")
        self.game = game
        self._candidates = []
        for m in game.legal_moves():
            g = game.copy()
            self._candidates.append((m, list(g.play(m))))
        self._seen = []

    @property
    def steps(self):
        """The steps made so far."""
        return list(self._seen)

    def options(self):
        """The distinct steps that may come next (empty when the move is complete)."""
        i = len(self._seen)
        out = []
        for _, steps in self._candidates:
            if i < len(steps) and steps[i] not in out:
                out.append(steps[i])
        return out

    def forced(self):
        """The only step that can come next, or None (a choice, or nothing left)."""
        # (options() without its list: a board asks this several times a step.)
        i = len(self._seen)
        s = None
        for _, steps in self._candidates:
            if i < len(steps):
                if s is None:
                    s = steps[i]
                elif steps[i] != s:
                    return None
        return s

    def moves(self):
        """The legal moves still consistent with the steps made."""
        return [m for m, _ in self._candidates]

    def advance(self, step):
        """Record the next step the hands made; IllegalMoveError if no legal move goes that way."""
        i = len(self._seen)
        keep = [(m, s) for m, s in self._candidates if i < len(s) and s[i] == step]
        if not keep:
            from .reasons import step_refused
            raise step_refused(self, step)
        self._candidates = keep
        self._seen.append(step)

    def can_stop(self):
        """Whether the steps made so far already are a whole legal move.

        When options() is not empty too, the player may stop here or go on (an
        optional capture, say): a board asks for a confirmation."""
        i = len(self._seen)
        return any(len(s) == i for _, s in self._candidates)

    def done(self):
        """The steps made are a whole legal move, and no legal move goes further."""
        i = len(self._seen)
        for _, s in self._candidates:
            if len(s) != i:
                return False
        return True

    def move(self):
        """The move the steps made so far amount to, if the player stops here."""
        i = len(self._seen)
        for m, s in self._candidates:
            if len(s) == i:
                return m
        from .reasons import move_incomplete
        raise move_incomplete(self)

    def finish(self):
        """Play the move made (stopping here) on the game; return its Trace."""
        return self.game.play(self.move())
