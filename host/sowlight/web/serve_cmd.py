"""`sowlight serve`: the web view in a browser, on this computer only unless asked.

    sowlight serve [--host H] [--port N] [--board-port P | --url U | --virtual [--demo] | --no-board]
                   [--variant V] [--db PATH] [--depth N] [--open]
                   [--event NAME [--broker URL] [--username U --password-file F] [--ca F [--cert F --key F]]]

Starlette and uvicorn are imported only when the command runs, so the rest of
the CLI starts as fast as before.
"""
import ipaddress
import socket
import sys

from sowlight.games import analysis
from sowlight.terminal import harmless
from sowlight import paths
from sowlight.broadcast.broker import add_arguments as broker_arguments

LOCAL = "127.0.0.1"


def _local(host):
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def _fail(text, status=1):
    print("sowlight serve: %s" % harmless.text(text), file=sys.stderr)
    return status


def _connect(args):
    """The live board's connection, or (None, why there is none)."""
    from sowlight.board import link
    from sowlight.board import ports
    from sowlight.board.view import BoardViewError, open_board
    if args.no_board:
        return None, "no board: started with --no-board"
    if args.event and not (args.board_port or args.url or args.virtual or args.demo):
        return None, "no board: this page shows the event %s (add --board-port, --url or --virtual for one here)" \
            % args.event
    virtual = "always" if (args.virtual or args.demo) else "never"
    try:
        conn = open_board(port=args.board_port, url=args.url, vid=None, pid=None, wait=10.0, virtual=virtual,
                          variant=args.variant or "oware", preset=args.preset, say=lambda t: print(harmless.text(t), file=sys.stderr))
    except ports.NoBoardError:
        return None, "no board found: plug one in (it is looked for every few seconds), or start with --virtual"
    except (ports.PortError, link.LinkError, BoardViewError) as e:
        if args.board_port or args.url:
            raise
        return None, "no board: %s" % e
    return conn, None


def run(args):
    if not 0 < args.port < 65536:
        return _fail("--port is 1 to 65535", 2)
    if args.depth < 1:
        return _fail("--depth must be 1 or more", 2)
    if args.hints and not args.demo:
        return _fail("--hints is for the demo's hands: add --demo", 2)
    if args.demo and (args.board_port or args.url or args.no_board):
        return _fail("--demo plays on a virtual board it starts: leave out --board-port, --url and --no-board", 2)
    if args.variant:
        import mancala
        try:
            args.variant = mancala.variant_info(args.variant)["id"]
        except mancala.RulesError as e:
            return _fail(str(e), 2)
    if args.broker and not args.event:
        return _fail("--broker is where an event's boards come from: add --event NAME", 2)
    try:
        import uvicorn
        from .app import make_app
        from .live import LiveBoard
    except ImportError as e:
        return _fail("the web view needs Starlette and uvicorn (%s): pip install starlette uvicorn" % e)
    event = None
    if args.event:
        event, status = _event(args)
        if event is None:
            return status
    from sowlight.board import link
    from sowlight.board import ports
    from sowlight.board.view import BoardViewError
    try:
        conn, why = _connect(args)
    except (ports.PortError, link.LinkError, BoardViewError) as e:
        if event is not None:
            event.stop()
        return _fail(str(e))
    db = paths.archive_path(args.db)
    finder = None
    if not (args.no_board or args.virtual or args.demo):
        def finder():
            # A board plugged in (or back) while the page is open is found and shown.
            try:
                return _connect(args)
            except (ports.PortError, link.LinkError, BoardViewError) as e:
                return None, "no board: %s" % e
    live = LiveBoard(conn, demo=(args.variant or "oware") if args.demo else None, pace=args.pace,
                     store_path=None if args.no_archive else db, no_board=why, finder=finder,
                     hints=args.hints)
    try:
        sock = _listen(args.host, args.port)
    except OSError as e:
        if conn is not None:
            conn.close()
        if event is not None:
            event.stop()
        if isinstance(e, socket.gaierror):
            return _fail("cannot listen on %s: no such address here (%s)" % (args.host, e.strerror or e), 2)
        return _fail("cannot listen on %s port %d (%s): another program may be using it; choose another with --port"
                     % (args.host, args.port, e.strerror or e))
    if not _local(args.host):
        print("sowlight serve: WARNING: listening on %s: anyone who can reach this computer on port %d sees the "
              "archive and the board (there is no login). Use the default, %s, unless that is what you want."
              % (args.host, args.port, LOCAL), file=sys.stderr)
    url = "http://%s:%d/" % (args.host if ":" not in args.host else "[%s]" % args.host, args.port)
    if event is not None:
        print("sowlight serve: the event %s from %s" % (harmless.text(event.topics.base), event.conn.settings.where()),
              file=sys.stderr, flush=True)
        url += "#/event"
    print("sowlight serve: the web view is at %s (Ctrl-C stops it)" % url, file=sys.stderr, flush=True)
    if args.open:
        import webbrowser
        webbrowser.open(url)
    app = make_app(db, live, depth=args.depth, time_ms=int(args.time * 1000), event=event)
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning", timeout_graceful_shutdown=2))
    try:
        server.run(sockets=[sock])
    except KeyboardInterrupt:
        pass
    finally:
        sock.close()
        if conn is not None and live._thread is None:
            conn.close()        # the app never started: the live board was not handed over
        if event is not None and event._loop is None:
            event.stop()
    return 0


def _event(args):
    """(EventBoards connected to the broker, None), or (None, exit status) with the reason said."""
    import os
    from sowlight.broadcast import broker
    from sowlight.broadcast.topics import TopicError
    from .event import EventBoards
    try:
        settings = broker.from_args(args)
        conn = broker.BrokerConnection(settings, "sowlight-web-%s" % os.urandom(4).hex())
        event = EventBoards(conn, args.event)
    except (broker.BrokerError, TopicError) as e:
        return None, _fail(str(e), 2)
    try:
        conn.start()
        conn.wait_connected(10)
    except broker.BrokerError as e:
        conn.stop()
        return None, _fail(str(e))
    return event, 0


def _listen(host, port):
    """The server's socket, bound here so that a port in use is said plainly (uvicorn would exit)."""
    family, kind, proto, _, address = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)[0]
    sock = socket.socket(family, kind, proto)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(address)
        sock.listen(128)
    except OSError:
        sock.close()
        raise
    sock.set_inheritable(True)
    return sock


def register(sub, board_sub):
    p = sub.add_parser("serve", help="the web view: the live board, games with replay and analysis, statistics",
                       description="Serve the web view on this computer: the connected board live (seeds, LED roles, "
                                   "whose turn, the hint, each step of the hands), the archive's games (filters, "
                                   "replay step by step, analysis, downloads) and statistics. Listens on %s only "
                                   "unless --host says otherwise." % LOCAL)
    p.add_argument("--host", default=LOCAL, help="the address to listen on (default %s: this computer only)" % LOCAL)
    p.add_argument("--port", type=int, default=8765, help="the HTTP port (default 8765)")
    p.add_argument("--open", action="store_true", help="open the page in the web browser")
    p.add_argument("--db", metavar="PATH", help="the archive (default: $SOWLIGHT_DB, else %s)" % paths.default_archive())
    p.add_argument("--depth", type=int, default=analysis.DEPTH,
                   help="how many moves ahead the analysis looks (default %d)" % analysis.DEPTH)
    p.add_argument("--time", type=float, default=2.0, metavar="S",
                   help="the analysis spends at most S seconds a move (default 2)")
    b = p.add_argument_group("the live board")
    where = b.add_mutually_exclusive_group()
    where.add_argument("--board-port", metavar="PORT", help="the board's serial port (default: found by its USB ids)")
    where.add_argument("--url", metavar="URL", help="the board as a pyserial URL: socket://HOST:PORT, rfc2217://HOST:PORT")
    where.add_argument("--virtual", action="store_true", help="start a virtual board and show it")
    where.add_argument("--no-board", action="store_true", help="show no board (games and statistics only)")
    b.add_argument("--demo", action="store_true",
                   help="on a virtual board, robot hands play games one after another (the live board follows)")
    b.add_argument("--hints", action="store_true", help="the demo turns the board's hints on and plays the hinted pit")
    b.add_argument("--variant", "-v", metavar="V", help="the demo's game, and the virtual board's (default oware)")
    b.add_argument("--preset", metavar="P", help="the virtual board's preset (default: the smallest that plays the game)")
    b.add_argument("--pace", type=float, default=1.0, metavar="S", help="the demo's pause between moves (default 1 s)")
    b.add_argument("--no-archive", action="store_true", help="do not sync the demo's games into the archive")
    e = p.add_argument_group("an event (boards broadcasting to an MQTT broker: docs/broadcast.md)")
    e.add_argument("--event", metavar="NAME", help="show the event NAME's boards as a grid, live, each a link to its game")
    broker_arguments(e)
    p.set_defaults(func=run)
