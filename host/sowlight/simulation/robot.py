"""Robot hands: a player who does only what the board's LEDs ask for, on a virtual board's seeds.

    robot = Robot(view, rng=random.Random(3))
    robot.set_up()                   # the seeds put out where the set-up LEDs ask
    move = robot.play_move()         # one whole move: a lit pit lifted (at random, or the hint) ...
    move = robot.play_move(2)        # ... or the move given; returns the board's `move` event

Each physical act is one `sim` request (docs/protocol.md): lift a pit, drop a
seed, take seeds to a store or off the board, add or remove seeds at the
set-up, press a button.  What to do next is read from the latest `leds`
event, as a player reads the lights:

- `trail` (with a count): seeds to drop where the sensors cannot see them; the
  LEDs do not change as they go in, so the hands count them;
- `drop`, `relay` (lift again), `take` (to the `dest` cell, or off the board),
  `need` (put that many seeds in): the next step;
- `choice`: the alternatives where the move may go more than one way;
- `lift` / `hint`: the pits the player to move may start from;
- `need` / `remove` / `ready` during the set-up; `error`: a mistake flagged.

When the LEDs ask for nothing more and the hands did everything they showed,
the hands press confirm ("done what the lights show": the board takes the
drops it cannot see as made), as a player would.

The hands know the move they mean to make (the one given, or the one they
chose when lifting): its steps, from the rules core and the game the board
publishes (its state and journal), settle what the `leds` message cannot tell
apart: which alternative at a choice, and the seeds still in the hand when a
game ends.  They never read anything the board does not publish.
"""
import random
import time

from mancala.trace import HAND
from sowlight_fw.virtual import Seeds, SimError, position_counts, sensed

from sowlight.board.view import BoardViewError

ACTS = ("drop", "relay", "take", "need")     # lit roles that ask for one step
STARTS = ("lift", "hint")                     # lit roles of pits a move may start from
_STRIKES = 3                                  # visible acts in a row that change nothing before giving up
_LOOK = 0.5                                   # seconds without a `leds` event before the state is asked for
MOVE_SECONDS = 60.0                           # a move the board neither takes nor answers with new lights for this long is given up


class RobotError(BoardViewError):
    """The hands cannot go on: the LEDs ask for nothing they can do, or flag a mistake."""


def physical_steps(trace, gmap):
    """A move's trace (game cells) as the hands' acts on board cells: (act, cell, n, to).

    act is lift, pick (n seeds into the hand: a capture sown on, Lane's feed of one), drop,
    take (to a board cell, or -1 off the board) or place;
    the steps the hands do nothing for (extra turn, pass, end ...) are left out."""
    out = []

    def cell(c):
        return gmap[c] if 0 <= c < len(gmap) else -1

    for s in trace:
        k = s.kind
        if k in ("lift", "relay"):
            out.append(("lift", cell(s.pit), s.count, None))
        elif k == "drop":
            out.append(("drop", cell(s.pit), 1, None))
        elif k == "take":
            if s.to == HAND:
                out.append(("pick", cell(s.pit), s.count, None))
            else:
                out.append(("take", cell(s.pit), s.count, cell(s.to) if s.to >= 0 else -1))
        elif k == "place":
            out.append(("place", cell(s.pit), s.count, None))
    return out


def _made_so_far(steps, counts, now, hand):
    """How many of a move's `steps` (physical_steps) turn the seeds `counts` into `now` with
    `hand` seeds in the hand (0: none; the first such count, at least 1)."""
    seeds = Seeds(len(counts))
    seeds.lay_out(counts)
    for i, (act, cell, n, to) in enumerate(steps):
        try:
            seeds.do(act, cell, n, to)
        except SimError:            # a step these seeds do not allow: not the move that was made
            return 0
        if seeds.hand == hand and seeds.counts == now:
            return i + 1
    return 0


class Robot:
    """Hands for a virtual board (see the module's docstring).

    view         a boardview.BoardView of a virtual board
    rng          the randomness of its choices (random.Random)
    prefer_hint  start from the hint pit when one is lit
    patience     seconds to wait for the LEDs to follow a visible act
    say          fn(text), told every act ("lift C", "drop 3 (trail)", ...)
    """

    def __init__(self, view, rng=None, prefer_hint=False, patience=3.0, say=None):
        self.view = view
        self.rng = rng if rng is not None else random.Random()
        self.prefer_hint = prefer_hint
        self.patience = patience
        self.say = say
        self.acts = 0
        self.presses = 0
        self.intent = None        # the acts of the move the hands are making
        self._next = 0            # the index in `intent` of the step after the last visible act
        self._trail_since = 0     # trail seeds dropped since then
        self._seen = -1           # view.leds_seen when `_done` was last reset
        self._done = {}           # trail seeds dropped per cell, while the LEDs stay the same
        self._trail_lit = {}      # the trail `_done` counts against
        self._acted = False       # an act (but a drop into the trail) or a press since the LEDs changed
        self._confirmed = False   # confirm pressed while the LEDs stayed the same
        self._hinted = 0          # hint presses at a choice since the last step
        self._picked = None       # the cell of the step done at a choice the board cannot see
        self._strikes = 0
        self._carried = False     # resume() found a move half made: play_move() goes on with it
        if view.seeds is None:
            view.sim("seeds")

    # ----- the seeds ---------------------------------------------------------------------------------

    @property
    def hand(self):
        return self.view.seeds["hand"]

    def count(self, cell):
        return self.view.seeds["counts"][cell]

    def _fresh_view(self):
        if self.view.leds_seen != self._seen:
            self._seen = self.view.leds_seen
            trail = self._trail_now()
            if self._acted or trail != self._trail_lit:
                self._done = {}
            # (Else the board lit again by itself -- a host's `guide` to wait for a remote move,
            # say -- with the same trail: the seeds already dropped into it are there still.)
            self._trail_lit = trail
            self._acted = False
            self._confirmed = False
            self._picked = None

    # ----- acts --------------------------------------------------------------------------------------

    def _trail_now(self):
        return {c: n for c, (role, n) in (self.view.lit or {}).items() if role == "trail"}

    def _sim(self, act, text, visible=True, **fields):
        seen = self.view.leds_seen
        self.view.sim(act, **fields)
        self._acted = True
        self.acts += 1
        if self.say:
            self.say(text)
        if not visible:
            self.view.pump()
            return True
        # The LEDs, not a `move` event, say the act was seen: a move's event comes before the
        # LEDs of the next turn, and acting in between would follow the old ones.
        changed = self._lights_changed(seen, self.patience)
        self._strikes = 0 if changed else self._strikes + 1
        if self._strikes >= _STRIKES:
            raise RobotError("the board does not react to the hands any more (%s); it shows %s"
                             % (text, self.shows()))
        return changed

    def press(self, button, wait=1.0):
        seen = self.view.leds_seen
        self.view.sim("press", button=button)
        self._acted = True
        self.presses += 1
        if self.say:
            self.say("press %s" % button)
        return self._lights_changed(seen, wait)

    def _lights_changed(self, seen, wait):
        """Wait up to `wait` s for the LEDs to change after the `leds` count `seen`.  Events are
        never sent twice, so on a noisy line the `leds` that says so may be lost: after each
        _LOOK without one, the board's state (a request, sent again until it is answered)
        says what its LEDs show."""
        view = self.view
        end = time.monotonic() + wait
        while True:
            left = end - time.monotonic()
            if view.wait_for(lambda: view.leds_seen > seen, max(0.0, min(_LOOK, left))):
                return True
            view.refresh()
            if view.leds_seen > seen:
                view.pump(0.005)
                return True
            if left <= _LOOK:
                return False

    def _mark(self, act, cell):
        """A visible act done: the intent moves past it (and the drops the trail stood for)."""
        if self.intent is None:
            return
        i = self._next
        while i < len(self.intent):
            a, c = self.intent[i][0], self.intent[i][1]
            if c == cell and (a == act or {a, act} == {"lift", "pick"}):
                self._next = i + 1
                self._trail_since = 0
                return
            if a != "drop":
                break
            i += 1
        self.intent = None      # the hands did something else than they meant: the LEDs lead from here

    def do(self, step):
        """Carry out one act (act, cell, n, to)."""
        act, cell, n, to = step
        self._hinted = 0
        if act == "drop":
            self._sim("drop", "drop %s" % self.name(cell), visible=self._sees_drop(cell), cell=cell)
        elif act == "pick" and 0 < n < self.count(cell):
            # Some of the seeds only (Lane's feed takes one into the hand): occupancy sensors
            # still see seeds there, load cells see it.
            self._sim("lift", "take %d from %s into the hand" % (n, self.name(cell)),
                      visible=self._sees(cell, -n), cell=cell, n=n)
        elif act in ("lift", "pick"):
            self._sim("lift", "lift %s (%d)" % (self.name(cell), self.count(cell)), cell=cell)
        elif act == "take":
            where = self.name(to) if to is not None and to >= 0 else "off the board"
            self._sim("take", "take %s to %s" % (self.name(cell), where), cell=cell,
                      to=to if to is not None and to >= 0 else -1)
        elif act == "place":
            if self.hand:
                k = min(n, self.hand)
                self._sim("drop", "drop %d in %s" % (k, self.name(cell)), cell=cell, n=k)
            else:
                self._sim("add", "put %d in %s" % (n, self.name(cell)), cell=cell, n=n)
        self._mark(act, cell)

    def _sees_drop(self, cell):
        """Whether the board's sensors will see a seed dropped into `cell`."""
        return self._sees(cell, 1)

    def _sees(self, cell, change):
        """Whether the board's sensor under `cell` reads otherwise once `change` seeds go in (or
        out): load cells count every seed, occupancy sensors see only whether there are any."""
        sensors = (self.view.hello.get("config") or {}).get("sensors") or {}
        if isinstance(sensors.get("cells"), list) and cell not in sensors["cells"]:
            return False
        k, counting = self.count(cell), sensors.get("kind") == "hx711"
        return sensed(k + change, counting) != sensed(k, counting)

    def name(self, cell):
        """A board cell's name in the game being played (its pit name, or 'store 0')."""
        game = self.view.game()
        if game is not None:
            gmap = self.view.cells_of(game)
            if cell in gmap:
                from sowlight.terminal.render import cell_name
                return cell_name(game, gmap.index(cell))
        return "cell %d" % cell

    def shows(self):
        lit = self.view.lit or {}
        if not lit:
            return "no LEDs lit"
        return ", ".join("%s %s%s" % (self.name(c), r, " x%d" % k if k > 1 else "") for c, (r, k) in sorted(lit.items()))

    # ----- set-up ---------------------------------------------------------------------------------------

    def set_up(self, max_acts=500):
        """Put the seeds out where the LEDs ask (the position the board publishes says how many),
        then confirm when the board asks for it; returns when the game is under way."""
        view = self.view
        state = view.look()
        start = self.acts + self.presses
        quiet = False             # waited once for a board that lit nothing
        while state.get("phase") == "setup":
            if self.acts + self.presses - start > max_acts:
                raise RobotError("the set-up does not end; the board shows %s" % self.shows())
            self._fresh_view()
            want = self._want(state)
            need, remove = view.cells("need"), view.cells("remove")
            if need:
                c = need[0]
                k = want[c] - self.count(c) if want is not None else view.lit[c][1]
                if k > 0:
                    self._sim("add", "put %d in %s" % (k, self.name(c)), cell=c, n=k)
                else:
                    self._sim("add", "put 1 in %s" % self.name(c), cell=c, n=1)
            elif remove:
                c = remove[0]
                k = self.count(c) - want[c] if want is not None else view.lit[c][1]
                self._sim("remove", "take %d out of %s" % (max(k, 1), self.name(c)), cell=c, n=max(1, min(k, self.count(c))))
            elif not view.lit and not quiet:
                # Nothing lit yet: a board that counts lights the set-up once its first reading
                # is in (a conversion after the game began).  Give it a moment before taking the
                # dark board for one set out right.
                quiet = True
                view.wait_for(lambda: view.leds_seen != self._seen, min(self.patience, 2.0))
            elif not self._confirmed:
                # Every pit shows right (a board that cannot count asks for confirm; one that
                # counts starts by itself, when it sees a change): confirm, as a player does.
                self._confirmed = True
                self.press("confirm")
            else:
                view.wait_for(lambda: view.leds_seen != self._seen, self.patience)
                if view.leds_seen == self._seen and view.refresh().get("phase") == "setup":
                    raise RobotError("the set-up shows nothing to do: %s" % self.shows())
            state = view.refresh()
        return state

    def _want(self, state):
        """The seeds each board cell starts with (the published position on the board's cells)."""
        game = self.view.game(state)
        if game is None:
            return None
        return position_counts(game.cells(), self.view.cells_of(game), len(self.view.seeds["counts"]))

    # ----- what other hands left half done ----------------------------------------------------------------

    def resume(self):
        """Pick up what other hands left half done -- a run killed with seeds in the hand: the
        move they were making, found from the seeds (which legal move has made them so far, the
        board still following it), is finished by the next play_move(); when none has, or the
        board has taken the move already (its last drops unseen), the seeds go where the board's
        position has them.  Returns what was done, in words, or None when all was in order."""
        view = self.view
        # The board may not have seen the last acts yet (load cells convert slowly): until its
        # LEDs have been still for _LOOK, what they show is not what the seeds say.
        end = time.monotonic() + self.patience
        while time.monotonic() < end:
            seen = view.leds_seen
            if not view.wait_for(lambda: view.leds_seen > seen, _LOOK):
                break
        state = view.look()
        if state.get("game") is None or state.get("phase") in ("setup", "over", "idle"):
            return None
        seeds = view.sim("seeds")
        game = view.game(state)
        want = self._want(state)
        if game is None or want is None:
            return None
        counts, hand = list(seeds["counts"]), seeds["hand"]
        if not hand and counts == want and not view.cells("error"):
            return None
        if state.get("phase") in ("sowing", "choice", "mismatch"):
            gmap = view.cells_of(game)
            for m in game.legal_moves():
                steps = physical_steps(game.copy().play(m), gmap)
                at = _made_so_far(steps, want, counts, hand)
                if at:
                    self.intent = steps
                    self._next = at
                    self._trail_since = 0
                    self._carried = True
                    # The drops the board could not see were made under the LEDs it shows now:
                    # its trail counts them, so they count as done (until the LEDs change).
                    self._seen = view.leds_seen
                    self._done = {}
                    self._trail_lit = self._trail_now()
                    self._acted = False
                    self._confirmed = False
                    for act, cell, _, _ in steps[:at]:
                        if act == "drop":
                            self._done[cell] = self._done.get(cell, 0) + 1
                    return "the move %s was half made (%d of its %d acts): the hands finish it" % (
                        game.move_name(m), at, len(steps))
        n = self.put_right()
        return "the seeds were not where the board has them: %d act%s put them right" % (n, "" if n == 1 else "s")

    @property
    def carrying(self):
        """A move resume() found half made waits to be finished by play_move()."""
        return self._carried

    # ----- a move ------------------------------------------------------------------------------------------

    def play_move(self, move=None, max_acts=2000, max_seconds=MOVE_SECONDS):
        """Make one move as the LEDs guide it: `move` (a move of the rules core) or, when None, a
        pit the LEDs offer (the hint with prefer_hint, else one at random).  Returns the board's
        `move` event once the board has taken the move, with every seed of it sown; RobotError
        after `max_acts` acts, or `max_seconds` in which the hands found nothing to do (never an
        endless wait; a long move, such as a relay sowing round a four-row board several times,
        takes as long as its acts take)."""
        view = self.view
        state = view.look()
        if state.get("phase") == "setup":
            state = self.set_up()
        if state.get("game") is None:
            raise RobotError("the board has no game in progress: start one first")
        if state.get("phase") == "over":
            raise RobotError("the game is over")
        game = view.game(state)
        gmap = view.cells_of(game)
        start = None
        carried = self._carried
        self._carried = False
        if not carried:
            self.intent = None
        if move is not None and not carried:
            trace = game.copy().play(move)
            self.intent = physical_steps(trace, gmap)
            self._next = 0
            self._trail_since = 0
            start = self.intent[0] if self.intent else None
        before = len(view.moves)
        begun = carried           # (a move resume() found half made is under way already)
        acts = 0
        done = self.acts + self.presses
        give_up = time.monotonic() + max_seconds
        while True:
            acts += 1
            if acts > max_acts:
                raise RobotError("no end to the move after %d acts; the board shows %s" % (max_acts, self.shows()))
            if self.acts + self.presses != done:
                done = self.acts + self.presses
                give_up = time.monotonic() + max_seconds
            elif time.monotonic() > give_up:
                raise RobotError("no end to the move: nothing to do for %.0f s; the board shows %s"
                                 % (max_seconds, self.shows()))
            view.pump()
            moved = len(view.moves) > before
            if moved and not self._owes_seeds():
                return view.moves[before]
            self._fresh_view()
            if self._trail():
                continue
            if moved:
                # The move is in; the seeds still in the hand go where the rest of its steps say
                # (a game over shows the winner, not the last drops).
                if not self._finish_from_intent():
                    return view.moves[before]
                continue
            if view.cells("error"):
                raise RobotError("the board flags a mistake: %s" % self.shows())
            if not begun:
                begun = True
                if self._start(game, gmap, start):
                    continue
            if self.intent is not None and self._next + self._trail_since >= len(self.intent):
                # Every step of the move the hands meant is done, and the board has not taken it
                # (it cannot tell it from another one): confirm, as a player does.
                view.refresh()            # the move may be in, its event lost
                if len(view.moves) > before:
                    continue
                if not self._confirmed:
                    self._confirmed = True
                    self.press("confirm")
                    continue
                raise RobotError("the hands made %s, but the board does not take it (it shows %s)"
                                 % (self._meant(game, move), self.shows()))
            if self._drop_as_meant():
                continue
            if self._step():
                continue
            self._nothing_to_do(game)

    def _meant(self, game, move):
        if move is not None:
            return "the move %s" % game.move_name(move)
        return "every step of its move"

    def _owes_seeds(self):
        return self.view.seeds["hand"] > 0

    def _trail(self):
        """Drop one seed into a trail cell that still wants one; True if done."""
        if not self.hand:
            return False
        for c in self._in_sowing_order(self.view.cells("trail")):
            if self._done.get(c, 0) < self.view.lit[c][1]:
                self._done[c] = self._done.get(c, 0) + 1
                acted = self._acted
                self._sim("drop", "drop %s (unseen)" % self.name(c),
                          visible=False, cell=c)
                self._acted = acted     # (what `_done` counts: no act that changes the lights)
                self._trail_since += 1
                return True
        return False

    def _in_sowing_order(self, cells):
        """Cells in the order the intended move sows them (as hands sow), else in cell order."""
        if self.intent is None:
            return cells
        rest = [step[1] for step in self.intent[self._next:] if step[0] == "drop"]
        return sorted(cells, key=lambda c: rest.index(c) if c in rest else len(rest) + c)

    def _finish_from_intent(self):
        if self.intent is None or not self.hand:
            return False
        i = self._next + self._trail_since
        if i < len(self.intent) and self.intent[i][0] == "drop":
            self._trail_since += 1
            c = self.intent[i][1]
            self._sim("drop", "drop %s" % self.name(c), visible=False, cell=c)
            return True
        return False

    def _drop_as_meant(self):
        """Seeds in the hand and no LED saying where they go: the board could not see the last
        act (one seed taken from a pit that keeps others, on occupancy sensors) and waits for
        the next it can see.  The hands drop where the move they mean goes next, as a player
        who knows the rules does."""
        if self.intent is None or not self.hand or self.view.cells("drop") or self.view.cells("trail"):
            return False
        i = self._next + self._trail_since
        if i < len(self.intent) and self.intent[i][0] == "drop":
            self.do(self.intent[i])
            return True
        return False

    def _start(self, game, gmap, start):
        """The first act of the move: the pit given, the hint, or one the LEDs offer."""
        view = self.view
        if start is not None:
            act, cell = start[0], start[1]
            lit = (view.lit or {}).get(cell, ("", 0))[0]
            if act == "lift" and lit not in STARTS and lit != "trail":
                raise RobotError("the board does not offer %s to lift (it shows %s)" % (self.name(cell), self.shows()))
            self.do(start)
            return True
        moves = [physical_steps(game.copy().play(m), gmap) for m in game.legal_moves()]
        starts = view.cells("lift") + view.cells("hint")
        places = view.cells("need")
        hints = view.cells("hint")
        if not starts and not places:
            # A pit whose trail seed just went in blinks trail / the player's colour: the `leds`
            # message names the trail only; a move that starts by taking seeds into the hand
            # (Lane's feed) is lit `take` or `relay`.  Which of those the player may lift, the
            # rules say.
            firsts = set(steps[0][1] for steps in moves if steps and steps[0][0] in ("lift", "pick"))
            starts = [c for c in sorted(view.lit or {}) if c in firsts and view.lit[c][0] in ("trail", "take", "relay")]
        if self.prefer_hint and hints:
            pick = hints[0]
        elif starts or places:
            pick = self.rng.choice(starts + places)
        else:
            return False
        # The move the hands mean: one of those that start here (the rules say which).
        options = [steps for steps in moves if steps and steps[0][1] == pick]
        self.intent = self.rng.choice(options) if options else None
        self._next = 0
        self._trail_since = 0
        if self.intent is not None:
            self.do(self.intent[0])
        elif pick in places:
            self.do(("place", pick, view.lit[pick][1], None))
        else:
            self.do(("lift", pick, 0, None))
        return True

    def _step(self):
        """One step the LEDs show; True if one was done."""
        view = self.view
        choice = view.cells("choice")
        steady = [c for c in sorted(view.lit or {}) if view.lit[c][0] in ACTS]
        if not steady and not choice:
            # Under way, a pit lit in the player's colour is one more to lift (two-handed moves).
            steady = view.cells("lift")
        if choice:
            return self._choose(choice, steady)
        if not steady:
            return False
        c = steady[0]
        self.do(self._act_for(c, view.lit[c][0], view.lit[c][1]))
        return True

    def _act_for(self, cell, role, n=1):
        if role == "drop":
            return ("drop", cell, 1, None)
        if role in ("relay", "lift"):
            return ("lift", cell, 0, None)
        if role == "take":
            if n:       # a counted take: that many seeds into the hand (docs/protocol.md, `leds`)
                return ("pick", cell, n, None)
            dest = self.view.cells("dest")
            return ("take", cell, 0, dest[0] if dest else -1)
        return ("place", cell, n, None)

    def _choose(self, choice, steady):
        """Where the move may go more than one way: the alternative the hands mean (or any).

        When the board cannot see the alternatives it shows its pick steady among them: hint
        moves the pick, the hands do the picked step, confirm takes it."""
        view = self.view
        if steady and self._picked is not None:
            self._picked = None
            self.press("confirm")
            return True
        cands = choice + steady
        want = self._wanted(cands)
        if want is None:
            c = self.rng.choice(choice)
            want = ("drop", c, 1, None) if self.hand else ("lift", c, 0, None)
        if steady and want[1] not in steady:
            if self._hinted < len(cands):
                self._hinted += 1
                self.press("hint")
                return True
            want = self._act_for(steady[0], view.lit[steady[0]][0])    # never came round: take the pick
        if steady:
            self._picked = want[1]
        self.do(want)
        return True

    def _wanted(self, cells):
        """The step of the intended move that one of `cells` stands for (None: no intent)."""
        if self.intent is None:
            return None
        k = self._next + self._trail_since
        order = list(range(k, len(self.intent))) + list(range(self._next, min(k, len(self.intent))))
        for j in order:
            step = self.intent[j]
            if step[1] in cells or (step[0] == "take" and step[3] in cells):
                return step
        return None

    def _nothing_to_do(self, game):
        """The LEDs ask for nothing the hands have not done: confirm, as a player would."""
        view = self.view
        if not self._confirmed:
            self._confirmed = True
            self.press("confirm")
            return
        state = view.refresh()
        if view.leds_seen != self._seen:
            return
        raise RobotError("nothing to do: the board shows %s (%s)" % (self.shows(), state.get("phase")))

    # ----- putting the board right ------------------------------------------------------------------------

    def put_right(self):
        """Make the seeds match the position the board publishes (after an undo, or a mistake):
        the hand emptied into cells that lack seeds, then seeds added or taken out."""
        view = self.view
        state = view.refresh()
        want = self._want(state)
        if want is None:
            return 0
        n = 0
        for c in range(len(want)):
            while self.hand and self.count(c) < want[c]:
                k = min(self.hand, want[c] - self.count(c))
                self._sim("drop", "put %d back in %s" % (k, self.name(c)), visible=False, cell=c, n=k)
                n += 1
        if self.hand:
            c = min(range(len(want)), key=lambda x: want[x])
            self._sim("drop", "put the hand down in %s" % self.name(c), visible=False, cell=c, n=self.hand)
            n += 1
        for c in range(len(want)):
            have = self.count(c)
            if have > want[c]:
                self._sim("remove", "take %d out of %s" % (have - want[c], self.name(c)), visible=False,
                          cell=c, n=have - want[c])
                n += 1
            elif have < want[c]:
                self._sim("add", "put %d in %s" % (want[c] - have, self.name(c)), visible=False, cell=c,
                          n=want[c] - have)
                n += 1
        view.wait_for(lambda: not view.cells("error"), self.patience)
        return n
