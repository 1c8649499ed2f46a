"""A scripted board for the host's link tests: the protocol's board side, from a journal in memory.

    board = MockBoard(random_games(20, seed=1))
    out = board.receive(data)          # sans-I/O: bytes in, bytes to send back out

and the ways to put it at the end of a wire, as a real board would be:

    opener = WireOpener(board)         # in-process serial-like ports over tests/faults.py,
    link = Link(opener)                #   a new "cable" per (re)connection; pull() = cable pulled
    pty_board = PtyBoard(board)        # a pseudo-terminal: pyserial opens pty_board.port by path
    tcp_board = TcpBoard(board)        # socket://127.0.0.1:<tcp_board.tcp_port>

It answers hello, ping, get_state, journal_list (with the optional from/max
paging of docs/protocol.md "Host link"), journal_get, journal_ack and
new_game; everything else is refused as `unsupported`.  Like the real board it
acts on a repeated request (same seq) only once and sends its reply again,
answers refused lines (resync or error, at most once per `answer_every`),
refuses requests before a hello, and keeps `synced` per game, pruning only
what was acknowledged to the end of a finished game.

This is test code; the firmware's own link handler is another module.
"""
import collections
import os
import pty
import random
import select
import socket
import termios
import threading
import time
import tty

import serial

import mancala
from sowlight_fw.link import codec

from faults import FaultyLink

CONFIG = {"geometry": {"pits_per_row": 6, "rows": 2, "stores": 2}, "leds": 14,
          "sensors": {"cells": list(range(14)), "kind": "occupancy-mux"}}


# -- journals made with the rules core ----------------------------------------------------

def _jsonable(move):
    if isinstance(move, (tuple, list)):
        return [_jsonable(m) for m in move]
    return move


def random_game(rng, plies=(4, 40), variants=None, undo_rate=0.04, t0=1767225600):
    """One game's journal records, as a board writes them, from a random game of the rules core.

    `plies`: how many move records to aim for (a game that ends sooner ends
    with an `end` record; one that is cut off may be `over` all the same,
    abandoned, like a board ends a game when a new one starts)."""
    names = variants or mancala.variants()
    variant = names[rng.randrange(len(names))]
    game = mancala.Game(variant)
    clock = rng.random() < 0.7  # does this board know the time?
    t = t0 + rng.randrange(10 ** 7)
    records = [{"kind": "start", "variant": variant, "options": {}}]
    target = rng.randint(*plies)
    while not game.is_over() and len(records) <= target:
        if undo_rate and game.moves_played() and rng.random() < undo_rate:
            game.undo()
            records.append({"kind": "undo"})
            continue
        moves = game.legal_moves()
        move = moves[rng.randrange(len(moves))]
        player = game.to_move
        name = game.move_name(move)
        game.play(move)
        records.append({"kind": "move", "player": player, "move": _jsonable(move), "name": name})
    over = game.is_over()
    if over:
        o = game.outcome()
        records.append({"kind": "end", "winner": o.winner, "scores": list(o.scores), "reason": o.reason})
    elif rng.random() < 0.6:
        over = True
        records.append({"kind": "end", "winner": None, "scores": list(game.stores), "reason": "abandoned"})
    for i, r in enumerate(records):
        r["ply"] = i
        if clock:
            t += rng.randrange(3, 40)
            r["t"] = t
    return {"variant": variant, "records": records, "over": over}


def random_games(n, seed=0, **kw):
    """n games numbered from 1: {game: {"variant", "records", "over"}}."""
    rng = random.Random(seed)
    return {i + 1: random_game(rng, **kw) for i in range(n)}


# -- the board ------------------------------------------------------------------------------

class MockBoard:
    """The board's side of the protocol over a journal held in memory (thread-safe)."""

    def __init__(self, games=None, board_id="sowlight-mock00000001", sw="mockboard 0.1", proto=None,
                 variants=("oware", "kalah", "ayoayo"), answer_every=0.0, auto_prune=False, pages=True, seed=0):
        self.lock = threading.RLock()
        self.board_id = board_id
        self.sw = sw
        self.proto = proto              # [major, minor] to claim instead of the codec's
        self.variants = list(variants)
        self.answer_every = answer_every
        self.auto_prune = auto_prune    # delete a finished game as soon as it is acknowledged to its end
        self.pages = pages              # honour journal_list's from/max (False: list everything)
        self.rng = random.Random(seed)
        self.games = collections.OrderedDict()
        for number, g in sorted((games or {}).items()):
            self.games[number] = {"variant": g["variant"], "records": [dict(r) for r in g["records"]],
                                  "first": 0, "synced": g.get("synced", -1), "over": g["over"]}
        self.next_game = max(self.games) + 1 if self.games else 1
        # what happened, for the tests
        self.acks = []                  # (game, upto) in the order the board applied them
        self.executed = collections.Counter()   # requests carried out, by type
        self.replayed = 0               # repeated requests answered with the cached reply
        self.bad_in = 0                 # refused lines from the host
        self.answers = 0                # resync/error answers sent for them
        self.resyncs_in = 0
        self.boots = 0
        self.on_ack = None              # called (game, upto) before an ack is applied
        self.tamper = None              # called (type, payload) -> payload on each reply, to misbehave
        self.seen = []                  # (seq, type) of every intact frame from the host
        # Scripted faults, by request type: how many of the next ones to ...
        self.deaf = collections.Counter()     # ... ignore, as if they never arrived
        self.mute = collections.Counter()     # ... carry out without sending the reply (it was lost)
        self.garble = collections.Counter()   # ... answer with a reply damaged on the way
        self.truncate = collections.Counter() # ... answer with only the first half of the reply
        self.before_reply = None        # called (type) after a request is carried out, before its reply
        self.check_version = True       # refuse a host of another major version (False: an old board that does not check)
        self.decoder = codec.Decoder(codec.HOST)
        self.reboot()

    # -- power ----------------------------------------------------------------------------

    def reboot(self):
        """Restart the app: a new session (seq, greeting, reply cache), the journal kept.

        Returns the hello the app sends when it starts."""
        with self.lock:
            self.enc = codec.Encoder(self.rng.randrange(codec.SEQ_MOD))
            self.rx = codec.SeqTracker()
            self.decoder.reset()
            self.greeted = False
            self.last = None            # (seq of the last request, reply type, reply payload)
            self.last_answer = -1e9
            self.started = time.monotonic()
            self.boots += 1
            return self.enc.frame("hello", self._hello())

    def _hello(self, re=None):
        p = codec.hello(codec.BOARD, self.sw, board=self.board_id, config=CONFIG, variants=self.variants,
                        game=self._current())
        if self.proto is not None:
            p["proto"] = list(self.proto)
        if re is not None:
            p["re"] = re
        return p

    def _current(self):
        for number in reversed(self.games):
            if not self.games[number]["over"]:
                return number
        return None

    # -- the journal ------------------------------------------------------------------------

    def last_ply(self, game):
        g = self.games[game]
        return g["first"] + len(g["records"]) - 1

    def add_record(self, game, record):
        """Append a record to a game (as if played on the board); returns its ply."""
        with self.lock:
            g = self.games[game]
            rec = dict(record)
            rec["ply"] = self.last_ply(game) + 1
            g["records"].append(rec)
            if rec["kind"] == "end":
                g["over"] = True
            return rec["ply"]

    def journal(self, game):
        with self.lock:
            return [dict(r) for r in self.games[game]["records"]]

    def prune(self):
        """Delete every finished game acknowledged to its end (what a board short of flash does)."""
        with self.lock:
            for number in list(self.games):
                g = self.games[number]
                if g["over"] and g["synced"] == self.last_ply(number):
                    del self.games[number]

    # -- bytes in, bytes out ---------------------------------------------------------------

    def receive(self, data):
        """Take bytes from the host; return the bytes to send back."""
        out = []
        with self.lock:
            for item in self.decoder.feed(data):
                if type(item) is codec.Message:
                    self._message(item, out)
                else:
                    self._bad(item, out)
        return b"".join(out)

    def event(self, mtype, payload):
        """The frame of an event (move, step, leds, log, state) to send now."""
        with self.lock:
            return self.enc.frame(mtype, payload)

    def _send(self, out, mtype, payload):
        out.append(self._frame(mtype, payload))

    def _frame(self, mtype, payload):
        """The next frame; not checked against the message table when a test tampers with replies."""
        seq = (self.enc.seq + 1) % codec.SEQ_MOD
        frame = codec.encode(seq, mtype, payload, check=self.tamper is None)
        self.enc.seq = seq
        return frame

    def _bad(self, bad, out):
        self.bad_in += 1
        if bad.seq is not None:
            self.rx.check(bad.seq)
        now = time.monotonic()
        if self.greeted and now - self.last_answer >= self.answer_every:
            self.last_answer = now
            self.answers += 1
            mtype, payload = bad.answer()
            self._send(out, mtype, payload)

    def _version_problem(self, p):
        """Why a host's hello is refused, as codec.check_hello words it, for this board's own major."""
        mine = self.proto if self.proto is not None else [codec.PROTO_MAJOR, codec.PROTO_MINOR]
        major, minor = p["proto"]
        if major == mine[0] or not self.check_version:
            return None
        fix = "update the companion (pip install -U sowlight)" if major < mine[0] else \
            "redeploy the firmware that matches this companion (sowlight deploy)"
        return "the host speaks link protocol %d.%d, this side speaks %d.%d: %s" % (major, minor, mine[0], mine[1], fix)

    def _message(self, m, out):
        t, p = m.type, m.payload
        self.seen.append((m.seq, t))
        if self.deaf[t]:
            self.deaf[t] -= 1
            return
        if t == "hello":
            self.rx.reset()
            self.rx.check(m.seq)
            problem = self._version_problem(p)
            if problem:
                self.greeted = False
                self._reply(out, m.seq, "error", {"code": "version", "msg": problem[:160], "re": m.seq})
                return
            self.greeted = True
            self.executed["hello"] += 1
            self._reply(out, m.seq, "hello", self._hello(m.seq), "hello")
            return
        verdict = self.rx.check(m.seq)
        if verdict == codec.DUPLICATE:
            if self.last is not None and self.last[0] == m.seq:
                self.replayed += 1
                self._send(out, self.last[1], self.last[2])  # the same reply, a new seq of ours
            return
        if t in ("pong", "error"):
            pass  # an answer to us: nothing to do
        elif t == "resync":
            self.resyncs_in += 1
            self._send(out, "state", self._state(None))
        elif not self.greeted and t != "ping":
            self._reply(out, m.seq, "error", {"code": "no_hello", "msg": "send hello first", "re": m.seq})
        else:
            handler = getattr(self, "_do_" + t, None)
            if handler is None:
                self._reply(out, m.seq, "error", {"code": "unsupported", "re": m.seq,
                                                  "msg": "the mock board does not do '%s'" % t})
            else:
                self.executed[t] += 1
                rtype, payload = handler(p)
                payload["re"] = m.seq
                if self.before_reply is not None and self.before_reply(t) == "reboot":
                    out.append(self.reboot())  # restarted before it could answer
                    return
                self._reply(out, m.seq, rtype, payload, t)
        if verdict in (codec.GAP, codec.BEHIND):
            self._send(out, "resync", {"reason": "gap"})

    def _reply(self, out, seq, rtype, payload, request=None):
        if self.tamper is not None:
            payload = self.tamper(rtype, payload)
        self.last = (seq, rtype, payload)
        if self.mute[request]:
            self.mute[request] -= 1
            self._frame(rtype, payload)  # it was sent: its seq is used up
            return
        frame = self._frame(rtype, payload)
        if self.garble[request]:
            self.garble[request] -= 1
            frame = bytearray(frame)
            frame[len(frame) // 2] ^= 0x20  # one bit flipped in the middle: a checksum error
            frame = bytes(frame)
        if self.truncate[request]:
            self.truncate[request] -= 1
            frame = frame[:len(frame) // 2]
        out.append(frame)

    @staticmethod
    def _error(code, msg):
        return "error", {"code": code, "msg": msg}

    # -- requests ---------------------------------------------------------------------------

    def _state(self, re):
        cur = self._current()
        p = {"game": cur, "variant": self.games[cur]["variant"] if cur else None, "pos": None,
             "ply": self.last_ply(cur) if cur else 0, "phase": "await_lift" if cur else "idle",
             "hint": False, "brightness": 64, "rx": self.rx.last}
        if re is not None:
            p["re"] = re
        return p

    def _do_ping(self, p):
        return "pong", {"up": int((time.monotonic() - self.started) * 1000)}

    def _do_get_state(self, p):
        return "state", self._state(None)

    def _do_journal_list(self, p):
        start = p.get("from", 0) if self.pages else 0
        most = p.get("max") if self.pages else None
        items = []
        more = False
        size = len(codec.encode(0, "journal", {"games": [], "more": True, "re": 0}))
        for number, g in self.games.items():
            if type(start) is int and number < start:
                continue
            item = {"game": number, "variant": g["variant"], "first": g["first"], "last": self.last_ply(number),
                    "synced": g["synced"], "over": g["over"]}
            size += len(codec.dumps(item)) + 1
            if (type(most) is int and len(items) >= max(most, 1)) or size > codec.MAX_FRAME:
                more = True
                break
            items.append(item)
        return "journal", {"games": items, "more": more}

    def _do_journal_get(self, p):
        number = p["game"]
        if number not in self.games:
            return self._error("no_such_game", "the journal has no game %d" % number)
        g = self.games[number]
        frm = p["from"]
        if frm < g["first"]:
            return self._error("pruned", "game %d holds plies from %d on" % (number, g["first"]))
        most = p.get("max", 50)
        size = len(codec.encode(0, "records", {"game": number, "more": True, "re": 0, "records": []}))
        recs = []
        i = frm - g["first"]
        while i < len(g["records"]) and len(recs) < max(most, 1):
            size += len(codec.dumps(g["records"][i])) + 1
            if size > codec.MAX_FRAME:
                break
            recs.append(g["records"][i])
            i += 1
        return "records", {"game": number, "records": recs, "more": i < len(g["records"])}

    def _do_journal_ack(self, p):
        number, upto = p["game"], p["upto"]
        if number not in self.games:
            return self._error("no_such_game", "the journal has no game %d" % number)
        if upto > self.last_ply(number):
            return self._error("ack_ahead", "game %d has records up to ply %d" % (number, self.last_ply(number)))
        if self.on_ack is not None:
            self.on_ack(number, upto)
        g = self.games[number]
        g["synced"] = max(g["synced"], upto)
        self.acks.append((number, upto))
        synced = g["synced"]
        if self.auto_prune:
            self.prune()
        return "ok", {"game": number, "synced": synced}

    def _do_new_game(self, p):
        if p["variant"] not in self.variants:
            return self._error("bad_variant", "this board has no %s" % p["variant"])
        number = self.next_game
        self.next_game += 1
        for g in self.games.values():
            g["over"] = True
        self.games[number] = {"variant": p["variant"], "first": 0, "synced": -1, "over": False,
                              "records": [{"kind": "start", "variant": p["variant"],
                                           "options": p.get("options", {}), "ply": 0}]}
        return "ok", {"game": number}


# -- an in-process cable ----------------------------------------------------------------------

class Wire:
    """Two serial-like ends joined by tests/faults.py's FaultyLink, safe across threads.

    `host` and `board` have the part of pyserial's API that Link and
    serial.threaded.ReaderThread use: read (blocking up to `timeout`),
    write, in_waiting, cancel_read, close, is_open.  pull() is the cable
    pulled: each end reads what had already arrived, then gets a
    SerialException, as a real port does; a cut scheduled on a pipe
    (cut_at) pulls the cable at that byte when `pull_on_cut`, else it only
    loses bytes (a silent cut, until restore())."""

    def __init__(self, seed=0, drop=0.0, corrupt=0.0, duplicate=0.0, repeat=0.0, pull_on_cut=True):
        self.faults = FaultyLink(seed, drop, corrupt, duplicate, repeat)
        self.cv = threading.Condition()
        self.pulled = False
        self.pull_on_cut = pull_on_cut
        self.host = WireEnd(self, self.faults.a_to_b, self.faults.b_to_a, "host")
        self.board = WireEnd(self, self.faults.b_to_a, self.faults.a_to_b, "board")

    def pull(self):
        with self.cv:
            self.pulled = True
            self.cv.notify_all()

    def silence(self):
        """Both directions lose every byte from now on, with no error (a broken wire)."""
        with self.cv:
            self.faults.cut()

    def restore(self):
        with self.cv:
            self.faults.restore()

    @property
    def bytes(self):
        """Bytes written in both directions."""
        return self.faults.a_to_b.written + self.faults.b_to_a.written


class WireEnd:
    def __init__(self, wire, outgoing, incoming, name):
        self.wire = wire
        self.outgoing = outgoing
        self.incoming = incoming
        self.name = name
        self.timeout = 1.0
        self.is_open = True
        self._cancel = False

    @property
    def in_waiting(self):
        with self.wire.cv:
            return self.incoming.in_waiting

    def read(self, size=1):
        w = self.wire
        with w.cv:
            end = time.monotonic() + (self.timeout if self.timeout is not None else 1e9)
            while True:
                if not self.is_open:
                    raise serial.PortNotOpenError()
                if self.incoming.in_waiting:
                    return self.incoming.read(size)
                if w.pulled:
                    raise serial.SerialException("device disconnected (the cable was pulled)")
                if self._cancel:
                    self._cancel = False
                    return b""
                left = end - time.monotonic()
                if left <= 0:
                    return b""
                w.cv.wait(left)

    def write(self, data):
        w = self.wire
        with w.cv:
            if not self.is_open:
                raise serial.PortNotOpenError()
            if w.pulled:
                raise serial.SerialException("write failed: device disconnected (the cable was pulled)")
            n = self.outgoing.write(data)
            if not self.outgoing.up and w.pull_on_cut:
                w.pulled = True  # a scheduled cut: the cable comes out at that byte
            w.cv.notify_all()
            return n

    def cancel_read(self):
        with self.wire.cv:
            self._cancel = True
            self.wire.cv.notify_all()

    def close(self):
        with self.wire.cv:
            self.is_open = False
            self.wire.cv.notify_all()


class BoardServer(threading.Thread):
    """Runs a MockBoard at one end of a serial-like port until the port fails or stop()."""

    def __init__(self, board, port, boot=False):
        threading.Thread.__init__(self, name="mockboard-server", daemon=True)
        self.board = board
        self.port = port
        self.boot = boot
        self.error = None
        self._stopped = False
        self._wlock = threading.Lock()

    def run(self):
        try:
            if self.boot:
                self.send(self.board.reboot())
            while not self._stopped:
                data = self.port.read(self.port.in_waiting or 1)
                if data:
                    out = self.board.receive(data)
                    if out:
                        self.send(out)
        except (serial.SerialException, OSError) as e:
            self.error = e

    def send(self, data):
        """Write bytes in pieces of at most 63, as the firmware does on USB CDC."""
        with self._wlock:
            codec.write_chunked(self.port.write, data)

    def stop(self):
        self._stopped = True
        if hasattr(self.port, "cancel_read"):
            self.port.cancel_read()
        self.join(5)


class WireOpener:
    """A Link opener that plugs a new Wire into the board on every call (a cable, replugged).

    make_wire(n) builds the n-th wire (n = 0, 1, ...); reboot(n) says whether
    the board restarts when plugged in that time (a USB-powered board does);
    `missing` makes the first calls after each pull fail as if the port had
    not come back yet."""

    def __init__(self, board, make_wire=None, reboot=None, missing=0):
        self.board = board
        self.make_wire = make_wire or (lambda n: Wire(seed=n))
        self.reboot = reboot or (lambda n: False)
        self.missing = missing
        self.wires = []
        self.servers = []
        self.calls = 0
        self._miss = 0

    def __call__(self):
        self.calls += 1
        if self.wires and self._miss < self.missing:
            self._miss += 1
            raise serial.SerialException(2, "could not open port: [Errno 2] No such file or directory")
        self._miss = 0
        n = len(self.wires)
        wire = self.make_wire(n)
        boot = n > 0 and self.reboot(n)
        server = BoardServer(self.board, wire.board, boot=boot)
        self.wires.append(wire)
        self.servers.append(server)
        server.start()
        return wire.host

    @property
    def wire(self):
        return self.wires[-1]

    @property
    def server(self):
        return self.servers[-1]

    def close(self):
        for w in self.wires:
            w.pull()
        for s in self.servers:
            s.stop()


# -- a pseudo-terminal ---------------------------------------------------------------------------

class PtyBoard:
    """A MockBoard behind a pseudo-terminal, opened by pyserial like a real port (self.port).

    A pty moves bytes as fast as they are written whatever its baud setting;
    `rate` (bytes per second, e.g. 11520 for 115200 baud 8N1) paces both
    directions to simulate a real line: the board reads bytes no sooner than
    they could have arrived, and writes no faster than they could leave."""

    def __init__(self, board, rate=None, boot=False):
        self.board = board
        self.rate = rate
        self.boot = boot
        self._open()

    def _open(self):
        self.master, self.slave = pty.openpty()
        tty.setraw(self.slave)
        attrs = termios.tcgetattr(self.slave)
        attrs[4] = attrs[5] = termios.B115200
        termios.tcsetattr(self.slave, termios.TCSANOW, attrs)
        self.port = os.ttyname(self.slave)
        self._stopped = False
        self._rx_at = self._tx_at = time.monotonic()
        self.written = self.read = 0
        self.thread = threading.Thread(target=self._run, name="mockboard-pty", daemon=True)
        self.thread.start()

    def _pace(self, at, n):
        """Wait until n more bytes could have crossed a line free from `at`; return when it is free again."""
        now = time.monotonic()
        at = max(at, now) + n / self.rate
        if at > now:
            time.sleep(at - now)
        return at

    def _run(self):
        if self.boot:
            self._write(self.board.reboot())
        while not self._stopped:
            try:
                ready, _, _ = select.select([self.master], [], [], 0.05)
                if not ready:
                    continue
                data = os.read(self.master, 4096)
            except OSError:
                return
            if not data:
                return
            self.read += len(data)
            if self.rate:
                self._rx_at = self._pace(self._rx_at, len(data))
            out = self.board.receive(data)
            if out:
                try:
                    self._write(out)
                except OSError:
                    return

    def _write(self, data):
        for piece in codec.chunks(data):
            if self.rate:
                self._tx_at = self._pace(self._tx_at, len(piece))
            os.write(self.master, piece)
            self.written += len(piece)

    def send(self, data):
        self._write(data)

    def pull(self):
        """The cable comes out: the host's reads and writes fail from now on."""
        self._stopped = True
        self.thread.join(5)
        os.close(self.master)
        os.close(self.slave)

    def replug(self):
        """A new pty (a new port name, as after a replug)."""
        self._open()
        return self.port

    def close(self):
        if not self._stopped:
            self.pull()


# -- a TCP socket (socket:// URLs) ------------------------------------------------------------

class _SocketPort:
    def __init__(self, sock):
        self.sock = sock
        sock.settimeout(0.05)
        self.in_waiting = 0

    def read(self, size=1):
        try:
            data = self.sock.recv(4096)
        except socket.timeout:
            return b""
        if not data:
            raise OSError("the host closed the connection")
        return data

    def write(self, data):
        self.sock.sendall(data)
        return len(data)


class TcpBoard:
    """A MockBoard listening on 127.0.0.1 (socket://127.0.0.1:<tcp_port>), one host at a time."""

    def __init__(self, board):
        self.board = board
        self.server = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.server.bind(("127.0.0.1", 0))
        self.server.listen(1)
        self.server.settimeout(0.1)
        self.tcp_port = self.server.getsockname()[1]
        self.url = "socket://127.0.0.1:%d" % self.tcp_port
        self.connections = []
        self._stopped = False
        self.thread = threading.Thread(target=self._run, name="mockboard-tcp", daemon=True)
        self.thread.start()

    def _run(self):
        while not self._stopped:
            try:
                sock, _ = self.server.accept()
            except socket.timeout:
                continue
            except OSError:
                return
            self.connections.append(sock)
            BoardServer(self.board, _SocketPort(sock)).run()
            sock.close()

    def drop(self):
        """Close the current connection from the board's side (the host sees it go)."""
        for s in self.connections:
            try:
                s.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass

    def close(self):
        self._stopped = True
        self.drop()
        self.server.close()
        self.thread.join(5)
