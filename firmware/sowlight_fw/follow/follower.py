"""The Follower: what each board cell should hold after every step of the move being made,
and which steps the sensors' view says the hands have made.

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
from mancala.trace import Step

from ..cellmap import board_counts
from .moves import _Move, KNOWN, _MARKERS, lifts, pit_of, placing
from .walk import WalkingMove

_SHORT = 3       # steps within which a move from an untouched pit cannot match (see lookahead)


def agrees(count, seen, counting):
    """Whether a sensor that reads `seen` agrees with a cell expected to hold `count` seeds:
    load cells (`counting`) read the count itself, occupancy sensors only empty (0) or not.
    The one definition of a cell that looks right; Follower.bad() and apply() inline it in
    their loops (the hot ones of every look)."""
    if counting:
        return count == seen
    return (count > 0) == (seen > 0)


def new_move(game, pits=None, moves=None):
    """The move in progress for the player to move: pits and moves as lifts() gives them."""
    if pits is not None and moves is None and getattr(game, "walk", None) is not None:
        return WalkingMove(game, pits)      # (the Omweso family)
    return _Move(game, pits, moves)


class Follower:
    only = None      # the one move that may be made next (a `guide` request: controller/commands.py), () for
                     # none yet (the board waits), or None: any legal move

    def __init__(self, cells, counting):
        self.cells = cells
        self.counting = counting      # sensors count seeds (load cells), else they see empty / not empty
        self.care = bytearray(cells)  # 1: this cell's reading is compared with what it should hold
        self.counts = [0] * cells
        self._scratch = [0] * cells
        self.gmap = ()
        self.game = None
        self.mv = None
        self.index = 0
        self._first = None            # first_steps(), kept until the move starts
        self._unseen = None           # unseen_lifts(), kept until the move starts or `care` changes
        self._run = None              # forced_run()'s answer at this index, kept until the next step
        self.ahead = [0] * cells      # what the cells hold after forced_run()'s unseen steps (before the one seen)

    # ----- the position --------------------------------------------------

    def start(self, game, gmap):
        """Expect the game's position, and a new move by the player to move.

        When every legal move begins by lifting a pit, only those pits are found now
        (the lights need no more); the traces come when a pit is lifted (_Move)."""
        self.game = game
        self.gmap = gmap
        self.load(game.cells(), self.counts)
        self.index = 0
        self._first = None
        self._unseen = None
        self._run = None
        KNOWN.clear()
        if game.is_over() or placing(game):
            self.mv = None
            return
        if self.only is not None:
            pits, moves = None, [self.only] if self.only != () else []    # (its trace computed now)
        else:
            pits, moves = lifts(game)
        self.mv = new_move(game, pits, moves)

    def ready(self):
        """Make sure every trace is computed (a step needs them); returns the move in progress."""
        mv = self.mv
        if mv is not None and mv._todo:
            mv.ensure()
        return mv

    def first_steps(self):
        """The steps that can start the move (lifts), without computing the traces when they are not yet."""
        mv = self.mv
        if mv is None:
            return []
        if self.index:
            return mv.options()
        if self._first is None:
            if mv.pits is None:
                self._first = mv.options()
            else:
                b = self.game.pits
                self._first = [Step("lift", p, b[p], -1) for p in mv.pits]
        return self._first

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
        """Game cell counts -> board cell counts, into `out` (cells off the board are dropped)."""
        return board_counts(cells, self.gmap, out)

    def agrees(self, c, count, seen):
        """Whether cell c, expected to hold `count`, looks right to its sensor (which reads `seen`);
        a cell not watched (untrusted, unsensed, unknown) always does."""
        return seen < 0 or not self.care[c] or agrees(count, seen, self.counting)

    def bad(self, obs, counts):
        """How many cells disagree (the hot loop of every look: agrees() inlined)."""
        # (A loop over obs itself, and the rarer tests last: two and a half times as fast on
        # MicroPython as one over range(cells) reading obs[c].)
        n = 0
        care = self.care
        c = -1
        if self.counting:
            if obs == counts:
                return 0            # (the usual answer, found by one comparison in C)
            for o in obs:
                c += 1
                if o >= 0 and counts[c] != o and care[c]:
                    n += 1
        else:
            for o in obs:
                c += 1
                if o > 0:
                    if not counts[c] and care[c]:
                        n += 1
                elif o == 0 and counts[c] and care[c]:
                    n += 1
        return n

    # ----- steps on the board ----------------------------------------------

    def _set(self, counts, c, v, bad, obs):
        if c < 0:
            return bad
        if obs is not None and self.care[c]:
            o = obs[c]
            if o >= 0:
                counting = self.counting
                bad += agrees(counts[c], o, counting) - agrees(v, o, counting)
        counts[c] = v
        return bad

    def apply(self, counts, step, bad=0, obs=None):
        """Change `counts` as the hands doing `step` change the board; return the new count of disagreeing cells."""
        k = step.kind
        gmap = self.gmap
        if k == "drop":
            # _set() inline: most steps are drops, and a look applies a dozen steps or more.
            c = gmap[step.pit]
            if c >= 0:
                old = counts[c]
                counts[c] = old + 1
                if obs is not None and self.care[c]:
                    o = obs[c]
                    if o >= 0:
                        if self.counting:
                            bad += (old + 1 != o) - (old != o)
                        elif not old:
                            bad += -1 if o > 0 else 1   # (empty before: agrees now if seen holding seeds)
        elif k == "lift" or k == "relay":
            bad = self._set(counts, gmap[step.pit], 0, bad, obs)
        elif k == "take":
            c = gmap[step.pit]
            if c >= 0:
                v = counts[c] - step.count      # (all the pit holds, but for Lane's feed: one seed)
                bad = self._set(counts, c, v if v > 0 else 0, bad, obs)
            if step.to >= 0:
                d = gmap[step.to]
                if d >= 0:
                    bad = self._set(counts, d, counts[d] + step.count, bad, obs)
        elif k == "place":
            c = gmap[step.pit]
            if c >= 0:
                bad = self._set(counts, c, counts[c] + step.count, bad, obs)
        return bad

    def _peek(self, counts, step, bad, obs):
        """apply()'s count of disagreeing cells after one step, without changing `counts`."""
        k = step[0]
        gmap = self.gmap
        c = gmap[step[1]] if step[1] >= 0 else -1
        if c < 0 or not self.care[c] or obs[c] < 0:
            if k != "take":
                return bad
            c = -1
        if k == "drop":
            new = counts[c] + 1
        elif k == "lift" or k == "relay":
            new = 0
        elif k == "place":
            new = counts[c] + step[2]
        elif k == "take":
            if c >= 0:
                new = counts[c] - step[2]
                bad = self._moved(c, counts[c], new if new > 0 else 0, bad, obs)
            d = gmap[step[3]] if step[3] >= 0 else -1
            if d < 0 or not self.care[d] or obs[d] < 0:
                return bad
            return self._moved(d, counts[d], counts[d] + step[2], bad, obs)
        else:
            return bad
        return self._moved(c, counts[c], new, bad, obs)

    def _moved(self, c, old, new, bad, obs):
        o = obs[c]
        counting = self.counting
        return bad + agrees(old, o, counting) - agrees(new, o, counting)

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
            if c >= 0:
                v = counts[c] - step.count
                if self._seen(c, counts[c], v if v > 0 else 0):
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

    def advance_run(self, steps):
        """The hands made `steps`, in order (what lookahead() found): advance() each."""
        mv = self.mv
        if mv is not None and not mv._todo and self.index:
            i = self.index
            paths = mv.paths()
            if len(paths) == 1 and paths[0][1][i:i + len(steps)] == steps:
                # One trace left, and the hands follow it: no narrowing to do.
                mv._seen.extend(steps)
            elif mv._walks is not None:
                # Several traces (the Omweso family's): sorted out once for all the steps.
                mv.advance_many(steps)
            else:
                i = -1
            if i >= 0:
                counts = self.counts
                for s in steps:
                    self.apply(counts, s)
                self.index = i + len(steps)
                self._run = None
                return
        for s in steps:
            self.advance(s)

    def skip_markers(self):
        """Pass over forced steps the hands do nothing for (extra turn, pass, end ...); return them."""
        done = []
        while self.ready() is not None:
            s = self.mv.forced()
            if s is None or s[0] not in _MARKERS:
                break
            self.advance(s)
            done.append(s)
        return done

    # ----- what comes next ---------------------------------------------------

    def forced_run(self, limit=400):
        """What every trace still possible says the hands do next, up to the next step the
        sensors will see: (run, seen, ends).

        run: the steps every trace agrees on from here, up to and including the first one
        the sensors will see (then seen is True), else as far as they agree (at most
        `limit` steps); ends: every trace ends with run (nothing more can come).  It looks
        no further than that step (on load cells, the next step): the steps after it are
        looked at once the hands have made it.  Asked several times a step (the lights,
        the buttons, the state message): the answer is kept until the hands make the next
        step."""
        r = self._run
        if r is not None and r[0] == limit:
            return r[1], r[2], r[3]
        if self.ready() is None:
            return [], False, False
        mv = self.mv
        paths = mv.paths()
        if not paths:
            return [], False, False     # (no move may be made: a `guide` to wait)
        first = paths[0][1]
        one = len(paths) == 1
        i = self.index
        end = i + limit
        tmp = self.ahead
        tmp[:] = self.counts
        gmap = self.gmap
        care = self.care
        counting = self.counting
        out = []
        seen = False
        agree = True
        j = i
        while j < end:
            if mv._open:
                # (Open traces: walked as far as this step first.)
                mv.reach(j)
                paths = mv._candidates
                first = paths[0][1]
                one = len(paths) == 1
            if j >= len(first):
                break
            s = first[j]
            if not one:
                for p in paths:
                    st = p[1]
                    if j >= len(st) or st[j] != s:
                        agree = False
                        break
                if not agree:
                    break
            out.append(s)
            j += 1
            if s[0] == "drop":
                # visible() and apply() of a drop, inlined: most steps are drops.
                c = gmap[s[1]]
                if c >= 0:
                    old = tmp[c]
                    if care[c] and (counting or not old):
                        seen = True
                        break
                    tmp[c] = old + 1
                continue
            if self.visible(tmp, s):
                seen = True
                break
            self.apply(tmp, s)
        ends = agree
        if agree:
            if mv._open:
                mv.reach(j)
                paths = mv._candidates
            for p in paths:
                if len(p[1]) != j:
                    ends = False
                    break
        self._run = (limit, out, seen, ends)
        return out, seen, ends

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
            # The traces are still being computed (one pit per idle scan), or are computed
            # only for a pit the hands lift.  The hands start a move by lifting a pit: build
            # the traces of the pits whose cells no longer look as they did (and of those
            # the sensors cannot watch), and look along those first.  A move from a pit that
            # is seen untouched cannot explain the board within _SHORT steps (its lift
            # empties the pit, and only a lap of sowing or a capture fills it again), so a
            # match that short among the built traces is the fewest steps of them all.
            gmap = self.gmap
            care = self.care
            counting = self.counting
            for s in self.first_steps():
                c = gmap[s.pit]
                if c >= 0 and care[c]:
                    o = obs[c]
                    if o >= 0 and agrees(counts[c], o, counting):
                        continue        # (the pit looks untouched)
                mv.build_pit(s.pit)
            found = self._look(obs, base, _SHORT)
            if found[0] is not None or not mv.prebuild:
                # (A game that lists a pit's moves itself has its untouched pits' traces
                # never built: all of them would not fit a board's memory.)
                return found if found[0] is not None else self._look(obs, base, limit)
        skip = 0
        if self.index:
            # The usual case: the next step the sensors can see is forced, and the board
            # shows it made (the steps before it, unseen, changed nothing they look at).
            run, seen, ends = self.forced_run(limit)
            if seen:
                sc = self._scratch
                sc[:] = counts
                bad = base
                for s in run:
                    bad = self.apply(sc, s, bad, obs)
                if bad == 0:
                    return len(run), run, False
            # Else the hands went further: every trace makes the run's unseen steps first, so
            # the look starts after them (from forced_run's cells: self.ahead).
            skip = len(run) - (1 if seen else 0)
        self.ready()
        return self._look(obs, base, limit, skip)

    def _look(self, obs, base, limit, skip=0):
        # skip: the first steps every trace makes, none the sensors see (forced_run's).
        counts = self.counts
        i = self.index
        mv = self.mv
        if mv._open:
            mv.reach(i)
        if not skip:
            # One step first, along every trace: the usual case (the hands made one step
            # since the last look), found without a copy of the counts for each trace.
            winners = []
            for p in mv.paths():
                steps = p[1]
                if i < len(steps) and self._peek(counts, steps[i], base, obs) == 0:
                    winners.append(steps)
            if winners:
                s = winners[0][i]
                for steps in winners:
                    if steps[i] != s:
                        return 1, [], True
                return 1, [s], False
        if mv._walks is None:
            return self._deep(obs, base, limit, skip)
        # Open traces are walked only as deep as the look goes: 8 steps, then 32 ... (a
        # trace that never matches would otherwise be walked to its end in this one step).
        # The fewest steps that match are found in the first round deep enough for them.
        cap = 8 + skip
        while True:
            if cap > limit:
                cap = limit
            if mv._open:
                mv.reach(i + cap)
            found = self._deep(obs, base, cap, skip)
            if found[0] is not None or cap >= limit:
                return found
            cap *= 4

    def _deep(self, obs, base, limit, skip):
        # Each trace looked along from step index + skip (the cells then: self.ahead), as
        # deep as `limit` steps from index.
        i0 = self.index
        i = i0 + skip
        counts = self.ahead if skip else self.counts
        sc = self._scratch
        gmap = self.gmap
        winners = []
        best = limit + 1
        # The traces whose next step is at a cell that looks changed go first: the one the
        # hands took is most likely among them, and once it matches at depth d the others
        # are looked along for d steps only.
        order = []
        rest = []
        for p in self.mv.paths():
            steps = p[1]
            if i < len(steps):
                c = steps[i][1]
                c = gmap[c] if c >= 0 else -1
                if c >= 0 and not self.agrees(c, counts[c], obs[c]):
                    order.append(steps)
                    continue
            rest.append(steps)
        order.extend(rest)
        for steps in order:
            sc[:] = counts
            bad = base
            end = len(steps)
            if end > i0 + best:
                end = i0 + best
            for j in range(i, end):
                bad = self.apply(sc, steps[j], bad, obs)
                if bad == 0:
                    d = j - i0 + 1
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
            k = skip
            while k < n and steps[i0 + k] == first[i0 + k]:
                k += 1
            n = k
        return best, first[i0:i0 + n], n < best

    def next_lift_after_stop(self, obs):
        """When the move could stop here: the move it is, if the next player's lift explains `obs`."""
        if self.ready() is None:
            return None
        i = self.index
        sc = self._scratch
        g = self.game
        if self.mv._open:
            self.mv.reach(i)
        for p in self.mv.paths():
            if len(p[1]) != i:
                continue
            g.push(p[0])               # (taken back below: a copy would copy the whole history)
            try:
                pits, moves = lifts(g)
            finally:
                g.undo()
            if pits is None:
                pits = [pit_of(m) for m in moves if pit_of(m) is not None]
            for pit in pits:
                c = self.gmap[pit]
                for x in range(self.cells):
                    sc[x] = self.counts[x]
                if c >= 0:
                    sc[c] = 0
                if self.bad(obs, sc) == 0:
                    return p[0]
        return None
