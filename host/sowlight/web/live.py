"""The live board for the browser: what the connected board shows, as snapshots pushed to viewers.

    live = LiveBoard(conn)              # a boardview.Connection, or None: "no board"
    live.start(loop)                    # follows the board in a thread of its own
    q = live.subscribe()                # an asyncio.Queue of snapshots (dicts), the latest first
    live.stop()

A snapshot is the board as it is: the game's layout (web/board.py), the seeds
in each cell, each cell's LED role, whose turn, the phase, the hint.  It is
made from what the board publishes (docs/protocol.md: `state`, `leds`, `move`,
`step`), so it follows the hands step by step: each `step` event (a lift or a
drop the sensors saw) narrows the moves the hands may be making to those whose
trace has that step there, and the seeds are shown as that trace leaves them
(the board itself does the same with mancala.MoveInProgress).

With `demo`, robot hands (sowlight.simulation.robot) play games on a virtual board one after
another, `pace` seconds between moves; they drive the view, so this module
then takes the events in their thread rather than pumping the link itself.
"""
import asyncio
import random
import threading
import time

import mancala
from mancala.search import best_move

from sowlight.games import archive as _archive
from sowlight.board import link as _link
from sowlight.board.view import BoardViewError
from sowlight.simulation.robot import Robot, RobotError
from sowlight.games.sync import SyncError, sync
from . import board as _board


class LiveBoard:
    def __init__(self, conn, demo=None, pace=1.0, seed=None, store_path=None, no_board=None, finder=None,
                 retry_s=3.0, hints=False):
        self.conn = conn
        self.view = None
        self.demo = demo                  # the variant robot hands play, or None
        self.hints = hints                # the demo turns the board's hints on and plays the hinted pit
        self.pace = pace
        self.rng = random.Random(seed)
        self.store_path = store_path      # the archive a demo's games are synced into
        self.no_board = no_board or "no board is connected"
        self.finder = finder              # fn() -> (connection or None, why not): looks for a board again
        self.retry_s = retry_s
        self.version = 0
        self.snapshot = None
        self._subs = set()
        self._loop = None
        self._stop = threading.Event()
        self._thread = None
        self._lock = threading.RLock()
        self._robot = None
        self._relook = False              # the board came back: read its state and lights again
        self._base = None                 # (key, game) of the position the board published last
        self._cands = None                # [(move, trace)] the hands may be making
        self._live = None                 # the frame the hands' steps so far leave the board in
        self._mismatch = None
        self._last_move = None
        self.error = None
        self.shown = None                 # the game in the position the latest snapshot shows (a copy)

    # ----- running -------------------------------------------------------------------------------

    def start(self, loop=None):
        """Follow the board (or look for one) in a thread of its own; snapshots go to `loop`'s viewers."""
        self._loop = loop
        if self.conn is not None:
            self.no_board = "connecting to the board…"
        self._publish()
        if self.conn is None and self.finder is None:
            return
        self._thread = threading.Thread(target=self._run, name="sowlight-serve-live", daemon=True)
        self._thread.start()

    def stop(self):
        self._stop.set()
        if self._thread is not None:
            self._thread.join(5)
        if self.conn is not None:
            self.conn.close()

    def _attach(self):
        self.view = self.conn.view
        self.view.watchers.append(self._event)
        self.view.look()
        self._robot = Robot(self.view, rng=self.rng, prefer_hint=self.hints) if self.demo else None
        self.error = None
        self._publish()

    def _run(self):
        while not self._stop.is_set():
            try:
                if self.view is None:
                    if self.conn is None:
                        self.conn, why = self.finder()
                        if self.conn is None:
                            self.no_board = why
                            self._publish()
                            self._stop.wait(self.retry_s)
                            continue
                    self._attach()
                if self.demo:
                    self._demo_turn()
                else:
                    self.view.pump(0.2)
                    if self._relook:
                        self._relook = False
                        self.view.look()
                        self._publish()
            except (RobotError, BoardViewError, mancala.RulesError) as e:
                if not self.demo:
                    self._failed(str(e))
                    continue
                self.error = "the demo's hands stopped: %s (a new game follows)" % e
                try:
                    self._new_demo_game()
                except (_link.LinkError, RobotError, BoardViewError) as e:
                    self._failed("the demo cannot start a new game: %s" % e)
            except _link.LinkClosed:
                return
            except _link.LinkDown as e:
                self._lost(e)
            except _link.LinkError as e:
                self._failed(str(e))

    def _lost(self, e):
        """The board stopped answering: drop it and, when the board can be looked for, look again."""
        with self._lock:
            conn, self.conn, self.view = self.conn, None, None
        try:
            conn.close()
        except _link.LinkError:
            pass
        self.no_board = "the board stopped answering (%s)%s" % (
            e, ": looking for it again" if self.finder is not None else "")
        self._publish()
        if self.finder is None:
            self._stop.set()
        else:
            self._stop.wait(self.retry_s)

    def _failed(self, text):
        """Say what went wrong on the page, and give the board a moment."""
        self.error = text
        self._publish()
        self._stop.wait(1.0)

    def _new_demo_game(self):
        self.conn.link.request("new_game", {"variant": self.demo, "options": {}})
        self.view.refresh()
        self._robot.set_up()
        if self.hints:
            self.conn.link.request("hint", {"on": True})
        self._publish()

    def _demo_turn(self):
        """One move of the robot hands (or a new game when there is none to play on)."""
        view = self.view
        state = view.refresh()
        if state.get("game") is None or state.get("phase") == "over":
            if state.get("phase") == "over":
                self._archive()
                self._stop.wait(3 * self.pace)
            self._new_demo_game()
            self._stop.wait(self.pace)
            return
        if self.hints:
            # The board searches for its hint once it is idle after a move: give it the time.
            view.wait_for(lambda: bool(view.cells("hint")), 5.0)
            self._publish()
            self._stop.wait(self.pace)
            move = None
        else:
            # Two moves ahead: a game worth watching, quickly found.
            move = best_move(view.game(state), depth=2).best if self.rng.random() < 0.7 else None
        self._robot.play_move(move)
        self._publish()
        self._stop.wait(self.pace)

    def _archive(self):
        if self.store_path is None:
            return
        try:
            with _archive.Archive(self.store_path) as store:
                sync(self.conn.link, store)
        except (SyncError, _archive.ArchiveError, _link.LinkError) as e:
            self.error = "the demo's game is not archived: %s" % e

    # ----- viewers -----------------------------------------------------------------------------

    def subscribe(self, size=64):
        q = asyncio.Queue(maxsize=size)
        with self._lock:
            self._subs.add(q)
            if self.snapshot is not None:
                q.put_nowait(self.snapshot)
        return q

    def unsubscribe(self, q):
        with self._lock:
            self._subs.discard(q)

    def _fanout(self, snap):
        for q in list(self._subs):
            if q.full():
                try:
                    q.get_nowait()      # a slow viewer misses frames, never the latest
                except asyncio.QueueEmpty:
                    pass
            q.put_nowait(snap)

    # ----- following the board -------------------------------------------------------------------

    def _event(self, kind, p):
        if kind in ("state", "move"):
            self._cands = None
            self._live = None
            if kind == "move":
                self._last_move = {"player": p.get("player"), "name": p.get("name"), "ply": p.get("ply")}
                self._mismatch = None
        elif kind == "step":
            if p.get("ev") == "mismatch":
                self._mismatch = p
            else:
                self._step(p)
        elif kind == "leds":
            if not any(r == "error" for r, _ in (self.view.lit or {}).values()):
                self._mismatch = None
        elif kind == _link.LINK:
            # The link brings the board back by itself (a replug finds it by its serial number).
            if p.get("status") == "down":
                self.error = "the board stopped answering (%s): waiting for it to come back" % p.get("reason")
            elif p.get("status") in ("up", "board_restarted"):
                self.error = None
                self._relook = True
        if kind != "log":
            self._publish()

    def _game(self):
        """The game in the position the board published last (a copy of it is never played on)."""
        state = self.view.state
        if not state or state.get("game") is None or state.get("pos") is None:
            self._base = None
            return None
        pos = state["pos"]
        key = (state.get("game"), state.get("ply"), tuple(pos.get("pits") or ()), tuple(pos.get("stores") or ()),
               pos.get("to_move"))
        if self._base is None or self._base[0] != key:
            self._base = (key, self.view.game(state))
        return self._base[1]

    def _step(self, p):
        game = self._game()
        i = p.get("i")
        if game is None or i is None or game.is_over():
            return
        if self._cands is None:
            self._cands = []
            for m in game.legal_moves():
                self._cands.append((m, list(game.copy().play(m))))
        kinds = ("drop", "place") if p.get("ev") == "dropped" else ("lift", "relay", "take")
        keep = [(m, t) for m, t in self._cands if i < len(t) and t[i][0] in kinds and t[i][1] == p.get("cell")]
        if keep:
            self._cands = keep
            self._live = _board.frames(game, keep[0][1][:i + 1])[-1]

    def _publish(self):
        with self._lock:
            try:
                snap = self._make()
            except (mancala.RulesError, BoardViewError, _link.LinkError, KeyError, TypeError, ValueError) as e:
                snap = {"board": self._board_info(), "message": "cannot draw the board: %s" % e}
            self.version += 1
            snap["version"] = self.version
            snap["time"] = time.time()
            self.snapshot = snap
            if self._loop is not None:
                try:
                    self._loop.call_soon_threadsafe(self._fanout, snap)
                except RuntimeError:
                    pass            # the server's loop is closed: shutting down

    def _board_info(self):
        if self.view is None:
            return None
        return {"id": self.view.board_id, "describe": self.view.describe(), "virtual": self.view.virtual}

    def _make(self):
        view = self.view
        if view is None:
            self.shown = None
            return {"board": None, "message": self.no_board}
        state = view.state or {}
        out = {"board": self._board_info(), "error": self.error, "phase": state.get("phase"),
               "hint": bool(state.get("hint")), "board_game": state.get("game"), "ply": state.get("ply"),
               "demo": self.demo, "last_move": self._last_move}
        game = self._game()
        if game is None:
            self.shown = None
            lay = _board.board_layout(view.hello)
            lit = view.lit or {}
            out.update({"layout": lay, "roles": {str(c): [r, n] for c, (r, n) in lit.items()},
                        "counts": None, "to_move": None, "message": "the board has no game (it shows its menu)"})
            return out
        self.shown = game.copy()
        lay = _board.layout(game)
        roles = view.roles_by_game_cell(game)
        live = self._live
        counts = live["counts"] if live else list(game.cells())
        out.update({"layout": lay, "variant": game.id, "title": game.title, "counts": counts,
                    "hand": live["hand"] if live else 0, "step": live["step"] if live else None,
                    "roles": {str(c): [r, n] for c, (r, n) in roles.items()}, "to_move": game.to_move,
                    "hint_pits": [lay["names"][c] for c, (r, _) in roles.items() if r == "hint"],
                    "mismatch": self._mismatch is not None})
        if game.is_over():
            o = game.outcome()
            out["over"] = {"winner": o.winner, "scores": list(o.scores), "reason": o.reason}
        return out
