"""The mweso family of four-row games after Driedger (source 004): Omweso,
Coro, Kombe, Mongale, Aweet and Mongola.

Rules and decisions: docs/variants/omweso.md, coro.md, kombe.md, mongale.md,
aweet.md, mongola-driedger.md (source 004, sections 3 to 8 and 10).

Each player sows round his own two rows only (four-row numbering, see
docs/rules.md).  A handful ending in an occupied pit is lifted again (relay);
one ending in an occupied front pit whose column on the other side is full on
both rows may capture instead, and the captured seeds are sown again on the
captor's side from the first pit of the handful that made the capture.  Seeds
never leave the board: a player who has only single seeds cannot move and
loses.

A turn can hold several choices (take a capture or not, turn back at the left
end).  A move is the pit lifted, or (pit, letters) with one letter for each
choice point met on the way, in order: "c" take the capture, "n" go on the
normal way (relay counter-clockwise: a capture declined, or no reverse), "r"
reverse (sow the handful clockwise); with declined="sleep", "s" in place of
"n" at a capture: decline it and stop there.  The plain pit number is the move
that takes the default at every point ("c" where a capture is offered, "n"
elsewhere).  legal_moves() lists every way through a turn, so the traces of
two moves part exactly at the step where their choices differ.
"""
try:
    from micropython import const
except ImportError:  # CPython
    def const(x):
        return x

from ..game import Mancala, RELAY_LIMIT, _CPYTHON, _undo_counts, _counts_before, _put_counts
from ..errors import IllegalMoveError, NotationError, PositionError
from ..trace import Trace, LIFT, RELAY, PASS, SKIP, HAND, TAKE_CODE
from ..staged import Staged

# Start patterns: one player's pits in canonical order (back row from his left,
# then front row from his right); the other player's side is the same.
# (Diagrams b and c are regular and built for any width in _pattern.)
_F8 = (0, 0, 0, 0, 5, 5, 5, 5, 2, 2, 2, 6, 0, 0, 0, 0)     # diagram f (Lamu)
_G8 = (0, 0, 0, 0, 0, 4, 4, 4, 2, 2, 2, 0, 7, 0, 0, 7)     # diagram g (Mombasa)
_H7 = (4, 0, 4, 0, 4, 0, 4, 0, 4, 0, 4, 0, 4, 0)           # diagram h (Congo, 4x7)

# A turn that meets more choice points than this is cut short in the list of
# moves: the rest of it takes the default (decision in docs/variants/omweso.md).
_MAX_CHOICES = 16

# The letters offered at a choice point, default first, by (capture offered) * 2 + (reverse offered):
# a capture declined sows on (declined="sow-on"), or ends the turn (declined="sleep").
_OPTIONS = (None, "nr", "cn", "cnr")
_OPTIONS_SLEEP = (None, "nr", "cs", "csr")

# What follows a capture declined (docs/variants/omweso.md, decision 4): every game of the family.
_DECLINED = ("declined", "sow-on", ("sow-on", "sleep"))

# What walk() keeps in its list w when it is not where a turn stands.
_ENDING = const(-1)     # the end-of-game steps still to hand out
_ENDED = const(-2)      # the board a turn left, the game's end not yet worked out


class Omweso(Staged):
    id = "omweso"
    title = "Omweso"
    rows = 4
    pits_per_row = 8
    seeds = 2
    min_seeds = 2                 # a single seed is never lifted
    options = (
        ("start", "c", ("c", "b", "free")),
        ("race", "first-to-sleep", ("first-to-sleep", "none")),
        _DECLINED,
    )
    # Rule parts the other games of the family change.
    take_back = True        # a capture takes the opponent's back pit as well as the front one
    take_own = False        # Coro: the capturing pit's own seeds join the captured ones
    reverse_start = False   # Kombe: a move may begin with a reverse handful
    reverse_indirect = False    # Kombe: a reverse handful may relay (clockwise) before it captures
    short_drop = False      # Mongola: a last seed never drops into a pit holding fewer than two
    _loaded = None          # the counts of a loaded position that ended at once (see _finish)
    _scratch = None         # a board-sized list _reverse_ok plays on
    _walked = None          # the turns walk() went through to their end: (counts before, player, {move: counts after})
    _walk_from = None       # a board-sized list walk() keeps the counts it starts from in (a copy each call: garbage)
    lazy_moves = True       # listing the moves plays every turn out: only when asked

    _stage_words = {
        "place": "placing the seeds (each player puts his own seeds into his own pits)",
        "race": "the racing start",
    }

    # ----- the board and the start ------------------------------------------

    def _start(self, fresh):
        self._passes = 0          # passes made in a row just before this position
        Staged._start(self, False)
        if not fresh:
            return
        if self.start == "free":
            h = self.total_seeds() // 2
            self._hand = (h, h)
        if self._stages():
            self.phase = "setup"
            self._enter_stage(None)
        else:
            self._begin_play(None)

    def _pattern(self):
        """One player's start, in the canonical order of his pits (None: free placement)."""
        if self.start == "free":
            return None
        if self.start == "b":
            k = self._per_player
            return tuple(4 * (i % 2) for i in range(k))
        return (self.seeds,) * self._per_player

    def _initial(self, b):
        row = self._pattern()
        if row is None:
            return
        k = self._per_player
        for i in range(k):
            b[i] = row[i]
            b[k + i] = row[i]

    def total_seeds(self):
        return self.n_pits * self.seeds

    def _stages(self):
        st = ()
        if self.start == "free":
            st = (("place", 0), ("place", 1))
        if self.race != "none":
            st += (("race", self._first),)
        return st

    # ----- setup moves: free placement and the racing start ------------------

    def _setup_moves(self):
        word, p = self._stage()
        if word == "race":
            return [("race",)]
        return [("place", i) for i in self.side(p)]

    def _setup_move(self, move, tr):
        p = self.to_move
        if move[0] == "race":
            self._race(tr)
            return
        self._place_from_hand(move[1], p, tr)
        if not self._hand[p]:
            self._next_stage(tr)

    def _race_pit(self, p):
        """Where racer p starts: his back row's right-hand pit, or the first pit
        after it (counter-clockwise) that can be lifted."""
        b = self._b
        base = p * self._per_player
        j0 = self.pits_per_row - 1
        k = self._per_player
        for i in range(k):
            c = base + (j0 + i) % k
            if b[c] >= self.min_seeds:
                return c
        return -1

    def _race(self, tr):
        """Both players play a turn at once from their race pits, one seed each per
        tick, player 0's seed first in a tick.  Each racer relays and takes every
        capture offered, counter-clockwise only; whoever sleeps first begins the game."""
        b = self._b
        pos = [0, 0]
        hand = [0, 0]
        first = [0, 0]
        laps = [0, 0]
        slept = [0, 0]
        for p in (0, 1):
            c = self._race_pit(p)
            if c < 0:
                continue
            pos[p] = c
            hand[p] = b[c]
            b[c] = 0
            first[p] = self._next(c, 1)
            if tr is not None:
                tr.add(LIFT, c, hand[p])
        tick = 0
        while hand[0] or hand[1]:
            tick += 1
            for p in (0, 1):
                if not hand[p]:
                    continue
                c = self._next(pos[p], 1)
                slept_here = False
                if hand[p] == 1 and self.short_drop and b[c] < 2:
                    if tr is not None:
                        tr.add(SKIP, c)
                    c = self._next(c, 1)
                    slept_here = True
                b[c] += 1
                hand[p] -= 1
                pos[p] = c
                if tr is not None:
                    tr.drop(c)
                if hand[p]:
                    continue
                if slept_here or b[c] == 1 or laps[p] >= RELAY_LIMIT:
                    slept[p] = tick
                    continue
                laps[p] += 1
                if self._can_capture(c, p):
                    hand[p] = self._capture_take(c, p, tr)
                    pos[p] = self._next(first[p], -1)
                else:
                    hand[p] = b[c]
                    b[c] = 0
                    if tr is not None:
                        tr.add(RELAY, c, hand[p])
                    pos[p] = c
                    first[p] = self._next(c, 1)
        # A tie (both asleep in the same tick) goes to the starting player, as in Enkeshui.
        if slept[0] != slept[1]:
            self._first = 0 if slept[0] < slept[1] else 1
        self._next_stage(tr)

    # ----- the geometry of one player's circuit -----------------------------

    def _next(self, c, d):
        """The pit after c going direction d round its owner's circuit."""
        k = self._per_player
        base = c - c % k
        return base + (c - base + d) % k

    def _marked(self, c):
        """Whether c is one of the reverse pits: the two left-hand pits of its owner's front row."""
        return c % self._per_player >= self._per_player - 2

    def _can_capture(self, last, p):
        """The handful ended in p's pit `last`: was it occupied, in the front row,
        facing a column whose two pits both hold seeds?"""
        return self._b[last] >= 2 and last % self._per_player >= self.pits_per_row and self._opp_full(last)

    def _opp_full(self, c):
        """Both pits of the opponent's column facing front pit c hold seeds."""
        # opposite() and behind(), worked out here: this is asked at every landing.
        b = self._b
        o = 5 * self.pits_per_row - 1 - c
        if not b[o]:
            return False
        k = self._per_player
        j = o % k
        return b[o - j + k - 1 - j] > 0

    def _capture_take(self, last, p, tr):
        """Take the captured seeds into the hand; return how many."""
        o = self.opposite(last)
        got = self._take(o, HAND, tr)
        if self.take_back:
            got += self._take(self.behind(o), HAND, tr)
        if self.take_own:
            got += self._take(last, HAND, tr)
        return got

    def _sow_hand(self, origin, k, p, d, tr):
        """Sow k seeds after origin in direction d; return the last pit, or
        -1 - that pit when the player sleeps there (no tuple: this runs every lap)."""
        b = self._b
        if not self.short_drop:
            last = self._sow(origin, k, p, d, tr)
            return -1 - last if b[last] == 1 else last
        # Mongola: the last seed goes into a pit holding two or more, or else
        # passes it, drops into the next pit and the player sleeps.
        prev = self._sow(origin, k - 1, p, d, tr) if k > 1 else origin
        c = self._next(prev, d)
        if b[c] >= 2:
            b[c] += 1
            if tr is not None:
                tr.drop(c)
            return c
        if tr is not None:
            tr.add(SKIP, c)
        c = self._next(c, d)
        b[c] += 1
        if tr is not None:
            tr.drop(c)
        return -1 - c

    def _reverse_ok(self, pit, k, p):
        """Would k seeds lifted from pit and sown clockwise make a capture without
        going round the left-hand end (directly, or for Kombe after relays)?"""
        # Played out on a scratch copy of the board kept for this (it is asked
        # at every landing in a marked pit: a new copy each time would be garbage).
        s = self._scratch
        if s is None:
            s = self._scratch = self._b[:]
        else:
            s[:] = self._b
        s[pit] = 0
        kk = self._per_player
        base = p * kk
        j = pit - base
        opp_ok = self._opp_full
        for _ in range(RELAY_LIMIT):
            j -= k
            if j < 0:
                return False                  # round the left-hand end
            c = base + j                      # where the last seed lands
            if self.short_drop and s[c] < 2:
                return False                  # Mongola: a short last seed sleeps
            for i in range(c, c + k):
                s[i] += 1
            if s[c] == 1:
                return False                  # sleeps without a capture
            if self.is_front(c) and opp_ok(c):
                return True
            if not self.reverse_indirect:
                return False
            k = s[c]
            s[c] = 0
        return False

    # ----- a turn -----------------------------------------------------------

    def _turn(self, pit, tr, at=None, budget=None):
        """The turn that lifts `pit`: a generator that plays it on the board, adding its
        steps to tr (None: no trace), and pauses at each choice point.

        At a choice point it yields the letters offered there (default first) and is sent
        the letter taken; it is over when it stops.  What chooses the letters is the
        consumer's: _play_turn (the letters of a move, then the defaults), _is_turn
        (checking a move), _offered (legal_moves() exploring the ways through a turn) and
        walk() (a board following the hands).

        at: a list where the turn stands is written into at every pause, as its first
        seven items [lap, hand, direction, origin, first pit sown, last pit, letters
        offered or None] (walk() keeps more after them); given one holding such a point,
        the turn goes on from there (the board as it was then) instead of lifting.  The
        point is data, not this generator, because a walk is copied at a choice point to
        go on one way per letter, and a generator cannot be copied.  budget (with `at`
        and a trace): pause, yielding "", before a handful that would take tr past
        `budget` steps, once the part of it that fits is sown (the rest waits in the
        hand); a turn paused so is not resumed, but started again from `at`."""
        p = self.to_move
        b = self._b
        # The circuit's geometry (_next, _marked, the front row) worked out
        # inline: the loop below runs once a handful.
        kk = self._per_player
        base = p * kk
        front = base + self.pits_per_row      # the front row: pits front .. base + kk - 1
        marked = base + kk - 2                # the reverse pits: marked and marked + 1
        short = self.short_drop
        table = _OPTIONS_SLEEP if self.declined == "sleep" else _OPTIONS
        if at:
            # Going on: at the top of a lap, or at the choice point a walk stopped at.
            lap0 = at[0]
            k = at[1]
            d = at[2]
            origin = at[3]
            first = at[4]
            last = at[5]
            opts = at[6]
            at_choice = opts is not None
        else:
            k = b[pit]
            b[pit] = 0
            if tr is not None:
                tr.add(LIFT, pit, k)
            d = 1
            opts = None
            if self.reverse_start and pit >= marked and self._reverse_ok(pit, k, p):
                opts = "nr"
            origin = pit
            first = base + (pit + 1 - base) % kk
            last = pit
            lap0 = 0
            at_choice = False
        for lap in range(lap0, RELAY_LIMIT + 1):
            if at_choice:
                at_choice = False             # (this lap's handful is sown: its choice comes next)
            elif lap:
                if budget is not None:
                    room = budget - len(tr)
                    if room < k:
                        # The budget ends inside this handful: sow what it allows, and
                        # keep the rest in the hand for the next piece (the same seeds
                        # sown from the last pit reached land where they would have:
                        # this family never passes over the emptied pit).
                        if room > 0:
                            origin = self._sow(origin, room, p, d, tr)
                            k -= room
                        at[:] = (lap, k, d, origin, first, last, None)
                        yield ""
                        return
                if short:
                    last = self._sow_hand(origin, k, p, d, tr)
                else:
                    last = self._sow(origin, k, p, d, tr)
                    if b[last] == 1:
                        last = -1 - last
                if last < 0 or lap == RELAY_LIMIT:
                    return                    # asleep (or an endless relay stopped where it is: docs/rules.md)
                cap = last >= front and self._opp_full(last)   # (an occupied pit: the player is awake)
                opts = None
                if d < 0:
                    # A reverse handful goes on (clockwise) until it captures.
                    ch = "c" if cap else "n"
                else:
                    rev = last >= marked and self._reverse_ok(last, b[last], p)
                    if cap or rev:
                        opts = table[(2 if cap else 0) + (1 if rev else 0)]
                    else:
                        ch = "n"
            if opts is not None:
                if at is not None:
                    at[:] = (lap, k, d, origin, first, last, opts)
                ch = yield opts
            if not lap:
                if opts is not None and ch == "r":
                    d = -1
                    first = base + (pit - 1 - base) % kk
                continue
            if ch == "s":
                return                        # a capture declined, with declined="sleep": the player sleeps
            if ch == "c":
                k = self._capture_take(last, p, tr)
                d = 1
                origin = base + (first - 1 - base) % kk
            else:
                k = b[last]
                b[last] = 0
                if tr is not None:
                    tr.add(RELAY, last, k)
                if ch == "r":
                    d = -1
                origin = last
                first = base + (last + d - base) % kk

    def _play_turn(self, pit, letters, tr, taken=None):
        """Play the turn from pit into tr: `letters` (None: none) at its first choice points,
        the default at the others.  taken: a list each letter taken is appended to."""
        steps = self._turn(pit, tr)
        n = len(letters) if letters else 0
        ci = 0
        x = None
        try:
            while True:
                opts = steps.send(x)
                x = letters[ci] if ci < n else opts[0]
                ci += 1
                if taken is not None:
                    taken.append(x)
        except StopIteration:
            pass

    def _is_turn(self, pit, letters, tr):
        """Play the turn from pit into tr with `letters`, and say whether (pit, letters) is a
        move legal_moves() lists: every letter one offered, one of them not the default, and
        no choice point left after them (unless _MAX_CHOICES were given: the list cuts a turn
        there).  The board is left as the turn leaves it."""
        n = len(letters)
        ci = 0
        odd = False
        x = None
        steps = self._turn(pit, tr)
        try:
            while True:
                opts = steps.send(x)
                if ci < n:
                    x = letters[ci]
                    if x not in opts:
                        return False
                    if x != opts[0]:
                        odd = True
                elif n < _MAX_CHOICES:
                    return False              # the letters stop before the turn's choices do
                else:
                    x = opts[0]
                ci += 1
        except StopIteration:
            pass
        return odd and ci >= n

    def _offered(self, pit, letters):
        """Play the turn from pit with `letters` and return the letters offered at the choice
        point after them (default first), or None if the turn ends first.  The board is left
        where the turn stopped."""
        n = len(letters)
        ci = 0
        x = None
        steps = self._turn(pit, None)
        try:
            while True:
                opts = steps.send(x)
                if ci == n:
                    return opts
                x = letters[ci]
                ci += 1
        except StopIteration:
            return None

    def walk(self, pit, letters, w, tr, budget):
        """The trace of a turn from `pit`, a piece at a time: a board following the hands
        needs the steps just ahead of them, and tracing every way through a pit's choice
        points at once takes far longer than one of its steps may.

        `letters`: the choices taken so far (one letter for each choice point met, as in
        a move (pit, letters)); `w`: a list this keeps where the walk stopped in (empty to
        begin with the lift; a copy, w[:], walks on from there independently: what it
        holds is replaced, never changed in place).  Adds the next steps to `tr` (a
        Trace), `budget` of them (a handful may be cut: its other seeds wait in the hand), or
        a few more when a capture's takes follow the last one, and returns "" when
        there are more; at choice point number len(letters) it stops and returns the
        letters offered there (default first: append one to `letters` and call again);
        None when the turn is over, tr then ending with the steps play() adds after a
        turn (the game's end: worked out by the call after the turn's last steps, and
        handed out by budget too, a take from every pit left being some 20 steps).  The
        steps are those of play(move), and the moves met (every way through the choice
        points) those moves_from(pit) lists, in the same order when the letters offered
        are taken default first, depth first.  The game is left as it was."""
        # w: [the turn's point (_turn's `at`, 7 items: the turn reads and writes them in w),
        # choice points met, some letter not the default, the counts there]; or [_ENDED, the counts the turn left] or
        # [_ENDING, the steps of the game's end still to hand out].  Counts are kept as _counts_before() keeps
        # them (bytes: a follower keeps a walk for every way still open, and a list of 34 counts takes 160
        # bytes of a board's heap where bytes take 64).
        if w and w[0] == _ENDING:
            # The turn was over: the steps of the game's end it was left with, a piece at a time.
            rest = w[1]
            tr._s.extend(rest[:budget])
            if len(rest) > budget:
                w[:] = (_ENDING, rest[budget:])
                return ""
            return None
        b = self._b
        before = self._walk_from
        if before is None:
            before = self._walk_from = b[:]
        else:
            before[:] = b
        ended = w and w[0] == _ENDED
        if ended:
            _put_counts(b, w[1])
        elif w:
            _put_counts(b, w[9])
            ci = w[7]
            odd = w[8]
        else:
            ci = 0
            odd = False
        try:
            if not ended:
                n = len(letters)
                steps = self._turn(pit, tr, w, budget)
                x = None
                try:
                    while True:
                        r = steps.send(x)
                        if r and ci < n:
                            x = letters[ci]           # a choice point the letters answer
                            if x != r[0]:
                                odd = True
                        elif r and ci >= _MAX_CHOICES:
                            x = r[0]                  # past the choice points a move lists: the defaults
                        else:
                            break                     # the budget is spent (""), or choice point number n
                        ci += 1
                except StopIteration:
                    r = None
                if r is not None:
                    # Paused (_turn wrote where into w): what else the next call needs (or
                    # a copy of w, one per letter offered).
                    w.append(ci)
                    w.append(odd)
                    w.append(_counts_before(b))
                    return r
                # The turn is over.  Its counts are kept for push() (the board makes the move
                # in the rules core once the hands have made it: a long turn played again
                # would take longer than a step may); the move is named as legal_moves() does.
                memo = self._walked
                if memo is None or memo[1] != self.to_move or memo[0] != before:
                    memo = self._walked = (before[:], self.to_move, {})
                memo[2][(pit, letters) if odd else pit] = _counts_before(b)
                if self._goes_on():
                    return None
                if len(tr):
                    # The game may end: that is worked out by the next call (the turn's last
                    # steps and the end, in one, took longer than a step may).
                    w[:] = (_ENDED, _counts_before(b))
                    return ""
            # What play() does after the turn (the game's end): this call's piece (the turn's
            # steps came in the one before).
            self._after_taken_back(before, tr)
            s = tr._s
            if s:
                # The game ends: its steps (a take from every pit left, some 20) are handed
                # out by the next calls, `budget` at a time.
                w[:] = (_ENDING, s[:])
                del s[:]
                return ""
            return None
        finally:
            b[:] = before

    def _after_taken_back(self, before, tr):
        """walk(): _after() (the end-of-turn check play() makes, adding the game's end to `tr`)
        on the board the turn leaves, `before` being the board it started from; what it changed
        is then put back field by field (push() and undo() took a quarter of this).  With no
        move played yet, _after() counts no repetition (it looks at _hist): a record is pushed
        for it, as play() would have one."""
        p = self.to_move
        passes = self._passes
        key = self._key
        legal = self._legal
        over = self._over
        pushed = not self._hist
        if pushed:
            self._hist.append((None, before, p, key, self._save()))
        self._passes = 0
        self.to_move = 1 - p
        self._legal = None
        self._key = None
        try:
            self._after(tr)
        finally:
            k = self._key
            if k is not None:
                # The position _after() counted for the repetition rule.
                seen = self._seen
                n = seen[k] - 1
                if n:
                    seen[k] = n
                else:
                    del seen[k]
            if pushed:
                self._hist.pop()
            self._key = key
            self._passes = passes
            self.to_move = p
            self._over = over
            self._legal = legal

    def _goes_on(self):
        """walk() at the end of a turn, the board as the turn leaves it: whether the game goes
        on after it, so that play() adds no step after the turn.  That is the usual case,
        answered without running the end-of-turn check (_after) and taking back what it did,
        which took four times as long as a step of the walk.  False when it may end: walk()
        then works that out in its next call."""
        p = self.to_move
        passes = self._passes
        self.to_move = 1 - p        # (what play() sets before _after(): the next player, no pass)
        self._passes = 0
        try:
            if self._over is not None or not self.lazy_moves or self.min_seeds_in_play or not self._can_move():
                return False
            return not (self.end_on_repetition and self._seen_before(self._position_key()))
        finally:
            self.to_move = p
            self._passes = passes

    def _can_move(self):
        if self.phase != "play":
            return True               # every setup stage has a move
        k = self._per_player
        base = self.to_move * k
        return max(self._b[base:base + k]) >= self.min_seeds    # (a player's pits are k in a row)

    def is_legal(self, move):
        """Whether a move is one legal_moves() lists, answered without the list when it is not built."""
        if self._over is not None:
            return False
        if self._legal is not None or self.phase != "play":
            return Staged.is_legal(self, move)
        t = type(move)
        if t is int:
            return self._liftable(move)
        if t is tuple:
            if move == ("pass",):
                return self._passes < 2 and self._can_move()
            if len(move) == 2 and type(move[0]) is int and type(move[1]) is str:
                pit, ch = move
                if not (self._liftable(pit) and 0 < len(ch) <= _MAX_CHOICES):
                    return False
                saved = self._b[:]
                ok = self._is_turn(pit, ch, None)
                self._b[:] = saved
                return ok
        # Anything else (a list, a bool...) is legal exactly when the list says so.
        return Staged.is_legal(self, move)

    def play(self, move):
        if not (self._legal is None and self._over is None and self.phase == "play" and type(move) is tuple
                and len(move) == 2 and type(move[0]) is int and type(move[1]) is str
                and self._liftable(move[0]) and 0 < len(move[1]) <= _MAX_CHOICES):
            return Staged.play(self, move)
        # A move with choices is checked as it is played (one turn, not a turn
        # to check it and another to play it); what _do and _play_move do.
        # The record keeps the counts as Mancala.play's does (on a board, none: the key has them).
        tr = Trace()
        before = self._b[:]
        self._hist.append((move, before if _CPYTHON else _undo_counts(self), self.to_move, self._key,
                           self._undo_state()))
        if not self._is_turn(move[0], move[1], tr):
            self._hist.pop()
            self._b[:] = before     # a turn changes nothing but the counts
            raise IllegalMoveError(self._why_illegal(move))
        self._passes = 0
        self.to_move = 1 - self.to_move
        self._after(tr)
        return tr

    def _liftable(self, pit):
        return 0 <= pit < self.n_pits and self.owner(pit) == self.to_move and self._b[pit] >= self.min_seeds

    def _play_moves(self):
        p = self.to_move
        b = self._b
        out = []
        saved = None
        for i in self.side(p):
            if b[i] >= self.min_seeds:
                if saved is None:
                    saved = b[:]      # the board each explored turn is undone to
                self._expand(i, out, saved)
        if out and self._passes < 2:
            out.append(("pass",))
        return out

    def moves_from(self, pit):
        """The legal moves that begin by lifting `pit`: those legal_moves() lists from it, in the
        same order, found by playing out that pit's turns only.  (A board following the hands
        needs the moves of the pit they lifted, not the whole list: listing it plays out every
        way through every pit's choice points.)"""
        if self._legal is not None or self.phase != "play":
            return [m for m in self.legal_moves() if (m if type(m) is int else m[0]) == pit]
        if self._over is not None or not self._liftable(pit):
            return []
        out = []
        self._expand(pit, out, self._b[:])
        return out

    def _expand(self, pit, out, saved):
        """Append every move from pit: one per way through its choice points."""
        stack = [("", False)]     # (letters so far, some letter is not the default)
        while stack:
            ch, odd = stack.pop()
            if len(ch) >= _MAX_CHOICES:
                opts = None
            else:
                opts = self._offered(pit, ch)
                self._b[:] = saved
            if opts is None:
                out.append((pit, ch) if odd else pit)
                continue
            for i in range(len(opts) - 1, -1, -1):
                stack.append((ch + opts[i], odd or i > 0))

    def _play_move(self, move, tr):
        p = self.to_move
        memo = self._walked
        if memo is not None and tr is None:
            # A turn walk() went through: its counts, not the turn played again.
            self._walked = None
            if memo[1] == p and memo[0] == self._b:
                after = memo[2].get(move)
                if after is not None:
                    _put_counts(self._b, after)
                    self._passes = 0
                    self.to_move = 1 - p
                    return
        if isinstance(move, int):
            self._play_turn(move, None, tr)
            self._passes = 0
        elif move[0] == "pass":
            if tr is not None:
                tr.add(PASS)
            self._passes += 1
        else:
            self._play_turn(move[0], move[1], tr)
            self._passes = 0
        self.to_move = 1 - p

    # ----- the end ------------------------------------------------------

    def _collect_leftovers(self, tr):
        # Mancala's, a player's pits at a time (they are _per_player in a row, the stores
        # follow the pits): each player's seeds go to his store in one addition, and a take
        # is one append (walk(): the end takes some 20 pits in the step that works it out).
        b = self._b
        n = self.n_pits
        k = self._per_player
        s = tr._s if tr is not None else None
        for p in range(2):
            base = p * k
            row = b[base:base + k]
            b[n + p] += sum(row)
            if s is not None:
                code = ((n + p) << 12) + (base << 4) + TAKE_CODE   # (Trace.add(TAKE, base, 0, n + p))
                for v in row:
                    if v:
                        s.append((v << 20) + code)
                    code += 16                                  # (the next pit)
            b[base:base + k] = [0] * k

    def _finish(self, tr, reason):
        if tr is None and not self._hist:
            # A position given by counts may be a setup position whose state
            # fields (from_text) come only after the engine looked at it: keep
            # the counts so _load_state_fields can undo a premature end.
            self._loaded = self._b[:]
        Mancala._finish(self, tr, reason)

    def _judge(self, reason):
        o = Mancala._judge(self, reason)
        if reason == "no moves":
            # The player to move has only single seeds: he has lost.
            o.winner = 1 - self.to_move
            o.reason = "player %d has no pit of two or more seeds" % self.to_move
        return o

    # ----- state --------------------------------------------------------

    def _extra_key(self):
        return self._passes

    def _save(self):
        return (Staged._save(self), self._passes)

    def _restore(self, s):
        Staged._restore(self, s[0])
        self._passes = s[1]

    def _state_fields(self):
        out = Staged._state_fields(self)
        if self._passes:
            out.append("passes=%d" % self._passes)
        return out

    def _load_state_fields(self, fields):
        if self._loaded is not None and not self._hist:
            self._b[:] = self._loaded
        self._loaded = None
        Staged._load_state_fields(self, fields)

    def _load_more_fields(self, fields):
        v = fields.pop("passes", "0")
        if v not in ("0", "1", "2"):
            raise PositionError("%s: passes=%s must be 0, 1 or 2 (passes made in a row)" % (self.title, v))
        self._passes = int(v)

    # ----- notation and reasons -----------------------------------------

    def _play_move_name(self, move):
        if isinstance(move, int):
            return self.pit_name(move)
        return "%s/%s" % (self.pit_name(move[0]), move[1])

    def _parse_play_move(self, text):
        name, slash, ch = text.partition("/")
        pit = self._parse_pit(name)
        if not slash:
            return pit
        for x in ch:
            if x not in "cnrs":
                raise NotationError("%r: the letters after / are the choices of the turn, each c (capture), n (go on normally: relay, a capture declined), r (reverse) or, with declined=sleep, s (decline the capture and stop)" % text)
        if not ch:
            raise NotationError("%r: give the choices after / (c, s, n or r each), or the pit alone" % text)
        if self.phase == "play" and ch == self._default_letters(pit):
            return pit        # every choice the default: the plain pit is the move's name
        return (pit, ch)

    def _default_letters(self, pit):
        """The letters of the choice points the plain move from pit meets."""
        if self.owner(pit) != self.to_move or self._b[pit] < self.min_seeds or self._over is not None:
            return None
        saved = self._b[:]
        taken = []
        self._play_turn(pit, None, None, taken)
        self._b[:] = saved
        return "".join(taken)

    def _why_illegal(self, move):
        if self._over is None and self.phase == "play" and isinstance(move, tuple) and move[:1] == ("pass",):
            if move != ("pass",):
                return "a pass is written ('pass',), not %r" % (move,)
            return "two passes in a row: player %d must now make a move" % self.to_move
        return Staged._why_illegal(self, move)

    def _why_rule(self, move):
        if isinstance(move, tuple):
            pit = move[0]
        else:
            pit = move
        name = self.pit_name(pit)
        if self._b[pit] < self.min_seeds:
            return "pit %s holds a single seed, and a single seed may not be lifted" % name
        mine = [m for m in self.legal_moves() if m == pit or (isinstance(m, tuple) and m[0] == pit)]
        names = " ".join(self.move_name(m) for m in mine)
        if not (isinstance(move, tuple) and len(move) == 2 and isinstance(move[1], str)):
            return "%r is not a move of %s: moves are a pit, (pit, choices) or ('pass',); from %s: %s" % (
                move, self.title, name, names)
        return "%s does not match the choices of a turn from %s (one letter per choice point, defaults as the plain pit): legal are %s" % (
            self.move_name(move), name, names)


class Coro(Omweso):
    id = "coro"
    title = "Coro"
    take_own = True


class Aweet(Coro):
    id = "aweet"
    title = "Aweet"
    pits_per_row = 10


class Kombe(Omweso):
    id = "kombe"
    title = "Kombe"
    options = (("race", "first-to-sleep", ("first-to-sleep", "none")), _DECLINED)
    start = "f"
    take_back = False
    reverse_start = True
    reverse_indirect = True

    def _pattern(self):
        return _F8


class Mongale(Kombe):
    id = "mongale"
    title = "Mongale"
    start = "g"

    def _pattern(self):
        return _G8


class MongolaDriedger(Omweso):
    id = "mongola-driedger"
    title = "Mongola (Driedger)"
    pits_per_row = 7
    options = (("race", "first-to-sleep", ("first-to-sleep", "none")), _DECLINED)
    start = "h"
    short_drop = True

    def _pattern(self):
        return _H7
