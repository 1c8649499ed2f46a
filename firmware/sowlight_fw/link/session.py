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
blocks) and write(data), which writes all of it (in pieces if it likes), and
may have any(), true when bytes wait to be read (as UART.any()).  On
MicroPython `data` may be a str of ASCII (codec.pieces), which its streams,
memoryview and binascii take as they take bytes.

usb.py has the board's USB serial port as such a transport.
"""
import sys

from . import codec

try:
    from micropython import const
except ImportError:  # CPython
    def const(x):
        return x

from ..ticks import ticks_diff

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
        self.transport = transport
        self._any = getattr(transport, "any", None)     # (waiting(), asked before every scan)
        self.quiet_ms = quiet_ms
        self.answer_ms = answer_ms
        self.read_most = read_most
        self.decoder = codec.Decoder(codec.HOST, first=FIRST_LINE)
        # What the board sends is checked against the message table by the laptop, on arrival; on
        # CPython (the virtual board, tests) here too.  A board keeps no table of its own messages.
        self.encoder = codec.Encoder(check=sys.implementation.name != "micropython")
        self.rx = codec.SeqTracker()
        self.greeted = False     # a hello of our major version came: requests are carried out
        self.heard = None        # ticks of the last frame from the host (None: none yet)
        self.answered = None     # ticks of the last answer to a damaged line
        self.born = None         # ticks at start(): `up` in pongs counts from here
        self.last = None         # (seq, type, the frame's first piece as sent) of the last reply
                                 # to a request, or, for a request of REREAD, (seq, None,
                                 # (type, payload)) of the request
        self.why = None          # why the last send() failed
        # What happened, for the log, tests and `sowlight board info`.
        self.requests = 0        # requests handed to the app
        self.replayed = 0        # repeated requests answered with the remembered reply
        self.crossed = 0         # repeats read in the poll that answered them (not answered twice)
        self.polls = 0           # poll() calls
        self.last_poll = -1      # the poll() in which `last` was answered
        self.bad = 0             # damaged or refused lines
        self.answers = 0         # resync/error answers sent for them
        self.held_back = 0       # damaged lines left unanswered (before a hello, or too soon)
        self.events = 0          # events sent
        self.dropped = 0         # events dropped: no host listening
        self.echoes = 0          # hellos with role "board": our own frames coming back
        self.failures = 0        # requests the handler raised on (answered `internal`)
        self.write_errors = 0    # writes the transport refused

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

    # ----- each scan -------------------------------------------------------------------

    def poll(self, handler, now):
        """Read what the host sent, act on it; returns the number of lines handled."""
        handled = 0
        self.polls += 1
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

    def waiting(self):
        """Whether the host has sent something not read yet (False for a transport that cannot
        tell: one without any(), which says it as UART.any() does)."""
        return self._any is not None and bool(self._any())

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

    def _hello(self, m, handler, now):
        """A host's hello: the session (re)starts if it speaks our major version."""
        p = m.payload
        if p["role"] != codec.HOST:
            self.echoes += 1     # our own hello came back (a loopback): never answer it
            return
        self.heard = now
        self.rx.reset()
        self.rx.check(m.seq)
        try:
            codec.check_hello(p)
        except codec.VersionError as e:
            self.greeted = False
            self._reply(m.seq, _error("version", str(e)))
            return
        self.greeted = True
        self._reply(m.seq, self._handle(handler, "hello", p, now))

    def _message(self, m, handler, now):
        t = m.type
        p = m.payload
        if t == "hello":
            self._hello(m, handler, now)
            return
        self.heard = now
        verdict = self.rx.check(m.seq)
        if verdict == codec.DUPLICATE:
            last = self.last
            if last is not None and last[0] == m.seq:
                if self.last_poll == self.polls:
                    # Sent again while the board was busy, and read with the request itself:
                    # the reply has just gone out.  A second one would only take heap and time
                    # (a page of journal records: some 9 KB); were it lost, the host asks again.
                    self.crossed += 1
                    return
                # A retransmission: its reply was lost.  Send it again, never act twice.
                self.replayed += 1
                if last[1] is None:              # a read: read again
                    self._reply(m.seq, self._handle(handler, last[2][0], last[2][1], now), last[2])
                else:
                    self._send(last[1], None, codec.payload_text(last[2], last[1]))
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
            self._reply(m.seq, _error("no_hello", "send hello first: the board carries out requests only "
                                                  "after a hello of link protocol %d" % codec.PROTO_MAJOR))
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
            return _error("internal", "the board has no reply for '%s'" % t)
        return reply

    def _refused(self, bad, now):
        """A damaged or refused line: counted, and answered when the session allows."""
        self.bad += 1
        if bad.reason != codec.NOISE:
            self.heard = now         # a damaged frame: the host is there
        if bad.seq is not None:
            self.rx.check(bad.seq)   # intact but refused: its seq is trustworthy and counts
        # Never before a compatible hello (the other end may be a terminal, whose
        # echo of an answer would be answered again), and at most once per answer_ms.
        if not self.greeted or (self.answered is not None and ticks_diff(now, self.answered) < self.answer_ms):
            self.held_back += 1
            return
        self.answered = now
        mtype, payload = bad.answer()
        if self.send(mtype, payload):
            self.answers += 1

    # ----- what goes out ---------------------------------------------------------------------

    def _reply(self, seq, reply, request=None):
        mtype = reply.pop("type")
        reply["re"] = seq
        body = self._send(mtype, reply)
        if body is None:
            # It could not be sent: an `internal` error instead.
            mtype = "error"
            reply = _error("internal", "the reply to this request could not be sent (%s)" % self.why)
            reply.pop("type")
            reply["re"] = seq
            body = self._send(mtype, reply)
        # A reply is remembered as the frame's text that went out, which is shorter than its
        # dict and is sent again as it is (under a new seq of ours), not encoded again; the
        # payload is cut out of it only then, as a copy on every reply would take heap.  One
        # that could not be written at all is not remembered: the port is gone.
        if request is not None:
            self.last = (seq, None, request)
        elif body is not None:
            self.last = (seq, mtype, body)
        else:
            self.last = None
        self.last_poll = self.polls

    def send(self, mtype, payload):
        """Frame and write one message now; False (and `why`) when it cannot be framed or written."""
        return self._send(mtype, payload) is not None

    def _send(self, mtype, payload, text=None):
        """send(), or with `text` instead of a payload the payload's text as it went out before
        (codec.pieces); returns the frame's first piece when it was written, else None."""
        if text is None and mtype == "state" and "rx" not in payload:
            payload["rx"] = self.rx.last     # the last frame of the host's this state has seen
        try:
            frame = self.encoder.pieces(mtype, payload, text)
        except codec.FrameError as e:
            if not (e.reason == codec.TOO_LONG and mtype == "move" and payload.get("trace") is not None):
                self.why = e.msg
                return None
            # The protocol's way out for a move too long to frame: no trace (the host
            # recomputes it from the position and the move).
            payload = dict(payload)
            payload["trace"] = None
            try:
                frame = self.encoder.pieces(mtype, payload)
            except codec.FrameError as e2:
                self.why = e2.msg
                return None
        if self._write(frame[0]) and self._write(frame[1]):
            return frame[0]
        return None

    def _write(self, data):
        try:
            self.transport.write(data)
        except OSError as e:  # no host on the port, or a port that went away
            self.write_errors += 1
            self.why = "the port refused the write: %s" % e
            return False
        return True
