"""The web view's HTTP side: a Starlette app serving the page, its assets and a JSON API.

    app = make_app(archive_path, live)      # live: a live.LiveBoard (started with the app)

Routes (docs/web.md lists them with their answers):

    /                                  the page (static/index.html); the views are its #/live, #/games ...
    /static/...                        the page's script, style sheet (package data: no CDN)
    /api/meta                          the LED colours, the analysis thresholds, the version
    /api/live, /api/live/events        the live board: a snapshot; a stream of them (server-sent events)
    /api/live/analysis                 the value of every legal move in the position the live board shows
    /api/games?player=&variant=&board=&result=&since=&until=    the archive's games, filtered
    /api/games/{ref}                   one game: its record, move list, positions and each move's frames
    /api/games/{ref}/record.txt|.json  the game's record to download
    /api/games/{ref}/analysis?depth=N  the engine's analysis (sowlight.games.analysis), computed once per depth
    /api/stats                         statistics and their SVG plots
    /api/event, /api/event/events      an event's boards from the broker (web/event.py): each board's latest
                                       game; a stream of them as they change (server-sent events)
    /api/event/boards/{board}/games/{game}[/record.txt|.json|/analysis]   one of the event's games, as above
"""
import asyncio
import contextlib
import json
import os

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.responses import FileResponse, JSONResponse, Response, StreamingResponse
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

import mancala

from sowlight.games import analysis
from sowlight.games import archive
from sowlight.games import record as gamerecord
from . import board, stats
from .event import EventGameNotFound

STATIC = os.path.join(os.path.dirname(os.path.abspath(__file__)), "static")
KEEP_ALIVE_S = 15
RESULTS = ("1-0", "0-1", "1/2-1/2", "*")
EMPTY_EVENT = {"event": None, "topics": None, "broker": None, "connected": False}


class _Api:
    def __init__(self, archive_path, live, depth, time_ms, event=None):
        self.archive_path = archive_path
        self.live = live
        self.event = event            # an event.EventBoards, or None
        self.depth = depth
        self.time_ms = time_ms
        self.analyses = {}            # (game id, depth) -> report
        self.running = {}             # (game id, depth) -> asyncio.Future

    # ----- the archive ---------------------------------------------------------------------------

    def _open(self):
        return archive.Archive(self.archive_path, create=False)

    def _game(self, ref):
        with self._open() as arc:
            return arc.game(ref)

    async def _game_of(self, request):
        """The game a route names: the archive's (`ref`), or an event's (`board`, `game`)."""
        p = request.path_params
        if "board" not in p:
            return await run_in_threadpool(self._game, p["ref"])
        if self.event is None:
            raise EventGameNotFound("this server shows no event: start it with --event NAME")
        try:
            number = int(p["game"])
        except ValueError:
            raise EventGameNotFound("a board's game is a number, not %r" % p["game"]) from None
        d = await run_in_threadpool(self.event.game, p["board"], number)
        d["number"] = None
        return d

    async def games(self, request):
        q = request.query_params
        try:
            with self._open() as arc:
                rows = arc.games()
        except archive.MissingArchiveError:
            rows = []
        variant = q.get("variant") or None
        if variant:
            try:
                variant = mancala.variant_info(variant)["id"]
            except mancala.RulesError as e:
                return _error(400, str(e))
        player = (q.get("player") or "").strip().lower()
        out = []
        for g in rows:
            if variant and g["variant"] != variant:
                continue
            if player and not any(player in n.lower() for n in g["players"]):
                continue
            if q.get("board") and q["board"].lower() not in (g["board"] or "").lower():
                continue
            if q.get("result") and g["result"] != q["result"]:
                continue
            day = (g["started"] or "")[:10]
            if q.get("since") and (not day or day < q["since"]):
                continue
            if q.get("until") and (not day or day > q["until"]):
                continue
            out.append(g)
        out.reverse()             # newest first, as a list to look through
        return JSONResponse({"games": out, "variants": sorted({g["variant"] for g in rows}),
                             "boards": sorted({g["board"] for g in rows if g["board"]}),
                             "results": list(RESULTS) + sorted({g["result"] for g in rows} - set(RESULTS))})

    async def game(self, request):
        d = await self._game_of(request)
        data = await run_in_threadpool(board.replay, d)
        d.update(data)
        d["record"] = gamerecord.write(d)
        d["movetext"] = gamerecord.movetext_tokens(d)
        return JSONResponse(d)

    async def record(self, request):
        if request.path_params["fmt"] not in ("txt", "json"):
            return _error(404, "a record is record.txt or record.json")
        d = await self._game_of(request)
        number = d.pop("number")
        for extra in ("problem", "complete", "held"):       # (an event's game says how much of it came)
            d.pop(extra, None)
        if request.path_params["fmt"] == "json":
            body, media = gamerecord.dumps([d]), "application/json"
        else:
            body, media = gamerecord.write(d), "text/plain; charset=utf-8"
        what = "game-%d" % number if number is not None else "%s-game-%d" % (d["board"], d["board_game"])
        name = "sowlight-%s.%s" % (what, "json" if request.path_params["fmt"] == "json" else "txt")
        return Response(body, media_type=media, headers={"Content-Disposition": 'attachment; filename="%s"' % name})

    async def analysis(self, request):
        try:
            depth = int(request.query_params.get("depth", self.depth))
        except ValueError:
            return _error(400, "depth is a whole number of moves, like 6")
        if not 1 <= depth <= 20:
            return _error(400, "depth is 1 to 20 moves")
        d = await self._game_of(request)
        key = (d["id"], len(d["moves"]), depth)        # (an event's game grows)
        if key not in self.analyses:
            job = self.running.get(key)
            if job is None:
                job = asyncio.ensure_future(run_in_threadpool(analysis.report, d, depth, self.time_ms))
                self.running[key] = job
            try:
                self.analyses[key] = await asyncio.shield(job)
            finally:
                self.running.pop(key, None)
        return JSONResponse(self.analyses[key])

    async def statistics(self, request):
        def collect():
            try:
                with self._open() as arc:
                    rows = arc.games()
                    for g in rows:
                        # Who moved first: the start position's player to move.
                        g["first"] = gamerecord.position_game(arc.game(g["number"])["start"]).to_move
                    return rows
            except archive.MissingArchiveError:
                return []
        rows = await run_in_threadpool(collect)
        return JSONResponse(stats.statistics(rows))

    # ----- the live board ------------------------------------------------------------------------

    async def live_now(self, request):
        return JSONResponse(self.live.snapshot)

    async def live_values(self, request):
        game = self.live.shown
        if game is None or game.is_over():
            return _error(400, "the board shows no game with a move to play")
        rep = await run_in_threadpool(analysis.position_report, game.copy(), self.depth, self.time_ms)
        rep["position"] = mancala.to_text(game)
        return JSONResponse(rep)

    async def live_events(self, request):
        return _events(request, self.live.subscribe(), self.live.unsubscribe)

    # ----- an event ------------------------------------------------------------------------------

    async def event_now(self, request):
        if self.event is None:
            return JSONResponse(dict(EMPTY_EVENT, boards=[]))
        return JSONResponse(dict(self.event.about(), boards=self.event.cells()))

    async def event_events(self, request):
        if self.event is None:
            return _error(404, "this server shows no event: start it with --event NAME")
        return _events(request, self.event.subscribe(), self.event.unsubscribe)

    async def meta(self, request):
        from importlib.metadata import PackageNotFoundError, version
        try:
            sw = version("sowlight")
        except PackageNotFoundError:
            sw = "?"
        from sowlight.terminal import render
        return JSONResponse({"colours": board.colours(), "version": sw, "depth": self.depth,
                             "event": self.event.event if self.event is not None else None,
                             "roles": {role: text for role, (_, text) in render.MARKS.items()},
                             "thresholds": {"mistake": analysis.MISTAKE, "blunder": analysis.BLUNDER}})


def _events(request, q, unsubscribe):
    """Server-sent events: each dict the queue gives, as one `data:` line, until the page goes."""
    async def stream():
        try:
            while True:
                try:
                    item = await asyncio.wait_for(q.get(), KEEP_ALIVE_S)
                except asyncio.TimeoutError:
                    if await request.is_disconnected():
                        return
                    yield ": still here\n\n"
                    continue
                yield "data: %s\n\n" % json.dumps(item, separators=(",", ":"))
        finally:
            unsubscribe(q)

    return StreamingResponse(stream(), media_type="text/event-stream",
                             headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"})


def _error(status, message):
    return JSONResponse({"error": message}, status_code=status)


async def _index(request):
    return FileResponse(os.path.join(STATIC, "index.html"))


def make_app(archive_path, live, depth=analysis.DEPTH, time_ms=2000, event=None):
    """`event`: an event.EventBoards whose broker connection is up, or None."""
    api = _Api(archive_path, live, depth, time_ms, event)

    @contextlib.asynccontextmanager
    async def lifespan(app):
        await run_in_threadpool(live.start, asyncio.get_running_loop())
        if event is not None:
            event.start(asyncio.get_running_loop())
        try:
            yield
        finally:
            await run_in_threadpool(live.stop)
            if event is not None:
                await run_in_threadpool(event.stop)

    async def known_errors(request, exc):
        status = 404 if isinstance(exc, (archive.GameNotFoundError, EventGameNotFound)) else 400
        return _error(status, str(exc))

    routes = [
        Route("/", _index),
        Route("/api/meta", api.meta),
        Route("/api/live", api.live_now),
        Route("/api/live/events", api.live_events),
        Route("/api/live/analysis", api.live_values),
        Route("/api/games", api.games),
        Route("/api/games/{ref}", api.game),
        Route("/api/games/{ref}/record.{fmt:str}", api.record),
        Route("/api/games/{ref}/analysis", api.analysis),
        Route("/api/stats", api.statistics),
        Route("/api/event", api.event_now),
        Route("/api/event/events", api.event_events),
        Route("/api/event/boards/{board}/games/{game}", api.game),
        Route("/api/event/boards/{board}/games/{game}/record.{fmt:str}", api.record),
        Route("/api/event/boards/{board}/games/{game}/analysis", api.analysis),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    handlers = {archive.ArchiveError: known_errors, gamerecord.RecordError: known_errors,
                analysis.AnalysisError: known_errors, mancala.RulesError: known_errors,
                EventGameNotFound: known_errors}
    return Starlette(routes=routes, lifespan=lifespan, exception_handlers=handlers)
