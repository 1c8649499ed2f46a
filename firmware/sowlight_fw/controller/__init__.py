"""The board's controller: a pure state machine between the sensors, the buttons, the link and the LEDs.

    c = Controller(board)                    # board: config.check()/load() result
    c.feed_observation(values, now_ms)       # one scan of the sensors, a value per board cell
    c.press("confirm", now_ms)               # confirm | undo | hint | menu (a long press on confirm)
    reply = c.command({"type": "undo"}, now_ms)
    c.tick(now_ms)                           # time passes (blinking, settling)
    c.frame                                  # bytearray: the colour role of each board cell (colours.py)
    c.records, c.outbox                      # journal records and link messages to send; the shell empties them

It never touches hardware and never blocks, except for a hint search (bounded
by `hint_ms`).  Times are `time.ticks_ms()` values (compared with ticks_diff,
so they may wrap).  docs/firmware.md describes the states and colours.

States (`c.state`):

- "menu"        choose a variant (or self-test, calibration): undo/hint step, confirm chooses
- "setup"       put the seeds out: cells lit NEED want seeds, REMOVE want fewer (load cells
                flash how many); occupancy boards then wait for confirm, load cells start by themselves
- "await_lift"  the player to move's legal pits lit in their colour; the hint pit green
- "sowing"      a move in progress: the next step lit (drop, lift again, take + where to),
                drops the sensors cannot see as a dim trail, alternatives blinking at a choice
- "turn_over"   the move is complete in the rules but its last drops cannot be seen: their trail
                stays lit with the next player's pits, until the next player lifts
- "placing"     a free placing stage (Lane, the Egyptian games): the pits that may take seeds lit
                NEED; each handful the load cells count, once the board is still, is a placement
- "over"        the winner's side lit in their colour (a draw: both sides blink)
- "error"       every cell flashes red; confirm goes back
- "self_test", "calibrating"   the app drives the LEDs and sensors itself

`c.mismatch` is set on top of the play states when the board, once still,
disagrees with what it should hold: the cells at fault flash (NEED/REMOVE
with ERROR).  It clears itself when the board is put right; confirm instead
overrules the sensors of those cells (they stop being compared until they
agree again); undo takes the move back.

This module holds the Controller (all its state is set in __init__) and what
it runs scan after scan: a lift seen, a move followed, made, journalled and
told.  Its parts, by job, take the controller as their first argument:

    states.py    the states' names, the buttons, the limits
    settings.py  the settings and their defaults
    jobs.py      the work a scan leaves for later scans: one queue of named jobs
    games.py     a game started, resumed, a move abandoned or taken back
    menu.py      the menu
    presses.py   the buttons (but confirm during a move: Controller.press)
    commands.py  the link's requests
    mismatch.py  the board disagreeing with the game, the set-up, untrusted sensors
    placement.py a free placing stage
    hint.py      the hint search
    lights.py    the LEDs: what each cell shows
"""
import mancala

from ..follow import Follower, placing
from ..journal import digest, move_json
from ..follow.observe import Observer
from .settings import checked
from .states import (MENU_STATE, SETUP, AWAIT, MOVE, TURN_OVER, PLACING, OVER, ERROR_STATE, SELF_TEST, CALIBRATING,
                     PLAY_STATES, SERVICE_ITEMS, UNDO_MOVES)
from . import commands, games, hint, lights, mismatch, placement, presses
from .jobs import (Jobs, PLAY, NEXT_TURN, SHOW_NEXT, PROGRESS, LIGHTS, LOOK, STILL, TRIM, MESSAGE, STEPS,
                   LEDS, STATE)
from ..cellmap import fitting_variants

_MAX_TRACE_STEPS = 150       # a `move` message with a longer trace sends null (the frame limit is 4 KB)
_STEPS_A_SCAN = 3            # steps an idle scan tells the link of: each a `step` frame, which on a board
                             # leaves most of a KB of garbage (a scan's heap, not its time, sets this)


# Messages for the link are made in idle scans (jobs.py), a few steps' worth a scan: a STEPS
# job's StepMessages.work(ctl, most) puts what it has made into ctl.outbox, True once it is done.
# A `move` message is queued whole (a MESSAGE job: its trace is the move's Step tuples, which
# the codec writes as lists when the link sends it).

class StepMessages:
    """The `step` events of steps the hands made (dropped, lifted), a few a scan."""

    def __init__(self, game_no, ply, first, steps, counting):
        self.head = (game_no, ply, first, counting)
        self.steps = list(steps)
        self.done = 0

    def more(self, game_no, ply, first, steps):
        """Take the steps the hands made next into this job; False if they do not follow on."""
        head = self.head
        if head[0] != game_no or head[1] != ply or head[2] + len(self.steps) != first:
            return False
        self.steps.extend(steps)
        return True

    def work(self, ctl, most):
        game_no, ply, first, counting = self.head
        steps = self.steps
        k = self.done
        end = min(len(steps), k + most)
        while k < end:
            s = steps[k]
            kind = s[0]
            if kind == "drop" or kind == "place":
                ev = "dropped"
            elif kind == "lift" or kind == "relay" or kind == "take":
                ev = "lifted"
            else:
                ev = None           # extra turn, pass ...: nothing the hands did
            if ev is not None:
                msg = {"type": "step", "game": game_no, "ply": ply, "ev": ev, "cell": s[1], "i": first + k}
                if counting and ev == "lifted":
                    msg["n"] = s[2]
                ctl.outbox.append(msg)
            k += 1
        self.done = k
        return k == len(steps)


class Controller:
    def __init__(self, board, game_factory=None, clock=None, settings=None, variants=None, next_game=1, now_ms=0):
        s = checked(settings)
        self.settings = s
        self.board = board
        self.cells = n = board.cells
        self.factory = game_factory or mancala.Game
        self.clock = clock
        self.counting = board.sensor_kind == "hx711"
        self.sensed = bytearray(n)
        for c in range(n):
            if board.cell_sensors[c] is not None:
                self.sensed[c] = 1
        self.masked = bytearray(n)          # sensors overruled by a confirm
        self.observer = Observer(n, s["debounce_ms"], s["settle_ms"], s["noisy_changes"], now_ms, s["noisy_ms"])
        self.follower = Follower(n, self.counting)
        self.variants = list(variants) if variants is not None else fitting_variants(board)
        self.menu_items = self.variants + list(SERVICE_ITEMS)
        # Outputs.
        self.frame = bytearray(n)
        self.roles = bytearray(n)
        self.alt = bytearray(b"\xff" * n)
        self.cnt = bytearray(n)
        self.blank = bytes(n)               # what lights.show() starts from
        self.steady = bytes(self.alt)
        self.rendered_beat = None           # the blink beat self.frame was drawn for (None: draw it again)
        self.faulty = False                 # some sensor is noisy or overruled (its cell shows FAULT)
        self._said = (bytearray(n), bytearray(n), bytearray(n))   # roles, alternates, counts the last `leds` said
        self.records = []
        self.outbox = []
        self.jobs = Jobs()                  # the work a scan leaves for later scans (jobs.py)
        self._lm = None                     # the last move journalled (its JSON form), for the end record
        self._cares = 0                     # how many times the sensors trusted changed
        self._mapped = bytearray(n)         # 1: a cell the game plays (gmap's board cells)
        self.service_request = None         # "self_test" or "calibrate" when the menu asks the app for it
        self.host_waiting = False           # the app: this scan answers the host, so it does no idle work
        self.idle_worked = False            # this scan did an idle job's work (the app collects after it)
        # The game.
        self.state = MENU_STATE
        self._back = None                   # the state the menu returns to
        self.game = None
        self.game_no = None
        self.variant = None
        self.options = {}
        self.ply = -1                       # journal ply of the game's last record
        self.next_game = next_game
        self.gmap = ()
        self.hints = s["hints"]
        self.brightness = s["brightness"]
        self.menu_index = self.variants.index(s["variant"]) if s["variant"] in self.variants else 0
        self.mismatch = False
        self.wrong = []                     # cells flashing during a mismatch
        self.trail = bytearray(n)           # turn over: seeds still to drop where sensors cannot see
        self.trail_lit = False
        self.placed = -1                    # placing: the cell of the placement just taken (lit READY)
        self.selected = 0                   # the alternative picked with hint at an unseen choice
        self.error_text = None
        self._resumed_setup = False
        self._back_from_error = MENU_STATE
        self._service_back = MENU_STATE
        self._hint_key = None
        self.hint_due = False             # a hint search waits for an idle scan (mismatch.py sets it too)
        self.hint_move = None
        self.hint_result = None
        self._tmp = [0] * n
        self.now = now_ms
        self._show()
        self.render(now_ms)

    # ================================================================ inputs

    def playing(self):
        """Whether this scan will play a finished move (the rules core, its journal record, its
        trace): the heaviest work a scan has, which the app does not add a request to."""
        job = self.jobs.scan_job()
        return job is not None and job[0] == PLAY

    def feed_observation(self, values, now_ms):
        """One scan of the sensors: a value per board cell (0/1 or a count; -1 unknown/hand; None unsensed)."""
        self.now = now_ms
        self._scanned(self.observer.feed(values, now_ms), now_ms)
        self.render(now_ms)

    def tick(self, now_ms):
        """Time passes with no new reading."""
        self.now = now_ms
        self.observer.moved = False
        self._scanned(self.observer.settle(now_ms), now_ms)
        return self.render(now_ms)

    def _scanned(self, changed, now):
        self.idle_worked = False
        if self.observer.events:
            mismatch.noise_events(self)   # which sensors count changes what agrees: look again
            changed = True
        jobs = self.jobs
        if changed:
            jobs.add(LOOK)
        job = jobs.scan_job()
        if job is None or job[0] == STILL:
            if not self._check_quiet(now) and not self.observer.moved and not self.host_waiting:
                # (Not while readings move: hands over the board, a scan's work is theirs; nor in
                # the scan that found the board quiet, and flagged it or took what was placed;
                # nor in one that answers the host: the reply and the messages an idle job makes
                # were the most a scan allocated.)
                self.idle_worked = self._idle()
            return
        kind = job[0]
        if kind <= SHOW_NEXT:
            # A move was just finished: its work comes first, a piece a scan; what the
            # sensors saw meanwhile is looked at once it is done.
            jobs.remove(job)
            self._work_due(kind, job[1])
        elif kind == PROGRESS:
            mv = job[1]
            if mv._walks is None or not mv.walk_lifted():   # (a walked turn: a piece of it first)
                jobs.remove(job)
                self._progress_now(mv)
        elif kind == LIGHTS:
            # The lights for what the last scan found come before anything new is looked at.
            self._refresh()
        else:
            jobs.remove(job)
            self._observed(now)

    def _idle(self):
        # Nothing happened: a good moment for the work a move's end leaves, one piece a
        # scan: the messages for the link, the next move's traces, then the hint search
        # (up to hint_ms).  True if it did any: the app collects the garbage after such a scan.
        mv = self.follower.mv
        jobs = self.jobs
        job = jobs.idle_job()
        sent = False
        while job is not None and job[0] == MESSAGE:
            jobs.remove(job)
            self.outbox.append(job[1])          # (a `move` message, made already: its text is made as it is sent)
            sent = True
            job = jobs.idle_job()
        if job is not None:
            if self._work(job, _STEPS_A_SCAN):
                jobs.remove(job)
            return True
        if mv is not None and mv.prebuild and mv.building():
            return mv.build_one() or sent
        if self.hint_due:
            self._update_hint()
            self._refresh()
            return True
        return sent

    def press(self, button, now_ms):
        """A button press: confirm, undo, hint, or menu (a long press on confirm)."""
        mv = self.jobs.drop(PROGRESS)
        if mv is not None:
            self._progress_now(mv)
        st = self.state
        if button == "confirm" and not self.jobs.moving() and (st == MOVE and not self.mismatch or st == SETUP):
            # The presses of every game: "I did what the lights show" and "the seeds are out".
            # Handled here, as a scan's work: a move they end is played, journalled and told
            # over the next scans, as one the sensors saw end, and the `state` message is made
            # in an idle scan (presses.press, for the other presses, does all of it at once).
            self.now = now_ms
            f = self.follower
            before = f.index
            if st == SETUP:
                mismatch.overrule(self, mismatch.setup_wrong(self))
                mismatch.start_play(self)      # (queues the state message)
                self.jobs.add(LIGHTS)   # (the first move's lights in the next scan: this one did enough)
            else:
                self._confirm()
                if f.index != before or self.jobs.moving():
                    self._state_later()
                self._refresh()
            self.render(now_ms)
            return
        if button == "hint" and st == MOVE and not self.jobs.moving() and not self.mismatch and self._selecting():
            # At a choice the sensors cannot tell apart: hint picks the next alternative.
            self.selected += 1
            self._refresh()
            self.render(now_ms)
            return
        presses.press(self, button, now_ms)

    def _confirm(self):
        """Confirm during a move: the steps the sensors cannot see are taken as made, up to the
        next one they can (or the move's end); at a choice they cannot tell apart, the
        alternative hint picked (ctl.selected) is taken, or the move ends there."""
        f = self.follower
        if f.mv is None:
            return
        run, seen, ends = f.forced_run(self.settings["lookahead"])
        k = len(run) - 1 if seen else len(run)
        if k:
            self._advance(run[:k])
        if seen or ends:
            self._progress()
            return
        alts = self._alternatives(0)
        stop = self._stop_possible(0)
        if self._selecting():
            n = len(alts) + (1 if stop else 0)
            pick = self.selected % n
            self.selected = 0
            if pick < len(alts):
                self._advance([alts[pick]])
                self._progress()
                return
        if stop:
            self._commit(None)   # the move ends here (what could follow is left undone)
            return
        self._progress()

    # ================================================================ the rarer calls

    def command(self, msg, now_ms=None):
        """A link request (a dict with "type"); returns the reply, {"type": "ok", ...} or
        {"type": "error", ...} (commands.py)."""
        return commands.command(self, msg, now_ms)

    def new_game(self, variant, options=None, pos=None):
        """Start a game (ends the one in progress in the journal); the board then shows the set-up."""
        return games.new_game(self, variant, options, pos)

    def set_position(self, pos):
        return games.set_position(self, pos)

    def resume(self, game_no, records, now_ms=None):
        """Rebuild a game from its journal records (after a reset); True when it could."""
        return games.resume(self, game_no, records, now_ms)

    def fail(self, text):
        """Something outside the controller failed (storage, a sensor bus): show the error pattern."""
        self._finish_due()
        if self.state != ERROR_STATE:
            self._back_from_error = self.state
        self.state = ERROR_STATE
        self.error_text = text
        self.log("error", text)
        self._refresh()

    def recover(self):
        if self.state == ERROR_STATE:
            self.state = getattr(self, "_back_from_error", MENU_STATE) or MENU_STATE
            self.error_text = None
            self._refresh()

    def enter_service(self, which):
        """The app runs self-test or calibration: the controller stands aside."""
        self._finish_due()
        self._service_back = self.state
        self.state = SELF_TEST if which == "self_test" else CALIBRATING
        self._refresh()

    def leave_service(self):
        self.state = getattr(self, "_service_back", MENU_STATE)
        if self.state in (SELF_TEST, CALIBRATING):
            self.state = MENU_STATE
        self._refresh()

    # ================================================================ messages

    def state_message(self):
        """The `state` message: what the board is doing."""
        g = self.game
        f = self.follower
        expect = None
        if g is not None and self.state in (MOVE, TURN_OVER) or self.mismatch:
            nxt = self._next_step()
            if nxt is not None:
                expect = [nxt.kind, nxt.pit, nxt.count, nxt.to]
        phase = "mismatch" if self.mismatch else self.state
        if phase == MENU_STATE and g is None:
            phase = "idle"
        if phase == MOVE and f.mv is not None and self._choice_here():
            phase = "choice"
        msg = {"type": "state", "game": self.game_no if g is not None else None,
               "variant": self.variant if g is not None else None,
               "pos": self._pos(g) if g is not None else None, "ply": self.ply if self.ply >= 0 else 0,
               "phase": phase, "expect": expect, "hint": self.hints, "brightness": self.brightness}
        if g is not None:
            msg["options"] = self.options
        if self.state == ERROR_STATE and self.error_text:
            msg["error"] = self.error_text     # (1.2) what the red flashing is about
        return msg

    def lit(self):
        """The cells lit and their roles, as the `leds` message says them."""
        return lights.lit(self)

    # ================================================================ the LED frame

    def render(self, now_ms, out=None):
        """The frame at time now_ms (blinking applied), into `out` or self.frame; True if self.frame changed."""
        return lights.render(self, now_ms, out)

    # ================================================================ internals: observations

    def _observed(self, now):
        st = self.state
        f = self.follower
        before = (f.index, f.mv, self.mismatch, self.wrong, self.trail_lit, self._cares)
        if st == SETUP:
            mismatch.setup_check(self)
        elif st in PLAY_STATES or st == PLACING:
            self._follow(now)
        if self.jobs.moving():
            return                  # (a move just finished: the next move's lights come with its work)
        if st in PLAY_STATES and self.state in PLAY_STATES:
            # The lights for the step the hands made, in the scan that saw it: the latency a
            # player sees (none when the look found nothing new: the hands are still under way).
            # After a lift seen alone they wait for what follows it (PROGRESS, the next scan):
            # until then the lights would show a step the move may pass over.
            if (f.index, f.mv, self.mismatch, self.wrong, self.trail_lit, self._cares) != before \
                    or self._partial_place() is not None:       # (seeds going in: how many are missing)
                if self.jobs.find(PROGRESS) is None:
                    self._refresh()
                else:
                    self.jobs.add(LIGHTS)
        else:
            self._refresh()         # (the set-up's lights too: what the hands put out, at once)

    def _check_quiet(self, now):
        """The STILL job done if the board is still now; True if it was."""
        job = self.jobs.find(STILL)
        if job is not None and (self.state in PLAY_STATES or self.state == PLACING) and self.observer.quiet(now):
            self.jobs.remove(job)
            if self.state == PLACING and job[1]:
                placement.take(self)
            else:
                mismatch.flag(self)
            self._refresh()
            return True

    def _follow(self, now, hold=False):
        """Find what the hands did; advance; or note that the board disagrees.  With `hold`
        (after an undo) what the sensors see is not taken for steps or placements: it only
        shows what to put right."""
        self.jobs.drop(LOOK)        # (what the sensors see now is looked at here)
        if self.state == PLACING:
            placement.look(self, now, hold)
            return
        f = self.follower
        obs = self.observer.stable
        self._unmask(obs)
        for _ in range(0 if hold else 8):   # a commit may uncover the next player's lift
            if f.mv is None:
                self._settled()
                return
            depth, steps, ambiguous = f.lookahead(obs, self.settings["lookahead"])
            if depth == 0:
                self._settled()
                return
            if depth is None:
                break
            if steps:
                self._advance(steps)
                if len(steps) == 1 and f.index == 1:
                    # A lift seen alone: what follows it is found in the next scan
                    # (_progress_now), then the lights, then a look again.  All in this
                    # one took a four-row game some 20 ms on an RP2040 (its turn walked).
                    self.jobs.add(PROGRESS, f.mv)
                    return
                self._progress()
                if self.jobs.moving():
                    self.jobs.add(LOOK)     # looked at again once the move is played
                    return
                self._unmask(obs)
                if not ambiguous and len(steps) == depth and not self.faulty:
                    # The board matches once these steps are made (so the look found them):
                    # the look again would find it so.
                    self._settled()
                    return
            if ambiguous:
                # The board matches more than one way the hands could have gone: wait.
                self._settled()
                return
        if f.mv is not None and f.bad(obs, f.counts) == 0:
            self._settled()
            return
        if f.mv is not None and self.state == MOVE:
            stop = f.next_lift_after_stop(obs) if f.mv.can_stop() else None
            if stop is not None:
                self._commit(None)
                self.jobs.add(LOOK)         # then the next player's lift
                return
            # Seeds put back where they were: the move in progress is taken back.
            start = f.load(self.game.cells(), self._tmp)
            if f.bad(obs, start) == 0:
                games.abandon_move(self, "the seeds are back where the move started", False)
                self._settled()
                return
        if self.mismatch:
            mismatch.flag(self)   # the cells at fault may have changed
        else:
            self.jobs.add(STILL, False)
            self._check_quiet(now)

    def _settled(self):
        self.jobs.drop(STILL)
        if self.mismatch:
            self.mismatch = False
            self.wrong = []
            self.log("info", "the board agrees again")
            self._send(self.state_message())

    def _partial_place(self):
        """On load cells, when the next step the sensors can see puts several seeds into a pit:
        (its board cell, the count before, the count after); else None.  A pit between the
        two is being filled: the lights count what is still missing, nothing flashes."""
        f = self.follower
        if not self.counting or f.mv is None or (f.index == 0 and f.mv.building()):
            return None
        run, seen, ends = f.forced_run(self.settings["lookahead"])
        if not seen:
            return None
        s = run[-1]
        c = self.gmap[s.pit] if s.pit >= 0 else -1
        if s.kind != "place" or s.count <= 1 or c < 0:
            return None
        had = f.ahead[c]        # what it holds after the steps before it, unseen
        return c, had, had + s.count

    def _unmask(self, obs):
        """An overruled sensor that agrees again is trusted again."""
        if not self.faulty:
            return              # no sensor is overruled (nor noisy)
        f = self.follower
        changed = False
        for c in range(self.cells):
            if self.masked[c] and obs[c] >= 0:
                k = f.counts[c]
                if (k == obs[c]) if self.counting else ((k > 0) == (obs[c] > 0)):
                    self.masked[c] = 0
                    changed = True
        if changed:
            mismatch.update_care(self)

    # ================================================================ internals: steps and moves

    def _advance(self, steps):
        """The hands made `steps` (a list): the follower goes on; the link hears of them in idle scans."""
        f = self.follower
        first = f.index
        f.advance_run(steps)
        if self.trail_lit:
            self._clear_trail()
        if self.state != MOVE:
            self.state = MOVE
        last = self.jobs.last()
        if not (last is not None and last[0] == STEPS and last[1].more(self.game_no, self.ply + 1, first, steps)):
            self.jobs.add(STEPS, StepMessages(self.game_no, self.ply + 1, first, steps, self.counting))

    def _progress(self):
        """After steps were made: pass markers, end the move if nothing more can come or be seen."""
        f = self.follower
        f.skip_markers()
        if f.mv.done():
            self._commit(None)
            return
        run, seen, ends = f.forced_run(self.settings["lookahead"])
        if seen or not ends or not run:
            return
        # The rest of the move is forced and the sensors cannot see any of it:
        # it is complete as far as the board can ever know.  Its drops stay lit.
        trail = self.trail
        for c in range(self.cells):
            trail[c] = 0
        for s in run:
            if s.kind == "drop":
                b = self.gmap[s.pit]
                if b >= 0 and trail[b] < 255:
                    trail[b] += 1
        self.trail_lit = True
        # Every trace still possible ends with this run, step for step: the move is the
        # first's (as MoveInProgress.move() would say once the run was made), and the
        # follower starts afresh after it, so the run's steps need not be walked.
        p = f.mv.paths()[0]
        self._commit(trail, p[0], p[1])

    def _progress_now(self, mv):
        """The _progress() a lift left for the next scan (_follow), unless the move is no longer
        the one in progress (taken back, a new game); the board is looked at again after."""
        if mv is self.follower.mv:
            self._progress()
            self.jobs.add(LOOK)

    def _commit(self, trail, move=None, trace=None):
        """The move is made: it is played, journalled, told to the link, and the next one
        expected over the next scans (_work_due)."""
        f = self.follower
        if move is None:
            move = f.mv.move()
            for p in f.mv.paths():
                if p[0] == move and len(p[1]) == f.index:
                    trace = p[1]
                    break
        self.jobs.add(PLAY, (trail, move, trace))

    def _work_due(self, kind, arg):
        """One piece of the work a finished move leaves, one piece a scan so that no scan takes
        long (a step of the hands and the move's end in one would): PLAY, the move made in the
        rules core, journalled, told to the link; NEXT_TURN, the next move expected (or the
        game's end); SHOW_NEXT, the lights for it.  Until then the lights stay as they were
        (some 60 ms)."""
        if kind == PLAY:
            trail, move, trace = arg
            g = self.game
            player = g.to_move
            # The move's trace is known already: the fast path makes the same move
            # without tracing it again (MoveInProgress.finish would play it traced).
            name = g.move_name(move)
            pd = self._digest()
            g.push(move)
            self._played(player, move, name, trace, pd)
            # The undo record the game would let go of at its next play (and after a capture
            # count its repetition positions again): let go in the first idle scan, before the
            # next move is traced (its steps played and taken back) in others.
            self.jobs.add(TRIM)
            self.jobs.add(NEXT_TURN, trail)
        elif kind == NEXT_TURN:
            self.follower.start(self.game, self.gmap)
            self.selected = 0
            if arg is None:
                self._clear_trail()
            self._next_turn(arg)
            self.jobs.add(SHOW_NEXT)
        else:
            self._refresh()
            self.jobs.add(LOOK)     # the board is looked at again: the next player may have begun

    def _finish_due(self):
        """The work a lift or a finished move leaves, all of it now (a button, a link request)."""
        jobs = self.jobs
        mv = jobs.drop(PROGRESS)
        if mv is not None:
            self._progress_now(mv)
        while jobs.moving():
            job = jobs.scan_job()
            jobs.remove(job)
            self._work_due(job[0], job[1])

    def _digest(self):
        """The digest of the game's position (journal.digest), taken before a move is played."""
        g = self.game
        return digest(g.pits, g.stores, g.to_move)

    def _played(self, player, move, name, trace, pd):
        """Journal a move played and tell the link (its trace: the Steps the hands made).  `pd`:
        the digest of the position it was played from, which lets the journal rebuild the move
        before it from this record if a damaged byte ever takes that one (journalmend.py)."""
        rec = {"kind": "move", "player": player, "move": move_json(move), "name": name, "pd": pd}
        self._lm = rec["move"]
        self._record(rec)
        self.follower.only = None       # a guided move is made: the next may be any
        # Sent in an idle scan, after the `step` events of the move.
        self.jobs.add(MESSAGE, {"type": "move", "game": self.game_no, "ply": self.ply, "player": player,
                            "move": rec["move"], "name": name,
                            "trace": trace if len(trace) <= _MAX_TRACE_STEPS else None, "pos": self._pos(self.game)})

    def _next_turn(self, trail=None):
        """After a move: the game's end, or the next player's turn."""
        g = self.game
        if g.is_over():
            o = g.outcome()
            # The final position's digest and the last move: where the game's end leaves the same
            # position after several last moves, they let the journal rebuild that one (journalmend.py).
            self._record({"kind": "end", "winner": o.winner, "scores": list(o.scores), "reason": o.reason,
                          "pd": self._digest(), "lm": self._lm})
            self.state = OVER
            self._state_later()
        else:
            self.state = TURN_OVER if trail is not None else self._await_state()
            self.hint_due = self.hints      # searched while the board is idle, not in this step

    # ================================================================ internals: the next step

    def _await_state(self):
        return PLACING if placing(self.game) else AWAIT

    def _next_step(self):
        f = self.follower
        if f.mv is None:
            return None
        opts = f.first_steps() if f.index == 0 else f.mv.options()
        return opts[0] if opts else None

    def _choice_here(self):
        run, seen, ends = self.follower.forced_run(self.settings["lookahead"])
        return not seen and not ends and len(self._alternatives(len(run))) > 1

    def _alternatives(self, ahead):
        """The distinct steps that may come `ahead` steps from now (where the traces part)."""
        f = self.follower
        j = f.index + ahead
        out = []
        for p in f.mv.paths():
            st = p[1]
            if j < len(st) and st[j] not in out:
                out.append(st[j])
        return out

    def _stop_possible(self, ahead):
        f = self.follower
        j = f.index + ahead
        for p in f.mv.paths():
            if len(p[1]) == j:
                return True
        return False

    def _selecting(self):
        """At a choice whose alternatives the sensors cannot tell apart: hint picks one, confirm takes it."""
        f = self.follower
        if f.mv is None or f.index == 0:
            return False
        run, seen, ends = f.forced_run(self.settings["lookahead"])
        if ends or seen:
            return False
        tmp = f.ahead           # the board after the run (no step of it is seen)
        # Any alternative the sensors cannot see makes it a pick: the hands cannot
        # show that one, so hint picks it and confirm takes it (a visible one may
        # still simply be done).
        for s in self._alternatives(len(run)):
            if not f.visible(tmp, s):
                return True
        return False

    # ================================================================ internals: hints

    def _update_hint(self):
        """A new hint search, when hints are shown (hint.py)."""
        self.hint_due = False
        if self.hints and self.game is not None:
            hint.update_hint(self)

    def _hint_cell(self):
        m = self.hint_move
        if m is None or self._hint_key != (self.game_no, self.ply):
            return -1
        pit = m if isinstance(m, int) else m[0]
        if isinstance(pit, int) and 0 <= pit < len(self.gmap):
            return self.gmap[pit]
        for p in self.follower.ready().paths():
            if p[0] == m:
                return self.gmap[p[1][0].pit] if p[1] else -1
        return -1

    # ================================================================ internals: showing it

    def _refresh(self):
        self.jobs.drop(LIGHTS)
        self._show()
        said = self._said
        if said[0] != self.roles or said[1] != self.alt or said[2] != self.cnt:
            said[0][:] = self.roles
            said[1][:] = self.alt
            said[2][:] = self.cnt
            # Said in an idle scan (what is lit then: a later change in between is said once).
            last = self.jobs.last()
            if last is None or last[0] != LEDS:
                self.jobs.add(LEDS)

    def _show(self):
        lights.show(self)

    # ================================================================ small helpers

    def _clear_trail(self):
        if self.trail_lit:
            self.trail[:] = self.blank
            self.trail_lit = False

    def _record(self, rec):
        self.ply += 1
        rec["game"] = self.game_no
        rec["ply"] = self.ply
        if self.clock is not None:
            t = self.clock()
            if t is not None:
                rec["t"] = t
        self.records.append(rec)

    def _pos(self, g):
        return {"pits": g.pits, "stores": g.stores, "to_move": g.to_move}

    def _send(self, msg):
        """Queue a message for the link, after any still being finished (they keep their order)."""
        self._flush_idle()
        self.outbox.append(msg)

    def _state_later(self):
        """Queue the `state` message, made in an idle scan (after the messages before it), unless
        one is queued already (it is made from what the board is doing when its turn comes)."""
        if self.jobs.find(STATE) is None:
            self.jobs.add(STATE)

    def _flush_idle(self):
        jobs = self.jobs
        job = jobs.idle_job()
        while job is not None:
            jobs.remove(job)
            self._work(job, 1 << 30)
            job = jobs.idle_job()

    def _work(self, job, most):
        """Do (some of) an idle job: make a queued message, or let go of the game's spare undo
        record; True once it is done."""
        kind = job[0]
        if kind == TRIM:
            limit = getattr(self.game, "limit_undo", None)
            if limit is not None:
                limit(UNDO_MOVES)       # (the one record kept spare since the last call goes)
        elif kind == LEDS:
            self.outbox.append({"type": "leds", "lit": self.lit(), "game": self.game_no})
        elif kind == STATE:
            self.outbox.append(self.state_message())
        elif kind == MESSAGE:
            self.outbox.append(job[1])  # (a `move` message)
        else:
            return job[1].work(self, most)
        return True

    def log(self, level, text):
        self._send({"type": "log", "level": level, "msg": text})

