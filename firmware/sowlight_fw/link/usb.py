"""UsbTransport: the board's USB serial port -- the one the REPL uses -- as the link's transport
(session.py: read(n) never blocks, write(data) writes all of it).
"""
import sys

from . import codec
from .session import READ_MOST


class UsbTransport:
    """The board's USB serial port -- the one the REPL uses -- as a link transport.

    Reads sys.stdin.buffer a byte at a time while select.poll says one waits
    (a read of more would block until it came), into a buffer allocated once;
    writes sys.stdout.buffer in pieces of at most 63 bytes (codec.write_chunked:
    a 64-byte USB CDC write can stick).  The text streams are not used: they
    would turn LF into CR LF on some ports.  While it is open, Ctrl-C is an
    ordinary byte (micropython.kbd_intr(-1)): a 0x03 in line noise must not
    stop a game; close() turns Ctrl-C back on.  `rx`/`tx` replace the streams
    (another UART, a test's pipe)."""

    def __init__(self, rx=None, tx=None, ctrl_c_off=True, size=READ_MOST):
        import select
        self.rx = rx if rx is not None else sys.stdin.buffer
        self.tx = tx if tx is not None else sys.stdout.buffer
        self.poller = select.poll()
        self.poller.register(self.rx, select.POLLIN)
        self._ipoll = getattr(self.poller, "ipoll", None)   # MicroPython: polls without allocating
        self._readinto = getattr(self.rx, "readinto", None)
        self._buf = bytearray(size)
        self._one = bytearray(1)
        self._kbd_off = False
        if ctrl_c_off:
            self._kbd_off = _kbd_intr(-1)

    def any(self):
        """Whether a byte waits to be read, as UART.any() says (no allocation on MicroPython)."""
        if self._ipoll is not None:
            for _ in self._ipoll(0):
                return True
            return False
        return bool(self.poller.poll(0))

    def read(self, n):
        buf = self._buf
        one = self._one
        n = min(n, len(buf))
        i = 0
        while i < n and self.any():
            if self._readinto is not None:
                if not self._readinto(one):
                    break
                buf[i] = one[0]
            else:
                b = self.rx.read(1)
                if not b:
                    break
                buf[i] = b[0]
            i += 1
        return bytes(memoryview(buf)[:i]) if i else b""

    def write(self, data):
        codec.write_chunked(self.tx.write, data)

    def close(self):
        """Ctrl-C interrupts again (the REPL can be reached)."""
        if self._kbd_off:
            _kbd_intr(3)
            self._kbd_off = False


def _kbd_intr(ch):
    """micropython.kbd_intr(ch) where there is one; True when it was called."""
    try:
        import micropython
        micropython.kbd_intr(ch)
        return True
    except (ImportError, AttributeError):
        return False
