"""A move on the board as the rules core traces it: the traces still possible for the move
being made (_Move, over mancala.MoveInProgress), the moves each pit starts, the steps the
hands do nothing for.
"""
from mancala import MoveInProgress

_MARKERS = ("extra_turn", "pass", "end", "choice", "skip")   # steps the hands do nothing for

# The Step tuples of this turn's traces, by code (Trace.shared): the traces of a turn share
# them (a drop into pit 7 is one tuple however many traces make it), and a step met before
# costs a look-up instead of a new tuple.  Emptied when a turn starts (Follower.start).
KNOWN = {}


def pit_of(move):
    """The pit a move begins by lifting: the move itself, or the first item of a tuple that
    begins with a pit number ((pit, direction), Omweso's (pit, letters) ...); None otherwise."""
    t = type(move)
    if t is int:
        return move
    if t is tuple and len(move) > 0 and type(move[0]) is int:
        return move[0]
    return None


def lifts(game):
    """(pits, moves) for the player to move: the pits a move may begin by lifting, in the order
    of legal_moves(), and the legal moves when they had to be listed to find the pits.

    A game that lists one pit's moves itself (moves_from: the Omweso family, where listing
    every move plays out every way through every pit's choice points) is asked only which
    pits may be lifted: (pits, None).  pits is None when some legal move begins otherwise
    (a placement, Lane's chooser keeping the board)."""
    if getattr(game, "moves_from", None) is not None and game.phase == "play":
        return [p for p in game.side(game.to_move) if game.is_legal(p)], None
    moves = list(game.legal_moves())
    pits = []
    for m in moves:
        p = pit_of(m)
        if p is None:
            return None, moves
        if p not in pits:
            pits.append(p)
    return pits, moves


def _trace(game, move):
    """The steps of `move`: played on `game` and taken back at once.  (Played on a copy instead,
    every trace would copy the game's whole history, dearer with every move of the game.)"""
    steps = game.play(move).shared(KNOWN)
    game.undo()
    return steps


class _Move(MoveInProgress):
    """MoveInProgress whose traces are computed when they are needed, a pit at a time.

    MoveInProgress computes the trace of every legal move when it starts: a traced
    play() each, the longest thing the board does in a turn, and for the Omweso
    family (listing its moves plays every way through every pit's choice points)
    far too long (and too big) for a step.  When every legal move begins by lifting
    a pit, the lights need only those pits (`pits`): the traces of a pit's moves
    are computed when the hands lift it (build_pit), or before, one pit per idle
    scan (build_one; not for a game that lists a pit's moves itself: the traces of
    all its pits would not fit a board's memory), and all at once by ensure()
    when a step needs them.  pits None: every trace is computed at once.

    A game that walks a turn a piece at a time (walk(): the Omweso family) is
    followed by walk.WalkingMove, a subclass
    (new_move() picks); the Follower asks `_open` (how many traces are still being
    walked: 0 here) before it reads steps a walk may not have reached yet.
    """

    _open = 0
    _walks = None

    def __init__(self, game, pits=None, moves=None):
        # What MoveInProgress.__init__ sets.
        self.game = game
        self._candidates = []
        self._seen = []
        self.pits = pits
        self._moves = moves          # legal_moves(), when listed (a pit's moves are filtered from it)
        if pits is None:
            for m in moves:
                self._candidates.append((m, _trace(game, m)))
            self._todo = []
        else:
            self._todo = list(pits)  # the pits whose moves are not traced yet
        self.prebuild = moves is not None

    def build_one(self):
        """Compute the traces of one more pit's moves; False when none is left to compute."""
        if not self._todo:
            return False
        self.build_pit(self._todo[0])
        return True

    def build_pit(self, pit):
        """Compute the traces of the moves that begin by lifting `pit`."""
        todo = self._todo
        if pit not in todo:
            return
        todo.remove(pit)
        g = self.game
        if self._moves is None:
            moves = g.moves_from(pit)
        else:
            moves = [m for m in self._moves if pit_of(m) == pit]
        for m in moves:
            self._candidates.append((m, _trace(g, m)))

    def forget_rest(self):
        """The hands lifted a pit whose moves are all built: the moves not yet built start
        elsewhere and can no longer be the one being made."""
        self._todo = []

    def reach(self, j):
        """Walk the open traces to step j (WalkingMove): every trace here is whole."""

    def ensure(self):
        while self._todo:
            self.build_pit(self._todo[0])

    def building(self):
        return bool(self._todo)

    # The usual case, once a pit is lifted: one trace left, and the hands follow it.
    # MoveInProgress's methods would build lists of the traces kept or of the next steps.

    def advance(self, step):
        c = self._candidates
        if len(c) == 1:
            st = c[0][1]
            i = len(self._seen)
            if i < len(st) and st[i] == step:
                self._seen.append(step)
                return
        MoveInProgress.advance(self, step)

    def forced(self):
        c = self._candidates
        if len(c) == 1:
            st = c[0][1]
            i = len(self._seen)
            return st[i] if i < len(st) else None
        return MoveInProgress.forced(self)

    def done(self):
        c = self._candidates
        if len(c) == 1:
            return len(c[0][1]) == len(self._seen)
        return bool(c) and MoveInProgress.done(self)    # (none: the board waits for a `guide`)

    def paths(self):
        # The (move, steps) pairs still possible.  MoveInProgress keeps them to
        # narrow the move; the lookahead needs to walk them ahead of the hands.
        return self._candidates


def is_marker(step):
    return step.kind in _MARKERS


def placing(game):
    """Whether `game` is in a free placing stage: seeds still to be put out by the handful,
    in any pit the rules allow (Lane and the Egyptian games).  Such a stage has hundreds of
    legal moves ("place", pit, count), too many to trace: the board follows it by counting
    what lands in each pit (game.max_place(pit) says where seeds may go), not with a
    MoveInProgress."""
    return (getattr(game, "max_place", None) is not None and game.phase != "play" and not game.is_over()
            and game.outside() > 0)
