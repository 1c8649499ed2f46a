"""`sowlight play` on a board: the live board in the terminal, moves typed or made by hand.

The board (found by its USB ids, or --port/--url; a virtual board when none is
attached) is drawn after every change: seeds per pit, what each pit's LED
asks for, whose turn it is, the hint.  At the prompt:

- a pit name: that move.  On a virtual board robot hands (sowlight.simulation.robot) carry it
  out step by step as the LEDs show; on a real board the steps are told and
  the player moves the seeds -- the screen follows the board.
- `lift a1`, `drop b2`, `take c1 [to PIT|off]`, `add PIT N`, `remove PIT [N]`,
  `confirm`: be the hands on a virtual board, one act at a time; the board
  judges each act as it would a person's (a wrong one flashes).
- `undo`, `hint`, `new VARIANT`, `board`, `moves`, `help`, `quit`.

The computer (`--computer P`, or --vs computer) plays a side with the search
of `sowlight hint`: on a virtual board its hands play it; on a real board its
move is lit as the board's hint for a person to carry out.  The game is
archived as it goes: the board's journal is synced after each move
(docs/protocol.md, "Journal sync").
"""
import queue
import random
import sys
import threading
import time

import mancala

from sowlight.games import archive
from sowlight.terminal import harmless
from sowlight.board import link
from sowlight.board import ports
from sowlight.terminal import render
from sowlight.terminal.screen import open_screen
from sowlight.board.view import BoardViewError, RealSeeds, game_of, open_board, steps_of
from sowlight.play import computer_move, open_archive
from sowlight.simulation.robot import Robot, RobotError
from sowlight.games.sync import SyncError, sync

HELP = """Type a pit name to make that move (on a virtual board the robot's hands carry it out as the
LEDs show; on a real board move the seeds yourself: the screen follows). Or be the hands:
  lift PIT      take every seed of a pit into the hand
  drop PIT [N]  drop one seed (or N) from the hand into a pit
  take PIT [to PIT|off]   a capture: the seeds of a pit to a store (or off the board)
  add PIT N / remove PIT [N]   seeds from / back to the bag (setting out)
  confirm       press confirm: done what the lights show
and: undo (take back), hint (the board's hint on/off), new VARIANT, moves, board, help, quit.
Under each pit, what its LED asks for:"""

_EOF = object()
SETTLE_S = 1.5      # a board flags a wrong act after 0.8 s of stillness (controller settle_ms): a margin


class _Lines:
    """Lines typed, read in a thread of their own so that the board is followed meanwhile."""

    def __init__(self, read):
        self.read = read
        self.q = queue.Queue()
        self.thread = threading.Thread(target=self._run, name="sowlight-play-input", daemon=True)
        self.thread.start()

    def _run(self):
        while True:
            try:
                line = self.read("")
            except BaseException:      # end of input, Ctrl-C, or input that cannot be read: the game stops
                self.q.put(_EOF)
                return
            self.q.put(line)

    def get(self, timeout):
        try:
            return self.q.get(timeout=timeout)
        except queue.Empty:
            return None


class BoardGame:
    """The game on a board, with its input and output given (so it can be scripted)."""

    def __init__(self, conn, variant=None, options=None, computer=(), depth=6, read=input, out=None,
                 err=sys.stderr, store=None, seed=None, screen=None, names=(), resume=None, wait=10.0):
        self.conn = conn
        self.view = conn.view
        self.variant = variant
        self.options = dict(options or {})
        self.computer = set(computer)
        self.depth = depth
        self.names = list(names)   # the players' names given (--names), by player
        self.resume = resume       # an archived game to play on (--game): the rules core's game
        self.wait = wait           # seconds the board may be gone before it is said
        self.down_since = None     # when the link went down (time.monotonic()), while it is
        self.gone_told = False
        self.redraw = False        # the board came back or restarted: look at it again
        self.calm_phase = None     # the phase shown last that was not a mistake flagged
        self.screen = screen if screen is not None else open_screen(read, out)
        self.err = err
        self.store = store
        self.rng = random.Random(seed)
        self.robot = None
        self.lines = None
        self.reports = []          # `move` events not yet told
        self.hand_acts = []        # what the robot's hands did for the move being made
        self.archived = None       # (archive game number, path) once synced
        self.announced = None      # the (game, ply) whose computer move was announced
        self._unseen = (None, {})  # (view.leds_seen, {cell: seeds}): drops the sensors cannot see, typed since
        self.view.watchers.append(self._event)

    # ----- output -----------------------------------------------------------------------------

    def say(self, text=""):
        # What the board sends (its messages, its errors) is said here too: made harmless.
        self.screen.say(harmless.text(text, lines=True))

    def show(self, final=False):
        view = self.view
        state = view.state
        game = view.game(state)
        if game is None:
            self.say("the board has no game: type `new oware` (or another variant)")
            return
        roles = view.roles_by_game_cell(game)
        phase = state.get("phase")
        if phase != "mismatch":
            self.calm_phase = phase
        if phase in ("await_lift", "turn_over"):
            # The pit a seed went into unseen keeps blinking that (the `leds` message names only
            # the trail) while it is one the player to move may lift: say both.
            starts = set(m if isinstance(m, int) else m[0] for m in game.legal_moves()
                         if isinstance(m, int) or (isinstance(m, tuple) and m and isinstance(m[0], int)))
            roles = {c: ("lift_trail", 1) if r == "trail" and c in starts else (r, k) for c, (r, k) in roles.items()}
        shown = [r for r, _ in roles.values()]
        if "drop" in shown and "trail" in shown:
            # The board lights the next drop its sensors will see; the unseen ones come first.
            roles = {c: ("drop_after" if r == "drop" else r, k) for c, (r, k) in roles.items()}
        if phase == "over":
            # The board lights the winner's pits in the player's colour: not a pit to lift now.
            roles = {c: ("won" if r == "lift" else r, k) for c, (r, k) in roles.items()}
        counts = view.counts_by_game_cell(game) if self.robot is not None else None
        lines = list(render.board(game, roles, counts))
        extra = []
        if view.seeds is not None and view.seeds.get("hand"):
            extra.append("in the hand: %d" % view.seeds["hand"])
        if state.get("hint"):
            extra.append("hints on")
        hand = view.seeds.get("hand") if view.seeds is not None else None
        if phase == "sowing" and not hand and "trail" in [r for r, _ in roles.values()] \
                and not [r for r, _ in roles.values() if r in ("drop", "take", "relay", "choice", "error")]:
            # The board cannot see the seeds marked t go in: it waits to be told.
            extra.append("the seeds marked t are in? then press confirm (%s)"
                         % ("type `confirm`" if view.virtual else "the board's button"))
        if phase not in ("await_lift", "turn_over", "sowing"):
            extra.append({"choice": "a choice: do one of the steps marked ?",
                          "mismatch": "the board flags a mistake: put it right (or undo)",
                          "setup": "setting out the seeds", "over": "game over"}.get(phase, phase))
        if extra:
            lines.append("        " + "; ".join(extra))
        shown = [r for r, _ in roles.values()]
        lines.extend("        " + line for line in render.legend(shown))
        self.screen.show(lines, final=final)

    def _event(self, kind, p):
        if kind == "move":
            self.reports.append(p)
        elif kind == "log" and p.get("level") in ("warn", "error"):
            self.say("board: %s" % self.named(str(p.get("msg"))))
        elif kind == link.LINK and p.get("status") == "down":
            self.say("the link to the board is down (%s): waiting for it" % p.get("reason"))
            self.down_since = time.monotonic()
            self.gone_told = False
        elif kind == link.LINK and p.get("status") == "up":
            if self.down_since is not None:
                self.say("the board is back")
            self.down_since = None
            self.redraw = True
        elif kind == link.LINK and p.get("status") == "board_restarted":
            self.say("the board restarted: its game is read again from its journal")
            self.redraw = True

    def tell_moves(self):
        """Say the moves the board made since last told, sync them into the archive, show the
        board; False when there was none."""
        if not self.reports:
            return False
        game = self.view.game()
        while self.reports:
            m = self.reports.pop(0)
            who = "computer (player %d)" % m["player"] if m["player"] in self.computer else "player %d" % m["player"]
            self.say("")
            self.say("%s plays %s" % (who, m.get("name") or m["move"]))
            if self.hand_acts:
                self.say("  the hands: " + ", ".join(self.hand_acts))
                del self.hand_acts[:]
            if m.get("trace") and game is not None:
                for line in render.describe(game, steps_of(m["trace"])):
                    self.say("  " + line)
        self.archive()
        self.view.refresh()
        self.show()
        return True

    def archive(self):
        if self.store is None:
            return
        if self.down_since is not None:
            self.err.write("sowlight play: not archived yet: the board is not connected (its journal keeps the "
                           "game): run `sowlight sync` when it is back\n")
            return
        try:
            sync(self.conn.link, self.store)
        except (SyncError, archive.ArchiveError) as e:
            self.err.write("sowlight play: not archived yet (the board's journal keeps it): %s\n" % harmless.text(e))
            return
        state = self.view.state or {}
        for g in self.store.games(board=self.view.board_id):
            if g["board_game"] == state.get("game"):
                self.archived = (g["number"], self.store.path)
                names = self.player_names(len(g["players"]))
                if g["players"] != names and (self.names or all(p == "?" for p in g["players"])):
                    # The journal does not hold who played: the archive hears it from here.
                    self.store.set_players(g["number"], names)

    def player_names(self, players):
        """Who plays each side: the name given (--names), else the computer or a person."""
        return [self.names[p] if p < len(self.names) and self.names[p]
                else "computer (depth %d)" % self.depth if p in self.computer else "human" for p in range(players)]

    # ----- the loop -----------------------------------------------------------------------------

    def run(self):
        with self.screen:
            return self._run()

    def _run(self):
        view = self.view
        if view.virtual:
            self.robot = Robot(view, rng=self.rng, say=self.hand_acts.append)
        self.say("%s - type help for commands" % view.describe())
        self.lines = _Lines(self.screen.read)
        state = view.look()
        if self.resume is not None:
            if not self.resume_game(self.resume):
                return 1
        elif self.variant or state.get("game") is None or state.get("phase") == "over":
            if not self.new_game(self.variant or "oware", self.options):
                return 1
        else:
            self.say("the game in progress: board game %d, %s (ply %d)" % (state["game"], state["variant"], state["ply"]))
            self.set_up()
        self.show()
        while True:
            self.tell_moves()
            state = view.refresh()
            if state.get("phase") == "over":
                game = view.game(state)
                self.show(final=True)
                self.say(render.outcome(game))
                return 0
            pos = state.get("pos") or {}
            player = pos.get("to_move")
            if player in self.computer and state.get("phase") in ("await_lift", "turn_over", "placing"):
                if not self.computer_turn(state):
                    return 1
                continue
            line = self.wait_line("player %s> " % player)
            if line is _EOF:
                self.say("")
                self.say("input ended: game stopped (%d moves played)" % self.moves_played())
                return 1
            if line is None:
                continue
            try:
                if not self.command(line.strip()):
                    return 1
            except RealSeeds as e:
                self.say(str(e))
            except RobotError as e:
                self.say("the hands stopped: %s" % e)
                self.say("(undo takes the move back; or be the hands: lift, drop, take, confirm)")
            except link.BoardError as e:
                self.say("the board says no: %s" % self.named(e.msg))

    def wait_line(self, prompt):
        """The next line typed; meanwhile the board is followed (and drawn when it changes)."""
        self.screen.prompt(prompt)
        seen = self.view.leds_seen
        moves = len(self.view.moves)
        while True:
            line = self.lines.get(0.05)
            if line is not None:
                return line
            self.view.pump()
            if self.down_since is not None and not self.gone_told and time.monotonic() - self.down_since > self.wait:
                self.gone_told = True
                self.say("the board has been gone for %.0f s: the game is kept in its journal. Plug it back in "
                         "(the game goes on here), or quit: `sowlight play` goes on with it later" % self.wait)
            if self.redraw and self.down_since is None:
                # Back, or restarted: what it shows now, not the picture from before.
                self.redraw = False
                try:
                    self.view.look()
                except link.LinkError:
                    self.redraw = True
                    continue
                self.say("")
                self.show()
                return None
            if len(self.view.moves) != moves or self.view.leds_seen != seen:
                # The board changed by itself (hands on a real board): show it, ask again.
                self.view.refresh()
                self.say("")
                if not self.tell_moves():
                    self.show()
                return None

    def moves_played(self):
        state = self.view.state or {}
        game = self.view.game(state)
        return len(game.moves_played()) if game is not None else 0

    def command(self, text):
        """Handle one line; False means stop."""
        if not text:
            return True
        word, _, rest = text.partition(" ")
        word = word.lower()
        rest = rest.strip()
        if word in ("quit", "exit", "q"):
            self.say("game stopped (%d moves played)" % self.moves_played())
            return False
        if word == "help":
            self.say(HELP)
            for line in render.legend(render.MARKS):
                self.say("  " + line)
        elif word == "board":
            self.view.look()
            self.show()
        elif word == "moves":
            game = self.view.game()
            self.say("legal moves: " + " ".join(game.move_name(m) for m in game.legal_moves()))
        elif word == "hint":
            self.toggle_hint()
        elif word == "undo":
            self.undo()
        elif word == "new":
            self.new_game(rest or self.variant or "oware", {} if rest else self.options)
            self.show()
        elif word == "confirm":
            self.hands_press("confirm")
        elif word in ("lift", "drop", "take", "add", "remove"):
            self.hands(word, rest)
        else:
            self.play(text)
        return True

    # ----- commands ---------------------------------------------------------------------------

    def new_game(self, variant, options):
        try:
            reply = self.conn.link.request("new_game", {"variant": variant, "options": options})
        except link.BoardError as e:
            self.say("no new game: %s" % self.named(e.msg))
            for line in _countable_ways(variant, options):
                self.say("  " + line)
            return False
        self.say("new game %d: %s" % (reply["game"], variant))
        self.view.refresh()
        self.set_up()
        return True

    def resume_game(self, game):
        """An archived game played on: a new game on the board, set to its position."""
        try:
            reply = self.conn.link.request("new_game", {"variant": game.id, "options": dict(self.options)})
            self.view.refresh()
            self.set_up()
            pos = {"pits": list(game.pits), "stores": list(game.stores), "to_move": game.to_move}
            self.conn.link.request("set_pos", {"pos": pos})
        except link.BoardError as e:
            self.say("cannot play it on this board: %s" % self.named(e.msg))
            return False
        self.say("board game %d: %s set to the archived game's position after %d moves" % (reply["game"], game.title,
                                                                                            game.ply))
        self.view.refresh()
        self.lay_out("the hands set the seeds out as the position has them", lambda: self.robot.put_right(),
                     "set the seeds out as the picture shows (the LEDs flag a pit that is not right), then play on")
        return True

    def lay_out(self, hands_say, hands_do, person_say):
        """Seeds to set out: the robot's hands do it on a virtual board, a person on a real one."""
        if self.robot is not None:
            self.say(hands_say)
            hands_do()
            del self.hand_acts[:]
        else:
            self.say(person_say)

    def set_up(self):
        state = self.view.look()
        if state.get("phase") != "setup":
            return
        self.lay_out("the hands set the seeds out as the LEDs ask", lambda: self.robot.set_up(),
                     "set the seeds out as the LEDs show (+ put seeds in, - take seeds out), then press confirm")

    def play(self, text):
        view = self.view
        game = view.game()
        if game is None:
            self.say("no game in progress: type `new oware` (or another variant)")
            return
        try:
            move = game.parse_move(text)
            trace = game.copy().play(move)      # the rules say why a move is not legal
        except mancala.IllegalMoveError as e:
            self.say("not played: %s. Legal moves: %s" % (e, " ".join(game.move_name(m) for m in game.legal_moves())))
            return
        except mancala.RulesError as e:
            self.say("not played: %s" % e)
            return
        if self.robot is None:
            self.say("move %s: %s" % (game.move_name(move), "; ".join(render.describe(game, trace))))
            self.say("(carry it out on the board: its LEDs show each step)")
            return
        self.robot.play_move(move)

    def computer_turn(self, state):
        game = self.view.game(state)
        player = game.to_move
        move = computer_move(game, self.depth)
        if self.robot is not None:
            self.robot.play_move(move)
            return True
        # A real board: the computer's move is the board's hint, for a person to carry out.
        key = (state.get("game"), state.get("ply"))
        if self.announced != key:
            self.announced = key
            if not state.get("hint"):
                self.conn.link.request("hint", {"on": True})
            self.view.wait_for(lambda: bool(self.view.cells("hint")), 5.0)
            self.view.refresh()
            hint = self.view.cells("hint")
            gmap = self.view.cells_of(game)
            if hint and hint[0] in gmap:
                pit = gmap.index(hint[0])
                self.say("computer (player %d): its move is the board's hint, %s: carry it out"
                         % (player, render.cell_name(game, pit)))
            else:
                self.say("computer (player %d) plays %s: carry it out on the board" % (player, game.move_name(move)))
            self.show()
        line = self.wait_line("(the computer's move, on the board) > ")
        if line is _EOF:
            return False
        if line is not None and line.strip():
            return self.command(line.strip())
        return True

    def toggle_hint(self):
        state = self.view.refresh()
        on = not state.get("hint")
        seen = self.view.leds_seen
        self.conn.link.request("hint", {"on": on})
        if on:
            self.view.wait_for(lambda: self.view.leds_seen > seen and self.view.cells("hint"), 3.0)
        self.view.refresh()
        game = self.view.game()
        hint = self.view.cells("hint")
        gmap = self.view.cells_of(game) if game is not None else []
        if on and hint and hint[0] in gmap:
            self.say("hint on: the board suggests %s (lit, H on the screen)" % render.cell_name(game, gmap.index(hint[0])))
        else:
            self.say("hint %s" % ("on" if on else "off"))

    def undo(self):
        view = self.view
        state = view.refresh()
        if state.get("phase") == "mismatch" and self.calm_phase not in ("sowing", "choice"):
            # A mistake before any move began (a pit lifted that may not be): the board's undo
            # would take back the move before it; putting the seeds right is what undoes it.
            if self.robot is not None:
                self.robot.put_right()
                del self.hand_acts[:]
                self.say("the mistake taken back: the hands put the seeds back")
            else:
                self.say("put the seeds back where the lights show (the board flags what is not right yet)")
            view.refresh()
            self.show()
            return
        if state.get("phase") in ("sowing", "choice", "mismatch"):
            view.press("undo") if view.has_sim() else self.conn.link.request("undo")
            what = "the move in progress taken back"
        else:
            try:
                self.conn.link.request("undo")
            except link.BoardError as e:
                self.say("nothing to take back (%s)" % self.named(e.msg))
                return
            state = view.refresh()
            # Against the computer, back to a human's turn.
            while self.computer and (state.get("pos") or {}).get("to_move") in self.computer:
                try:
                    self.conn.link.request("undo")
                except link.BoardError:
                    break
                state = view.refresh()
            what = "taken back"
        if self.robot is not None:
            self.robot.put_right()
            del self.hand_acts[:]
            self.say("%s: the hands put the seeds back" % what)
        else:
            self.say("%s: put the seeds back where the lights show" % what)
        view.refresh()
        self.archive()
        self.show()

    def hands_press(self, button):
        if self.robot is None:
            self.view.press(button)
        else:
            self.robot.press(button)
            del self.hand_acts[:]
        self.after_act()

    def hands(self, act, rest):
        """One act of the hands on a virtual board, named by pit: lift a1, drop b2 3, take c1 to store 0."""
        view = self.view
        if not view.virtual:
            raise RealSeeds("this board has real seeds: move them by hand, the screen follows")
        game = view.game()
        words = rest.split()
        if not words:
            self.say("%s which pit? e.g. `%s %s`" % (act, act, game.move_name(game.legal_moves()[0]) if game else "A"))
            return
        try:
            cell, more = self.cell_words(game, words)
            fields = {"cell": cell}
            if act == "take":
                if more and more[0].lower() == "to":
                    more = more[1:]
                if more and more[0].lower() in ("off", "out"):
                    fields["to"] = -1
                elif more:
                    fields["to"], more = self.cell_words(game, more)
                else:
                    fields["to"] = self.take_to(game)
                if more:
                    raise ValueError("take names a pit, then where to: `take %s to store %d` (or `off`)"
                                     % (words[0], game.to_move))
            elif more:
                if not more[0].isdigit() or int(more[0]) < 1:
                    raise ValueError("%s takes a number of seeds after the pit, like `%s %s 2`" % (act, act, words[0]))
                fields["n"] = int(more[0])
        except ValueError as e:
            self.say(str(e))
            return
        seen = view.leds_seen
        unseen = act == "drop" and self.robot is not None and not self.robot._sees_drop(cell)
        lit = (view.lit or {}).get(cell, ("", 0))[0]
        try:
            view.sim(act, **fields)
        except link.BoardError as e:
            self.say("the hands cannot: %s" % self.named(e.msg))
            return
        if unseen:
            if self._unseen[0] != seen:
                self._unseen = (seen, {})
            done = self._unseen[1]
            done[cell] = done.get(cell, 0) + 1
            want = (view.lit or {}).get(cell, ("", 0))
        if unseen and (lit not in ("drop", "trail", "need") or lit == "trail" and done[cell] > want[1]):
            # The board cannot flag what its sensors cannot see: say it here.
            self.say("the sensors cannot see a seed dropped into %s (it holds seeds already), and the lights "
                     "asked for no more there: the board goes on as if it had not happened (undo puts it right)"
                     % self.robot.name(cell))
        # The board answers what it sees at once, and flags what it did not expect once the
        # board has been still a moment (settle_ms): wait for either.
        view.wait_for(lambda: view.leds_seen > seen, 0.1 if unseen else SETTLE_S)
        self.after_act()

    def take_to(self, game):
        """Where `take PIT` puts the seeds when not told: where the LEDs say (`dest`), else the
        store of the player to move."""
        dest = self.view.cells("dest")
        if dest:
            return dest[0]
        c = self.view.cells_of(game)[game.store(game.to_move)]
        if c < 0:
            raise ValueError("this board has no store for player %d: say where the seeds go, "
                             "`take PIT to PIT` or `take PIT off`" % game.to_move)
        return c

    def after_act(self):
        self.view.refresh()
        if self.view.cells("error"):
            self.say("the board flashes: not what it expected (put it right, or undo)")
        if not self.tell_moves():
            self.show()

    def cell_words(self, game, words):
        """(board cell, the words left) of a cell named at the start of `words`: a pit name,
        or a store: `store 0`, `store0`, or `store` (the player to move's)."""
        first = words[0]
        if first.lower().startswith("store"):
            number = first[5:]
            rest = words[1:]
            if not number and rest and rest[0].isdigit():
                number, rest = rest[0], rest[1:]
            return self.cell(game, "store %s" % (number if number else game.to_move)), rest
        return self.cell(game, first), words[1:]

    def cell(self, game, name):
        """The board cell of a pit name (or 'store 0')."""
        gmap = self.view.cells_of(game)
        text = name.strip()
        stores = ["store %d" % p for p in range(game.players) if gmap[game.store(p)] >= 0]
        if text.lower().startswith("store"):
            try:
                p = int(text[5:].strip())
                c = gmap[game.n_pits + p] if 0 <= p < game.players else -1
            except (ValueError, IndexError):
                c = -1
            if c < 0:
                raise ValueError("there is no %s on this board%s" % (text, ": its stores are " + ", ".join(stores)
                                                                     if stores else " (it has no stores)"))
            return c
        for i in range(game.n_pits):
            if render.cell_name(game, i) == text:
                if gmap[i] < 0:
                    break
                return gmap[i]
        raise ValueError("%r is not a pit of %s: the pits are %s%s"
                         % (text, game.title, " ".join(render.cell_name(game, i) for i in range(game.n_pits)),
                            ", and " + ", ".join(stores) if stores else ""))

    def named(self, text):
        """A board's message with its cell numbers said as the game's pit names ("cell 3" -> "D")."""
        import re
        text = harmless.text(text)
        state = self.view.state
        if not state or state.get("game") is None or not state.get("pos"):
            return text                  # no game: no names
        try:
            game = game_of(state)        # names only: no journal to read (this may run amid events)
        except (AttributeError, KeyError, TypeError, ValueError, mancala.RulesError):
            return text
        gmap = self.view.cells_of(game)

        def name(m):
            c = int(m.group(1))
            return render.cell_name(game, gmap.index(c)) if c in gmap else m.group(0)
        return re.sub(r"\bcell (\d+)", name, text)


def _countable_ways(variant, options):
    """A game that begins with seeds placed in uncounted handfuls, refused by a board that cannot
    count them: the command lines that play it (options that set the seeds out otherwise, a
    virtual board with load cells)."""
    import os
    from sowlight_fw.follow import placing
    from sowlight.hardware.presets import CHECKOUT_EXAMPLES
    try:
        game = mancala.Game(variant, **options)
    except mancala.RulesError:
        return []
    if not placing(game):
        return []
    out = []
    for name, default, choices in getattr(game, "options", ()):
        for value in choices if isinstance(choices, tuple) else ():
            if value == default or value == options.get(name):
                continue
            try:
                if not placing(mancala.Game(variant, **dict(options, **{name: value}))):
                    out.append("the seeds set out by the rules instead: sowlight play -v %s -o %s=%s"
                               % (game.id, name, value))
            except mancala.RulesError:
                pass
    example = os.path.join(CHECKOUT_EXAMPLES, "2x6-stores-hx711.json")
    if os.path.isfile(example):
        out.append("or on a virtual board with load cells: sowlight play -v %s --virtual --preset %s" % (game.id, example))
    else:
        out.append("or on a board with load cells (a config with `hx711` sensors: --preset FILE for a virtual one)")
    return out


def run(args, options, computer, resume=None):
    """`sowlight play` with a board (sowlight.play parses the command line)."""
    store = None
    if not args.no_archive:
        store = open_archive(args.db)
        if store is None:
            return 1
    try:
        try:
            conn = open_board(port=args.port, url=args.url, vid=args.vid, pid=args.pid, wait=args.wait,
                              virtual="always" if args.virtual else "auto", variant=args.variant or "oware",
                              preset=args.preset, say=lambda text: print(harmless.text(text)))
        except (ports.PortError, link.LinkError) as e:
            print("sowlight play: %s" % harmless.text(e), file=sys.stderr)
            return 1
        try:
            bg = BoardGame(conn, variant=args.variant, options=options, computer=computer, depth=args.depth,
                           store=store, seed=args.seed, names=args.names or (), resume=resume, wait=args.wait)
            try:
                status = bg.run()
            except (BoardViewError, link.LinkError) as e:
                print("sowlight play: %s" % harmless.text(e), file=sys.stderr)
                return 1
            except KeyboardInterrupt:
                # Ctrl-C, maybe amid a move of the hands: what the board journalled is still
                # archived below (a virtual board's journal goes when it stops).
                bg.say("")
                bg.say("interrupted: game stopped (the move being made is not finished)")
                status = 130
            bg.archive()
        finally:
            conn.close()
    finally:
        if store is not None:
            store.close()
    if bg.archived is not None:
        print("saved as game %d in %s (sowlight games show %d)" % (bg.archived[0], bg.archived[1], bg.archived[0]),
              file=sys.stderr)
    return status
