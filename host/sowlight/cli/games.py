"""`sowlight games list|show|export|import|delete`, `sowlight replay`, `sowlight hint`.

    sowlight games list [--variant V] [--board B] [--last N] [--json]
    sowlight games show ID [--json]
    sowlight games export ID... | --all [--variant V] [--format json|record] [-o FILE]
    sowlight games import FILE... [--dry-run]
    sowlight games delete ID [--yes] [--force]
    sowlight replay ID [--step]
    sowlight hint --position TEXT | --variant V [-o NAME=VALUE] [--moves "C f ..."] | --game ID
                  [--depth N] [--time S] [--json]

Every archive command takes --db PATH (else $SOWLIGHT_DB, else the user data
directory: see paths.py).  ID is a game's number in `games list`, or its id (or
the first 4+ characters of it).
"""
import argparse
import math
import os
import sys
import tempfile

import mancala
from mancala import search

from sowlight.games import archive
from sowlight.games import record as gamerecord
from sowlight.terminal import harmless
from sowlight import paths
from sowlight.terminal import render
from sowlight.play import variant_name
from sowlight.cli.errors import CliError


def _guard(name, command):
    def run(args):
        try:
            return command(args)
        except (CliError, archive.ArchiveError, gamerecord.RecordError, mancala.RulesError) as e:
            print("sowlight %s: %s" % (name, harmless.text(e)), file=sys.stderr)
            return getattr(e, "status", 1)
        except BrokenPipeError:
            raise  # the reader went away: cli.main ends quietly
        except OSError as e:
            print("sowlight %s: %s%s" % (name, harmless.text(e.strerror or e),
                                         (": " + harmless.text(e.filename)) if getattr(e, "filename", None) else ""),
                  file=sys.stderr)
            return 1
    return run


def _open(args, create=False, read_only=False):
    return archive.Archive(paths.archive_path(args.db), create=create, read_only=read_only)


class Progress:
    """A text progress bar on a terminal (`label [#####.....] 12/40`); silent when
    the stream is not a terminal, so logs and pipes get no carriage returns."""

    WIDTH = 30

    def __init__(self, label, total, stream=None):
        self.stream = sys.stderr if stream is None else stream
        self.label = label
        self.total = total
        self.on = total > 1 and _isatty(self.stream)
        self._shown = -1

    def __call__(self, done):
        if not self.on:
            return
        filled = self.WIDTH * done // self.total
        if filled == self._shown and done != self.total:
            return
        self._shown = filled
        self.stream.write("\r%s [%s%s] %d/%d" % (self.label, "#" * filled, "." * (self.WIDTH - filled), done, self.total))
        self.stream.flush()

    def close(self):
        if self.on and self._shown >= 0:
            self.stream.write("\n")
            self.stream.flush()


def _isatty(stream):
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


# -- games list / show ----------------------------------------------------------

def cmd_list(args):
    if args.last is not None and args.last < 1:
        raise CliError("--last must be 1 or more", 2)
    try:
        arc = _open(args, read_only=True)
    except archive.MissingArchiveError:
        if args.json:
            print("[]")
        else:
            print("no games yet (no archive at %s)" % harmless.text(paths.archive_path(args.db)))
        return 0
    with arc:
        variant = _variant_id(args.variant) if args.variant else None
        rows = arc.games(variant=variant, board=args.board, limit=args.last)
    if args.json:
        print(harmless.json_dumps(rows, indent=1))
        return 0
    if not rows:
        print("no games%s in %s" % ((" of " + variant) if variant else "", harmless.text(arc.path)))
        return 0
    table = [("#", "date", "variant", "players", "result", "moves", "board")]
    for g in rows:
        table.append(tuple(harmless.text(cell) for cell in (
            g["number"], (g["started"] or "?")[:10], g["variant"], "; ".join(g["players"]), g["result"], g["moves"],
            ("%s #%d" % (g["board"], g["board_game"])) if g["board_game"] is not None else (g["board"] or ""))))
    widths = [max(len(r[i]) for r in table) for i in range(len(table[0]))]
    for r in table:
        cells = [r[0].rjust(widths[0])] + [r[i].ljust(widths[i]) for i in range(1, len(r) - 2)] + [r[-2].rjust(widths[-2]), r[-1]]
        print("  ".join(cells).rstrip())
    return 0


def _variant_id(name):
    try:
        return mancala.variant_info(name)["id"]
    except mancala.RulesError as e:
        raise CliError(str(e), 2)


def replay_of(d):
    """A gamerecord.Replay that has played the whole game (its final position in .game).

    Archived moves were legal when stored; should this version's rules refuse
    one (a rule fixed since), CliError says so rather than pointing at a pit."""
    r = gamerecord.Replay(d["start"])
    for e in d["moves"]:
        try:
            if e["kind"] == "setup":
                r.setup(e["position"])
            else:
                r.move(move=gamerecord.move_from_json(e["move"]))
        except mancala.RulesError as err:
            raise CliError("game %s, ply %d (%s) does not replay with this version's rules: %s. The archive keeps "
                           "the game as recorded (sowlight games export shows it)" % (
                               d.get("number", d["id"]), e["ply"], e.get("notation", "a position set by hand"), err))
    return r


def cmd_show(args):
    with _open(args, read_only=True) as arc:
        d = arc.game(args.id)
    if args.json:
        print(harmless.json_dumps(d, indent=1))
        return 0
    number = d["number"]
    print("game %d" % number)
    sys.stdout.write(harmless.text(gamerecord.write(d), lines=True))
    print("")
    try:
        game = replay_of(d).game
    except CliError as e:
        # Still show the last position the archive holds.
        print("sowlight games show: %s" % harmless.text(e), file=sys.stderr)
        game = gamerecord.position_game(d["moves"][-1]["position"] if d["moves"] else d["start"])
    for line in render.board(game):
        print(line)
    print(_ending(game, d))
    return 0


def _ending(game, d):
    if game.is_over():
        return render.outcome(game)
    if d["result"] != "*":
        return harmless.text("Result %s%s" % (d["result"], (" (%s)" % d["reason"]) if d.get("reason") else ""))
    return "Not finished: player %d to move" % game.to_move


# -- export / import ------------------------------------------------------------------

def cmd_export(args):
    if not args.ids and not args.all:
        raise CliError("name the games to export (their numbers from `sowlight games list`), or --all", 2)
    if args.ids and args.all:
        raise CliError("give game numbers or --all, not both", 2)
    if args.variant and not args.all:
        raise CliError("--variant chooses games with --all: add --all", 2)
    fmt = args.format or ("json" if (args.output or "").lower().endswith(".json") else "record")
    with _open(args, read_only=True) as arc:
        if args.all:
            numbers = arc.numbers(variant=_variant_id(args.variant) if args.variant else None)
        else:
            numbers = [arc.resolve(i) for i in args.ids]
        games = []
        for n in numbers:
            d = arc.game(n)
            d.pop("number")
            games.append(d)
    text = gamerecord.dumps(games) if fmt == "json" else gamerecord.write_many(games)
    if not args.output or args.output == "-":
        sys.stdout.write(harmless.text(text, lines=True))
        return 0
    _write_atomically(args.output, text)
    print("exported %d game%s to %s (%s)" % (len(games), "" if len(games) == 1 else "s", harmless.text(args.output), fmt),
          file=sys.stderr)
    return 0


def _write_atomically(path, text):
    # A cut-off export never replaces a good file: write beside it, then rename.
    folder = os.path.dirname(os.path.abspath(path))
    fd, tmp = tempfile.mkstemp(prefix=".sowlight-export-", dir=folder)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as f:
            f.write(text)
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def read_games(path, progress=None):
    """The games of one export file (JSON or record, told by its first character), checked."""
    source = "<stdin>" if path == "-" else path
    try:
        if path == "-":
            stdin = getattr(sys.stdin, "buffer", None)
            text = sys.stdin.read() if stdin is None else stdin.read().decode("utf-8")
        else:
            with open(path, "rb") as f:
                text = f.read().decode("utf-8")
    except UnicodeDecodeError as e:
        raise gamerecord.RecordError("not UTF-8 text (byte 0x%02x at offset %d): an export is a JSON file or a game "
                                     "record in UTF-8; convert it, or give the file sowlight wrote" % (
                                         e.object[e.start], e.start), None, harmless.text(source))
    if text.startswith("\ufeff"):
        text = text[1:]  # a byte-order mark some editors write
    start = text.lstrip()[:1]
    if start == "{":
        return gamerecord.loads(text, source)
    if start == "[":
        return gamerecord.parse(text, source)
    raise gamerecord.RecordError("neither a JSON export nor a game record (a record starts with [Variant \"...\"])", 1, source)


def cmd_import(args):
    games = []
    for path in args.files:
        games.extend(read_games(path))
    if args.dry_run:
        print("%d game%s read and checked; nothing imported (--dry-run)" % (len(games), "" if len(games) == 1 else "s"))
        return 0
    bar = Progress("importing", len(games))
    try:
        with _open(args, create=True) as arc:
            added, skipped = arc.import_games(games, progress=bar)
            path = arc.path
    finally:
        bar.close()
    for gid, why in skipped:
        print("skipped %s: %s" % (harmless.text(gid), why), file=sys.stderr)
    span = ""
    if added:
        span = " (game%s %s)" % ("" if len(added) == 1 else "s", str(added[0]) if len(added) == 1 else "%d-%d" % (added[0], added[-1]))
    print("imported %d game%s into %s%s%s" % (len(added), "" if len(added) == 1 else "s", harmless.text(path), span,
                                              ("; %d already there" % len(skipped)) if skipped else ""))
    return 0


# -- delete ----------------------------------------------------------------------------

def cmd_delete(args):
    with _open(args) as arc:
        number = arc.resolve(args.id)
        g = next(x for x in arc.games() if x["number"] == number)
        what = harmless.text("game %d (%s, %s, %s, %s, %d moves)" % (number, g["variant"], (g["started"] or "?")[:10],
                                                                      "; ".join(g["players"]), g["result"], g["moves"]))
        if not args.yes:
            try:
                answer = input("delete %s? [y/N] " % what)
            except EOFError:
                answer = ""
            if answer.strip().lower() not in ("y", "yes"):
                print("not deleted")
                return 1
        arc.delete(number, force=args.force)
    print("deleted %s" % what)
    return 0


# -- replay ------------------------------------------------------------------------------

def cmd_replay(args):
    with _open(args, read_only=True) as arc:
        d = arc.game(args.id)
    interactive = args.step and _isatty(sys.stdin)
    game = gamerecord.position_game(d["start"])
    print(harmless.text("game %d: %s, %s, %s" % (d["number"], game.title, "; ".join(d["players"]),
                                                  (d["started"] or "date unknown")[:10])))
    for line in render.board(game):
        print(line)
    names = d["players"]
    for i, e in enumerate(d["moves"]):
        if interactive:
            try:
                answer = input("[Enter: next move, q: stop] ")
            except EOFError:
                answer = "q"
            if answer.strip().lower() in ("q", "quit"):
                print("stopped after %d of %d" % (i, len(d["moves"])))
                return 0
        print("")
        if e["kind"] == "setup":
            game = gamerecord.position_game(e["position"])
            print("%d. the position is set by hand" % e["ply"])
        else:
            p = e["player"]
            who = "player %d" % p + ((" (%s)" % names[p]) if p < len(names) and names[p] != "?" else "")
            try:
                trace = game.play(gamerecord.move_from_json(e["move"]))
            except mancala.RulesError as err:
                raise CliError("game %d, ply %d (%s) does not replay with this version's rules: %s" % (
                    d["number"], e["ply"], e["notation"], err))
            print(harmless.text("%d. %s plays %s" % (e["ply"], who, e["notation"])))
            for line in render.describe(game, trace):
                print("   " + line)
        for line in render.board(game):
            print(line)
    print("")
    print(_ending(game, d))
    return 0


# -- hint ----------------------------------------------------------------------------------

def cmd_hint(args):
    if args.depth < 1 or not (math.isfinite(args.time) and args.time > 0):
        raise CliError("--depth must be 1 or more and --time a number of seconds more than 0", 2)
    game = _hint_position(args)
    if game.is_over():
        raise CliError("the game is over (%s): there is no move to suggest" % game.outcome().reason)
    r = search.best_move(game, depth=args.depth, max_nodes=args.max_nodes, time_ms=int(args.time * 1000))
    verdict = _verdict(r.value)
    if args.json:
        print(harmless.json_dumps({"position": mancala.to_text(game), "to_move": game.to_move, "best": game.move_name(r.best),
                                   "move": gamerecord.move_to_json(r.best), "depth": r.depth, "value": r.value,
                                   "verdict": verdict, "nodes": r.nodes, "legal": [game.move_name(m) for m in game.legal_moves()]}))
        return 0
    for line in render.board(game):
        print(line)
    print("best move for player %d: %s" % (game.to_move, game.move_name(r.best)))
    print("looked %d moves ahead (%d positions): %s" % (r.depth, r.nodes, verdict))
    return 0


def _verdict(value):
    win = getattr(search, "_WIN", 100000)  # the search's value of a won game
    if value >= win:
        return "a forced win"
    if value <= -win:
        return "every move loses against best play"
    if value == 0:
        return "level with best play"
    return "%s by %d seed%s with best play" % ("ahead" if value > 0 else "behind", abs(value), "" if abs(value) == 1 else "s")


def _hint_position(args):
    given = [x for x in (args.position, args.variant, args.game) if x]
    if len(given) != 1:
        raise CliError("give the position with one of --position TEXT, --variant V [--moves ...] or --game ID", 2)
    if args.position:
        return gamerecord.position_game(args.position)
    if args.game:
        with _open(args, read_only=True) as arc:
            return replay_of(arc.game(args.game)).game
    from sowlight.play import parse_options
    try:
        options = parse_options(args.option)
    except ValueError as e:
        raise CliError(str(e), 2)
    r = gamerecord.Replay(gamerecord.standard_start(args.variant, options))
    for tok in (args.moves or "").replace(",", " ").split():
        if tok.rstrip(".").isdigit():
            continue  # move numbers, as in a record
        try:
            r.move(tok)
        except mancala.RulesError as e:
            raise CliError("move %d (%s) is not played: %s" % (len(r.events) + 1, tok, e))
    return r.game


# -- registration --------------------------------------------------------------------------

def _db(p):
    p.add_argument("--db", metavar="PATH", help="the archive file (default: $SOWLIGHT_DB, else %s)" % paths.default_archive())


def register(sub, board_sub):
    games = sub.add_parser("games", help="the archive: list, show, export, import, delete games",
                           description="The games archive: every game played with `sowlight play` or synced from a board.")
    games_sub = games.add_subparsers(dest="games_command", metavar="GAMES_COMMAND")
    games.set_defaults(func=lambda args: (games.print_help(), 2)[1])

    p = games_sub.add_parser("list", help="list the games in the archive")
    p.add_argument("--variant", "-v", type=variant_name, help="only games of this variant")
    p.add_argument("--board", help="only games synced from this board id")
    p.add_argument("--last", type=int, metavar="N", help="only the last N games")
    p.add_argument("--json", action="store_true", help="print JSON")
    _db(p)
    p.set_defaults(func=_guard("games list", cmd_list))

    p = games_sub.add_parser("show", help="one game: its record, and the final board")
    p.add_argument("id", metavar="ID", help="the game's number (from games list) or id")
    p.add_argument("--json", action="store_true", help="print the whole game as JSON")
    _db(p)
    p.set_defaults(func=_guard("games show", cmd_show))

    p = games_sub.add_parser("export", help="write games as JSON or as readable game records")
    p.add_argument("ids", nargs="*", metavar="ID", help="the games to export")
    p.add_argument("--all", action="store_true", help="every game (or every game of --variant)")
    p.add_argument("--variant", "-v", type=variant_name, help="with --all: only games of this variant")
    p.add_argument("--format", "-f", choices=("json", "record"),
                   help="json, or record (readable, PGN-like); default: json for a .json file, else record")
    p.add_argument("--output", "-o", metavar="FILE", help="write to FILE instead of the standard output")
    _db(p)
    p.set_defaults(func=_guard("games export", cmd_export))

    p = games_sub.add_parser("import", help="read games from JSON exports or game records (all or nothing)")
    p.add_argument("files", nargs="+", metavar="FILE", help="files to read (- for the standard input)")
    p.add_argument("--dry-run", action="store_true", help="check the files, import nothing")
    _db(p)
    p.set_defaults(func=_guard("games import", cmd_import))

    p = games_sub.add_parser("delete", help="delete a game from the archive")
    p.add_argument("id", metavar="ID", help="the game's number or id")
    p.add_argument("--yes", "-y", action="store_true", help="do not ask")
    p.add_argument("--force", action="store_true",
                   help="delete a board's game that is not fully synced (the board is gone for good, "
                        "e.g. a virtual board that has stopped)")
    _db(p)
    p.set_defaults(func=_guard("games delete", cmd_delete))

    p = sub.add_parser("replay", help="replay an archived game move by move",
                       description="Replay an archived game: each move told step by step, the board after it.")
    p.add_argument("id", metavar="ID", help="the game's number or id")
    p.add_argument("--step", action="store_true", help="wait for Enter before each move (when the input is a terminal)")
    _db(p)
    p.set_defaults(func=_guard("replay", cmd_replay))

    p = sub.add_parser("hint", help="the best move in a position (a deeper search than the board's)",
                       description="Search a position for the best move: a position text, a variant and moves "
                                   "from its start, or an archived game's last position.")
    p.add_argument("--position", "-p", metavar="TEXT", help='a position text, e.g. "oware grand_slam=no-capture 4,4,4,4,4,4/4,4,4,4,4,4 0,0 0"')
    p.add_argument("--variant", "-v", type=variant_name, help="a variant, played from its start (with --moves)")
    p.add_argument("--option", "-o", action="append", metavar="NAME=VALUE", help="with --variant: a variant option")
    p.add_argument("--moves", "-m", metavar="MOVES", help='with --variant: the moves played, e.g. "C f D" (move numbers are skipped)')
    p.add_argument("--game", "-g", metavar="ID", help="the last position of an archived game")
    p.add_argument("--depth", type=int, default=20, help="the deepest search, in moves (default 20)")
    p.add_argument("--time", type=float, default=5.0, metavar="S", help="stop searching after S seconds (default 5)")
    p.add_argument("--max-nodes", type=int, default=50000000, help=argparse.SUPPRESS)
    p.add_argument("--json", action="store_true", help="print JSON")
    _db(p)
    p.set_defaults(func=_guard("hint", cmd_hint))
