"""The board's side of the link: the session rules of docs/protocol.md over any byte transport.

    link = BoardLink(UsbTransport())         # or a virtual board's pty, a test's pipe
    link.start(hello_payload, now)            # the hello every start-up sends, unasked
    link.poll(handler, now)                   # each scan: read, decode, answer
    link.event("move", payload, now)          # sent only while a host listens

`handler(type, payload, now)` carries out one request and returns its reply
as a dict with "type" ("ok", "state", "error", ...); the link adds "re",
remembers it and writes it.  The link itself answers `ping`, refuses a
`hello` of another major version, refuses requests before a compatible hello
(`no_hello`), re-sends the remembered reply when a request comes again with
the same seq (a retransmission: carried out once; for the journal's requests,
REREAD, it remembers the request instead and reads again: their replies are
the longest, a page of records several KB of a board's heap as a dict, and a
read, or an ack made a second time, gives the same answer), sends `resync`
after a gap in the host's seqs, answers a host's `resync` with a `state`, and
answers damaged lines -- never before a compatible hello, at most once per
`answer_ms`.  After `quiet_ms` without a frame from the host, events are
dropped (the journal keeps the game) until the host speaks again.

A transport has read(n) -> bytes (b"" or None when nothing waits; it never
blocks) and write(data), which writes all of it (in pieces if it likes).

A host's hello and a damaged or refused line are dealt with in linkrare.py,
imported for the call and dropped after it (a stock Pico keeps the code of
every module it imports in its heap).
"""

from . import codec
from .unload import unload

try:
    from micropython import const
except ImportError:  # CPython
    def const(x):
        return x

try:
    from time import ticks_diff
except ImportError:  # CPython
    def ticks_diff(a, b):
        return a - b

REREAD = ("journal_list", "journal_get", "journal_ack")   # repeats are carried out again (see above)
QUIET_MS = const(10000)   # the host is gone after this long without a frame from it
ANSWER_MS = const(20)     # at most one answer to damaged lines per this long (a scan)
READ_MOST = const(512)    # bytes taken from the transport per poll: a scan stays short
_LONG_READS = const(32)   # reads per poll while they bring a line too long to end in them (16 KB)
FIRST_LINE = const(256)   # the decoder's buffer for a partial line to start with: a host's requests are
                          # short (it doubles for a longer one, up to codec.MAX_FRAME)
_UP_MASK = const(0x3FFFFFFF)
_MAX_MSG = const(160)


def _error(code, msg):
    if len(msg) > _MAX_MSG:
        msg = msg[:_MAX_MSG - 3] + "..."
    return {"type": "error", "code": code, "msg": msg}


class BoardLink:
    """The session with the host, over `transport`; see the module's docstring."""

    def __init__(self, transport, quiet_ms=QUIET_MS, answer_ms=ANSWER_MS, read_most=READ_MOST):
        self._rare("init", transport, quiet_ms, answer_ms, read_most)   # (linkrare.init: the attributes)

    # ----- the host's presence -------------------------------------------------------

    def listening(self, now):
        """True while a greeted host has sent a frame within quiet_ms: events go out."""
        return self.greeted and self.heard is not None and ticks_diff(now, self.heard) < self.quiet_ms

    # ----- start-up -------------------------------------------------------------------

    def start(self, hello, now):
        """Announce the app to whoever listens: a lone newline (ending any partial line
        the host holds, e.g. REPL output), then the board's hello without "re"."""
        self.born = now
        self._write(b"\n")
        return self.send("hello", hello)

    def _rare(self, name, *args):
        """linkrare.<name>(self, *args), with linkrare.py loaded for the call only."""
        from . import linkrare
        try:
            return getattr(linkrare, name)(self, *args)
        finally:
            unload("linkrare")

    # ----- each scan -------------------------------------------------------------------

    def poll(self, handler, now):
        """Read what the host sent, act on it; returns the number of lines handled."""
        handled = 0
        for _ in range(_LONG_READS):
            try:
                data = self.transport.read(self.read_most)
            except OSError:          # a port that went away (a pty whose other end closed)
                return handled
            if not data:
                return handled
            items = self.decoder.feed(data)
            for item in items:
                if type(item) is codec.Message:
                    self._message(item, handler, now)
                else:
                    self._refused(item, now)
            handled += len(items)
            # A full read that ends no line is inside a long one -- junk: no request is that
            # long.  The decoder drops it as it comes; reading on (boundedly) drops 200 KB of it
            # in a dozen scans instead of holding the next request back for 400 (8 s).
            if items or len(data) < self.read_most:
                return handled
        return handled

    def event(self, mtype, payload, now):
        """Send an event (move, step, leds, log, state) if a host listens; True when sent."""
        if not self.listening(now):
            self.dropped += 1
            return False
        if self.send(mtype, payload):
            self.events += 1
            return True
        return False

    # ----- what came in ------------------------------------------------------------------

    def _message(self, m, handler, now):
        t = m.type
        p = m.payload
        if t == "hello":
            self._rare("hello", m, handler, now)
            return
        self.heard = now
        verdict = self.rx.check(m.seq)
        if verdict == codec.DUPLICATE:
            last = self.last
            if last is not None and last[0] == m.seq:
                # A retransmission: its reply was lost.  Send it again, never act twice.
                self.replayed += 1
                if last[1] is None:              # a read: read again
                    self._reply(m.seq, self._handle(handler, last[2][0], last[2][1], now), last[2])
                else:
                    self.send(last[1], last[2])
            return
        if t == "pong" or t == "error":
            pass                     # answers to frames of ours: nothing to do
        elif t == "resync":
            if self.greeted:         # the host could not read something of ours
                state = self._handle(handler, "get_state", {}, now)
                if state.get("type") == "state":
                    state.pop("type")
                    self.send("state", state)
        elif t == "ping":
            up = now if self.born is None else ticks_diff(now, self.born)
            self._reply(m.seq, {"type": "pong", "up": up & _UP_MASK})
        elif not self.greeted:
            self._rare("no_hello", m.seq)
        else:
            self.requests += 1
            self._reply(m.seq, self._handle(handler, t, p, now), (t, p) if t in REREAD else None)
        if verdict == codec.GAP or verdict == codec.BEHIND:
            self.send("resync", {"reason": "gap"})

    def _handle(self, handler, t, p, now):
        try:
            reply = handler(t, p, now)
        except Exception as e:  # a bug or MemoryError: one request fails, the board plays on
            self.failures += 1
            return _error("internal", "'%s' failed on the board: %s: %s" % (t, type(e).__name__, e))
        if reply is None:
            return self._rare("no_reply", t)
        return reply

    def _refused(self, bad, now):
        self._rare("refused", bad, now)

    # ----- what goes out ---------------------------------------------------------------------

    def _reply(self, seq, reply, request=None):
        mtype = reply.pop("type")
        reply["re"] = seq
        if not self.send(mtype, reply):
            mtype, reply = self._rare("unsent", seq)
        self.last = (seq, mtype, reply) if request is None else (seq, None, request)

    def send(self, mtype, payload):
        """Frame and write one message now; False (and `why`) when it cannot be framed or written."""
        if mtype == "state" and "rx" not in payload:
            payload["rx"] = self.rx.last     # the last frame of the host's this state has seen
        try:
            frame = self.encoder.frame(mtype, payload)
        except codec.FrameError as e:
            if not (e.reason == codec.TOO_LONG and mtype == "move" and payload.get("trace") is not None):
                self.why = e.msg
                return False
            # The protocol's way out for a move too long to frame: no trace (the host
            # recomputes it from the position and the move).
            payload = dict(payload)
            payload["trace"] = None
            try:
                frame = self.encoder.frame(mtype, payload)
            except codec.FrameError as e2:
                self.why = e2.msg
                return False
        return self._write(frame)

    def _write(self, data):
        try:
            self.transport.write(data)
        except OSError as e:  # no host on the port, or a port that went away
            self.write_errors += 1
            self.why = "the port refused the write: %s" % e
            return False
        return True


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
        BoardLink._rare(self, "usb_init", rx, tx, ctrl_c_off, size)   # (linkrare.usb_init)

    def _waiting(self):
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
        while i < n and self._waiting():
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
