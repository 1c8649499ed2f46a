"""`sowlight board virtual`: a virtual board behind a pseudo-terminal, until Ctrl-C.

    sowlight board virtual [--variant V [-o NAME=VALUE]...] [--preset P] [--journal FILE]
                           [--drop R] [--corrupt R] [--seed S]

The first line printed is the port's path (for scripts: read one line, open
it); the second says what the board is.  Then it runs until Ctrl-C or
SIGTERM and exits 0; `--journal FILE` has every record already.
"""
import signal
import sys
import threading

import mancala

from sowlight.terminal import harmless
from sowlight.play import parse_options, variant_name
from sowlight.simulation.virtual import VirtualBoard, VirtualBoardError
from sowlight.cli.arguments import add_boards


def register(sub, board_sub):
    p = board_sub.add_parser(
        "virtual", help="run a virtual board (the real firmware, simulated seeds) behind a pseudo-terminal",
        description="Run the board's firmware on this computer with simulated sensors, LEDs and buttons, "
                    "behind a pseudo-terminal that pyserial, `sowlight sync --port` and other tools open like "
                    "a board's port. Prints the port's path first. Seeds are moved with `sim` requests "
                    "(docs/protocol.md). Runs until Ctrl-C or SIGTERM.")
    p.add_argument("--variant", metavar="V", type=variant_name, help="start this game at power-up, its seeds set out (default: the menu)")
    p.add_argument("--option", "-o", action="append", metavar="NAME=VALUE",
                   help="an option of the variant, e.g. -o seeds=3")
    p.add_argument("--preset", default="2x6-stores", metavar="P",
                   help="the board: a preset name (`sowlight board presets`) or a config file (default 2x6-stores)")
    add_boards(p)
    p.add_argument("--journal", metavar="FILE",
                   help="keep the journal (and the board's id) in FILE, across runs (default: in memory)")
    p.add_argument("--drop", type=_rate, default=0.0, metavar="R", help="lose this share of the bytes each way (0..1)")
    p.add_argument("--corrupt", type=_rate, default=0.0, metavar="R",
                   help="flip a bit in this share of the bytes each way (0..1)")
    p.add_argument("--seed", type=int, metavar="S", help="seed of the faults' randomness (runs repeat)")
    p.set_defaults(func=cmd_virtual)


def _rate(text):
    import argparse
    try:
        r = float(text)
    except ValueError:
        r = -1.0
    if not 0.0 <= r <= 1.0:
        raise argparse.ArgumentTypeError("a rate is a fraction from 0 to 1 (0.01 = one byte in a hundred), not %r" % text)
    return r


def cmd_virtual(args):
    try:
        options = parse_options(args.option)
    except ValueError as e:
        print("sowlight board virtual: %s" % harmless.text(e), file=sys.stderr)
        return 2
    if args.variant:
        try:
            mancala.Game(args.variant, **options)     # a bad name or option is a bad command line, as for `play`
        except (ValueError, mancala.RulesError) as e:
            print("sowlight board virtual: cannot start %s: %s" % (harmless.text(args.variant), harmless.text(e)),
                  file=sys.stderr)
            return 2
    if options and not args.variant:
        print("sowlight board virtual: --option needs --variant (the game they are for)", file=sys.stderr)
        return 2
    vb = VirtualBoard(preset=args.preset, variant=args.variant, options=options, journal=args.journal,
                      drop=args.drop, corrupt=args.corrupt, seed=args.seed, boards=args.boards)
    stop = threading.Event()
    previous = signal.signal(signal.SIGTERM, lambda signum, frame: stop.set())
    try:
        try:
            path = vb.start()
        except VirtualBoardError as e:
            print("sowlight board virtual: %s" % harmless.text(e), file=sys.stderr)
            return 1
        print(path, flush=True)
        print(harmless.text(vb.describe()), flush=True)
        try:
            while not stop.wait(0.2):
                if not vb.running:
                    break
        except KeyboardInterrupt:
            pass
    finally:
        vb.stop()
        signal.signal(signal.SIGTERM, previous)
    if vb.error is not None:
        print("sowlight board virtual: the app stopped on an error: %s: %s (the journal is kept)"
              % (type(vb.error).__name__, vb.error), file=sys.stderr)
        return 1
    return 0
