"""Boards without a board: the firmware on this computer behind a pseudo-terminal
(`virtual`), the firmware image on an emulated RP2040 (`emuboard`), real MicroPython's
WebAssembly port for developers (`vmboard`, `python -m sowlight.simulation.vmboard`), and
robot hands that move the seeds of a simulated board (`robot`).

Each of these boards runs until Ctrl-C or SIGTERM; stop_on_signals() is how.
"""
import signal


def stop_on_signals():
    """SIGINT and SIGTERM raise KeyboardInterrupt from here on (a board runs until either);
    returns the handlers they had, to put back."""
    def stop(signum, frame):
        raise KeyboardInterrupt
    return {s: signal.signal(s, stop) for s in (signal.SIGINT, signal.SIGTERM)}
