"""`sowlight broadcast`: every connected board's games published to an event on an MQTT broker.

    sowlight broadcast [--broker URL] [--event NAME] [--port P]... [--url U]... [--virtual N]
                       [--demo VARIANT [-o NAME=VALUE] [--games N] [--seed S]] [--db PATH | --no-archive]
                       [--for SECONDS] [--username U --password-file F] [--ca F [--cert F --key F]]

The boards are the ports given, else N virtual boards (--virtual), else
every board attached by USB.  Each board's journal is synced into the archive
and published (publisher.py); `--demo` lets robot hands play games of a
variant on virtual boards, following their LEDs, for a demonstration or a
test.  Runs until Ctrl-C or SIGTERM (or --for, or the demo games' end).
"""
import os
import random
import signal
import sys
import threading
import time

import mancala

from sowlight.games import archive
from sowlight.board import link
from sowlight import paths
from sowlight.board import ports
from sowlight.board.view import VIRTUAL_SETTINGS, BoardViewError, open_board
from sowlight.play import parse_options
from sowlight.simulation.robot import Robot, RobotError
from sowlight.games.sync import MemoryStore
from . import broker
from .publisher import BoardBroadcaster
from .topics import EventTopics, TopicError

DEFAULT_EVENT = "club"


def register(sub, board_sub):
    p = sub.add_parser("broadcast", help="publish the boards' games to an event on an MQTT broker",
                       description="Sync every connected board's journal and publish its games (each record with "
                                   "its trace and position, the state retained, live steps) under "
                                   "sowlight/EVENT/ on an MQTT broker, for viewers (docs/broadcast.md).")
    broker.add_arguments(p)
    p.add_argument("--event", default=DEFAULT_EVENT, metavar="NAME", help="the event's name: its topics are "
                                                                          "sowlight/NAME/... (default %s)" % DEFAULT_EVENT)
    p.add_argument("--port", action="append", metavar="PORT", help="a board's serial port (repeat for more)")
    p.add_argument("--url", action="append", metavar="URL", help="a board's pyserial URL (repeat for more)")
    p.add_argument("--virtual", type=int, metavar="N", help="start N virtual boards instead")
    p.add_argument("--preset", metavar="P", help="the virtual boards' preset (default: the smallest for the game)")
    p.add_argument("--journal-dir", metavar="DIR",
                   help="keep the virtual boards' journals in DIR (board-1.journal ...), across runs")
    p.add_argument("--demo", metavar="VARIANT", help="robot hands play games of VARIANT on the virtual boards, "
                                                     "doing what the LEDs show")
    p.add_argument("--option", "-o", action="append", metavar="NAME=VALUE", help="an option of the demo's variant")
    p.add_argument("--games", type=int, metavar="N", help="with --demo: stop after N games on each board")
    p.add_argument("--seed", type=int, metavar="S", help="with --demo: seed of the hands' choices")
    p.add_argument("--db", metavar="PATH", help="the archive the journals are synced into")
    p.add_argument("--no-archive", action="store_true", help="keep the synced records in memory only")
    p.add_argument("--for", dest="seconds", type=float, metavar="S", help="stop after S seconds")
    p.set_defaults(func=run)


def _fail(text, status=1):
    print("sowlight broadcast: %s" % text, file=sys.stderr)
    return status


def run(args):
    try:
        options = parse_options(args.option)
        if args.demo:
            mancala.Game(args.demo, **options)
        settings = broker.from_args(args)
        topics = EventTopics(args.event)
    except (ValueError, mancala.RulesError, broker.BrokerError, TopicError) as e:
        return _fail(str(e), 2)
    if args.demo and not args.virtual and not (args.port or args.url):
        return _fail("--demo plays on virtual boards: give --virtual N (or --port of a virtual board)", 2)
    if args.virtual is not None and not 1 <= args.virtual <= 64:
        return _fail("--virtual takes 1 to 64 boards", 2)
    host = "sowlight-%s" % os.urandom(4).hex()
    stop = threading.Event()
    previous = signal.signal(signal.SIGTERM, lambda signum, frame: stop.set())
    try:
        conn = broker.BrokerConnection(settings, host, will=(topics.host(host), {"online": False}))
        conn.start()
        conn.wait_connected(10)
    except broker.BrokerError as e:
        signal.signal(signal.SIGTERM, previous)
        return _fail(str(e))
    boards = []
    try:
        try:
            boards = _open_boards(args)
        except (ports.PortError, link.LinkError) as e:
            return _fail(str(e))
        store_factory = _stores(args)
        ids = [b.view.board_id for b in boards]
        conn.on_connect(lambda: conn.publish(topics.host(host), {"online": True, "boards": ids, "sw": link.SW},
                                             retain=True))
        casters = []
        for b in boards:
            bc = BoardBroadcaster(conn, topics, b.link, store_factory, host, pump=not args.demo,
                                  say=lambda text: print(text, file=sys.stderr, flush=True))
            b.view.watchers.append(bc.take)
            casters.append(bc.start())
            print("broadcasting %s to %s on %s" % (b.view.describe(), topics.base, settings.where()), flush=True)
        hands = []
        if args.demo:
            for i, b in enumerate(boards):
                rng = random.Random(None if args.seed is None else args.seed * 1000 + i)
                t = threading.Thread(target=_demo, args=(b, args.demo, options, args.games, rng, stop), daemon=True)
                t.start()
                hands.append(t)
        end = None if args.seconds is None else time.monotonic() + args.seconds
        try:
            while not stop.wait(0.2):
                if end is not None and time.monotonic() > end:
                    break
                if hands and not any(t.is_alive() for t in hands):
                    break
        except KeyboardInterrupt:
            pass
        stop.set()
        for t in hands:
            t.join(10)
        for bc in casters:
            bc.stop()
        conn.publish(topics.host(host), {"online": False, "boards": ids, "sw": link.SW}, retain=True)
        sent = sum(bc.records_sent for bc in casters)
        print("published %d records of %d board%s (%d messages)" % (sent, len(boards), "" if len(boards) == 1 else "s",
                                                                  conn.sent), flush=True)
        return 0
    finally:
        for b in boards:
            b.close()
        conn.stop()
        signal.signal(signal.SIGTERM, previous)


def _open_boards(args):
    out = []
    try:
        if args.port or args.url:
            for port in args.port or ():
                out.append(open_board(port=port, wait=10.0))
            for url in args.url or ():
                out.append(open_board(url=url, wait=10.0))
        elif args.virtual:
            for i in range(args.virtual):
                journal = None
                if args.journal_dir:
                    os.makedirs(args.journal_dir, exist_ok=True)
                    journal = os.path.join(args.journal_dir, "board-%d.journal" % (i + 1))
                out.append(open_board(virtual="always", variant=args.demo, preset=args.preset, journal=journal))
        else:
            found = ports.candidates()
            if not found:
                raise ports.NoBoardError("no board is attached (%s): give --port, or --virtual N to try it out"
                                         % ports.listing())
            for p in found:
                out.append(open_board(port=p.device, wait=10.0))
    except BaseException:
        for b in out:
            b.close()
        raise
    return out


def _stores(args):
    if args.no_archive:
        shared = MemoryStore()
        return lambda: shared
    path = paths.archive_path(args.db)
    archive.Archive(path).close()       # made (or refused, with its reason) now, not in a thread
    return lambda: archive.Archive(path)


def _demo(board, variant, options, games, rng, stop, tries=5):
    """Robot hands play games on one virtual board until `games` are over (or stop).  Hands that
    cannot go on (the board flags a mistake, or does not react in time on a busy computer) put the
    seeds back as the board has them and look again, as a player would, `tries` times in a row."""
    view = board.view
    robot = Robot(view, rng=rng)
    played = 0
    failed = 0
    while not stop.is_set() and (games is None or played < games):
        try:
            state = view.look()
            if robot.hand or state.get("phase") in ("sowing", "choice", "mismatch"):
                # Back after hands (or a host) that stopped in the middle of a move: the seeds go
                # back where the board has them (the move not journalled is made again).
                robot.put_right()
                state = view.refresh()
            if state.get("game") is None or state.get("phase") == "over" or state.get("variant") != variant:
                if state.get("phase") == "over" and state.get("variant") == variant and failed:
                    played += 1         # (the game ended with the move that failed to report)
                    failed = 0
                    if games is not None and played >= games:
                        break
                board.link.request("new_game", {"variant": variant, "options": options})
            robot.set_up()
            while not stop.is_set():
                state = view.refresh()
                if state.get("phase") == "over":
                    played += 1
                    break
                robot.play_move()
                failed = 0
        except (RobotError, BoardViewError, link.LinkError) as e:
            if stop.is_set():
                return
            failed += 1
            if failed >= tries:
                print("board %s: the hands stopped: %s" % (view.board_id, e), file=sys.stderr, flush=True)
                return
            time.sleep(0.5)
