"""Every game of an event, rebuilt from the broker's topics: the viewer's side of a broadcast.

    feed = EventFeed(conn, EventTopics("club"), on_update=print)   # on_update(snapshot), any thread
    feed.start()
    for snap in feed.updates(timeout=30):    # or iterate: a snapshot each time a game changes
        print(snap["board"], snap["game"], snap["moves"], snap["pos"])
    feed.game(board, 3).journal()            # that game's journal records, as the board wrote them

A game is its records, keyed by (board, game, ply): a record that comes twice
(QoS 1, a republish after a reconnection) replaces itself, so nothing is
counted twice.  Gaps are found two ways: a record whose ply is past the run
held, and a board's retained `state`, which says how far each of its games
has been published.  For each gap the feed publishes a `fill` request (at
most one a game per `fill_every` seconds) and the board's host publishes the
records again (docs/broadcast.md).  A snapshot is a plain dict, ready to be
sent to a web page as JSON.
"""
import queue
import threading
import time

_EXTRAS = ("board", "game", "trace", "pos", "problem")     # what a publisher adds to a journal record


class GameFeed:
    """One board's game as its topics have brought it."""

    def __init__(self, board, game):
        self.board = board
        self.game = game
        self.records = {}      # ply -> the published record
        self.last = -1         # the highest ply the board's state says is published

    def held(self):
        """The highest ply h such that plies 0..h are all held (-1: none)."""
        h = -1
        while h + 1 in self.records:
            h += 1
        return h

    def missing(self):
        """The first ply missing below what is known to exist, or None."""
        top = max(self.last, max(self.records) if self.records else -1)
        h = self.held()
        return h + 1 if h < top else None

    def complete(self):
        return self.missing() is None and bool(self.records)

    def journal(self):
        """The records held from ply 0 without a hole, as the board journalled them."""
        out = []
        for p in range(self.held() + 1):
            out.append({k: v for k, v in self.records[p].items() if k not in _EXTRAS})
        return out

    def snapshot(self):
        run = [self.records[p] for p in range(self.held() + 1)]
        snap = {"board": self.board, "game": self.game, "ply": run[-1]["ply"] if run else -1, "variant": None,
                "options": {}, "pos": None, "moves": [], "over": False, "winner": None, "scores": None,
                "complete": self.complete(), "last_move": None}
        for rec in run:
            k = rec.get("kind")
            if k == "start":
                snap["variant"] = rec.get("variant")
                snap["options"] = rec.get("options") or {}
            elif k == "move":
                snap["moves"].append(rec.get("name") or str(rec.get("move")))
                snap["last_move"] = {key: rec.get(key) for key in ("player", "move", "name", "trace")}
            elif k == "undo" and snap["moves"]:
                snap["moves"].pop()
            elif k == "end":
                snap["over"] = True
                snap["winner"], snap["scores"] = rec.get("winner"), rec.get("scores")
            if rec.get("pos") is not None:
                snap["pos"] = rec["pos"]
        return snap

    def rules_game(self):
        """The game replayed with the rules core from the moves held (None before its start)."""
        from sowlight.board.view import replay
        run = None
        for rec in self.journal():
            run = replay([rec], run)
        return run[0] if run else None


class EventFeed:
    """Subscribes to an event and keeps every board's games (see the module's docstring)."""

    def __init__(self, conn, topics, on_update=None, fill_every=1.0):
        self.conn = conn
        self.topics = topics
        self.on_update = on_update
        self.fill_every = fill_every
        self.boards = {}          # board -> {"hello", "state", "live": last live message}
        self.hosts = {}           # host client id -> its retained presence
        self._games = {}          # (board, game) -> GameFeed
        self._asked = {}          # (board, game) -> monotonic time of the last fill request
        self.fills = 0            # fill requests published
        self.duplicates = 0       # records that came again
        self.live_gaps = 0        # live messages lost (seq jumps within a run)
        self._live_seq = {}       # board -> (run, seq)
        self._queue = queue.Queue()
        self._lock = threading.RLock()
        self._changed = threading.Condition(self._lock)
        self._stop = threading.Event()
        self._thread = None

    def start(self):
        self.conn.subscribe(self.topics.everything(), self._message)
        self._thread = threading.Thread(target=self._watch_gaps, name="sowlight-feed-gaps", daemon=True)
        self._thread.start()
        return self

    def stop(self):
        self._stop.set()

    # ----- reading ---------------------------------------------------------------------------------

    def games(self):
        with self._lock:
            return dict(self._games)

    def game(self, board, game):
        with self._lock:
            return self._games.get((board, game))

    def snapshots(self):
        with self._lock:
            return [g.snapshot() for _, g in sorted(self._games.items())]

    def online(self, board):
        """Whether the board's host is connected (its retained presence, cleared by its last will)."""
        with self._lock:
            host = ((self.boards.get(board) or {}).get("state") or {}).get("host")
            return bool((self.hosts.get(host) or {}).get("online"))

    def updates(self, timeout=None):
        """Snapshots of the games as they change; ends after `timeout` seconds without a change."""
        while True:
            try:
                yield self._queue.get(timeout=timeout)
            except queue.Empty:
                return

    def wait(self, done, timeout):
        """Block until done(feed) is true or `timeout` passes; returns done(feed)."""
        end = time.monotonic() + timeout
        with self._changed:
            while not done(self):
                left = end - time.monotonic()
                if left <= 0:
                    return False
                self._changed.wait(min(left, 0.5))
            return True

    # ----- the topics ---------------------------------------------------------------------------------

    def _message(self, topic, payload):
        what = self.topics.parse(topic)
        if what is None or payload is None:
            return
        kind, board, game, ply = what
        snap = None
        with self._changed:
            if kind == "host":
                self.hosts[board] = payload
            elif kind in ("hello", "state"):
                self.boards.setdefault(board, {})[kind] = payload
                if kind == "state":
                    for item in payload.get("games") or ():
                        if isinstance(item, list) and len(item) == 2 and type(item[0]) is int and type(item[1]) is int:
                            g = self._game(board, item[0])
                            g.last = max(g.last, item[1])
            elif kind == "live":
                self._live(board, payload)
            elif kind == "record":
                if payload.get("ply") != ply:
                    return
                g = self._game(board, game)
                if ply in g.records:
                    self.duplicates += 1
                    if g.records[ply] == payload:
                        return
                g.records[ply] = payload
                snap = g.snapshot()
            self._changed.notify_all()
        if snap is not None:
            self._queue.put(snap)
            if self.on_update is not None:
                self.on_update(snap)

    def _game(self, board, game):
        key = (board, game)
        g = self._games.get(key)
        if g is None:
            g = self._games[key] = GameFeed(board, game)
        return g

    def _live(self, board, msg):
        self.boards.setdefault(board, {})["live"] = msg
        run, seq = msg.get("run"), msg.get("seq")
        before = self._live_seq.get(board)
        if before is not None and before[0] == run and type(seq) is int and seq > before[1] + 1:
            self.live_gaps += seq - before[1] - 1
        self._live_seq[board] = (run, seq)

    def _watch_gaps(self):
        while not self._stop.wait(self.fill_every / 2):
            self.ask_for_gaps()

    def ask_for_gaps(self):
        """Ask the hosts for the records missing from any game (at most once a game per fill_every)."""
        now = time.monotonic()
        asks = []
        with self._lock:
            for key, g in self._games.items():
                frm = g.missing()
                if frm is None or now - self._asked.get(key, -1e9) < self.fill_every:
                    continue
                self._asked[key] = now
                asks.append((key, frm))
        for (board, game), frm in asks:
            if self.conn.connected.is_set():
                self.conn.publish(self.topics.fill(board), {"game": game, "from": frm})
                self.fills += 1
        return len(asks)


def same_game(records, journal):
    """Whether published records equal a board's journal records (as sync stores them)."""
    return [{k: v for k, v in r.items() if k not in _EXTRAS} for r in records] == list(journal)
