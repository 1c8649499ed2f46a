"""An event's boards for the browser: every board broadcasting to it, from the broker (docs/broadcast.md).

    ev = EventBoards(conn, "friday")      # conn: a connected broadcast.broker.BrokerConnection
    ev.start(loop)                        # follows the event's topics (feed.EventFeed)
    ev.cells()                            # one dict a board: its latest game as the grid draws it
    q = ev.subscribe()                    # an asyncio.Queue of cells, each time a board's game changes
    ev.game(board, game)                  # that game as the archive would hold it (gamerecord's dict)
    ev.stop()

A cell is made from the board's latest game as its records have brought it
(feed.GameFeed.snapshot: the position after the last record held), with the
layout web/board.py gives the variant, so static/board.js draws it as it
draws the live board.
"""
import asyncio
import json
import threading

import mancala

from sowlight.games import archive
from sowlight.board.view import shape
from sowlight.broadcast.feed import EventFeed
from sowlight.broadcast.topics import EventTopics
from . import board as _board


class EventGameNotFound(LookupError):
    """No such board or game in the event (yet)."""


class EventBoards:
    def __init__(self, conn, event):
        self.conn = conn
        self.event = event
        self.topics = EventTopics(event)
        self.feed = EventFeed(conn, self.topics, on_update=self._updated)
        self._layouts = {}            # (variant, options) -> layout
        self._queues = set()
        self._lock = threading.Lock()
        self._loop = None

    def start(self, loop):
        self._loop = loop
        self.feed.start()
        # A host's presence (its last will when it goes) changes its boards' cells, no record with it.
        self.conn.subscribe(self.topics.base + "/hosts/+", self._host)

    def stop(self):
        self.feed.stop()
        self.conn.stop()

    def about(self):
        return {"event": self.event, "topics": self.topics.base, "broker": self.conn.settings.where(),
                "connected": self.conn.connected.is_set()}

    # ----- the grid ------------------------------------------------------------------------------

    def cells(self):
        """Every board's latest game, by board id."""
        latest = {}
        for (board, game), g in self.feed.games().items():
            if board not in latest or game > latest[board][0]:
                latest[board] = (game, g)
        return [self._cell(g.snapshot()) for _, (_, g) in sorted(latest.items())]

    def _cell(self, snap):
        board = snap["board"]
        info = self.feed.boards.get(board) or {}
        out = {"board": board, "game": snap["game"], "ply": snap["ply"], "variant": snap["variant"],
               "moves": len(snap["moves"]), "last_move": (snap["last_move"] or {}).get("name"),
               "over": snap["over"], "winner": snap["winner"], "scores": snap["scores"],
               "complete": snap["complete"], "online": self.feed.online(board),
               "shape": shape(info.get("hello")) if info.get("hello") else None, "layout": None, "counts": None, "to_move": None, "title": None}
        layout = self._layout(snap["variant"], snap["options"])
        pos = snap["pos"]
        if layout is not None and pos:
            out.update({"layout": layout, "title": layout["title"], "players": layout["players"],
                        "counts": list(pos.get("pits") or []) + list(pos.get("stores") or []),
                        "to_move": None if snap["over"] else pos.get("to_move")})
        return out

    def _layout(self, variant, options):
        if not variant:
            return None
        key = (variant, json.dumps(options, sort_keys=True))
        if key not in self._layouts:
            try:
                self._layouts[key] = _board.layout(mancala.Game(variant, **(options or {})))
            except (mancala.RulesError, TypeError, ValueError):
                self._layouts[key] = None       # a variant this version does not know: the cell says so
        return self._layouts[key]

    def _host(self, topic, payload):
        what = self.topics.parse(topic)
        if what is None or payload is None:
            return
        for cell in self.cells():
            state = (self.feed.boards.get(cell["board"]) or {}).get("state") or {}
            if state.get("host") == what[1]:
                self._send(cell)

    def _updated(self, snap):
        # (paho's network thread) Only a board's latest game is in the grid.
        games = [g for (b, g) in self.feed.games() if b == snap["board"]]
        if games and snap["game"] < max(games):
            return
        self._send(self._cell(snap))

    def _send(self, cell):
        loop = self._loop
        if loop is None or loop.is_closed():
            return
        try:
            loop.call_soon_threadsafe(self._push, cell)
        except RuntimeError:
            pass                # the server is stopping

    def _push(self, cell):
        for q in list(self._queues):
            q.put_nowait(cell)

    def subscribe(self):
        """A queue of cells: every board's now, then each change (in the event loop's thread)."""
        q = asyncio.Queue()
        for cell in self.cells():
            q.put_nowait(cell)
        self._queues.add(q)
        return q

    def unsubscribe(self, q):
        self._queues.discard(q)

    # ----- a game ------------------------------------------------------------------------------

    def game(self, board, game):
        """The game as gamerecord's dict, from the records held from ply 0 without a hole."""
        g = self.feed.game(board, game)
        records = g.journal() if g is not None else []
        if not records:
            raise EventGameNotFound("the event %s has no game %s of board %s (yet)" % (self.event, game, board))
        d, problem = archive.journal_game(board, game, records)
        if d is None:
            raise EventGameNotFound("board %s's game %s does not replay: %s" % (board, game, problem))
        d["problem"] = problem
        d["complete"] = g.complete()
        d["held"] = g.held()
        return d

