"""`sowlight analyse GAME`: the engine's view of every move of a game, in the terminal or as JSON.

    sowlight analyse GAME [--json] [--depth N] [--time S] [--db PATH]

GAME is an archived game (its number or id, as in `sowlight games list`) or a
file holding a game record or a JSON export (its first game, or `--index N`).
The analysis itself is sowlight.games.analysis's; docs/web.md says what the values mean.
"""
import os

from sowlight.games import analysis
from sowlight.cli import games as games_cmd
from sowlight.terminal import harmless
from sowlight.cli.errors import CliError


def _game(args):
    ref = args.game
    if os.path.exists(ref) and not ref.isdigit():
        games = games_cmd.read_games(ref)
        if not games:
            raise CliError("%s holds no game" % ref)
        if not 1 <= args.index <= len(games):
            raise CliError("%s holds %d game%s: --index is 1 to %d" % (ref, len(games), "" if len(games) == 1 else "s",
                                                                    len(games)), 2)
        return games[args.index - 1]
    with games_cmd._open(args) as arc:
        return arc.game(ref)


def _value(v):
    return "%+d" % v


def cmd_analyse(args):
    if args.depth < 1 or (args.time is not None and args.time <= 0):
        raise CliError("--depth must be 1 or more and --time more than 0", 2)
    d = _game(args)
    bar = games_cmd.Progress("analysing", sum(1 for e in d["moves"] if e["kind"] == "move"))
    try:
        rep = analysis.report(d, depth=args.depth, time_ms=None if args.time is None else int(args.time * 1000),
                              progress=lambda done, total: bar(done))
    except analysis.AnalysisError as e:
        raise CliError("game %s: %s" % (d.get("number", d["id"]), e))
    finally:
        bar.close()
    if args.json:
        print(harmless.json_dumps(rep, indent=1))
        return 0
    names = [harmless.text(n) for n in d["players"]]
    print("game %s: %s, %s, %s (values in seeds for the player moving, %d moves ahead%s)" % (
        d.get("number", harmless.text(d["id"])), d["variant"], "; ".join(names), d.get("result") or "*", args.depth,
        "" if args.time is None else ", at most %g s a move" % args.time))
    print("%4s  %-6s  %-8s %6s  %-8s %6s  %s" % ("ply", "player", "played", "value", "best", "value", "verdict"))
    for m in rep["moves"]:
        verdict = m["verdict"] if not m["forced"] else "forced"
        if m["verdict"] in ("mistake", "blunder"):
            verdict += " (-%d)" % m["loss"]
        print("%4d  %-6d  %-8s %6s  %-8s %6s  %s" % (m["ply"], m["player"], harmless.text(m["notation"]), _value(m["value"]),
                                                  harmless.text(m["best"]), _value(m["best_value"]), verdict))
    print("")
    print("evaluation (%s): %s" % ("player 0's view" if rep["view"] == "player 0" else "the mover's view",
                                    sparkline([p["value"] for p in rep["graph"]])))
    if rep["mistakes"]:
        print("mistakes (%d or more seeds below the best move; blunders %d or more, or a win given up):" % (
            analysis.MISTAKE, analysis.BLUNDER))
        for m in rep["mistakes"]:
            print("  ply %d, player %d: %s (%s) where %s (%s): %s, %d seed%s" % (
                m["ply"], m["player"], harmless.text(m["notation"]), _value(m["value"]), harmless.text(m["best"]),
                _value(m["best_value"]), m["verdict"], m["loss"], "" if m["loss"] == 1 else "s"))
    else:
        print("no mistakes (%d or more seeds below the best move)" % analysis.MISTAKE)
    print("share of best moves:")
    for s in rep["share"]:
        share = "no choice to make" if s["share"] is None else "%d%% (%d of %d)" % (round(100 * s["share"]), s["best"], s["moves"])
        print("  player %d (%s): %s" % (s["player"], names[s["player"]], share))
    return 0


_BARS = " ▁▂▃▄▅▆▇█"


def sparkline(values):
    """The values as a line of bar characters, the lowest value the shortest bar."""
    if not values:
        return "(no moves)"
    low, high = min(values), max(values)
    span = (high - low) or 1
    return "".join(_BARS[1 + (v - low) * (len(_BARS) - 2) // span] for v in values) + "  (%+d .. %+d)" % (low, high)


def register(sub, board_sub):
    p = sub.add_parser("analyse", aliases=["analyze"], help="the engine's value of every move of a game, mistakes, "
                                                             "share of best moves",
                       description="Analyse a game move by move: the engine's value of every legal move, the value "
                                   "of the move played, mistakes flagged, an evaluation graph and each player's share "
                                   "of best moves (docs/web.md, \"Analysis\").")
    p.add_argument("game", metavar="GAME", help="an archived game's number or id, or a record/JSON file")
    p.add_argument("--index", type=int, default=1, metavar="N", help="with a file: its Nth game (default 1)")
    p.add_argument("--depth", type=int, default=analysis.DEPTH,
                   help="how many moves ahead to look (default %d)" % analysis.DEPTH)
    p.add_argument("--time", type=float, metavar="S", help="at most S seconds a move (the depth reached is then "
                                                           "whatever finishes in time)")
    p.add_argument("--json", action="store_true", help="print JSON")
    games_cmd._db(p)
    p.set_defaults(func=games_cmd._guard("analyse", cmd_analyse))
