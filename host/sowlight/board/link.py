"""The host's end of the link: greet the board, ask and be answered, stay connected.

    with Link(ports.opener(port="/dev/ttyACM0")) as link:   # or url=..., or found by USB ids
        link.connect()                                        # opens, says hello, checks versions
        print(link.board_id)
        games = link.request("journal_list")["games"]
        kind, payload = link.next_event(timeout=5)            # ("move", {...}), ("link", {"status": "down"})

docs/protocol.md ("The session", "Requests and replies", "Liveness",
"Resynchronisation", "Host link") is the specification; this module is its
host side, on top of the shared codec (sowlight_fw.link.codec).

Threads.  A pyserial ReaderThread per connection feeds a codec.Decoder and
hands replies to the waiting request, events to the event queue.  Requests
run in the caller's thread, one at a time (stop-and-wait, a lock), and so do
reconnections: the thread that finds the link down brings it back.  A
keep-alive thread pings an idle link and reconnects it when it dies.  An
optional dispatcher thread runs `on_event`.  close() stops them all.

Never silently lost: a request either returns the board's reply or raises.
An idempotent request (reads, acknowledgements, settings) is sent again on the
new connection when the link went down under it; any other command raises
LinkDown saying it may or may not have been carried out.
"""
import collections
import random
import threading
import time

import serial
import serial.threaded

from sowlight_fw.link import codec

try:
    from importlib.metadata import version as _version
    SW = "sowlight %s" % _version("sowlight")
except Exception:  # not installed (a source checkout on sys.path)
    SW = "sowlight"

# The reply each request expects (error is always possible); requests not
# listed are answered by "ok".
REPLIES = {"hello": "hello", "ping": "pong", "get_state": "state", "journal_list": "journal",
           "journal_get": "records"}
# Requests that do the same thing when repeated on a new connection (reads, and
# settings or acknowledgements that set a value rather than add to one).
IDEMPOTENT = frozenset(("hello", "ping", "get_state", "journal_list", "journal_get", "journal_ack",
                        "hint", "brightness", "guide"))
# Requests that take longer than the usual timeout on the board.
SLOW = frozenset(("self_test", "calibrate"))
_FIRST_RTT = 0.075   # seconds: a board's round trip assumed before one is measured (a scan or two, USB)

# Event kinds put on the event queue besides the board's own (move, step, leds, log, state).
LINK = "link"


class LinkError(Exception):
    """A link problem, said so that the user knows what to do."""


class LinkDown(LinkError):
    """The board stopped answering and could not be reached again (or a command was cut off)."""


class LinkClosed(LinkError):
    """The link was closed by this side."""


class VersionMismatch(LinkError):
    """The board speaks another major version of the protocol."""


class NotABoard(LinkError):
    """Something answers on the port, but not the Sowlight app (a REPL, an echo, another device)."""


class BoardChanged(LinkError):
    """After a reconnection another board answered than the one a request was meant for."""


class ReplyDamaged(LinkError):
    """The reply kept arriving damaged (request(damaged_limit=...)): ask for less at a time."""


class BoardError(LinkError):
    """The board answered a request with `error`: `code` (docs/protocol.md "Error codes") and `msg`."""

    def __init__(self, request, code, msg):
        LinkError.__init__(self, "the board refused %s: %s (%s)" % (request, msg, code))
        self.request = request
        self.code = code
        self.msg = msg


class _Down(Exception):
    """Internal: the connection under a request died (the reason is in link.down_reason)."""


class _Pending:
    """The one request waiting for its reply."""

    __slots__ = ("seq", "type", "frame", "reply", "resend", "damaged", "timeouts", "silent", "sends", "restarted",
                 "sent_at", "heard_at")

    def __init__(self, seq, mtype, frame):
        self.seq = seq
        self.type = mtype
        self.frame = frame
        self.reply = None     # the Message that answered it
        self.resend = False   # a damaged line or a resync came: send it again now
        self.damaged = 0      # sent again because of damage
        self.timeouts = 0     # timeouts in a row with nothing at all from the board
        self.silent = True    # nothing has come since the last send
        self.sends = 0
        self.restarted = False  # the board announced a restart while this waited
        self.sent_at = 0.0      # when it was first sent (a round trip is timed from it)
        self.heard_at = 0.0     # when the board last sent anything (or the request was first sent)


class _Reader(serial.threaded.Protocol):
    """Feeds one connection's bytes to the link; `gen` tells a stale connection's calls apart."""

    def __init__(self, link, gen):
        self.link = link
        self.gen = gen

    def data_received(self, data):
        self.link._received(self.gen, data)

    def connection_lost(self, exc):
        self.link._lost(self.gen, exc)


class Link:
    """A session with the board over a transport that `opener()` opens (again on each reconnect).

    `opener` returns a pyserial-like port (read, write, in_waiting, close,
    is_open; cancel_read when it can): ports.opener() for a port, a URL or a
    board found by its USB ids; tests pass their own.

    Timings (seconds) default to docs/protocol.md: a request is sent again
    when no reply came within its retransmission timeout -- four times the
    board's smoothed round trip, at least `rto_min`, at most `timeout`
    (`slow_timeout` for self_test and calibrate, which are not sped up) -- and
    at once when damaged lines come instead (up to `damaged_retries` times);
    the link is down after (`retries` + 1) x `timeout` with nothing at all
    from the board; a ping after `ping_every` of silence from this side;
    the link is dead after `dead_after` without a byte from the board; then
    reconnects at `backoff`, doubling up to `backoff_max`, for at most
    `reconnect_for` (None: forever).  Refused lines are answered at most once
    per `answer_every`.  A line left unfinished for `line_idle` while a reply
    is awaited counts as damaged (its newline was lost: without this the
    request would wait out its whole timeout).

    `brief`: ask the board for a brief hello (protocol 1.2: its id, not its
    config and variants), which a noisy line lets through far more often; a
    1.1 board sends its whole hello all the same.  `sowlight sync` does.

    `watch_state`: keep `state` current by sending get_state whenever in doubt
    (a viewer wants this; `sowlight sync` does not).  `on_event(kind,
    payload)` runs in a thread of its own; without it, events wait in a queue
    of `event_buffer` (the oldest dropped when full) for next_event().
    """

    def __init__(self, opener, sw=SW, timeout=1.0, slow_timeout=30.0, retries=3, damaged_retries=200, rto_min=0.2,
                 ping_every=2.0, dead_after=6.0, backoff=0.25, backoff_max=2.0, reconnect_for=30.0,
                 answer_every=0.25, line_idle=0.1, watch_state=False, on_event=None, event_buffer=1000,
                 keepalive=True, name="board", brief=False):
        self.opener = opener
        self.sw = sw
        self.timeout = timeout
        self.slow_timeout = slow_timeout
        self.retries = retries
        self.damaged_retries = damaged_retries
        self.rto_min = rto_min
        self.srtt = None          # the board's smoothed round trip (s), from replies to a first copy
        self.ping_every = ping_every
        self.dead_after = dead_after
        self.backoff = backoff
        self.backoff_max = backoff_max
        self.reconnect_for = reconnect_for
        self.answer_every = answer_every
        self.line_idle = line_idle
        self.watch_state = watch_state
        self.name = name
        self.brief = brief

        self.board_hello = None   # the board's hello payload
        self.board_id = None
        self.board_proto = None   # (major, minor)
        self.state = None         # the latest state payload
        self.down_reason = None   # why the link is down, None while up
        self.refused = None       # why the last intact frame from the board was refused
        self.stats = collections.Counter()
        self.backoff_log = []     # the delays slept before reconnect attempts

        self._cv = threading.Condition()    # guards the fields below and the decoder
        self._req = threading.RLock()        # one request (or reconnection) at a time
        self._wlock = threading.Lock()       # one write at a time
        self._stop = threading.Event()
        self._gen = 0
        self._port = None
        self._reader = None
        self._decoder = codec.Decoder(codec.BOARD)
        self._rx = codec.SeqTracker()
        self._enc = codec.Encoder()
        self._pending = None
        self._up = False
        self._greeted = False
        self._needs_hello = False
        self._doubt = False
        self._last_rx = 0.0
        self._last_tx = 0.0
        self._last_answer = -1e9
        self._partial = False    # the last bytes received left a line unfinished
        self._last_restarted = False
        self._noise = 0
        self._echoes = 0
        self._framed = 0
        self._connected_once = False
        self._closed = False

        self._events = collections.deque(maxlen=event_buffer)
        self._ev_cv = threading.Condition()
        self.on_event = on_event
        self._dispatcher = None
        if on_event is not None:
            self._dispatcher = threading.Thread(target=self._dispatch, name="sowlight-link-events", daemon=True)
            self._dispatcher.start()
        self._keeper = None
        self._keepalive = keepalive

    @classmethod
    def open(cls, port=None, url=None, vid=None, pid=None, **options):
        """A Link to the board on `port`, at `url`, or found by its USB ids (ports.opener)."""
        from sowlight.board import ports
        return cls(ports.opener(port=port, url=url, vid=vid, pid=pid), **options)

    # -- opening and closing ------------------------------------------------------------

    def connect(self, wait=0.0):
        """Open the transport and greet the board; return the board's hello.

        Tries again with backoff for `wait` seconds when the port cannot be
        opened or nothing answers.  Raises the opener's PortError, NotABoard,
        VersionMismatch or LinkDown."""
        with self._req:
            self._check_open()
            if self._up and not self._needs_hello:
                return self.board_hello
            self._recover(wait, first=not self._connected_once)
            self._connected_once = True
            self._start_keeper()
        return self.board_hello

    def _start_keeper(self):
        if self._keepalive and self._keeper is None:
            self._keeper = threading.Thread(target=self._keep_alive, name="sowlight-link-keepalive", daemon=True)
            self._keeper.start()

    def close(self):
        """Stop every thread and close the port; pending and later requests raise LinkClosed."""
        with self._cv:
            if self._closed:
                return
            self._closed = True
            self._stop.set()
            self._cv.notify_all()
        with self._req:
            self._close_port()
        if self._keeper is not None and self._keeper is not threading.current_thread():
            self._keeper.join()
        with self._ev_cv:
            self._ev_cv.notify_all()
        if self._dispatcher is not None and self._dispatcher is not threading.current_thread():
            self._dispatcher.join()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
        return False

    @property
    def up(self):
        return self._up

    def _check_open(self):
        if self._closed:
            raise LinkClosed("the link to the %s was closed" % self.name)

    def _open_port(self):
        """Open a new connection and start its reader (the caller holds _req)."""
        port = self.opener()
        with self._cv:
            self._gen += 1
            gen = self._gen
            self._port = port
            self._decoder.reset()
            self._partial = False
            self._rx = codec.SeqTracker()
            # A hello may use any seq: a random start keeps a late reply from an
            # earlier connection from matching a request of this one.
            self._enc = codec.Encoder(random.randrange(codec.SEQ_MOD))
            self._up = True
            self._greeted = False
            self._needs_hello = True
            self.down_reason = None
            self.refused = None
            self._noise = 0
            self._echoes = 0
            self._framed = 0     # frames from the board on this connection, good or damaged
            self._last_rx = self._last_tx = time.monotonic()
        reader = serial.threaded.ReaderThread(port, lambda: _Reader(self, gen))
        reader.name = "sowlight-link-reader"
        self._reader = reader
        reader.start()
        self.stats["connections"] += 1

    def _close_port(self):
        """Stop the reader and close the port (the caller holds _req)."""
        with self._cv:
            self._gen += 1  # the old reader's calls are ignored from now on
            self._up = False
            port, reader = self._port, self._reader
            self._port = self._reader = None
            self._cv.notify_all()
        if reader is not None:
            # Stop the reader before closing the port under it: a read interrupted
            # by close() may fail in ways pyserial does not turn into SerialException.
            reader.alive = False
            if hasattr(port, "cancel_read"):
                try:
                    port.cancel_read()
                except Exception:  # a port that is already gone
                    pass
            if reader is not threading.current_thread() and reader.is_alive():
                reader.join(5)
        if port is not None:
            try:
                port.close()
            except Exception:
                pass

    # -- the session ----------------------------------------------------------------------

    def _recover(self, wait, first=False):
        """Bring the link up: (re)open, hello, and resync; back off between attempts.

        Gives up after `wait` seconds (None: never) with the last reason."""
        start = time.monotonic()
        delay = self.backoff
        while True:
            self._check_open()
            self._close_port()
            try:
                self._open_port()
                self._hello()
                if self.watch_state:
                    self._refresh_state()
                if not first:
                    self.stats["reconnects"] += 1
                    self._event(LINK, {"status": "up", "board": self.board_id})
                return
            except (VersionMismatch, LinkClosed):
                self._close_port()
                raise
            except NotABoard:
                self._close_port()
                if first:
                    raise
                last = None
                reason = self.down_reason or "the board does not speak the protocol"
            except _Down:
                self._close_port()
                reason = self.down_reason
                last = None
            except Exception as e:  # the opener's PortError, SerialException, OSError
                self._close_port()
                reason = str(e)
                last = e
                if first and wait == 0:
                    raise
            elapsed = time.monotonic() - start
            if wait is not None and elapsed + delay > wait:
                if last is not None and first:
                    raise last
                raise LinkDown("the %s does not answer (%s); gave up after %.0f s: check the cable and that "
                               "the Sowlight app runs on it" % (self.name, reason, elapsed))
            self.backoff_log.append(delay)
            if self._stop.wait(delay):
                self._check_open()
            delay = min(delay * 2, self.backoff_max)

    def _hello(self):
        """Send our hello, check the board's (the caller holds _req)."""
        self._write(b"\n")  # ends whatever partial line the board holds
        payload = codec.hello(codec.HOST, self.sw, time=int(time.time()))
        if self.brief:
            payload["brief"] = True
        try:
            reply = self._exchange("hello", payload)
        except _Down:
            with self._cv:
                noise, echoes, framed = self._noise, self._echoes, self._framed
            if noise and not framed:  # (text among damaged frames is a noisy line, not a REPL)
                raise NotABoard("the %s answers with text that is not Sowlight frames: it is probably at its "
                                "MicroPython REPL, or runs other firmware. Install or restart the app "
                                "(sowlight deploy), or reset the board" % self.name)
            if echoes and not framed:
                raise NotABoard("the port sends back what is written to it (a loopback or a terminal "
                                "echoing): it is not a Sowlight board")
            raise
        if reply.type == "error":
            code, msg = reply.payload["code"], reply.payload["msg"]
            if code == "version":
                # The board's message says which side to update (codec.check_hello).
                raise VersionMismatch("the %s refused the session: %s" % (self.name, msg))
            raise NotABoard("the %s refused our hello: %s (%s)" % (self.name, msg, code))
        p = reply.payload
        try:
            self.board_proto = codec.check_hello(p)
        except codec.VersionError as e:
            raise VersionMismatch(str(e)) from None
        if p["role"] != codec.BOARD:
            raise NotABoard("the other side says it is a %r, not a board" % p["role"])
        with self._cv:
            self.board_hello = p
            self.board_id = p["board"]
            self._greeted = True
            self._needs_hello = False

    def _refresh_state(self):
        reply = self._exchange("get_state")
        if reply.type == "error":
            raise BoardError("get_state", reply.payload["code"], reply.payload["msg"])
        with self._cv:
            self.state = reply.payload
            self._doubt = False

    # -- requests -------------------------------------------------------------------------

    def request(self, mtype, payload=None, timeout=None, damaged_limit=None, board=None):
        """Send a request and return its reply's payload (a dict).

        `board`: the board id the request is meant for (default: the board
        this link greeted when the request began); sending it to another one
        -- a different board plugged in during a reconnection -- raises
        BoardChanged instead.  Raises BoardError when the board answers
        `error`, LinkDown when the link died and could not be brought back (or
        a command that is not idempotent was cut off: it may or may not have
        been done), VersionMismatch, LinkClosed; ReplyDamaged when
        `damaged_limit` is given and the reply came damaged that many times (a
        reply too long for a noisy line: ask for less)."""
        if payload is None:
            payload = {}
        codec.validate(mtype, payload, codec.HOST)  # a bad request is this side's bug: say so now
        with self._req:
            if board is None:
                board = self.board_id
            attempts = 0
            rehello = 0
            while True:
                self._check_open()
                if not self._up or self._needs_hello:
                    first = not self._connected_once
                    try:
                        if self._up:
                            self._hello()
                        else:
                            self._recover(self.reconnect_for, first)
                    except _Down:
                        self._recover(self.reconnect_for, first)
                    self._connected_once = True
                    self._start_keeper()
                if board is not None and self.board_id != board:
                    raise BoardChanged("another board (%s) answers now, not %s: '%s' was not sent to it; start "
                                       "again with the board you want" % (self.board_id, board, mtype))
                try:
                    reply = self._exchange(mtype, payload, timeout, damaged_limit)
                except _Down:
                    attempts += 1
                    if mtype not in IDEMPOTENT:
                        raise LinkDown("the link to the %s went down during '%s' (%s): it may or may not have "
                                       "been carried out; check the board before sending it again"
                                       % (self.name, mtype, self.down_reason)) from None
                    if attempts > 10:
                        raise LinkDown("the link to the %s keeps going down (%s): '%s' was not answered"
                                       % (self.name, self.down_reason, mtype)) from None
                    self.stats["requests_retried"] += 1
                    continue
                if reply.type == "error":
                    code = reply.payload["code"]
                    if code == "no_hello" and self._last_restarted and mtype not in IDEMPOTENT:
                        # It may have carried out an earlier copy before it restarted.
                        raise LinkDown("the %s restarted while '%s' was under way: it may or may not have been "
                                       "carried out; check the board before sending it again" % (self.name, mtype))
                    if code == "no_hello" and rehello < 2:
                        # The board restarted (or lost our hello): greet it and ask again;
                        # it refused the request, so asking again cannot do it twice.
                        rehello += 1
                        with self._cv:
                            self._needs_hello = True
                        continue
                    if code == "busy" and attempts < self.retries:
                        attempts += 1
                        self._stop.wait(self.timeout)
                        continue
                    raise BoardError(mtype, code, reply.payload["msg"])
                if mtype == "get_state":
                    with self._cv:
                        self.state = reply.payload
                        self._doubt = False
                return reply.payload

    def ping(self):
        """Ping the board; return its pong (with `up`, its uptime in ms)."""
        return self.request("ping")

    def _exchange(self, mtype, payload=None, timeout=None, damaged_limit=None):
        """Send one request and wait for the message that answers it (the caller holds _req).

        Retransmits the same bytes when nothing comes within the retransmission
        timeout (_rto; the link is down after (`retries` + 1) x `timeout` with
        nothing at all from the board) or when a damaged line or a resync comes
        (up to `damaged_retries`; ReplyDamaged after `damaged_limit`); raises
        _Down when the link is down or gives up."""
        if timeout is None:
            timeout = self.slow_timeout if mtype in SLOW else self._rto()
            silence = (self.retries + 1) * (self.slow_timeout if mtype in SLOW else self.timeout)
        else:
            silence = (self.retries + 1) * timeout
        with self._cv:
            if not self._up:
                raise _Down()
            frame = self._enc.frame(mtype, payload)
            pending = _Pending(self._enc.seq, mtype, frame)
            self._pending = pending
        # Silent copies at most as many as fit in the silence allowed (each one resets it when
        # the board is heard between), plus the damaged ones: a bound whatever the board does.
        most = 1 + self.damaged_retries + int(silence / max(timeout, 1e-3)) * (self.retries + 1)
        try:
            pending.sends = 1
            self._write(frame)
            self.stats["requests"] += 1
            pending.sent_at = pending.heard_at = time.monotonic()
            deadline = pending.sent_at + timeout
            with self._cv:
                while True:
                    if pending.reply is not None:
                        if pending.sends == 1 and mtype not in SLOW:
                            self._timed(time.monotonic() - pending.sent_at)
                        return pending.reply
                    if self._closed:
                        raise LinkClosed("the link to the %s was closed" % self.name)
                    if not self._up:
                        raise _Down()
                    again = False
                    now = time.monotonic()
                    if pending.resend:
                        pending.resend = False
                        pending.damaged += 1
                        if damaged_limit is not None and pending.damaged >= damaged_limit:
                            self.stats["replies_damaged"] += 1
                            raise ReplyDamaged("the reply to '%s' came damaged %d times" % (mtype, pending.damaged))
                        if pending.damaged > self.damaged_retries:
                            self._mark_down("'%s' was answered by %d damaged lines: the line is too noisy"
                                            % (mtype, pending.damaged))
                            raise _Down()
                        self.stats["resent_damaged"] += 1
                        again = True
                    elif self._partial and now - self._last_rx >= self.line_idle:
                        # A line began and stopped: its newline was lost or damaged.
                        self._partial = False
                        self.stats["lines_stalled"] += 1
                        pending.resend = True
                        continue
                    elif now >= deadline:
                        # Only silence counts towards declaring the link down: a board
                        # whose lines arrive damaged is there.
                        pending.timeouts = pending.timeouts + 1 if pending.silent else 1
                        if now - pending.heard_at >= silence - 1e-6:
                            self._mark_down("no reply to '%s' after %d tries%s" % (
                                mtype, pending.timeouts,
                                "" if self.refused is None else " (a frame from the board was refused: %s)"
                                % self.refused))
                            raise _Down()
                        self.stats["resent_timeout"] += 1
                        again = True
                    if again:
                        if pending.sends >= most:
                            self._mark_down("'%s' went unanswered after %d tries" % (mtype, pending.sends))
                            raise _Down()
                        pending.sends += 1
                        pending.silent = True
                        self._cv.release()
                        try:
                            self._write(frame)  # the same bytes, the same seq: never done twice
                        finally:
                            self._cv.acquire()
                        deadline = time.monotonic() + timeout
                        continue
                    wake = deadline
                    if self._partial:
                        wake = min(wake, self._last_rx + self.line_idle)
                    self._cv.wait(max(0.0, wake - now))
        finally:
            with self._cv:
                if self._pending is pending:
                    self._pending = None
                self._last_restarted = pending.restarted

    def _rto(self):
        """The retransmission timeout: four smoothed round trips of this board, within
        [rto_min, timeout] (before one was measured: _FIRST_RTT's)."""
        rtt = _FIRST_RTT if self.srtt is None else self.srtt
        return min(self.timeout, max(self.rto_min, 4 * rtt))

    def _timed(self, rtt):
        # Only replies to a first copy are timed (a reply to which copy, otherwise?).
        self.srtt = rtt if self.srtt is None else 0.875 * self.srtt + 0.125 * rtt

    def _write(self, data):
        with self._cv:
            port = self._port if self._up else None
        if port is None:
            raise _Down()
        try:
            with self._wlock:
                port.write(data)
        except Exception as e:  # SerialException, OSError, a closed port
            self._mark_down("cannot write to the port: %s" % e)
            raise _Down() from None
        self._last_tx = time.monotonic()
        self.stats["bytes_out"] += len(data)

    def _mark_down(self, reason):
        with self._cv:
            if not self._up:
                return
            self._up = False
            self._greeted = False
            self.down_reason = reason
            self.stats["downs"] += 1
            self._cv.notify_all()
        self._event(LINK, {"status": "down", "reason": reason})

    # -- what the reader thread hands over ---------------------------------------------------

    def _received(self, gen, data):
        out = []
        with self._cv:
            if gen != self._gen:
                return
            now = time.monotonic()
            self._last_rx = now
            self.stats["bytes_in"] += len(data)
            self._partial = data[-1:] != b"\n"
            for item in self._decoder.feed(data):
                if type(item) is codec.Message:
                    self.stats["frames_in"] += 1
                    self._on_message(item, out)
                else:
                    self._on_bad(item, now, out)
            self._cv.notify_all()
        for frame in out:
            try:
                self._write(frame)
            except _Down:
                break

    def _on_message(self, m, out):
        t = m.type
        p = m.payload
        if t == "hello" and p["role"] != codec.BOARD:
            self._echoes += 1  # our own hello came back: a loopback or an echoing terminal
            return
        self._framed += 1
        if self._pending is not None:
            self._pending.silent = False  # the board is there, whatever it said
            self._pending.heard_at = time.monotonic()
        if t == "hello":
            self._rx.reset()
            self._rx.check(m.seq)
            pending = self._pending
            if pending is not None and pending.type == "hello" and p.get("re") == pending.seq:
                pending.reply = m
            elif "re" not in p:
                # The board (re)started: its session with us is gone.
                self._needs_hello = True
                self._greeted = False
                if pending is not None:
                    pending.restarted = True
                self.stats["board_restarts"] += 1
                self._event(LINK, {"status": "board_restarted", "board": p["board"]})
            return
        verdict = self._rx.check(m.seq)
        if verdict == codec.DUPLICATE:
            self.stats["duplicates"] += 1
            return
        if verdict != codec.IN_ORDER:
            self.stats["gaps"] += 1
            self._doubt = True
        pending = self._pending
        re = p.get("re")
        if t in ("ok", "pong", "journal", "records", "error") or (t == "state" and re is not None):
            if pending is not None and re == pending.seq and (t == "error" or t == REPLIES.get(pending.type, "ok")):
                pending.reply = m
                return
            if t == "error":
                # An error about a frame we sent that is not the pending request (an
                # answer to a ping we gave up on, a pong of ours it could not read).
                self.stats["errors_unmatched"] += 1
                self._event("error", p)
            else:
                self.stats["stale_replies"] += 1  # a reply sent again after we had the first one
            return
        if t == "resync":
            # The board could not read something of ours: the request, if one is
            # waiting, goes again now; our view of its state may be stale.
            self.stats["resyncs_in"] += 1
            self._doubt = True
            if pending is not None:
                pending.resend = True
            return
        if t == "ping":
            # Not while a request waits: a frame of ours after it would make its
            # retransmission (same seq) look like an old one to the board, which would
            # act on it again.  The request itself shows the board we are here.
            if pending is None:
                out.append(self._enc.frame("pong", {"re": m.seq}))
            return
        if t == "state":
            self.state = p
            self._doubt = False
        self._event(t, p)

    def _on_bad(self, bad, now, out):
        self.stats["bad_lines"] += 1
        self.stats["bad_" + bad.reason] += 1
        pending = self._pending
        if bad.seq is not None:
            # Intact but refused (a type or payload this side does not accept): its seq
            # is trustworthy, and counts.  Not damage, so asking again would not help;
            # it is answered with an error when no request waits.
            self.refused = bad.detail
            if self._rx.check(bad.seq) not in (codec.IN_ORDER, codec.DUPLICATE):
                self._doubt = True
            if pending is not None:
                return
        else:
            self._doubt = True
            if bad.reason == codec.NOISE:
                self._noise += 1  # text, not a frame: by itself no sign that the board's app is there
            else:
                self._framed += 1
            if pending is not None and (bad.reason != codec.NOISE or self._framed):
                pending.silent = False  # a damaged frame (or text among frames): the board is there
                pending.heard_at = now
        if pending is not None and (self._greeted or bad.reason != codec.NOISE):
            # The damaged line was most likely the reply: sending the request again
            # (same seq) makes the board send its reply again -- that is our answer.
            # (Before a hello, text lines are a REPL talking, not damage: the hello
            # waits for its timeout instead of feeding the REPL more input.)
            pending.resend = True
            return
        # Answer it (resync or error), but never before a good hello -- the peer may
        # not speak the protocol at all -- and at most once per answer_every.
        if self._greeted and now - self._last_answer >= self.answer_every:
            self._last_answer = now
            mtype, payload = bad.answer()
            out.append(self._enc.frame(mtype, payload))
            self.stats["answers_out"] += 1

    def _lost(self, gen, exc):
        with self._cv:
            if gen != self._gen:
                return
        self._mark_down("the port closed: %s" % (exc or "end of data"))

    # -- events ---------------------------------------------------------------------------

    def _event(self, kind, payload):
        with self._ev_cv:
            if len(self._events) == self._events.maxlen:
                self.stats["events_dropped"] += 1
            self._events.append((kind, payload))
            self._ev_cv.notify_all()

    def next_event(self, timeout=None):
        """The next event (kind, payload), or None after `timeout` seconds (None: wait for one).

        Kinds: the board's move, step, leds, log and unsolicited state; "error"
        for an error that answers no request; "link" with status down, up or
        board_restarted."""
        end = None if timeout is None else time.monotonic() + timeout
        with self._ev_cv:
            while not self._events:
                if self._closed:
                    return None
                left = None if end is None else end - time.monotonic()
                if left is not None and left <= 0:
                    return None
                self._ev_cv.wait(left)
            return self._events.popleft()

    def _dispatch(self):
        while True:
            with self._ev_cv:
                while not self._events and not self._closed:
                    self._ev_cv.wait()
                if not self._events:
                    return
                kind, payload = self._events.popleft()
            try:
                self.on_event(kind, payload)
            except Exception as e:  # the caller's bug must not stop the link
                self.stats["event_handler_errors"] += 1
                self.last_event_error = e

    # -- liveness -------------------------------------------------------------------------

    def _keep_alive(self):
        tick = max(0.005, min(self.ping_every, self.dead_after, self.timeout) / 4)
        while not self._stop.wait(tick):
            # A request in progress is traffic enough, and it recovers the link itself.
            if not self._req.acquire(blocking=False):
                continue
            try:
                if self._closed:
                    return
                self._keep_alive_once()
            except LinkClosed:
                return
            except LinkError as e:
                # Could not bring it back this time; requests will try again, and so
                # will the next tick.
                self.down_reason = str(e)
            finally:
                self._req.release()

    def _keep_alive_once(self):
        now = time.monotonic()
        if not self._up:
            self._recover(self.reconnect_for)
            return
        if self._needs_hello:
            try:
                self._hello()
            except _Down:
                self._recover(self.reconnect_for)
            return
        if now - self._last_rx >= self.dead_after:
            self._mark_down("nothing from the %s for %.1f s" % (self.name, now - self._last_rx))
            self._recover(self.reconnect_for)
            return
        try:
            if now - self._last_tx >= self.ping_every:
                reply = self._exchange("ping")
                self.stats["pings"] += 1
                if reply.type == "error" and reply.payload["code"] == "no_hello":
                    self._needs_hello = True
            elif self.watch_state and self._doubt:
                self._refresh_state()
        except _Down:
            self._recover(self.reconnect_for)
