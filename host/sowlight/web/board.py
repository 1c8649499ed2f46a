"""A game's board as data for the browser: where each cell is drawn, the LED colours, a move's frames.

The browser draws the SVG from these (static/board.js); nothing here does I/O.

    layout(game)            the rows of pits top to bottom as seen by player 0, the stores, owners, names
    frames(game, trace)     the seeds on the board after each physical step of a move
    colours()               the LED colour of each role, as the board's firmware lights it
"""
import mancala
from mancala.trace import Step
from sowlight_fw import colours as _colours
from sowlight_fw.follow import Follower

from sowlight.games import record as gamerecord


def layout(game):
    """Where the game's cells go on the screen, player 0 at the bottom edge (docs/config.md,
    "Canonical numbering"): two rows, or four (each player's back and front rows)."""
    rows = _rows(game.rows, game.pits_per_row)
    stores = [game.store(p) for p in range(game.players)]
    left = right = None
    counters = []
    if game.players == 2:
        # Each store at its owner's right (at the left for games like Sunca): seen from player 0's
        # side, player 1's right is the screen's left.
        left, right = (stores[0], stores[1]) if game.stores_at_left else (stores[1], stores[0])
    else:
        counters = stores       # one player, or three or four (Kpo): counters beside the board
    owner = [None] * len(game.cells())
    for p in range(game.players):
        for c in game.side(p):
            owner[c] = p
        owner[stores[p]] = p
    names = [game.pit_name(i) for i in range(game.n_pits)] + ["store %d" % p for p in range(game.players)]
    return {"rows": rows, "left": left, "right": right, "counters": counters, "owner": owner, "names": names,
            "players": game.players, "title": game.title}


def _rows(count, n):
    """The pits of each row, top to bottom, left to right as player 0 sees them."""
    if count == 4:
        return [list(range(3 * n - 1, 2 * n - 1, -1)), list(range(3 * n, 4 * n)),
                list(range(2 * n - 1, n - 1, -1)), list(range(n))]
    return [list(range(2 * n - 1, n - 1, -1)), list(range(n))]


def board_layout(hello):
    """A board's own cells when it has no game: its geometry from its hello, cells by number."""
    geo = ((hello or {}).get("config") or {}).get("geometry") or {}
    rows_n, n, stores = geo.get("rows", 2), geo.get("pits_per_row", 6), geo.get("stores", 0)
    rows = _rows(rows_n, n)
    pits = rows_n * n
    cells = pits + stores
    return {"rows": rows, "left": pits + 1 if stores == 2 else None, "right": pits if stores == 2 else None,
            "counters": [], "owner": [None] * cells, "names": [str(c) for c in range(cells)], "players": 2,
            "title": "board"}


def colours():
    """{role: "#rrggbb"}: the LED colours of docs/firmware.md (sowlight_fw.colours), and `lift0` ..
    `lift3` for the pits each player may lift (a board lights them in the mover's colour)."""
    out = {}
    for i, name in enumerate(_colours.ROLE_NAMES):
        if name not in out and name != "off":
            out[name] = "#%02x%02x%02x" % _colours.rgb(i)
    for p in range(4):
        out["lift%d" % p] = "#%02x%02x%02x" % _colours.rgb(_colours.PLAYER + p)
    return out


def _follower(game):
    # The firmware's own bookkeeping of what each step does to the seeds (Follower.apply), on
    # the game's cells as they are: one copy of that rule for the board and the browser.
    f = Follower(len(game.cells()), False)
    f.gmap = list(range(len(game.cells())))
    return f


def frames(game, trace):
    """The board after each step of `trace` played from `game`'s position (not changed):
    [{"counts", "hand", "step": [kind, cell, count, to]}], one per step."""
    counts = list(game.cells())
    f = _follower(game)
    hand = 0
    out = []
    for s in trace:
        k = s[0]
        if k in ("lift", "relay"):
            hand += s[2]
        elif k == "drop":
            hand -= 1
        elif k == "take" and s[3] == mancala.HAND:
            hand += s[2]
        f.apply(counts, _step(s))
        out.append({"counts": list(counts), "hand": max(hand, 0), "step": [s[0], s[1], s[2], s[3]]})
    return out


def _step(s):
    return s if isinstance(s, Step) else Step(s[0], s[1], s[2], s[3])


def picture(game):
    """The still picture of a position: counts per cell, whose turn, the outcome when over."""
    out = {"counts": list(game.cells()), "to_move": game.to_move, "over": None}
    if game.is_over():
        o = game.outcome()
        out["over"] = {"winner": o.winner, "scores": list(o.scores), "reason": o.reason}
    return out


def replay(d):
    """A game dict (gamerecord's shape) as the replay page needs it: the layout, the position
    before the first move and after each event, and each move's frames, step by step.

    Each position is the one the archive holds; a move's frames come from its recorded trace
    played from the position before it."""
    game = gamerecord.position_game(d["start"])
    out = {"layout": layout(game), "positions": [picture(game)], "plies": []}
    for e in d["moves"]:
        after = gamerecord.position_game(e["position"])
        if e["kind"] == "setup":
            out["plies"].append({"ply": e["ply"], "kind": "setup", "frames": []})
        else:
            out["plies"].append({"ply": e["ply"], "kind": "move", "player": e["player"], "notation": e["notation"],
                                 "frames": frames(game, e["trace"])})
        out["positions"].append(picture(after))
        game = after
    return out
