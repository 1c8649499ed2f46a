"""A board as the companion sees it over the link: its state, its LEDs, the moves made on it.

    board = open_board(port=None)           # the attached board, or a virtual one when none is
    view = board.view
    view.look()                              # the state and the LEDs as they are now
    view.pump(0.5)                           # take the events that came (leds, move, state, ...)
    view.lit                                 # {cell: (role, count)}: what the LEDs ask for
    board.close()

Everything here comes from what the board publishes -- its hello, its `state`
snapshots and its `leds`, `move`, `step` and `log` events (docs/protocol.md) --
and, on a virtual board, the seeds its `sim` replies report.  The rules core is
used only to read the published position (names, pictures), the way a player
who knows the game reads a board.

The board's cells (LEDs, `sim` acts) and the game's cells (positions, traces)
are numbered differently when a game uses a board's stores as pits;
`board_cells()` maps one onto the other exactly as the board's controller does.
"""
import os
import time

import mancala
from mancala.trace import Step
from sowlight_fw import cellmap as fw_cellmap
from sowlight_fw.journal import move_tuple
from sowlight_fw import config as fw_config

from sowlight.board import link as _link
from sowlight.board import ports

SIM_PROTO = (1, 1)      # `press` and `sim` came with protocol 1.1
# A virtual board's sensors never bounce: it debounces for 30 ms rather than a real board's 150,
# so that robot hands go at the pace of the link, not of wooden pits.
VIRTUAL_SETTINGS = {"debounce_ms": 30}


class BoardViewError(_link.LinkError):
    """The board cannot do what was asked (no game, real seeds, an old firmware); the message says what to do."""


class RealSeeds(BoardViewError):
    """A `sim` act was asked of a board with real seeds."""


# ----- cells -------------------------------------------------------------------------------------------

class _Shape:
    """What sowlight_fw.cellmap reads of a board, from the summary in its hello."""

    def __init__(self, hello):
        cfg = hello.get("config") or {}
        geo = cfg.get("geometry") or {}
        self.rows = geo.get("rows", 2)
        self.pits_per_row = geo.get("pits_per_row", 6)
        self.stores = geo.get("stores", 0)
        self.pits = self.rows * self.pits_per_row
        self.cells = self.pits + self.stores
        sensed = (cfg.get("sensors") or {}).get("cells")
        if not isinstance(sensed, list):
            sensed = range(self.cells)
        sensed = set(sensed)
        self.cell_sensors = [0 if c in sensed else None for c in range(self.cells)]


def board_cells(hello, game):
    """The board cell of each of the game's cells (pits, then stores); -1 where none: the map
    the board's controller follows the game with (sowlight_fw.cellmap.game_cells)."""
    b = _Shape(hello)
    cells = fw_cellmap.game_cells(b, game)
    if cells is None:
        raise BoardViewError("%s does not fit this board (%dx%d)" % (game.title, b.rows, b.pits_per_row))
    return list(cells)


def game_of(state):
    """The rules core's game in the position a `state` (or `move`) snapshot publishes."""
    pos = state["pos"]
    stores = pos.get("stores") or None
    return mancala.Game(state["variant"], pits=list(pos["pits"]), stores=stores, to_move=pos.get("to_move", 0),
                        **dict(state.get("options") or {}))


def replay(records, start=None):
    """The game a run of journal records makes (docs/protocol.md, record kinds).

    `start` is (game, variant, options) to go on from; returns the same triple."""
    game, variant, options = start or (None, None, {})
    for r in records:
        k = r["kind"]
        if k == "start":
            variant, options = r["variant"], dict(r.get("options") or {})
            game = _new_game(variant, options, r.get("pos"))
        elif game is None:
            raise BoardViewError("the journal of this game does not begin with its start record")
        elif k == "move":
            game.push(move_tuple(r["move"]))
        elif k == "undo":
            game.undo()
        elif k == "setpos":
            game = _new_game(variant, options, r["pos"])
    return game, variant, options


def _new_game(variant, options, pos=None):
    if pos is None:
        return mancala.Game(variant, **options)
    return game_of({"variant": variant, "options": options, "pos": pos})


def steps_of(trace):
    """A `move` event's trace ([kind, cell, count, to] lists) as the rules core's steps."""
    return [Step(s[0], s[1], s[2], s[3]) for s in trace or ()]


def parse_lit(lit):
    """A `leds` lit list -> {cell: (role, count)}.

    A count not given is 1, but on a `take`: 0, the whole cell (a counted take,
    such as Lane's feed of one seed, takes that many into the hand)."""
    out = {}
    for item in lit:
        if len(item) >= 2:
            role = item[1]
            out[item[0]] = (role, item[2] if len(item) > 2 and item[2] else (0 if role == "take" else 1))
    return out


# ----- the view -------------------------------------------------------------------------------------------

class BoardView:
    """What a board shows, kept current from its events (see the module's docstring).

    `watchers` are called as fn(kind, payload) for every event taken, after
    the view took it in (kinds as link.next_event gives them)."""

    def __init__(self, lk, watchers=()):
        self.link = lk
        self.hello = dict(lk.board_hello or {})
        self.hello.pop("re", None)
        self.board_id = lk.board_id
        self.virtual = bool(self.hello.get("virtual"))
        self.proto = tuple(self.hello.get("proto") or (1, 0))
        self.state = lk.state      # the latest state snapshot
        self.lit = None            # {cell: (role, count)} from the latest `leds`
        self.leds_seen = 0         # changes of the LEDs seen (a `leds` event, or a state that tells one first)
        self._told = None          # the lit cells the board last told (`lit` may be what a strip shows)
        self.moves = []            # `move` events, in order
        self.mismatches = []       # `step` events with ev "mismatch"
        self.logs = []             # (level, msg) of `log` events
        self.seeds = None          # a virtual board's seeds: the latest `sim` reply
        self.events = 0
        self.watchers = list(watchers)
        self._journal = None       # (game, ply, replay state) of the journal replayed so far
        self._known = None         # (game, ply) of the last move or state taken in

    # ----- events ----------------------------------------------------------------------------

    def pump(self, timeout=0.0):
        """Take the events that came; wait up to `timeout` for the first.  Returns how many."""
        n = 0
        wait = timeout
        while True:
            ev = self.link.next_event(timeout=wait)
            if ev is None:
                return n
            self.take(*ev)
            n += 1
            wait = 0.0

    def wait_for(self, done, timeout, settle=0.005):
        """Take events until done() is true (then those that follow within `settle`), or `timeout`
        passes.  Returns done()."""
        end = time.monotonic() + timeout
        while not done():
            left = end - time.monotonic()
            if left <= 0:
                return False
            self.pump(min(left, 0.1))
        self.pump(settle)
        return True

    def _told_lit(self, lit):
        """The board told what it lights.  Counted as a change only if it is one: a `get_state`
        reply may have told it before its `leds` event came, and hands waiting for the board's
        answer to their next act would take the late event for that answer."""
        if lit != self._told:
            self._told = lit
            self.lit = lit
            self.leds_seen += 1

    def take(self, kind, p):
        self.events += 1
        if kind == "leds":
            self._told_lit(parse_lit(p["lit"]))
        elif kind == "state":
            self.state = p
            self._catch_up(p)
        elif kind == "move":
            # A reply the board wrote in the scan that made the move goes out before the move's
            # event: a state with the new ply may have come first, and the move been read from the
            # journal already.  The event (with its trace) then takes that entry's place.
            read = [i for i in range(len(self.moves)) if self.moves[i].get("from_journal")
                    and (self.moves[i]["game"], self.moves[i]["ply"]) == (p["game"], p["ply"])]
            if read:
                self.moves[read[-1]] = p
            else:
                self.moves.append(p)
            self._known = (p["game"], max(p["ply"], self._known[1]) if self._known and self._known[0] == p["game"]
                           else p["ply"])
            if self.state is not None and self.state.get("game") == p["game"] and "pos" in p:
                # A move changes the position; the board sends a state only when the phase
                # changes besides (the game over, say): keep the snapshot current meanwhile.
                self.state = dict(self.state, pos=p["pos"], ply=p["ply"], phase="await_lift", expect=None)
        elif kind == "step":
            if p.get("ev") == "mismatch":
                self.mismatches.append(p)
        elif kind == "log":
            self.logs.append((p.get("level"), p.get("msg")))
        elif kind == _link.LINK and p.get("status") == "board_restarted":
            self.state = None
        for w in self.watchers:
            w(kind, p)

    # ----- requests -----------------------------------------------------------------------------

    def request(self, mtype, payload=None):
        reply = self.link.request(mtype, payload)
        if mtype == "get_state":
            self.pump()         # the events sent before the reply are in the queue: they come first
            self.state = reply
            if isinstance(reply.get("lit"), list):
                # (1.1) what the LEDs show now: a `leds` event lost on a noisy line is made good here
                self._told_lit(parse_lit(reply["lit"]))
            self._catch_up(reply)
        return reply

    def refresh(self):
        """A fresh state snapshot (events that came before it are taken first)."""
        self.pump()
        return self.request("get_state")

    def _catch_up(self, state):
        """Moves the board journalled without their `move` event reaching us (a lossy line, a
        frame too long for the link): read from the journal, and taken in as events."""
        game, ply = state.get("game"), state.get("ply", 0)
        known = self._known
        self._known = (game, ply)
        if game is None or known is None or known[0] != game or ply <= known[1]:
            return
        at = known[1]
        while at < ply:
            try:
                reply = self.link.request("journal_get", {"game": game, "from": at + 1, "max": 50})
            except _link.LinkError:
                return
            recs = [r for r in reply["records"] if at < r["ply"] <= ply]
            if not recs:
                return
            for r in recs:
                at = max(at, r["ply"])
                if r["kind"] == "move":
                    p = {"game": game, "ply": r["ply"], "player": r.get("player"), "move": r["move"],
                         "name": r.get("name"), "trace": None, "from_journal": True}
                    if r["ply"] == ply and state.get("pos") is not None:
                        p["pos"] = state["pos"]
                    self.moves.append(p)
                    for w in self.watchers:
                        w("move", p)
            if not reply.get("more"):
                return

    def has_sim(self):
        return self.proto >= SIM_PROTO

    def press(self, button):
        if not self.has_sim():
            raise BoardViewError("this board's firmware (protocol %d.%d) has no `press`: update it (sowlight deploy)"
                                 % self.proto[:2])
        return self.request("press", {"button": button})

    def sim(self, act, **fields):
        """A physical act on a virtual board's seeds (docs/protocol.md, `sim`); returns the reply."""
        if not self.virtual:
            raise RealSeeds("this board has real seeds: move them by hand (only a virtual board takes `%s`)" % act)
        payload = {"act": act}
        for k, v in fields.items():
            if v is not None:
                payload[k] = v
        try:
            reply = self.request("sim", payload)
        except _link.BoardError as e:
            if e.code == "unsupported":
                raise RealSeeds("this board has real seeds: move them by hand (%s)" % e.msg) from None
            raise
        self.seeds = reply
        return reply

    def look(self, timeout=2.0):
        """The state and the LEDs as they are now.

        A board sends `leds` only when they change: if no `leds` came since the
        link was opened (and the state does not carry them), the menu button is
        pressed twice -- out to the menu and back, the game untouched -- which
        makes the board show, and send, its LEDs again."""
        state = self.refresh()
        if "lit" in state:
            self._told = self.lit = parse_lit(state["lit"])
            return state
        if self.lit is None and state.get("game") is not None and self.has_sim():
            seen = self.leds_seen
            self.press("menu")
            self.wait_for(lambda: self.leds_seen > seen, timeout)
            seen = self.leds_seen
            self.press("menu")
            self.wait_for(lambda: self.leds_seen > seen, timeout)
            state = self.refresh()
        if self.lit is None:
            self.lit = {}
        return state

    # ----- reading it ----------------------------------------------------------------------------

    def game(self, state=None):
        """The rules core's game as the board has it (None without a game): replayed from the
        board's journal, which holds what a position cannot (a game's stage, its history), else
        set up from the published position.  Shared: copy() it before playing on it."""
        state = self.state if state is None else state
        if state is None or state.get("game") is None or state.get("pos") is None:
            return None
        try:
            game = self._replayed(state)
        except (_link.LinkError, mancala.RulesError, KeyError, TypeError, ValueError):
            game = None
        pos = state["pos"]
        if game is None or list(game.pits) != list(pos["pits"]) or list(game.stores) != list(pos.get("stores") or []) \
                or game.to_move != pos.get("to_move", game.to_move):
            game = game_of(state)
        return game

    def _replayed(self, state):
        """The game replayed from the journal up to the state's ply (records fetched once)."""
        number, ply = state["game"], state["ply"]
        cached = self._journal
        if cached is None or cached[0] != number or cached[1] > ply:
            cached = (number, -1, (None, None, {}))
        _, at, run = cached
        while at < ply:
            reply = self.link.request("journal_get", {"game": number, "from": at + 1, "max": 50})
            recs = [r for r in reply["records"] if r["ply"] > at]
            if not recs or recs[0]["ply"] != at + 1:
                break
            for r in recs:
                if r["ply"] != at + 1:
                    break
                run = replay([r], run)
                at = r["ply"]
            if not reply.get("more"):
                break
        self._journal = (number, at, run)
        return run[0] if at == ply else None

    def cells_of(self, game):
        return board_cells(self.hello, game)

    def cells(self, role):
        """The board cells lit with `role`, in order."""
        return sorted(c for c, (r, _) in (self.lit or {}).items() if r == role)

    def roles_by_game_cell(self, game):
        """{game cell: (role, count)} of the lit board cells the game uses."""
        gmap = self.cells_of(game)
        lit = self.lit or {}
        return {i: lit[b] for i, b in enumerate(gmap) if b >= 0 and b in lit}

    def counts_by_game_cell(self, game):
        """A virtual board's seeds per game cell (None when not known)."""
        if self.seeds is None:
            return None
        counts = self.seeds["counts"]
        return [counts[b] if 0 <= b < len(counts) else 0 for b in self.cells_of(game)]

    def describe(self):
        return "%s%s (%s, %s)" % ("virtual board " if self.virtual else "board ", self.board_id, shape(self.hello),
                                  self.hello.get("sw", "?"))


def shape(hello):
    """A board's geometry from its hello, said short: `2x6 + 2 stores`."""
    geo = (hello or {}).get("config", {}).get("geometry", {})
    return "%sx%s%s" % (geo.get("rows", "?"), geo.get("pits_per_row", "?"),
                        " + %d stores" % geo["stores"] if geo.get("stores") else "")


# ----- opening a board, or a virtual one -----------------------------------------------------------------

class Connection:
    """A link to a board and its view; `virtual` is the VirtualBoard started for it, if one was."""

    def __init__(self, lk, view, where, virtual=None):
        self.link = lk
        self.view = view
        self.where = where
        self.virtual = virtual

    def close(self):
        try:
            self.link.close()
        finally:
            if self.virtual is not None:
                self.virtual.stop()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
        return False


def preset_for(variant, boards=None):
    """The smallest board preset that plays `variant` as built (else with its stores as pits)."""
    from sowlight.hardware import presets
    from sowlight_fw.cellmap import fitting_variants
    info = mancala.variant_info(variant)       # UnknownVariantError names the close matches
    directory = presets.boards_dir(boards)
    fallback = None
    for name in presets.preset_names(directory):
        try:
            b = fw_config.load(os.path.join(directory, name + ".json"))
        except (fw_config.ConfigError, OSError, ValueError):
            continue
        if not fitting_variants(b, [info["id"]]):
            continue
        if fw_cellmap.fit(b, info["rows"], info["pits_per_row"], info["stores_sown"]) == "exact":
            return name
        fallback = fallback or name
    if fallback is None:
        raise BoardViewError("no board preset plays %s (%dx%d): `sowlight board presets` lists what each plays"
                             % (info.get("title", variant), info["rows"], info["pits_per_row"]))
    return fallback


def open_board(port=None, url=None, vid=None, pid=None, wait=10.0, virtual="auto", variant=None, preset=None,
               boards=None, journal=None, settings=None, say=None, watchers=()):
    """Connect to a board; returns a Connection.

    `port`/`url`/`vid`+`pid` name the board (an error if it is not there).
    Without them, `virtual` decides: "auto" finds the attached board by its USB
    ids and starts a virtual board when there is none; "always" starts one
    without looking; "never" needs a real board.  A virtual board gets
    `preset` (default: the smallest that plays `variant`) and starts at its
    menu.  `say(text)` is told what was found or started."""
    say = say or (lambda text: None)
    vb = None
    named = port is not None or url is not None
    looked = not named and virtual != "always"
    if looked:
        try:
            ports.find_board(vid, pid)
        except ports.NoBoardError:
            if virtual == "never" or vid is not None or pid is not None:
                raise
            virtual = "always"
    if not named and virtual == "always":
        from sowlight.hardware.presets import PresetError
        from sowlight.simulation.virtual import VirtualBoard, VirtualBoardError
        try:
            vb = VirtualBoard(preset=preset or preset_for(variant or "oware", boards), journal=journal,
                              boards=boards, settings=VIRTUAL_SETTINGS if settings is None else settings)
            port = vb.start()
        except (VirtualBoardError, PresetError, mancala.RulesError) as e:
            raise BoardViewError("cannot start a virtual board: %s" % e) from None
    try:
        opener = ports.opener(port=port, url=url, vid=vid, pid=pid)
        lk = _link.Link(opener, reconnect_for=wait, watch_state=True)
        try:
            lk.connect()
        except BaseException:
            lk.close()
            raise
    except BaseException:
        if vb is not None:
            vb.stop()
        raise
    where = port or url or getattr(opener, "device", None)
    view = BoardView(lk, watchers)
    if vb is not None:
        say("%splaying on a virtual board (the real firmware, seeds in software) at %s"
            % ("no board attached: " if looked else "", where))
    else:
        say("connected to %s on %s" % (view.describe(), where))
    return Connection(lk, view, where, vb)
