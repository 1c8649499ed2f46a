"""Remote play: one game on two boards far apart, each host a seat, the moves through the broker.

    rg = RemoteGame(conn, TableTopics("friday-3"), seat=0, board=connection, store_factory=..., variant="oware")
    rg.run(stop)               # until the game is over on this board (or stop is set)

Each host keeps to its own board's journal (synced into its archive, sowlight.games.sync)
and the table's topics (docs/broadcast.md, "Remote play"):

- the table's game (`tables/<t>/game`, retained): variant, options and an id,
  set by seat 0; each seat's board and its game number for it
  (`tables/<t>/seats/<s>`, retained);
- every move, at `tables/<t>/seats/<s>/moves/<n>` (retained, QoS 1), where n
  counts the game's moves from 0: the move's id.  A move published twice lands
  on the same topic with the same payload, so a lost acknowledgement, a QoS 1
  duplicate or a host that starts again never makes a move twice; all of a
  seat's moves are published again after every reconnection (a broker that
  restarted without persistence has lost them).

When this seat is to move, the board takes the player's move as always; once
it is in the journal it is published.  When the other seat is to move, the
board is told to wait (`guide` with `wait`: no pit lit, seeds lifted are a
mismatch) until that move arrives, then to guide it (`guide` with the move):
its lights lead the hands through every step and its sensors check them; a
mistake is flagged on the board until it is put right.  A move for the other
seat that the board journalled anyway (a board whose firmware is older, hands
quicker than the first `guide`) is taken back with `undo` and said.
"""
import threading
import time
import uuid

import mancala

from sowlight_fw.journal import move_json as _jsonable

from sowlight.terminal import harmless
from sowlight.board.view import move_tuple, replay
from sowlight.board.link import BoardError, LinkError
from sowlight.games.sync import SyncError, sync
from .broker import MQTT_ERR_SUCCESS, delivered

GUIDE_PROTO = (1, 2)
_SETTLE = 1.5           # seconds to wait for the retained topics after subscribing


class RemoteError(Exception):
    """Remote play cannot go on as asked; the message says what to do."""


def shown(text, most=40):
    """Text that came through the broker, safe to print and cut short."""
    return harmless.text(text)[:most]


def standing_moves(records):
    """(moves, game, last ply, over) of a board game's journal records: moves is [(player, move,
    name, ply)] of the moves standing (an undo takes the last back), game the rules core's game."""
    moves = []
    run = None
    over = False
    for rec in records:
        k = rec["kind"]
        if k == "move":
            moves.append((rec["player"], move_tuple(rec["move"]), rec.get("name"), rec["ply"]))
        elif k == "undo" and moves:
            moves.pop()
        elif k == "end":
            over = True
        run = replay([rec], run)
    game = run[0] if run else None
    return moves, game, records[-1]["ply"] if records else -1, over or (game is not None and game.is_over())


class RemoteGame:
    """One seat of a remote game (see the module's docstring).

    conn           a broker.BrokerConnection
    table          a topics.TableTopics
    seat           0 or 1: the player this board plays (0 moves first)
    board          a boardview.Connection to this host's board
    store_factory  fn() -> the sync store (made in the thread that runs the game)
    variant, options   the game, when this seat sets the table (seat 0; else the table's is used)
    say            fn(text): what a player should know, as it happens
    pump           True when nobody else takes the board's events: run() does
    """

    def __init__(self, conn, table, seat, board, store_factory, variant=None, options=None, say=None, pump=True):
        if seat not in (0, 1):
            raise RemoteError("a seat is 0 (moves first) or 1")
        if tuple(board.view.proto[:2]) < GUIDE_PROTO:
            raise RemoteError("the board's firmware speaks link protocol %d.%d: remote play needs %d.%d "
                              "(update it: sowlight deploy)" % (tuple(board.view.proto[:2]) + GUIDE_PROTO))
        self.conn = conn
        self.table = table
        self.seat = seat
        self.board = board
        self.link = board.link
        self.view = board.view
        self.store_factory = store_factory
        self.variant = variant
        self.options = dict(options or {})
        self.say = say or (lambda text: None)
        self.pump = pump
        self.spec = None            # the table's game: {"variant", "options", "id"}
        self.seats = {}             # seat -> its retained description
        self.remote = {}            # n -> the move published for it (either seat)
        self.local_game = None      # this board's game number for the table's game
        self.moves = []             # the moves standing on this board: (player, move, name, ply)
        self.game = None            # the rules core's game on this board
        self.last_ply = -1
        self.over = False
        self.guided = None          # (ply, move) the board was last told to guide (move None: wait)
        self.published = {}         # this seat's move number -> its publication since the last (re)connection
        self.undone = 0             # moves for the other seat taken back
        self.conflicts = []         # (n, here, there): moves that differ (the other seat's board is wrong)
        self.problem = None
        self.store = None
        self._told = None
        self._lock = threading.Lock()
        self._wake = threading.Event()
        self._again = False
        conn.subscribe(table.everything(), self._message)
        conn.on_connect(self._reconnected)

    # ----- the broker's side (paho's thread) ---------------------------------------------------------

    def _message(self, topic, payload):
        what = self.table.parse(topic)
        if what is None or payload is None:
            return
        kind, seat, n = what
        with self._lock:
            if kind == "game":
                if isinstance(payload.get("variant"), str) and isinstance(payload.get("id"), str):
                    self.spec = payload
            elif kind == "seat":
                self.seats[seat] = payload
            elif kind == "move" and payload.get("n") == n and payload.get("player") == seat \
                    and type(payload.get("move")) in (int, list):
                spec = self.spec
                if spec is None or payload.get("table_game") == spec["id"]:
                    self.remote[n] = payload
        self._wake.set()

    def _reconnected(self):
        self._again = True
        self._wake.set()

    def take(self, kind, payload):
        """A BoardView watcher: a move on the board wakes the loop; a board that restarted or was
        reconnected is told its `guide` again (a restart forgets it)."""
        if kind == "link":
            self.guided = None
        if kind in ("move", "state", "link"):
            self._wake.set()

    # ----- the game ---------------------------------------------------------------------------------

    def run(self, stop=None, timeout=None):
        """Play until the game is over on this board; True then, False when stopped or timed out."""
        stop = stop or threading.Event()
        end = None if timeout is None else time.monotonic() + timeout
        self.store = self.store_factory()
        try:
            self.set_table(stop)
            while not stop.is_set():
                if self.step():
                    return True
                if end is not None and time.monotonic() > end:
                    return False
                self._idle(0.3)
            return False
        finally:
            close = getattr(self.store, "close", None)
            if close is not None:
                close()

    def _idle(self, seconds):
        if self.pump:
            end = time.monotonic() + seconds
            while not self._wake.is_set() and time.monotonic() < end:
                ev = self.link.next_event(timeout=0.1)
                if ev is not None:
                    self.view.take(*ev)
                    self.take(*ev)
        else:
            self._wake.wait(seconds)
        self._wake.clear()

    def _tell(self, text):
        if text != self._told:
            self._told = text
            self.say(text)

    def set_table(self, stop):
        """The table's game (set by seat 0), and this board's game for it (resumed or started)."""
        self.conn.wait_connected(30)
        time.sleep(_SETTLE)             # (the retained topics come first)
        # What this host remembers of the table (its archive): the broker may have lost its retained
        # topics (restarted without persistence) while this host was away.
        remembered = self.store.remote_seat(self.table.base, self.seat)
        if remembered is not None and remembered["board_id"] != self.view.board_id:
            remembered = None           # (another board at this seat now: its game is not this one's)
        while self.spec is None and not stop.is_set():
            if remembered is not None:
                self.spec = remembered["spec"]
                if self.seat == 0:
                    self.conn.publish(self.table.game(), self.spec, retain=True)
            elif self.seat == 0:
                spec = {"variant": self.variant or "oware", "options": self.options, "id": uuid.uuid4().hex}
                mancala.Game(spec["variant"], **spec["options"])        # (a bad name said before it is published)
                self.spec = spec
                self.conn.publish(self.table.game(), spec, retain=True)
            else:
                self._tell("waiting for seat 0 to set the table's game")
                self._idle(0.5)
        if stop.is_set():
            return
        spec = self.spec
        try:
            mancala.Game(spec["variant"], **dict(spec.get("options") or {}))
        except (mancala.RulesError, TypeError, ValueError) as e:
            raise RemoteError("the table's game cannot be played here (%s): seat 0 sets it; a newer sowlight may "
                              "know it" % shown(e, 160)) from None
        with self._lock:
            self.remote = {n: m for n, m in self.remote.items() if m.get("table_game") == spec["id"]}
        if self.variant and self.variant != spec["variant"]:
            self.say("the table plays %s (set by seat 0), not %s" % (shown(spec["variant"]), self.variant))
        mine = self.seats.get(self.seat) or {}
        if mine.get("table_game") != spec["id"] and remembered is not None and remembered["spec"]["id"] == spec["id"]:
            mine = {"table_game": spec["id"], "board": remembered["board_id"], "game": remembered["board_game"]}
        state = self.link.request("get_state")
        if mine.get("table_game") == spec["id"] and mine.get("board") == self.view.board_id:
            self.local_game = mine.get("game")
            if state.get("game") != self.local_game:
                raise RemoteError("this board has gone on to another game (board game %s); the table's game was "
                                  "board game %s: it cannot be played on" % (state.get("game"), self.local_game))
            self.say("going on with the table's game: board game %d" % self.local_game)
        else:
            reply = self.link.request("new_game", {"variant": spec["variant"], "options": spec["options"]})
            self.local_game = reply["game"]
            self.say("new game %d on the board for the table: %s; put the seeds out as the lights show"
                     % (self.local_game, shown(spec["variant"])))
        self.store.note_remote_seat(self.table.base, self.seat, spec, self.view.board_id, self.local_game)
        self._publish_seat()

    def _publish_seat(self):
        self.conn.publish(self.table.seat(self.seat), {"board": self.view.board_id, "game": self.local_game,
                                                       "table_game": self.spec["id"], "seat": self.seat},
                          retain=True)

    def step(self):
        """One look at the journal and the table: publish, guide, take back.  True once the game is
        over on this board and its moves are published."""
        if self.game is not None and not self.over and self.game.to_move != self.seat:
            with self._lock:
                remote = dict(self.remote)
            self._guide(remote)     # (a move just come: on the lights before the journal is read)
        try:
            sync(self.link, self.store)
            self.problem = None
        except (SyncError, LinkError) as e:
            if self.problem != str(e):
                self.say("the board's journal could not be read just now: %s" % e)
            self.problem = str(e)
            return False
        records = self.store.journal(self.view.board_id, self.local_game)
        if not records:
            return False
        self.moves, self.game, self.last_ply, self.over = standing_moves(records)
        if self._again:
            self._again = False
            self.published = {}
            self.conn.publish(self.table.game(), self.spec, retain=True)
            self._publish_seat()
        with self._lock:
            remote = dict(self.remote)
        for n in [n for n, info in self.published.items() if info.rc != MQTT_ERR_SUCCESS]:
            del self.published[n]           # (published while the connection was down: again now)
        for n, (player, move, name, ply) in enumerate(self.moves):
            if player == self.seat:
                if n not in self.published:
                    self.published[n] = self.conn.publish(self.table.move(self.seat, n), {
                        "n": n, "player": player, "move": _jsonable(move), "name": name, "ply": ply,
                        "table_game": self.spec["id"], "board": self.view.board_id}, retain=True)
                continue
            there = remote.get(n)
            if there is None or move_tuple(there["move"]) != move:
                if n == len(self.moves) - 1 and not self.over:
                    self._take_back(name, there)
                    return False
                if (n, name, there) not in self.conflicts:
                    self.conflicts.append((n, name, there))
                    self.say("move %d differs from the other board's (%s here, %s there): the game cannot go "
                             "on as one" % (n + 1, name, shown((there or {}).get("name"))))
        if self.over:
            # Done once the broker has every move of this seat (else they go again on reconnection).
            return all(delivered(info) for info in self.published.values())
        if self.game.to_move == self.seat:
            self._tell("your move (player %d)" % self.seat)
            return False
        there = self._guide(remote)
        if there is None:
            self._tell("waiting for the other player's move")
        else:
            self._tell("the other player played %s: make it on the board as the lights show" % shown(there.get("name")))
        return False

    def _guide(self, remote):
        """Tell the board the other seat's next move (or to wait for it), unless told already;
        returns that move's message (None: not here yet)."""
        ply = self.last_ply + 1
        there = remote.get(len(self.moves))
        move = None if there is None else move_tuple(there["move"])
        if self.guided != (ply, move):
            payload = {"ply": ply, "wait": True} if move is None else {"ply": ply, "move": there["move"]}
            try:
                self.link.request("guide", payload)
                self.guided = (ply, move)
            except BoardError as e:
                if e.code not in ("no_game", "out_of_range"):      # (set-up not done; a move just made)
                    self.say("the board refused to guide the move: %s" % e.msg)
            except LinkError:
                pass
        return there

    def _take_back(self, name, there):
        try:
            self.link.request("undo")
        except LinkError as e:
            self.say("could not take back %s: %s" % (name, e))
            return
        self.undone += 1
        self.guided = None
        self.say("%s was the other player's move to make%s: taken back, put the seeds back as the lights show"
                 % (name, "" if there is None else " (they played %s)" % shown(there.get("name"))))

    def wanted(self):
        """What the hands at this board should do now: "move" (this seat's turn), "guided" (the
        other seat's move is on the lights), "wait" or "over"."""
        if self.over:
            return "over"
        if self.game is None:
            return "wait"
        if self.game.to_move == self.seat:
            return "move"
        g = self.guided
        return "guided" if g is not None and g[0] == self.last_ply + 1 and g[1] is not None else "wait"
