"""`sys` on the VM board: the port's own, with a console that acts like a board's.

The port's sys.stdin has no console behind it (a read blocks forever, poll
always says ready).  This stdin takes the bytes the host sent from the bridge,
as a board's USB stdin does: select.poll() reports them, read(n) waits until
n have come (Ctrl-C interrupts it while kbd_intr allows), and whatever the
program leaves unread goes to the REPL afterwards.

The port's text output ends lines with LF; a board's text console (print,
sys.stdout, the REPL's results) sends CR LF, while sys.stdout.buffer sends
bytes as they are.  print, the REPL's result printer and sys.stdout here
send CR LF.  Names not defined here (path, argv, ps1, ...) are the port's.
"""
from usys import *  # noqa: F401,F403 -- the rest of the port's sys module
import io
import builtins
import usys as _sys

import _vmboard

__name__ = "sys"

_POLL_RD = 0x0001
_MP_STREAM_POLL = 3
_WAIT_MS = 50


class _Bytes(io.IOBase):
    """sys.stdin.buffer: the host's bytes, taken from the bridge only as they are read
    (what a program leaves unread stays there for the REPL)."""

    def _take(self, n):
        while True:
            chunk = _vmboard.take(n)
            if chunk.length:
                return bytes(chunk)
            _vmboard.wait(_WAIT_MS)

    def read(self, n=-1):
        out = b""
        if n is None or n < 0:
            while True:         # to the end, as a board reads: stdin never ends (Ctrl-C does)
                out += self._take(512)
        while len(out) < n:
            out += self._take(n - len(out))
        return out

    def readinto(self, buf, n=-1):
        n = len(buf) if n < 0 else min(n, len(buf))
        data = self.read(n)
        buf[:len(data)] = data
        return len(data)

    def readline(self):
        out = b""
        while not out.endswith(b"\n"):
            out += self._take(1)
        return out

    def write(self, data):
        raise OSError(9)        # EBADF: stdin is read-only

    def ioctl(self, request, arg):
        if request == _MP_STREAM_POLL:
            return arg & _POLL_RD if _vmboard.pending() else 0
        return 0


class _Text(io.IOBase):
    """sys.stdin: the same bytes as text."""

    def __init__(self, raw):
        self.buffer = raw

    def read(self, n=-1):
        return self.buffer.read(n).decode()

    def readinto(self, buf, n=-1):
        return self.buffer.readinto(buf, n)

    def readline(self):
        return self.buffer.readline().decode()

    def ioctl(self, request, arg):
        return self.buffer.ioctl(request, arg)


stdin = _Text(_Bytes())


class _Console(io.IOBase):
    """sys.stdout and sys.stderr: text with CR LF line ends; .buffer as it is."""

    def __init__(self):
        self.buffer = _sys.stdout.buffer

    def write(self, text):
        data = text.encode() if isinstance(text, str) else bytes(text)
        _sys.stdout.buffer.write(data.replace(b"\n", b"\r\n"))
        return len(text)

    def flush(self):
        pass

    def ioctl(self, request, arg):
        if request == _MP_STREAM_POLL:
            return arg & 0x0004     # always writable
        return 0


stdout = stderr = _Console()


def print(*args, sep=" ", end="\n", file=None):
    out = stdout if file is None else file
    out.write((" " if sep is None else sep).join([str(a) for a in args]) + ("\n" if end is None else end))


def repl_print(value):
    """What the REPL shows for an expression's value (and keeps as `_`)."""
    if value is not None:
        builtins._ = value
        stdout.write(repr(value) + "\n")


def print_exception(e, file=None):
    # Printed to a StringIO first: the port's print_exception straight to a
    # stream written in Python corrupts its memory.
    text = io.StringIO()
    _sys.print_exception(e, text)
    (stdout if file is None else file).write(text.getvalue())


def __getattr__(name):
    return getattr(_sys, name)


def input(prompt=None):
    """input() reading this stdin, echoing as a board's REPL line editor does (no history)."""
    if prompt:
        _sys.stdout.write(prompt)
    line = bytearray()
    while True:
        c = stdin.buffer.read(1)[0]
        if c == 13 or c == 10:
            _sys.stdout.write("\r\n")
            return line.decode()
        if c == 8 or c == 127:
            if line:
                line.pop()
                _sys.stdout.write("\b \b")
        elif c == 4 and not line:
            raise EOFError
        elif c >= 32:
            line.append(c)
            _sys.stdout.write(chr(c) if c < 128 else "?")
