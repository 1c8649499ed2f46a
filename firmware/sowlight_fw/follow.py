"""Following a move on the real board: the expected seeds after every step, and
which steps the sensors' view says the hands have made.

The rules core's MoveInProgress holds the traces still possible for the move
being made; this module puts them on the board:

- `counts` is what each board cell should hold after the steps made so far;
- `lookahead(obs)` finds the fewest next steps after which the board would
  look exactly as the sensors see it (hands are quicker than the debounce, so
  several steps may have happened between two looks), across every trace
  still possible: where traces part, the one the hands took is the one that
  matches;
- a step the sensors cannot see (a seed into a pit that already held seeds,
  on occupancy sensors; anything in a cell without a sensor) changes nothing
  they look at, so it is passed over when a later visible step is seen.

Board cells and game cells differ only when a game plays the board's stores
as pits (docs/config.md); `gmap` maps game cells to board cells, -1 for a
cell that is not on the board (seeds kept beside it).
"""
from mancala import MoveInProgress
from mancala.trace import Step

_MARKERS = ("extra_turn", "pass", "end", "choice", "skip")   # steps the hands do nothing for
_SHORT = 3       # steps within which a move from an untouched pit cannot match (see lookahead)


class _Move(MoveInProgress):
    """MoveInProgress, with the traces it keeps readable and, optionally, computed a few at a time.

    MoveInProgress computes the trace of every legal move when it starts: a
    traced play() each, the longest thing the board does in a turn (several ms
    on an RP2040).  Built `lazy`, the traces are computed one per call to
    build_one() (the controller calls it while the board is idle) and all at
    once by ensure() when a step needs them earlier.
    """

    def __init__(self, game, lazy=False):
        if not lazy:
            MoveInProgress.__init__(self, game)
            self._todo = []
            return
        # What MoveInProgress.__init__ sets, with no trace computed yet.
        self.game = game
        self._candidates = []
        self._seen = []
        self._todo = list(game.legal_moves())

    def build_one(self):
        """Compute one more legal move's trace; False when none is left to compute."""
        if not self._todo:
            return False
        m = self._todo.pop(0)
        self._candidates.append((m, list(self.game.copy().play(m))))
        return True

    def build_pit(self, pit):
        """Compute the traces of the moves that start by lifting `pit` (a move's first step
        is the lift of its pit: the moves built lazily are those)."""
        todo = self._todo
        i = 0
        while i < len(todo):
            m = todo[i]
            if (m if isinstance(m, int) else m[0]) == pit:
                todo.pop(i)
                self._candidates.append((m, list(self.game.copy().play(m))))
            else:
                i += 1

    def forget_rest(self):
        """The hands lifted a pit whose moves are all built: the moves not yet built start
        elsewhere and can no longer be the one being made."""
        self._todo = []

    def ensure(self):
        while self._todo:
            self.build_one()

    def building(self):
        return bool(self._todo)

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


class Follower:
    def __init__(self, cells, counting):
        self.cells = cells
        self.counting = counting      # sensors count seeds (load cells), else they see empty / not empty
        self.care = bytearray(cells)  # 1: this cell's reading is compared with what it should hold
        self.counts = [0] * cells
        self._scratch = [0] * cells
        self._zeros = [0] * cells
        self.gmap = ()
        self.game = None
        self.mv = None
        self.index = 0
        self._first = None            # first_steps(), kept until the move starts
        self._unseen = None           # unseen_lifts(), kept until the move starts or `care` changes
        self._run = None              # forced_run()'s answer at this index, kept until the next step

    # ----- the position --------------------------------------------------

    def start(self, game, gmap, lazy=False):
        """Expect the game's position, and a new move by the player to move.

        lazy: compute the legal moves' traces later (build_one), when every
        legal move simply lifts a pit (so the first steps are known without them)."""
        self.game = game
        self.gmap = gmap
        self.load(game.cells(), self.counts)
        self.index = 0
        self._first = None
        self._unseen = None
        self._run = None
        if game.is_over() or placing(game):
            self.mv = None
            return
        if lazy:
            for m in game.legal_moves():
                if type(m) is not int and not (type(m) is tuple and len(m) == 2 and type(m[0]) is int
                                               and m[1] in (-1, 1)):
                    lazy = False
                    break
        self.mv = _Move(game, lazy)

    def ready(self):
        """Make sure every trace is computed (a step needs them); returns the move in progress."""
        if self.mv is not None and self.mv.building():
            self.mv.ensure()
        return self.mv

    def first_steps(self):
        """The steps that can start the move (lifts), without computing the traces when they are not yet."""
        mv = self.mv
        if mv is None:
            return []
        if self.index:
            return mv.options()
        if self._first is not None:
            return self._first
        if not mv.building():
            out = mv.options()
        else:
            # Built lazily, every legal move is a pit or (pit, direction) and starts by lifting it.
            b = self.game.pits
            out = []
            seen = 0
            for m in self.game.legal_moves():
                pit = m if type(m) is int else m[0]
                if not seen >> pit & 1:
                    seen |= 1 << pit
                    out.append(Step("lift", pit, b[pit], -1))
        self._first = out
        return out

    def unseen_lifts(self):
        """The first steps of the move the sensors cannot see (a lift of a pit whose sensor is ignored)."""
        if self.mv is None or self.index != 0:
            return []
        if self._unseen is None:
            # visible() of a lift, inlined: the pit's cell is watched and holds seeds.
            counts = self.counts
            care = self.care
            gmap = self.gmap
            out = []
            for s in self.first_steps():
                if s[0] == "lift":
                    c = gmap[s[1]]
                    if c < 0 or not care[c] or not counts[c]:
                        out.append(s)
            self._unseen = out
        return self._unseen

    def care_changed(self):
        """Which cells' sensors count changed (the controller's masked or noisy cells)."""
        self._unseen = None

    def load(self, cells, out):
        """Game cell counts -> board cell counts (cells off the board are dropped)."""
        out[:] = self._zeros
        gmap = self.gmap
        for i in range(len(cells)):
            b = gmap[i]
            if b >= 0:
                out[b] += cells[i]
        return out

    def agrees(self, c, count, seen):
        if seen < 0 or not self.care[c]:
            return True
        if self.counting:
            return count == seen
        return (count > 0) == (seen > 0)

    def disagreeing(self, obs, counts=None):
        """Cells whose reading does not match what they should hold."""
        if counts is None:
            counts = self.counts
        return [c for c in range(self.cells) if not self.agrees(c, counts[c], obs[c])]

    def bad(self, obs, counts):
        """How many cells disagree (the hot loop of every look: agrees() inlined)."""
        n = 0
        care = self.care
        if self.counting:
            for c in range(self.cells):
                o = obs[c]
                if o >= 0 and care[c] and counts[c] != o:
                    n += 1
        else:
            for c in range(self.cells):
                o = obs[c]
                if o >= 0 and care[c] and (counts[c] > 0) != (o > 0):
                    n += 1
        return n

    # ----- steps on the board ----------------------------------------------

    def _set(self, counts, c, v, bad, obs):
        if c < 0:
            return bad
        if obs is not None and self.care[c]:
            o = obs[c]
            if o >= 0:
                old = counts[c]
                if self.counting:
                    bad += (v != o) - (old != o)
                else:
                    seen = o > 0
                    bad += ((v > 0) != seen) - ((old > 0) != seen)
        counts[c] = v
        return bad

    def apply(self, counts, step, bad=0, obs=None):
        """Change `counts` as the hands doing `step` change the board; return the new count of disagreeing cells."""
        k = step.kind
        gmap = self.gmap
        if k == "drop":
            c = gmap[step.pit]
            if c >= 0:
                bad = self._set(counts, c, counts[c] + 1, bad, obs)
        elif k == "lift" or k == "relay":
            bad = self._set(counts, gmap[step.pit], 0, bad, obs)
        elif k == "take":
            bad = self._set(counts, gmap[step.pit], 0, bad, obs)
            if step.to >= 0:
                d = gmap[step.to]
                if d >= 0:
                    bad = self._set(counts, d, counts[d] + step.count, bad, obs)
        elif k == "place":
            c = gmap[step.pit]
            if c >= 0:
                bad = self._set(counts, c, counts[c] + step.count, bad, obs)
        return bad

    def visible(self, counts, step):
        """Whether the sensors would see `step` happen on a board holding `counts`."""
        k = step.kind
        gmap = self.gmap
        if k == "drop":
            c = gmap[step.pit]
            return c >= 0 and self._seen(c, counts[c], counts[c] + 1)
        if k == "lift" or k == "relay":
            c = gmap[step.pit]
            return c >= 0 and self._seen(c, counts[c], 0)
        if k == "take":
            c = gmap[step.pit]
            if c >= 0 and self._seen(c, counts[c], 0):
                return True
            if step.to >= 0:
                d = gmap[step.to]
                return d >= 0 and self._seen(d, counts[d], counts[d] + step.count)
            return False
        if k == "place":
            c = gmap[step.pit]
            return c >= 0 and self._seen(c, counts[c], counts[c] + step.count)
        return False

    def _seen(self, c, old, new):
        if not self.care[c] or old == new:
            return False
        return self.counting or (old > 0) != (new > 0)

    def advance(self, step):
        """The hands made `step`: narrow the move and update what the board should hold."""
        mv = self.mv
        if mv is not None and mv.building() and self.index == 0 and step.kind == "lift":
            # The first lift settles which pit the move starts from: only that pit's moves
            # need their traces (the others are never computed).
            mv.build_pit(step.pit)
            mv.forget_rest()
        self.ready().advance(step)
        self.apply(self.counts, step)
        self.index += 1
        self._first = None
        self._unseen = None
        self._run = None

    def skip_markers(self):
        """Pass over forced steps the hands do nothing for (extra turn, pass, end ...); return them."""
        done = []
        while self.ready() is not None:
            s = self.mv.forced()
            if s is None or not is_marker(s):
                break
            self.advance(s)
            done.append(s)
        return done

    # ----- what comes next ---------------------------------------------------

    def forced_run(self, limit=400):
        """The steps every remaining trace agrees on from here, and whether they end the move.

        Asked several times a step (the lights, the buttons, the state message): the answer
        is kept until the hands make the next step."""
        run = self._run
        if run is not None and run[0] == limit:
            return run[1], run[2]
        out = []
        if self.ready() is None:
            return out, False
        out, ends = self._forced_run(limit)
        self._run = (limit, out, ends)
        return out, ends

    def _forced_run(self, limit):
        out = []
        paths = self.mv.paths()
        first = paths[0][1]
        j = self.index
        while j < self.index + limit:
            if j >= len(first):
                break
            s = first[j]
            for p in paths:
                st = p[1]
                if j >= len(st) or st[j] != s:
                    return out, False
            out.append(s)
            j += 1
        for p in paths:
            if len(p[1]) != j:
                return out, False
        return out, True

    def lookahead(self, obs, limit):
        """The fewest next steps after which the board matches `obs`.

        Returns (depth, steps, ambiguous): depth 0 when it matches already,
        None when no sequence of at most `limit` steps does.  `steps` is the
        run to advance through; when traces that differ match equally well,
        only their common beginning is returned and `ambiguous` is True (the
        hands' choice cannot be told apart by the sensors yet).
        """
        counts = self.counts
        base = self.bad(obs, counts)
        if base == 0:
            return 0, None, False
        mv = self.mv
        if mv is None:
            return None, None, False
        if mv.building() and self.index == 0:
            # The traces are still being computed (one per idle scan).  The hands start a
            # move by lifting a pit: build the traces of the pits whose cells no longer look
            # as they did (and of those the sensors cannot watch), and look along those
            # first.  A move from a pit that is seen untouched cannot explain the board
            # within _SHORT steps (its lift empties the pit, and only a lap of sowing or a
            # capture fills it again), so a match that short among the built traces is the
            # fewest steps of them all.
            gmap = self.gmap
            care = self.care
            for s in self.first_steps():
                c = gmap[s.pit]
                if c < 0 or not care[c] or obs[c] < 0 or not self.agrees(c, counts[c], obs[c]):
                    mv.build_pit(s.pit)
            found = self._look(obs, base, _SHORT)
            if found[0] is not None:
                return found
        self.ready()
        return self._look(obs, base, limit)

    def _look(self, obs, base, limit):
        counts = self.counts
        i = self.index
        sc = self._scratch
        gmap = self.gmap
        best = limit + 1
        winners = []
        # The traces whose next step is at a cell that looks changed go first: the one the
        # hands took is most likely among them, and once it matches at depth d the others
        # are looked along for d steps only.
        for touched in (True, False):
            for p in self.mv.paths():
                steps = p[1]
                if i < len(steps):
                    c = gmap[steps[i][1]] if steps[i][1] >= 0 else -1
                    if (c >= 0 and not self.agrees(c, counts[c], obs[c])) != touched:
                        continue
                elif touched:
                    continue
                sc[:] = counts
                bad = base
                end = len(steps)
                if end > i + best:
                    end = i + best
                for j in range(i, end):
                    bad = self.apply(sc, steps[j], bad, obs)
                    if bad == 0:
                        d = j - i + 1
                        if d < best:
                            best = d
                            winners = [steps]
                        else:
                            winners.append(steps)
                        break
        if not winners:
            return None, None, False
        first = winners[0]
        n = best
        for steps in winners:
            k = 0
            while k < n and steps[i + k] == first[i + k]:
                k += 1
            n = k
        return best, first[i:i + n], n < best

    def next_lift_after_stop(self, obs):
        """When the move could stop here: the move it is, if the next player's lift explains `obs`."""
        if self.ready() is None:
            return None
        i = self.index
        sc = self._scratch
        for p in self.mv.paths():
            if len(p[1]) != i:
                continue
            g = self.game.copy()
            g.play(p[0])
            for m in g.legal_moves():
                pit = m if isinstance(m, int) else m[0]
                if not isinstance(pit, int):
                    continue
                c = self.gmap[pit]
                for x in range(self.cells):
                    sc[x] = self.counts[x]
                if c >= 0:
                    sc[c] = 0
                if self.bad(obs, sc) == 0:
                    return p[0]
        return None
