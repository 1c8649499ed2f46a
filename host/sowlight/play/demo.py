"""`sowlight demo`: robot hands play a game on a virtual board, doing only what its LEDs show.

    sowlight demo [--variant V] [-o NAME=VALUE] [--moves N] [--seed S] [--hints | --depth D]
                  [--port P | --url U] [--preset P] [--db PATH | --no-archive] [--acts]

Without --port a virtual board is started (the real firmware, seeds in
software); --port names one already running (`sowlight board virtual`).  The
robot (sowlight.simulation.robot) sets the seeds out and plays N moves, or the whole game:
each physical act is a `sim` request, chosen from the board's `leds` events.
Each move is printed as the board reports it; then the board's journal is
synced into the archive, as after any game on a board.
"""
import random
import sys

import mancala
from mancala.search import best_move

from sowlight.games import archive
from sowlight.terminal import harmless
from sowlight.board import link
from sowlight import paths
from sowlight.board import ports
from sowlight.terminal import render
from sowlight.board.view import BoardViewError, open_board, steps_of
from sowlight.play import parse_options, variant_name
from sowlight.simulation.robot import Robot, RobotError
from sowlight.games.sync import sync


def register(sub, board_sub):
    p = sub.add_parser("demo", help="robot hands play a game on a virtual board, following its LEDs",
                       description="Start a virtual board (or use the one at --port) and let robot hands play on "
                                   "it: they do only what the board's LEDs show, one physical act at a time (lift a "
                                   "pit, drop a seed, take a capture, press confirm). Each move is printed; the game "
                                   "is then synced into the archive.")
    p.add_argument("--variant", "-v", type=variant_name, help="the game (default: oware, or the game in progress on --port's board)")
    p.add_argument("--option", "-o", action="append", metavar="NAME=VALUE", help="a variant option, e.g. -o seeds=3")
    p.add_argument("--moves", "-n", type=int, metavar="N", help="stop after N moves (default: play the game to its end)")
    p.add_argument("--seed", type=int, metavar="S", help="seed of the robot's choices (the same game again)")
    how = p.add_mutually_exclusive_group()
    how.add_argument("--hints", action="store_true", help="turn the board's hints on and play the hinted pit")
    how.add_argument("--depth", type=int, metavar="D", help="play the move `sowlight hint` finds looking D moves ahead "
                                                            "(default: a pit the LEDs offer, at random)")
    g = p.add_mutually_exclusive_group()
    g.add_argument("--port", metavar="PORT", help="a virtual board already running (its pseudo-terminal)")
    g.add_argument("--url", metavar="URL", help="... or its pyserial URL")
    p.add_argument("--preset", metavar="P", help="the virtual board's preset (default: the smallest that plays the game)")
    p.add_argument("--db", metavar="PATH", help="the archive the game is synced into")
    p.add_argument("--no-archive", action="store_true", help="do not sync the game into the archive")
    p.add_argument("--acts", action="store_true", help="print every act of the hands, not only the moves")
    p.set_defaults(func=run)


def _fail(text, status=1):
    print("sowlight demo: %s" % harmless.text(text), file=sys.stderr)
    return status


def run(args):
    if args.moves is not None and args.moves < 1:
        return _fail("--moves must be 1 or more", 2)
    if args.depth is not None and args.depth < 1:
        return _fail("--depth must be 1 or more", 2)
    try:
        options = parse_options(args.option)
        if args.variant:
            mancala.Game(args.variant, **options)     # a bad name or option said now, before any board
    except (ValueError, mancala.RulesError) as e:
        return _fail(str(e), 2)
    if options and not args.variant:
        return _fail("--option needs --variant (the game they are for)", 2)
    try:
        conn = open_board(port=args.port, url=args.url, virtual="always" if not (args.port or args.url) else "never",
                          variant=args.variant, preset=args.preset, wait=5.0, say=print)
    except (ports.PortError, link.LinkError) as e:
        return _fail(str(e))
    try:
        return _demo(conn, args, options)
    except (RobotError, BoardViewError) as e:
        return _fail(str(e))
    except link.LinkError as e:
        return _fail("the link to the board failed: %s" % e)
    finally:
        conn.close()


def _demo(conn, args, options):
    view = conn.view
    if not view.virtual:
        return _fail("%s has real seeds: the robot's hands move a virtual board's seeds. Leave out --port to "
                     "start one, or run `sowlight board virtual`" % conn.where)
    state = view.refresh()
    if args.variant or state.get("game") is None or state.get("phase") == "over":
        variant = args.variant or "oware"
        reply = conn.link.request("new_game", {"variant": variant, "options": options})
        print("new game %d: %s" % (reply["game"], mancala.variant_info(variant)["title"]))
    else:
        print("the game in progress: board game %d, %s" % (state["game"], harmless.text(state["variant"])))
    rng = random.Random(args.seed)
    robot = Robot(view, rng=rng, prefer_hint=args.hints, say=(lambda t: print("    " + harmless.text(t))) if args.acts else None)
    state = robot.set_up()
    told = robot.resume()           # what another run left half done (killed with seeds in the hand)
    if told:
        print(harmless.text(told))
    if args.hints:
        conn.link.request("hint", {"on": True})
    game = view.game(state)
    for line in render.board(game, view.roles_by_game_cell(game)):
        print(line)
    played = 0
    while args.moves is None or played < args.moves:
        state = view.refresh()
        if state["phase"] == "over":
            break
        before = view.game(state).copy()
        move = None
        if robot.carrying:
            pass                        # the move resume() found half made goes on
        elif args.depth is not None:
            move = best_move(before, depth=args.depth).best
        elif args.hints:
            # The board searches for its hint once it is idle after a move: give it the time.
            view.wait_for(lambda: bool(view.cells("hint")), 5.0)
        m = robot.play_move(move)
        played += 1
        _print_move(before, m, played)
    state = view.refresh()
    game = view.game(state)
    print("")
    for line in render.board(game, view.roles_by_game_cell(game), view.counts_by_game_cell(game)):
        print(line)
    if state["phase"] == "over":
        print(render.outcome(game))
    print("%d move%s by %d acts of the hands and %d button presses" % (
        played, "" if played == 1 else "s", robot.acts, robot.presses))
    if not args.no_archive:
        _archive(conn, args.db, state["game"])
    return 0


def _print_move(before, m, number):
    name = m.get("name") or before.move_name(m["move"])
    trace = m.get("trace")
    if trace is None:          # a long move's trace is left out of the event: the rules core has it
        try:
            trace = [[s.kind, s.pit, s.count, s.to] for s in before.copy().play(_move(m["move"]))]
        except mancala.RulesError:
            trace = []
    told = render.describe(before, steps_of(trace))
    print(harmless.text("%3d. player %d plays %-4s %s" % (number, m["player"], name, "; ".join(told))), flush=True)


def _move(move):
    return tuple(_move(x) for x in move) if isinstance(move, list) else move


def _archive(conn, db, board_game):
    try:
        store = archive.Archive(paths.archive_path(db))
    except archive.ArchiveError as e:
        print("sowlight demo: the game stays on the board's journal: %s" % harmless.text(e), file=sys.stderr)
        return
    try:
        report = sync(conn.link, store)
        number = None
        for g in store.games(board=conn.view.board_id):
            if g["board_game"] == board_game:
                number = g["number"]
        path = store.path
    finally:
        store.close()
    if number is None:
        print(harmless.text("synced the board's journal into %s (%s)" % (path, report.summary()), lines=True))
    else:
        print("archived as game %d in %s (sowlight games show %d)" % (number, path, number))
