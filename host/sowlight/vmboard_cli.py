"""`sowlight board vm`: real MicroPython behind a pseudo-terminal, a board to deploy to (docs/cli.md).

    sowlight board vm [--flash DIR]

Prints the pty's path as its first line (flushed), then a line about the
board, and runs until Ctrl-C or SIGTERM, when the flash is written to DIR.
`sowlight board virtual --micropython [--flash DIR]` is the same board
(run_vm() is what it calls).
"""
import signal
import sys

from . import harmless


def register(sub, board_sub):
    p = board_sub.add_parser("vm", help="a MicroPython VM behind a pseudo-terminal: a bare board to deploy to",
                             description="Run MicroPython (the WebAssembly port, under Node.js) behind a pseudo-terminal "
                                         "that answers like a Raspberry Pi Pico's USB serial port: mpremote and "
                                         "`sowlight deploy --port PATH` put the firmware on it, then the app runs there.")
    add_options(p)
    p.set_defaults(func=cmd_vm)


def add_options(p):
    p.add_argument("--flash", metavar="DIR", help="keep the board's files in DIR, which survive a restart "
                                                  "(default: in memory, gone when it stops)")


def cmd_vm(args):
    return run_vm(args.flash)


def run_vm(flash=None, out=None, err=None):
    """Start the VM board, print its path, run until SIGINT/SIGTERM; the exit status."""
    from .vmboard import VmBoard, VmBoardError
    out = out or sys.stdout
    err = err or sys.stderr
    board = VmBoard(flash_dir=flash)
    previous = stop_on_signals()
    try:
        try:
            path = board.start()
        except VmBoardError as e:
            print("sowlight board vm: %s" % e, file=err)
            return 1
        print(path, file=out, flush=True)
        print("MicroPython %s VM board (machine.unique_id %s) on %s; %s. Ctrl-C stops it."
              % (board.micropython, board.uid.hex(), path,
                 "its flash is %s" % board.flash_dir if board.flash_dir else "its flash is in memory"),
              file=out, flush=True)
        try:
            status = board.wait()
        except KeyboardInterrupt:
            return 0
        print("sowlight board vm: the VM stopped (exit status %s):\n%s" % (status, harmless.text(board.log_tail(), lines=True)),
              file=err)
        return 1
    finally:
        board.stop()
        for s, handler in previous.items():
            signal.signal(s, handler)


def stop_on_signals():
    """SIGINT and SIGTERM raise KeyboardInterrupt from here on (a board runs until either);
    returns the handlers they had, to put back."""
    def stop(signum, frame):
        raise KeyboardInterrupt
    return {s: signal.signal(s, stop) for s in (signal.SIGINT, signal.SIGTERM)}
