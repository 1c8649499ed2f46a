"""What the board's side of the link (link.py) runs rarely: a host's hello, a damaged or
refused line, a request before the hello, a reply that could not be sent.  Imported for the call and dropped after it (unload.py): a stock Pico keeps
the code of every module it imports in its heap.  The functions take the BoardLink first.
"""
from . import codec
from .link import _error, ticks_diff


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
