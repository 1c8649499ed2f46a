"""Following a turn of the Omweso family on the board, a piece at a time (docs/firmware.md,
"Following a move, a step at a time").

follower.new_move makes a WalkingMove for those games.
"""
from mancala import MoveInProgress
from mancala.trace import Trace

from .moves import _Move, KNOWN

CHUNK = 6       # steps an open trace is walked at a time (WalkingMove._walk; walk() cuts a handful there)
AHEAD = 24      # steps past the hands' the idle scans walk the open traces to, shared among them (build_one)


class WalkingMove(_Move):
    """moves._Move for a game that walks a turn a piece at a time (walk(): the Omweso family).

    Even one pit's traces are computed only as far as they are needed: in Kombe one pit can
    have a dozen moves (a choice at every capture, a reverse handful ...), each up to
    hundreds of steps, and tracing them all takes far longer than a step may.  A trace is
    "open" while it is being walked (its steps so far, and where its walk stopped, in
    `_walks`; None for a whole trace).  Whatever reads the step number j walks every open
    trace past j first (reach: the hands' next step, forced_run up to the next step the
    sensors can see, the lookahead as deep as it looks); idle scans walk on ahead of the
    hands, the open trace nearest its end CHUNK steps at a time (build_one), up to AHEAD
    steps past the hands shared among the open traces (each at least CHUNK): a turn's every
    way walked to its end is a list of steps each, and a long Kombe turn's dozen ways of
    hundreds of steps would not fit a board's heap, nor ten ways each walked AHEAD on.  At a choice
    point an open trace becomes one open trace per letter offered, default first, so the
    traces and their order are those of MoveInProgress: the same lights, the same steps,
    the same move.
    """

    def __init__(self, game, pits):
        # What MoveInProgress.__init__ sets.
        self.game = game
        self._candidates = []
        self._seen = []
        self.pits = pits
        self._todo = list(pits)      # the pits whose turns are not opened yet
        self._walks = []             # per trace: [pit, letters, not all defaults, the walk's state,
                                     # the letters offered where it stopped], or None once whole
        self._open = 0               # how many traces are open
        self._lifted = False
        self._walked_lift = False    # walk_lifted() done
        self._piece = Trace()        # each piece a walk adds, in turn (_walk)

    @property
    def prebuild(self):
        # Whether idle scans should build ahead: the open traces once a pit is lifted (never
        # every pit's: their traces would not fit a board's memory).
        return self._lifted and self._open > 0

    def build_one(self, ahead=AHEAD):
        """Open one more pit's turn, or walk the open trace nearest to its end a piece
        further, if it ends less than `ahead` steps past the hands' shared among the open
        traces, CHUNK at least (None: however far); False when nothing is left to do now."""
        if self._todo:
            self.build_pit(self._todo[0])
            return True
        if not self._open:
            return False
        c = self._candidates
        walks = self._walks
        near = -1
        for k in range(len(c)):
            if walks[k] is not None and (near < 0 or len(c[k][1]) < len(c[near][1])):
                near = k
        if ahead is not None and len(c[near][1]) >= len(self._seen) + max(CHUNK, ahead // self._open):
            return False
        self._walk(near, CHUNK)
        return True

    def walk_lifted(self):
        """In the scan after the lift (Controller._scanned), once: walk the lifted pit's turn a
        piece (build_one: CHUNK steps, or to its first choice point); True if any of it was
        left to walk.  The next scan finds what follows the lift (forced_run) with fewer
        walks of a step: the walks and the look in one scan took some 14 ms on an RP2040.
        (Walking every trace CHUNK steps ahead instead, splitting them at choice points,
        took longer than that.)"""
        if not self._lifted or self._walked_lift or not self._open:
            return False
        self._walked_lift = True
        return self.build_one()

    def build_pit(self, pit):
        """Open the turn that begins by lifting `pit` (walked when its steps are needed)."""
        todo = self._todo
        if pit not in todo:
            return
        todo.remove(pit)
        self._candidates.append((None, []))
        self._walks.append([pit, "", False, [], None])
        self._open += 1

    def _walk(self, k, budget):
        """Walk open trace k a piece further: `budget` steps (or the rest of a handful begun),
        up to its next choice point, or to its end.  At a choice point already reached, it
        becomes one trace per letter."""
        c = self._candidates
        walks = self._walks
        pit, letters, odd, w, opts = walks[k]
        steps = c[k][1]
        if opts:
            # The walk stopped at a choice point: a trace for each letter offered there,
            # default first, each walking on from there (a copy of where it stopped).
            kids = []
            wk = []
            for x in range(len(opts)):
                kids.append((None, steps if x == 0 else steps[:]))
                wk.append([pit, letters + opts[x], odd or x > 0, w if x == 0 else w[:], None])
            c[k:k + 1] = kids
            walks[k:k + 1] = wk
            self._open += len(opts) - 1
            pit, letters, odd, w, opts = wk[0]
        tr = self._piece
        tr.clear()
        r = self.game.walk(pit, letters, w, tr, budget)
        tr.shared(KNOWN, steps)
        if r is None:
            # The whole trace: its move is named as legal_moves() names it.
            c[k] = ((pit, letters) if odd else pit, steps)
            walks[k] = None
            self._open -= 1
        elif r:
            walks[k][4] = r         # (split when walked further)

    def reach(self, j):
        """Walk every open trace until it holds a step number j, or is whole."""
        if not self._open:
            return
        c = self._candidates
        walks = self._walks
        k = 0
        while k < len(c):
            n = len(c[k][1])
            if walks[k] is not None and n <= j:
                self._walk(k, j + 1 - n)      # (as far as asked: idle scans walk on further)
            else:
                k += 1

    def forget_rest(self):
        """The hands lifted a pit whose moves are all built: the moves not yet built start
        elsewhere and can no longer be the one being made."""
        self._todo = []
        self._lifted = True

    def building(self):
        return bool(self._todo) or self._open > 0

    # The usual case, once a pit is lifted: one trace left, and the hands follow it.
    # MoveInProgress's methods would build lists of the traces kept or of the next steps.

    def advance(self, step):
        i = len(self._seen)
        if self._open:
            if not i and step[0] == "lift":
                # The lift settles the pit: the other pits' open traces go unwalked.
                self._keep_pit(step[1])
            self.reach(i)
        c = self._candidates
        if len(c) == 1:
            st = c[0][1]
            if i < len(st) and st[i] == step:
                self._seen.append(step)
                return
        walks = self._walks
        keep = []
        kept = []
        n = 0
        for k in range(len(c)):
            st = c[k][1]
            if i < len(st) and st[i] == step:
                keep.append(c[k])
                kept.append(walks[k])
                if walks[k] is not None:
                    n += 1
        if not keep:
            MoveInProgress.advance(self, step)     # (says which steps could have come)
        self._candidates = keep
        self._walks = kept
        self._open = n
        self._seen.append(step)

    def advance_many(self, steps):
        """advance() each of `steps`, the traces kept sorted out once (Follower.advance_run, the
        hands some steps ahead; not the move's lift).  The look that found the steps walked the
        traces that far already."""
        i = len(self._seen)
        n = len(steps)
        if self._open:
            self.reach(i + n - 1)
        c = self._candidates
        walks = self._walks
        keep = []
        kept = []
        m = 0
        for k in range(len(c)):
            if c[k][1][i:i + n] == steps:
                keep.append(c[k])
                kept.append(walks[k])
                if walks[k] is not None:
                    m += 1
        if not keep:
            for s in steps:
                self.advance(s)        # (says which step no legal move makes)
            return
        self._candidates = keep
        self._walks = kept
        self._open = m
        self._seen.extend(steps)

    def _keep_pit(self, pit):
        c = self._candidates
        walks = self._walks
        keep = []
        kept = []
        for k in range(len(c)):
            if walks[k] is None or walks[k][0] == pit:
                keep.append(c[k])
                kept.append(walks[k])
        self._candidates = keep
        self._walks = kept
        self._open = len([w for w in kept if w is not None])

    def options(self):
        if self._open:
            self.reach(len(self._seen))
        return MoveInProgress.options(self)

    def forced(self):
        i = len(self._seen)
        if self._open:
            self.reach(i)
        c = self._candidates
        if len(c) == 1:
            st = c[0][1]
            return st[i] if i < len(st) else None
        return MoveInProgress.forced(self)

    def can_stop(self):
        if self.pits is not None and not self._seen:
            return False            # (every move begins by lifting a pit)
        if self._open:
            self.reach(len(self._seen))
        return MoveInProgress.can_stop(self)

    def done(self):
        i = len(self._seen)
        if self.pits is not None and not i:
            return False            # (every move begins by lifting a pit)
        if self._open:
            self.reach(i)
        c = self._candidates
        if len(c) == 1:
            return len(c[0][1]) == i
        return MoveInProgress.done(self)

    def move(self):
        if self._open:
            self.reach(len(self._seen))
        return MoveInProgress.move(self)

    # paths(): the base's; an open trace's move is None and its steps stop short (reach() first).
