"""One board's games published to an event, from its journal (docs/broadcast.md).

    bc = BoardBroadcaster(conn, EventTopics("club"), link, store_factory, host_id="sowlight-ab12")
    view = BoardView(link, watchers=[bc.take])     # live events (step, leds, state, move) as they come
    bc.start()                                     # sync + publish whenever a move is made, and every few s
    ...
    bc.stop()

What is published comes from the journal, never from the live events: a
thread syncs the board's journal into the store (sowlight.games.sync: fetched by (game,
ply), acknowledged after the commit), then publishes each record the store
holds and this connection has not published yet, with the trace and the
position the rules core replays, each at its own retained topic
`.../games/<game>/<ply>`.  So a board or a host that drops off and comes back
goes on from the journal: a record published twice goes to the same topic
with the same payload (a viewer keys records by ply), and none is skipped,
because the store holds every ply from 0 without a hole.

After every (re)connection to the broker everything in scope is published
again (the hello, each game's records, the state): a broker restarted without
persistence has lost its retained messages.  A viewer that misses a ply asks
for it on `.../fill`; the records are published again from the store.

Live events (`step`, `leds`, the board's `state`, `move`) go to `.../live`
numbered by `seq` within the host's `run`, for viewers that animate the
board; losing one loses nothing that the records do not hold.
"""
import os
import threading
import time

import mancala

from sowlight.board.view import move_tuple, replay
from sowlight.board.link import LinkError
from sowlight.games.sync import SyncError, sync

SYNC_EVERY = 2.0        # seconds between syncs when no move wakes the publisher
_LIVE = ("step", "leds", "state", "move")


def _pos(game):
    return {"pits": list(game.pits), "stores": list(game.stores), "to_move": game.to_move}


def _trace(trace):
    return [[s.kind, s.pit, s.count, s.to] for s in trace]


def published_records(records):
    """The journal records of one game (plies 0..n in order) with what a viewer needs besides:
    each one's `pos` after it, and each move's `trace` (the rules core replays them).  A record
    the rules core refuses is published as the board journalled it, with `problem` saying why,
    and the replay stops there."""
    out = []
    run = None
    broken = None
    for rec in records:
        msg = dict(rec)
        if broken is None:
            try:
                if rec["kind"] == "move" and run is not None and run[0] is not None:
                    msg["trace"] = _trace(run[0].play(move_tuple(rec["move"])))
                else:
                    run = replay([rec], run)
                if run[0] is not None:
                    msg["pos"] = _pos(run[0])
            except (mancala.RulesError, KeyError, TypeError, ValueError, LinkError) as e:
                broken = "ply %s does not replay: %s" % (rec.get("ply"), e)
        if broken is not None:
            msg["problem"] = broken
        out.append(msg)
    return out


def game_state(board, game_no, published, host):
    """The retained `state` of a board: its latest game as its published records leave it."""
    state = {"board": board, "game": game_no, "host": host, "ply": -1, "variant": None, "options": {}, "pos": None,
             "moves": 0, "over": False, "t": int(time.time())}
    for msg in published:
        state["ply"] = msg["ply"]
        k = msg.get("kind")
        if k == "start":
            state["variant"] = msg.get("variant")
            state["options"] = msg.get("options") or {}
        elif k == "move":
            state["moves"] += 1
        elif k == "undo":
            state["moves"] = max(0, state["moves"] - 1)
        elif k == "end":
            state["over"] = True
            for key in ("winner", "scores", "reason"):
                state[key] = msg.get(key)
        if "pos" in msg:
            state["pos"] = msg["pos"]
    return state


class BoardBroadcaster:
    """Publishes one board's journal and live events to an event (see the module's docstring).

    conn           a broker.BrokerConnection
    topics         a topics.EventTopics
    link           the board's connected link.Link (shared with whoever plays on it)
    store_factory  fn() -> a sync store (archive.Archive or sync.MemoryStore), made in the
                   publisher's thread (SQLite connections stay in their thread)
    host           the host's client id (in the state: which host speaks for the board)
    pump           True when nobody else takes the link's events: the publisher's thread does
    """

    def __init__(self, conn, topics, link, store_factory, host, pump=False, every=SYNC_EVERY, say=None):
        self.conn = conn
        self.topics = topics
        self.link = link
        self.board = link.board_id
        self.store_factory = store_factory
        self.host = host
        self.pump = pump
        self.every = every
        self.say = say or (lambda text: None)
        self.run_id = os.urandom(4).hex()
        self.seq = 0                    # live messages published in this run
        self.records_sent = 0
        self.syncs = 0
        self.problem = None             # the last sync's failure, said for a person
        self._scope = set()             # the board's games this publisher speaks for
        self._published = {}            # game -> highest ply published since the last (re)connection
        self._fills = {}                # game -> lowest ply a viewer asked for again
        self._again = True              # publish everything again (a new connection)
        self._wake = threading.Event()
        self._stop = threading.Event()
        self._lock = threading.Lock()
        self._thread = None
        self.store = None
        conn.subscribe(topics.fill(self.board), self._fill)
        conn.on_connect(self._reconnected)

    # ----- from other threads --------------------------------------------------------------------

    def take(self, kind, payload):
        """A BoardView watcher: live events go out now; a move (or the board back) wakes the sync."""
        if kind in _LIVE:
            with self._lock:
                self.seq += 1
                msg = dict(payload, type=kind, seq=self.seq, run=self.run_id, board=self.board)
            msg.pop("re", None)
            self.conn.publish(self.topics.live(self.board), msg)
        if kind in ("move", "state", "link"):
            self._wake.set()

    def _reconnected(self):
        self._again = True
        self._wake.set()

    def _fill(self, topic, payload):
        if not payload or type(payload.get("game")) is not int:
            return
        frm = payload.get("from", 0)
        frm = frm if type(frm) is int and frm >= 0 else 0
        with self._lock:
            g = payload["game"]
            self._fills[g] = min(frm, self._fills.get(g, frm))
        self._wake.set()

    def wake(self):
        self._wake.set()

    # ----- the publisher's thread ----------------------------------------------------------------

    def start(self):
        self._thread = threading.Thread(target=self._run, name="sowlight-broadcast-%s" % self.board, daemon=True)
        self._thread.start()
        return self

    def stop(self, timeout=10.0):
        self._stop.set()
        self._wake.set()
        if self._thread is not None:
            self._thread.join(timeout)

    def _run(self):
        self.store = self.store_factory()
        try:
            while not self._stop.is_set():
                self.once()
                if self.pump:
                    end = time.monotonic() + self.every
                    while not self._wake.is_set() and not self._stop.is_set() and time.monotonic() < end:
                        ev = self.link.next_event(timeout=0.2)
                        if ev is not None:
                            self.take(*ev)
                else:
                    self._wake.wait(self.every)
                self._wake.clear()
            self.once()         # what the last moves left
        finally:
            close = getattr(self.store, "close", None)
            if close is not None:
                close()

    def once(self):
        """One sync of the journal, then whatever is not published yet (in the publisher's thread)."""
        self._wake.clear()
        try:
            report = sync(self.link, self.store)
            self.syncs += 1
            self.problem = None
            self._scope.update(report.games)
        except (SyncError, LinkError) as e:
            if self.problem != str(e):
                self.say("board %s: %s" % (self.board, e))
            self.problem = str(e)
        if not self.conn.connected.is_set():
            return          # (published again on the next connection anyway)
        with self._lock:
            again, self._again = self._again, False
            fills, self._fills = self._fills, {}
        if again:
            self._published = {}
            hello = dict(self.link.board_hello or {})
            hello.pop("re", None)
            self.conn.publish(self.topics.hello(self.board), dict(hello, host=self.host), retain=True)
        changed = again
        for g in sorted(self._scope):
            if g in fills:
                self._published[g] = min(self._published.get(g, -1), fills[g] - 1)
            changed = self._publish_game(g) or changed
        if changed and self._scope:
            self._publish_state()

    def _publish_game(self, g):
        records = self.store.journal(self.board, g)
        done = self._published.get(g, -1)
        if not records or records[-1]["ply"] <= done:
            return False
        for msg in published_records(records):
            if msg["ply"] > done:
                msg["board"], msg["game"] = self.board, g
                self.conn.publish(self.topics.record(self.board, g, msg["ply"]), msg, retain=True)
                self.records_sent += 1
        self._published[g] = records[-1]["ply"]
        return True

    def _publish_state(self):
        latest = max(self._scope)
        state = game_state(self.board, latest, published_records(self.store.journal(self.board, latest)), self.host)
        state["games"] = [[g, self._published.get(g, -1)] for g in sorted(self._scope)]
        self.conn.publish(self.topics.state(self.board), state, retain=True)
