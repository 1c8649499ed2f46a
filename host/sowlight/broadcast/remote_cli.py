"""`sowlight play --remote mqtt://BROKER/TABLE --seat 0|1`: this board plays one seat of a remote game.

    sowlight play --remote mqtt://club.example.org/table-3 --seat 0 [--variant V] [--port P | --virtual]
                  [--robot] [--db PATH | --no-archive] [--username U --password-file F] [--ca F ...]

Seat 0 sets the table's game (--variant, default oware) and moves first; seat
1 plays whatever the table has.  The moves go through the broker
(remote.py); the board guides the other seat's moves step by step.  With
--robot (a virtual board) robot hands make this seat's moves, a pit the
lights offer at random, and the other seat's moves as the lights lead them.
"""
import random
import sys
import threading
import time

import mancala

from sowlight.games import archive
from sowlight.board import link
from sowlight import paths
from sowlight.board import ports
from sowlight.board.view import BoardViewError, open_board
from sowlight.play import parse_options
from sowlight.simulation.robot import Robot, RobotError
from sowlight.games.sync import MemoryStore
from . import broker
from .remote import RemoteError, RemoteGame
from .topics import TableTopics, TopicError


def add_arguments(parser):
    """The options `sowlight play` takes for remote play."""
    g = parser.add_argument_group("remote play (docs/broadcast.md)")
    broker.add_arguments(g, url_option="--remote",
                         url_help="play one seat of a remote game: the broker and the table, mqtt://HOST[:PORT]/TABLE "
                                  "(mqtts:// for TLS)")
    g.add_argument("--seat", type=int, choices=(0, 1), help="with --remote: the seat this board plays (0 moves first)")
    g.add_argument("--robot", action="store_true",
                   help="with --remote on a virtual board: robot hands make the moves, following the LEDs")


def _fail(text, status=1):
    print("sowlight play: %s" % text, file=sys.stderr)
    return status


def run(args):
    if args.seat is None:
        return _fail("--remote needs --seat 0 or 1 (0 moves first)", 2)
    try:
        options = parse_options(args.option)
        if args.variant:
            mancala.Game(args.variant, **options)
        settings = broker.from_args(args)
        if not settings.path:
            raise broker.BrokerError("name the table after the broker: --remote mqtt://HOST/TABLE (both seats give the "
                                     "same TABLE)")
        table = TableTopics(settings.path)
    except (ValueError, mancala.RulesError, broker.BrokerError, TopicError) as e:
        return _fail(str(e), 2)
    stop = threading.Event()
    client_id = "sowlight-%s-seat%d-%06x" % (table.base.rsplit("/", 1)[1][:24], args.seat, random.getrandbits(24))
    try:
        conn = broker.BrokerConnection(settings, client_id).start()
        conn.wait_connected(10)
    except broker.BrokerError as e:
        return _fail(str(e))
    board = None
    try:
        try:
            board = open_board(port=args.port, url=args.url, vid=args.vid, pid=args.pid, wait=args.wait,
                               virtual="always" if args.virtual or args.robot and not (args.port or args.url) else "auto",
                               variant=args.variant, preset=args.preset, say=print)
        except (ports.PortError, link.LinkError) as e:
            return _fail(str(e))
        if args.robot and not board.view.virtual:
            return _fail("--robot moves a virtual board's seeds: this board has real ones (leave out --robot)", 2)
        store_factory = _stores(args)
        say = lambda text: print("seat %d: %s" % (args.seat, text), flush=True)
        rg = RemoteGame(conn, table, args.seat, board, store_factory, variant=args.variant, options=options, say=say,
                        pump=not args.robot)
        hands = None
        if args.robot:
            board.view.watchers.append(rg.take)
            hands = threading.Thread(target=robot_hands, args=(rg, Robot(board.view, rng=random.Random(args.seed)), stop),
                                     daemon=True)
            hands.start()
        try:
            done = rg.run(stop)
        except KeyboardInterrupt:
            done = False
        stop.set()
        if hands is not None:
            hands.join(10)
        if not done:
            return 1
        say("the game is over: %s" % _result(rg))
        return 0
    except RemoteError as e:
        return _fail(str(e))
    except (BoardViewError, link.LinkError) as e:
        return _fail("the link to the board failed: %s" % e)
    finally:
        stop.set()
        if board is not None:
            board.close()
        conn.stop()


def _result(rg):
    o = rg.game.outcome() if rg.game is not None and rg.game.is_over() else None
    if o is None:
        return "%d moves" % len(rg.moves)
    return "%d moves, %s" % (len(rg.moves), o.reason)


def _stores(args):
    if args.no_archive:
        shared = MemoryStore()
        return lambda: shared
    path = paths.archive_path(args.db)
    archive.Archive(path).close()
    return lambda: archive.Archive(path)


def robot_hands(rg, robot, stop, pause=0.05):
    """Robot hands at one seat: this seat's moves as the LEDs offer them (at random), the other
    seat's once the host has the board guide it, as the LEDs lead.  They look at the board only
    when the host has caught up with its journal (the same ply), as a player waits for the screen."""
    view = rg.view
    fix = False
    while not stop.is_set():
        try:
            if fix:
                fix = False
                robot.put_right()       # a mistake flagged (a guide came in the middle): put it right, look again
            wanted = rg.wanted()
            if wanted == "over":
                return
            state = view.refresh()
            phase = state.get("phase")
            if rg.local_game is None or state.get("game") != rg.local_game:
                time.sleep(pause)
                continue
            if phase == "setup":
                robot.set_up()
                continue
            if phase == "over":
                return
            if robot.hand or phase == "mismatch":
                robot.put_right()
                time.sleep(pause)
                continue
            if state.get("ply") != rg.last_ply or wanted not in ("move", "guided"):
                time.sleep(pause)
                continue
            robot.play_move()
        except RobotError:
            fix = True
        except (BoardViewError, link.LinkError):
            time.sleep(0.5)
        except Exception as e:      # (hands that cannot go on end the game, rather than stall it)
            print("the robot hands stopped: %s: %s" % (type(e).__name__, e), file=sys.stderr, flush=True)
            stop.set()
            return
