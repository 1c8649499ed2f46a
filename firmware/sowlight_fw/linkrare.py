"""What the board's side of the link (link.py) runs rarely: a host's hello, a damaged or
refused line, a request before the hello, a reply that could not be sent, and the link's and
the USB transport's set-up at boot.  Imported for the call and dropped after it (unload.py): a
stock Pico keeps the code of every module it imports in its heap.  The functions take the
BoardLink first (usb_init: the UsbTransport).
"""
import sys

from . import codec
from .link import _error, _kbd_intr, ticks_diff, FIRST_LINE


def hello(link, m, handler, now):
    """A host's hello: the session (re)starts if it speaks our major version."""
    p = m.payload
    if p["role"] != codec.HOST:
        link.echoes += 1     # our own hello came back (a loopback): never answer it
        return
    link.heard = now
    link.rx.reset()
    link.rx.check(m.seq)
    try:
        codec.check_hello(p)
    except codec.VersionError as e:
        link.greeted = False
        link._reply(m.seq, _error("version", str(e)))
        return
    link.greeted = True
    link._reply(m.seq, link._handle(handler, "hello", p, now))


def refused(link, bad, now):
    """A damaged or refused line: counted, and answered when the session allows."""
    link.bad += 1
    if bad.reason != codec.NOISE:
        link.heard = now         # a damaged frame: the host is there
    if bad.seq is not None:
        link.rx.check(bad.seq)   # intact but refused: its seq is trustworthy and counts
    # Never before a compatible hello (the other end may be a terminal, whose
    # echo of an answer would be answered again), and at most once per answer_ms.
    if not link.greeted or (link.answered is not None and ticks_diff(now, link.answered) < link.answer_ms):
        link.held_back += 1
        return
    link.answered = now
    mtype, payload = bad.answer()
    if link.send(mtype, payload):
        link.answers += 1


def no_hello(link, seq):
    """A request before a hello of our major version: refused, saying so."""
    link._reply(seq, _error("no_hello", "send hello first: the board carries out requests only "
                                        "after a hello of link protocol %d" % codec.PROTO_MAJOR))


def no_reply(link, t):
    return _error("internal", "the board has no reply for '%s'" % t)


def unsent(link, seq):
    """The reply to request `seq` could not be sent: an `internal` error instead; (type, payload) sent."""
    reply = _error("internal", "the reply to this request could not be sent (%s)" % link.why)
    reply.pop("type")
    reply["re"] = seq
    link.send("error", reply)
    return "error", reply


def init(self, transport, quiet_ms, answer_ms, read_most):
    """BoardLink.__init__ (the link is made once, at boot)."""
    self.transport = transport
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
    self.last = None         # (seq, type, payload) of the last reply to a request, or, for
                             # a request of REREAD, (seq, None, (type, payload)) of the request
    self.why = None          # why the last send() failed
    # What happened, for the log, tests and `sowlight board info`.
    self.requests = 0        # requests handed to the app
    self.replayed = 0        # repeated requests answered with the remembered reply
    self.bad = 0             # damaged or refused lines
    self.answers = 0         # resync/error answers sent for them
    self.held_back = 0       # damaged lines left unanswered (before a hello, or too soon)
    self.events = 0          # events sent
    self.dropped = 0         # events dropped: no host listening
    self.echoes = 0          # hellos with role "board": our own frames coming back
    self.failures = 0        # requests the handler raised on (answered `internal`)
    self.write_errors = 0    # writes the transport refused


def usb_init(self, rx, tx, ctrl_c_off, size):
    """UsbTransport.__init__ (made once, at boot)."""
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
