"""`python -m sowlight.simulation.vmboard`: the VM board for developers (docs/development.md).

    python -m sowlight.simulation.vmboard [--flash DIR]

Real MicroPython (the WebAssembly port, under Node.js) behind a pseudo-terminal
that answers like a Pico's USB serial port: mpremote and `sowlight deploy
--port PATH` put the firmware on it.  Prints the pty's path as its first line
(flushed), then a line about the board, and runs until Ctrl-C or SIGTERM, when
the flash is written to DIR.
"""
import argparse
import signal
import sys

from sowlight.simulation import stop_on_signals
from sowlight.terminal import harmless

PROG = "python -m sowlight.simulation.vmboard"


def build_parser():
    p = argparse.ArgumentParser(
        prog=PROG,
        description="Run MicroPython (the WebAssembly port, under Node.js) behind a pseudo-terminal "
                    "that answers like a Raspberry Pi Pico's USB serial port: mpremote and "
                    "`sowlight deploy --port PATH` put the firmware on it, then the app runs there.")
    p.add_argument("--flash", metavar="DIR", help="keep the board's files in DIR, which survive a restart "
                                                  "(default: in memory, gone when it stops)")
    return p


def run_vm(flash=None, out=None, err=None):
    """Start the VM board, print its path, run until SIGINT/SIGTERM; the exit status."""
    from sowlight.simulation.vmboard import VmBoard, VmBoardError
    out = out or sys.stdout
    err = err or sys.stderr
    board = VmBoard(flash_dir=flash)
    previous = stop_on_signals()
    try:
        try:
            path = board.start()
        except VmBoardError as e:
            print("%s: %s" % (PROG, e), file=err)
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
        print("%s: the VM stopped (exit status %s):\n%s" % (PROG, status, harmless.text(board.log_tail(), lines=True)),
              file=err)
        return 1
    finally:
        board.stop()
        for s, handler in previous.items():
            signal.signal(s, handler)


def main(argv=None):
    args = build_parser().parse_args(argv)
    return run_vm(args.flash)


if __name__ == "__main__":
    sys.exit(main())
