"""The wire codec of the board <-> laptop link: frames, message table, sequence numbers.

One frame is one ASCII line (docs/protocol.md has the full specification):

    @<seq> <type> <payload> <crc>\\n

- seq: 4 lowercase hex digits, the sender's frame counter (mod 2**16);
- type: the message type, 1-16 characters from a-z and "_";
- payload: a JSON object in canonical form (keys sorted, no spaces, ASCII only);
- crc: 8 lowercase hex digits, the CRC-32 of every byte before the space that
  precedes it (from "@" to the end of the payload).

This module is the only implementation: the firmware (MicroPython) and the
laptop companion (CPython) both import it, so both ends produce identical
bytes.  It does no I/O; the link layer feeds it bytes and writes what it
returns.

The board keeps this module loaded for as long as it runs, and on a stock
Pico a module's code lives in its heap: so what only a refused, damaged or
unusual line or frame, a hello or a long reply needs (what is wrong in words,
a whole frame looked for at the end of a damaged line, a string that needs
escaping, the table's lines of what only a board sends, the table as a dict,
hello(), check_hello(), fit(), chunks()) is in codecmore.py, imported for the
call and dropped after it (unload.py); the names are read here.
"""
import json
import sys

try:
    from micropython import const
except ImportError:  # CPython
    def const(x):
        return x

from .crc import crc32
from .unload import unload

# ----- limits and constants ------------------------------------------------

PROTO_MAJOR = const(1)    # a different major version is refused
PROTO_MINOR = const(2)    # minor versions only add optional fields and message types

MAX_FRAME = const(4096)   # bytes in a frame, "@" to "\n" inclusive
CHUNK = const(63)         # bytes per write on USB CDC (never a multiple of 64)
SEQ_MOD = const(0x10000)  # sequence numbers count modulo this
_SEQ_HALF = const(0x8000)
_MAX_TYPE = const(16)     # longest message type name
_MAX_DEPTH = const(16)    # deepest nesting of lists/objects a payload may have
_MAX_DETAIL = const(160)  # longest error text put into an answer
_MAX_CACHED = const(16)   # longest string kept in the quoted-string cache
_CACHE_SIZE = const(96)   # strings kept there at most
_MIN_FRAME = const(19)    # "@0000 t {} 00000000", the shortest frame, newline excluded

# Why a line was refused (keys of Decoder.errors).
CHECKSUM = "checksum"          # CRC-32 does not match: the line was damaged
TOO_LONG = "too_long"          # longer than MAX_FRAME: dropped up to the next newline
MALFORMED = "malformed"        # not the frame grammar, or the payload is not JSON
UNKNOWN_TYPE = "unknown_type"  # intact frame of a type this side does not accept
BAD_PAYLOAD = "bad_payload"    # intact frame whose payload misses or mistypes a field
NOISE = "noise"                # a line that does not start with "@" (REPL output, banners)
REASONS = (CHECKSUM, TOO_LONG, MALFORMED, UNKNOWN_TYPE, BAD_PAYLOAD, NOISE)

# Results of SeqTracker.check().
IN_ORDER = const(0)   # the next frame (or the first one seen)
DUPLICATE = const(1)  # the same seq as the last frame: a repeat, do not act on it twice
GAP = const(2)        # frames were lost in between: act on it, then ask for a resync
BEHIND = const(3)     # older than the last frame: the peer restarted; act and resync

BOARD = "board"
HOST = "host"

BUTTONS = ("confirm", "undo", "hint", "menu")                          # `press`, `sim` act press
SIM_ACTS = ("lift", "drop", "take", "add", "remove", "press", "seeds")  # what `sim` can do to seeds

# ----- errors --------------------------------------------------------------


class FrameError(ValueError):
    """A frame or payload that breaks the protocol; `reason` is one of REASONS."""

    def __init__(self, reason, msg):
        super().__init__(msg)
        self.reason = reason
        self.msg = msg

    def __str__(self):
        return self.msg


class VersionError(FrameError):
    """The peer speaks another major version of the protocol."""

    def __init__(self, msg):
        super().__init__(BAD_PAYLOAD, msg)


# ----- the message table ---------------------------------------------------
# One line per message type: the type, who may send it ("board", "host" or "*"
# for both), then its fields as name:kind, with "!" after a required one.
# Kinds, one letter: i an integer, u an integer >= 0, q a seq number 0..65535
# (in "re"), s a string, b true or false, l a list, o an object; the capital
# U, Q, S, L, O: that or null; m an integer or a list (a move); "=a/b/c" one of
# these strings.  Unknown extra fields are allowed (a newer minor version may
# add them) and ignored by receivers.
#
# A line is found and read per look-up: one string costs a board's heap a
# fraction of what a dict of tuples would (the board keeps this module loaded
# for as long as it runs); `MESSAGES` gives the table as that dict, for the
# laptop's tests and tools.  The lines of what only a board sends are in
# codecmore.py (_BOARD_TABLE), read there when asked for: a board checks what
# it receives, not what it sends (Encoder(check=False): the laptop checks it
# on arrival), so it never needs them.
_TABLE = (
    "\n"
    # both ways
    "hello * proto:l! role:=board/host! sw:s! board:s config:o variants:l game:U time:u re:q virtual:b brief:b\n"
    "ping *\n"
    "pong * re:q! up:u\n"
    "resync * reason:s\n"
    "error * code:s! msg:s! re:Q\n"
    # host -> board: requests; each is answered by the message named in docs/protocol.md
    "get_state host\n"
    "new_game host variant:s! options:o\n"
    "set_pos host pos:o!\n"
    "undo host\n"
    "hint host on:b!\n"
    "brightness host level:u!\n"
    "self_test host\n"
    "calibrate host step:=empty/full/save/cancel!\n"
    "journal_list host from:u max:u\n"
    "journal_get host game:u! from:u! max:u\n"
    "journal_ack host game:u! upto:u!\n"
    "reboot host to:=app/repl!\n"
    # 1.1: a button pressed from the host; a virtual board's seeds moved (docs/protocol.md)
    "press host button:=confirm/undo/hint/menu!\n"
    "sim host act:=lift/drop/take/add/remove/press/seeds! cell:i n:u to:i button:=confirm/undo/hint/menu\n"
    # 1.2: only this move may be made next, the LEDs leading the hands (remote play)
    "guide host ply:u! move:m wait:b\n"
    # board -> host: codecmore._BOARD_TABLE
)

_INT = const(1)
_STR = const(2)
_BOOL = const(4)
_LIST = const(8)
_OBJ = const(16)
_NULL = const(32)
_UINT = const(64)    # an integer >= 0
_SEQ = const(128)    # an integer 0..65535 (a frame's seq, in "re")
_KIND_LETTERS = "isblonuqUQSLOm"      # a kind's letter in the table, and its bits below
_KIND_BITS = bytes((_INT, _STR, _BOOL, _LIST, _OBJ, _NULL, _UINT, _SEQ, _UINT | _NULL, _SEQ | _NULL,
                    _STR | _NULL, _LIST | _NULL, _OBJ | _NULL, _INT | _LIST))

def _line(mtype):
    """The table's line for `mtype` without the type ("<sender> <fields>"), or None."""
    if not _type_ok(mtype):
        return None
    line = _find(_TABLE, mtype)
    if line is None:
        line = _more("board_line", mtype)    # what a board sends (codecmore._BOARD_TABLE), or none
    return line


def _find(table, mtype):
    """The line of `table` for `mtype` without the type, or None."""
    i = table.find("\n" + mtype + " ")
    if i < 0:
        i = table.find("\n" + mtype + "\n")
        if i < 0:
            return None
    i += len(mtype) + 2
    return table[i:table.find("\n", i)]


def __getattr__(name):
    # What moved to codecmore.py (the table as a dict, the hellos, fit, chunks) and the error
    # codes' meanings (errorcodes.py): for the laptop, and for a board's rare calls (the module
    # is dropped at once: the function returned keeps what it needs while it runs).
    if name == "ERRORS":
        from .errorcodes import ERRORS
        return ERRORS
    if name in ("MESSAGES", "hello", "check_hello", "fit", "chunks"):
        from . import codecmore
        try:
            return codecmore.messages() if name == "MESSAGES" else getattr(codecmore, name)
        finally:
            unload("codecmore")
    from .unload import missing
    raise missing(__name__, name)


def _more(name, *args):
    """codecmore.<name>(*args), with codecmore loaded for the call only: mostly the FrameError
    that says what is wrong with a payload, in words."""
    from . import codecmore
    try:
        return getattr(codecmore, name)(*args)
    finally:
        unload("codecmore")


def _kind_ok(v, kind):
    t = type(v)
    if t is int:
        if kind & _INT:
            return True
        if kind & _UINT:
            return v >= 0
        if kind & _SEQ:
            return 0 <= v < SEQ_MOD
        return False
    if t is str:
        return kind & _STR != 0
    if t is bool:
        return kind & _BOOL != 0
    if t is list:
        return kind & _LIST != 0
    if t is dict:
        return kind & _OBJ != 0
    if v is None:
        return kind & _NULL != 0
    return False


def _check_fields(where, payload, spec):
    """Raise FrameError unless `payload` has the fields of `spec` (as in the table) right."""
    n = len(spec)
    i = 0
    while i < n:
        j = spec.find(" ", i)
        if j < 0:
            j = n
        k = spec.find(":", i, j)
        name = spec[i:k]
        end = j - 1 if spec[j - 1] == "!" else j       # the kind is spec[k + 1:end]
        if name in payload:
            v = payload[name]
            if spec[k + 1] == "=":
                ok = type(v) is str and _one_of(spec, k + 2, end, v)
            else:
                ok = _kind_ok(v, _KIND_BITS[_KIND_LETTERS.find(spec[k + 1])])
            if not ok:
                raise _more("wrong_field", where, name, spec[k + 1:end], v)
        elif end < j:
            raise _more("missing_field", where, name, spec[k + 1:end])
        i = j + 1


def _one_of(spec, a, b, v):
    """Whether `v` is one of the "/"-separated words of spec[a:b]."""
    if "/" in v:
        return False
    n = len(v)
    i = spec.find(v, a, b)
    while i >= 0:
        if (i == a or spec[i - 1] == "/") and (i + n == b or spec[i + n] == "/"):
            return True
        i = spec.find(v, i + 1, b)
    return False


def validate(mtype, payload, sender=None):
    """Check a payload against the message table; raise FrameError saying what is wrong.

    `sender` ("board" or "host"), when given, must be allowed to send `mtype`.
    """
    line = _line(mtype)
    if line is None:
        raise _more("unknown_type", mtype)
    sp = line.find(" ")
    who = line if sp < 0 else line[:sp]
    if sender is not None and who != "*" and who != sender:
        raise FrameError(UNKNOWN_TYPE, "'%s' is sent by the %s, not by the %s" % (mtype, who, sender))
    if type(payload) is not dict:
        raise _more("not_object", mtype, payload)
    if sp >= 0:
        _check_fields("'" + mtype + "'", payload, line[sp + 1:])
    # What the table cannot say: shapes inside lists and role-dependent fields (those of the
    # messages a board sends often checked here, the rarer ones in codecmore).
    if mtype == "hello" or mtype == "journal" or mtype == "records":
        _more("check_more", mtype, payload)
    elif mtype == "leds":
        for item in payload["lit"]:
            if type(item) is not list or not 2 <= len(item) <= 3 or type(item[0]) is not int \
                    or type(item[1]) is not str or (len(item) == 3 and not _kind_ok(item[2], _UINT)):
                raise _more("bad_lit", item)
    elif mtype == "move" and type(payload["move"]) is list:
        m = payload["move"]
        # [pit, direction], or a staged move: a word naming the stage, then its numbers (["place", 0, 1]).
        ok = 1 <= len(m) <= 8
        for x in m:
            if type(x) is not int and type(x) is not str:
                ok = False
        if ok and type(m[0]) is int:
            ok = len(m) == 2 and type(m[1]) is int
        if not ok:
            raise _more("bad_move", m)


# ----- canonical JSON ------------------------------------------------------
# json.dumps differs between CPython and MicroPython (key order, spaces,
# escapes), so frames are written by this small writer instead.  Its output is
# exactly CPython's json.dumps(obj, sort_keys=True, separators=(",", ":"),
# ensure_ascii=True) for the values it accepts: dicts with str keys, lists,
# tuples, str, int, bool and None.  Floats are refused: a board may have
# 32-bit floats and their text differs between ports.

try:
    "".isascii  # CPython 3.7+: two C calls tell whether a string needs escaping
    _FAST = True
except AttributeError:  # MicroPython
    _FAST = False


# Short strings already seen to need no escaping: keys and words come back in every frame.
# A set of the strings themselves (mostly interned names, which cost nothing more), not a
# dict of their quoted copies: the quotes are written around them as separate pieces.
_plain = set()
_SEPARATORS = (",", ":")


def _is_plain(s):
    """True when the JSON text of `s` is `s` between quotes: printable ASCII, no quote or backslash."""
    if s in _plain:
        return True
    if _FAST:
        ok = s.isascii() and s.isprintable() and '"' not in s and "\\" not in s
    else:
        b = s.encode()
        ok = len(b) == len(s)
        if ok:
            for o in b:
                if o < 0x20 or o > 0x7E or o == 0x22 or o == 0x5C:
                    ok = False
                    break
    if ok and len(s) <= _MAX_CACHED and len(_plain) < _CACHE_SIZE:
        _plain.add(s)
    return ok


def _put(s, out):
    """Append the JSON text of str `s` to `out`."""
    if _is_plain(s):
        out.append('"')
        out.append(s)
        out.append('"')
    else:
        out.append(_more("escaped", s))      # (a quote, a backslash, a control or non-ASCII character)


def _write(v, out, depth):
    t = type(v)
    if t is dict:
        if depth >= _MAX_DEPTH:
            raise _more("too_deep")
        for k in v:
            if type(k) is not str:
                raise _more("bad_key", k)
        sep = "{"
        for k in sorted(v):
            out.append(sep)
            sep = ","
            _put(k, out)
            out.append(":")
            x = v[k]
            tx = type(x)
            if tx is int:
                out.append(str(x))
            elif tx is str:
                _put(x, out)
            else:
                _write(x, out, depth + 1)
        out.append("}" if sep == "," else "{}")
    elif t is list or isinstance(v, tuple):
        if depth >= _MAX_DEPTH:
            raise _more("too_deep")
        # A list of integers and plain ASCII words (pits, trace steps) is
        # written by the C json module: its output for those is canonical on
        # both CPython and MicroPython, and it is many times faster there.
        # (A named tuple, a trace's Step, is made a plain one first: MicroPython's
        # json writes a named tuple as its repr.)
        for x in v:
            tx = type(x)
            if tx is int or (tx is str and _is_plain(x)):
                continue
            break
        else:
            if _C_LISTS:
                out.append(json.dumps(v if t is list or t is tuple else tuple(v), separators=_SEPARATORS))
                return
        sep = "["
        for x in v:
            out.append(sep)
            sep = ","
            tx = type(x)
            if tx is int:
                out.append(str(x))
            elif tx is str:
                _put(x, out)
            else:
                _write(x, out, depth + 1)
        out.append("]" if sep == "," else "[]")
    elif t is str:
        _put(v, out)
    elif t is int:
        out.append(str(v))
    elif v is True:
        out.append("true")
    elif v is False:
        out.append("false")
    elif v is None:
        out.append("null")
    else:
        raise _more("bad_value", v)      # a float (its text differs between ports) or no JSON type


# Lists go through the C json module on MicroPython only: there every Python
# call is dear, while CPython's json.dumps builds an encoder object per call
# (with separators given), which costs more than the loop it would save.
# Ports built without MICROPY_PY_JSON_SEPARATORS take no separators argument.
try:
    _C_LISTS = sys.implementation.name == "micropython" and \
        json.dumps([1, "a"], separators=_SEPARATORS) == '[1,"a"]'
except TypeError:
    _C_LISTS = False


def dumps(payload):
    """The canonical JSON text of a payload (sorted keys, no spaces, ASCII only)."""
    out = []
    _write(payload, out, 0)
    return "".join(out)


# ----- encoding ------------------------------------------------------------


def _type_ok(mtype):
    if type(mtype) is not str or not 0 < len(mtype) <= _MAX_TYPE:
        return False
    for o in mtype.encode():
        if not (0x61 <= o <= 0x7A or o == 0x5F):
            return False
    return True


def encode(seq, mtype, payload=None, check=True):
    """The bytes of one frame, newline included.

    `check` validates the payload against the message table first (turn it
    off only to build deliberately wrong frames in tests).  Raises FrameError
    for a bad seq, type or payload, or a frame longer than MAX_FRAME.
    """
    if payload is None:
        payload = {}
    if type(seq) is not int or not 0 <= seq < SEQ_MOD:
        raise _more("bad_seq", seq)
    if not _type_ok(mtype):
        raise _more("bad_type", mtype)
    if check:
        validate(mtype, payload)
    body = ("@%04x %s %s" % (seq, mtype, dumps(payload))).encode()
    frame = body + b" %08x\n" % crc32(body)
    if len(frame) > MAX_FRAME:
        raise _more("too_long", mtype, len(frame))
    return frame


class Encoder:
    """Numbers outgoing frames: one Encoder per direction of a link.  `check`: each payload is
    validated first (encode(); a board's link leaves it to the laptop, which checks what it
    receives: the table's lines of what the board sends are not kept on a board)."""

    def __init__(self, start=0, check=True):
        self.seq = (start - 1) % SEQ_MOD  # the seq of the last frame made
        self.check = check

    def frame(self, mtype, payload=None):
        """The next frame; its seq is then in `self.seq` (to match replies' "re")."""
        seq = (self.seq + 1) % SEQ_MOD
        data = encode(seq, mtype, payload, self.check)
        self.seq = seq  # only a frame that was really made uses up a number
        return data


def write_chunked(write, frame, size=CHUNK):
    """Write `frame` through `write` in pieces of at most `size` bytes; return the bytes written.

    `write` may write less than it was given (returning the count) or return
    None for "all of it"; a write that takes nothing raises OSError.
    """
    mv = memoryview(frame)
    n = len(frame)
    i = 0
    while i < n:
        piece = mv[i:i + size]
        k = write(piece)
        if k is None:
            k = len(piece)
        if k <= 0:
            raise OSError("the link took no bytes (%d of %d written)" % (i, n))
        i += k
    return n


# ----- decoding ------------------------------------------------------------


class Message:
    """An intact, valid frame: seq, type and payload (a dict)."""

    def __init__(self, seq, mtype, payload):
        self.seq = seq
        self.type = mtype
        self.payload = payload

    def __repr__(self):
        return "Message(%d, %r, %r)" % (self.seq, self.type, self.payload)


class BadFrame:
    """A refused line: `reason` (one of REASONS), `seq` when the frame was intact, `detail`."""

    def __init__(self, reason, seq, detail):
        self.seq = seq
        self.reason = reason
        self.detail = detail

    def answer(self):
        """(type, payload) to send back: an "error" for an intact frame, else a "resync"."""
        if self.seq is None:
            return "resync", {"reason": self.reason}
        code = "bad_frame" if self.reason == MALFORMED else self.reason
        msg = self.detail
        if len(msg) > _MAX_DETAIL:
            msg = msg[:_MAX_DETAIL - 3] + "..."
        return "error", {"code": code, "msg": msg, "re": self.seq}

    def __repr__(self):
        return "BadFrame(%r, %r, %r)" % (self.reason, self.seq, self.detail)


def _hex(line, i, j):
    """The value of lowercase or uppercase hex digits line[i:j], or -1."""
    v = 0
    while i < j:
        o = line[i]
        if 0x30 <= o <= 0x39:
            v = (v << 4) | (o - 0x30)
        elif 0x61 <= o <= 0x66:
            v = (v << 4) | (o - 0x57)
        elif 0x41 <= o <= 0x46:
            v = (v << 4) | (o - 0x37)
        else:
            return -1
        i += 1
    return v


def parse_line(line, sender=None):
    """Decode one line (bytes, without its newline) into a Message or a BadFrame.

    `sender` ("board"/"host") refuses types that side may not send.  Never
    raises: whatever is wrong with the line comes back as a BadFrame.
    """
    try:
        return _parse(line, sender)
    except Exception as e:  # MemoryError, RecursionError: still one bad frame, never a crash
        return BadFrame(MALFORMED, None, "cannot decode the line (%s)" % type(e).__name__)


# A line refused by _parse: codecmore.bad_line(k, seq, value) makes its BadFrame (the reason and
# what is wrong in words, the k-th of its table), loaded for that line only.
_NOT_A_FRAME = const(0)
_TOO_SHORT = const(1)
_NO_CRC_FIELD = const(2)
_CRC_NOT_HEX = const(3)
_CRC_MISMATCH = const(4)
_NO_SEQ = const(5)
_TYPE_LENGTH = const(6)
_TYPE_LETTERS = const(7)
_NO_PAYLOAD = const(8)
_NOT_JSON = const(9)


def _parse(line, sender):
    n = len(line)
    if n == 0 or line[0] != 0x40:  # "@"
        return _more("bad_line", _NOT_A_FRAME, None, n)
    if n < _MIN_FRAME:
        return _more("bad_line", _TOO_SHORT, None, n)
    sp = n - 9
    if line[sp] != 0x20:
        return _more("bad_line", _NO_CRC_FIELD, None, n)
    crc = _hex(line, sp + 1, n)
    if crc < 0:
        return _more("bad_line", _CRC_NOT_HEX, None, n)
    if crc32(memoryview(line)[:sp]) != crc:
        return _more("bad_line", _CRC_MISMATCH, None, n)
    # The checksum is right, so what follows is what the peer meant to send.
    seq = _hex(line, 1, 5) if line[5] == 0x20 else -1
    if seq < 0:
        return _more("bad_line", _NO_SEQ, None, n)
    tend = line.find(b" ", 6, sp)
    if tend < 0:
        tend = sp
    if not 0 < tend - 6 <= _MAX_TYPE:
        return _more("bad_line", _TYPE_LENGTH, seq, _MAX_TYPE)
    for i in range(6, tend):
        o = line[i]
        if not (0x61 <= o <= 0x7A or o == 0x5F):
            return _more("bad_line", _TYPE_LETTERS, seq, n)
    if tend == sp:
        return _more("bad_line", _NO_PAYLOAD, seq, n)
    mtype = line[6:tend].decode()
    try:
        payload = json.loads(line[tend + 1:sp])
    except Exception:  # ValueError on both; MicroPython may raise others on odd bytes
        return _more("bad_line", _NOT_JSON, seq, mtype)
    try:
        validate(mtype, payload, sender)
    except FrameError as e:
        return BadFrame(e.reason, seq, e.msg)
    return Message(seq, mtype, payload)


class Decoder:
    """Turns a byte stream, fed in chunks of any size, into Messages and BadFrames.

    The partial line waits in a buffer of MAX_FRAME bytes allocated once (or,
    with `first`, of `first` bytes that doubles when a longer partial line needs
    it, up to MAX_FRAME: a board, whose host sends only short requests, keeps a
    small one).  A line longer than MAX_FRAME is counted as too long and skipped
    up to the next newline, where decoding picks up again.  Blank lines are ignored.  A
    damaged line that ends with a whole frame gives a BadFrame for the damaged
    part and then that frame.

    `sender` is the side whose frames this decoder reads ("board" on the
    laptop, "host" on the board); types that side may not send are refused.
    """

    def __init__(self, sender=None, max_frame=MAX_FRAME, first=None):
        self.sender = sender
        self.max_frame = max_frame
        self._buf = bytearray(max_frame if first is None else max(1, min(first, max_frame)))
        self._mv = memoryview(self._buf)
        self._n = 0          # bytes of the partial line held in _buf
        self._skip = False   # inside an over-long line: drop bytes up to the next newline
        self.frames = 0      # good frames decoded
        self.errors = {}     # refused lines by reason
        for r in REASONS:
            self.errors[r] = 0

    def bad_total(self):
        """How many lines were refused, all reasons together."""
        total = 0
        for r in REASONS:
            total += self.errors[r]
        return total

    def reset(self):
        """Forget a partial line (after the port was reopened, for example)."""
        self._n = 0
        self._skip = False

    def feed(self, data):
        """Decode `data` (bytes-like); return the list of Messages and BadFrames it completed."""
        if type(data) is not bytes:
            data = bytes(data)
        out = []
        limit = self.max_frame
        end = len(data)
        i = 0
        while i < end:
            j = data.find(b"\n", i)
            if j < 0:
                self._hold(data, i, end, out)
                break
            if self._skip:
                self._skip = False  # the over-long line ends here; it was counted already
            elif self._n:
                total = self._n + (j - i)
                if total + 1 > limit:
                    self._bad(out, _more("too_long_line", total + 1, limit))
                else:
                    self._room(total)
                    self._mv[self._n:total] = memoryview(data)[i:j]
                    self._line(bytes(self._mv[:total]), out)
                self._n = 0
            elif j - i + 1 > limit:
                self._bad(out, _more("too_long_line", j - i + 1, limit))
            elif j > i:
                self._line(data[i:j], out)
            i = j + 1
        return out

    def _hold(self, data, i, end, out):
        """Keep data[i:end], a line with no newline yet."""
        if self._skip:
            return
        k = end - i
        if self._n + k + 1 > self.max_frame:  # even with its newline next it would not fit
            self._skip = True
            self._n = 0
            self._bad(out, _more("too_long_line", None, self.max_frame))
            return
        self._room(self._n + k)
        self._mv[self._n:self._n + k] = memoryview(data)[i:end]
        self._n += k

    def _room(self, need):
        """Make the buffer hold `need` bytes (<= max_frame): double it, keeping the partial line."""
        size = len(self._buf)
        if need <= size:
            return
        while size < need:
            size *= 2
        buf = bytearray(min(size, self.max_frame))
        buf[:self._n] = self._mv[:self._n]
        self._buf = buf
        self._mv = memoryview(buf)

    def _bad(self, out, bad):
        self.errors[bad.reason] += 1
        out.append(bad)

    def _line(self, line, out):
        if line[-1] == 0x0D:  # CR LF line ends are accepted too
            line = line[:-1]
            if not line:
                return
        item = parse_line(line, self.sender)
        if type(item) is BadFrame and item.seq is None:
            # A damaged line may end with a whole frame: codecmore.salvage looks for it.
            item = _more("salvage", self, line, item, out)
        self._emit(item, out)

    def _emit(self, item, out):
        if type(item) is Message:
            self.frames += 1
            out.append(item)
        else:
            self._bad(out, item)


class SeqTracker:
    """What a receiver remembers of the peer's sequence numbers.

    check(seq) says how a frame's seq follows the last one: IN_ORDER,
    DUPLICATE (do not act twice; re-send the reply to a repeated request),
    GAP (frames were lost: act on this one, then resync) or BEHIND (the peer
    restarted without a hello: act on it and resync).  Counts are kept.
    """

    def __init__(self):
        self.last = None     # seq of the last frame accepted, None before the first
        self.duplicates = 0
        self.gaps = 0
        self.missed = 0      # frames lost inside gaps
        self.behind = 0

    def reset(self, seq=None):
        """Start again (a hello was received: its seq is the new starting point)."""
        self.last = seq

    def check(self, seq):
        if self.last is None:
            self.last = seq
            return IN_ORDER
        d = (seq - self.last) % SEQ_MOD
        if d == 0:
            self.duplicates += 1
            return DUPLICATE
        self.last = seq
        if d == 1:
            return IN_ORDER
        if d < _SEQ_HALF:
            self.gaps += 1
            self.missed += d - 1
            return GAP
        self.behind += 1
        return BEHIND
