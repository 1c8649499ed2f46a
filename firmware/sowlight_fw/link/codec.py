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

ERRORS lists the `code`s of the link's "error" message with what each means
(docs/protocol.md says who sends each one and what the receiver does about it).
"""
import json
import sys

try:
    from micropython import const
except ImportError:  # CPython
    def const(x):
        return x

from ..crc import crc32

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


# ----- errors --------------------------------------------------------------


# The `code` of the link's "error" message, with what each means.
ERRORS = {
    # the link
    "bad_frame": "an intact frame (checksum right) that is not well formed",
    "unknown_type": "a message type this side does not know or does not accept from that sender",
    "bad_payload": "a required field is missing or has the wrong type or value",
    "version": "the peer's protocol major version differs; the session is refused",
    "no_hello": "a request came before a compatible hello",
    "busy": "a new request came while another one was still being carried out",
    # commands
    "bad_variant": "the board does not have this variant",
    "bad_option": "an option is unknown to the variant or has a value it does not allow",
    "bad_position": "the position cannot be set on this board (wrong pit count, negative seeds...)",
    "no_game": "the command needs a game in progress",
    "cannot_undo": "there is no move to take back (a board takes back its last 16 moves)",
    "out_of_range": "a number is outside the range the command allows",
    "unsupported": "the command is known but this board cannot do it (e.g. no such sensor)",
    # the journal
    "no_such_game": "the board's journal has no game with this id",
    "pruned": "the requested records were deleted after an earlier acknowledgement",
    "ack_ahead": "an acknowledgement names a ply the board has not recorded",
    # the device
    "hardware": "a self-test or sensor check failed",
    "storage": "the journal could not be written (flash full or failing)",
    "internal": "the firmware hit an unexpected error; msg says which",
}


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
# A field's kind: a set of these bits (an integer >= 0 or null: _UINT | _NULL), or a tuple of
# the strings it may be.
_INT = const(1)
_STR = const(2)
_BOOL = const(4)
_LIST = const(8)
_OBJ = const(16)
_NULL = const(32)
_UINT = const(64)    # an integer >= 0
_SEQ = const(128)    # an integer 0..65535 (a frame's seq, in "re")
_MOVE = const(9)     # _INT | _LIST: a pit, or a pit with choices, or a staged move
_KIND_NAMES = ((_INT, "an integer"), (_UINT, "an integer >= 0"), (_SEQ, "a seq number 0..65535"),
               (_STR, "a string"), (_BOOL, "true or false"), (_LIST, "a list"),
               (_OBJ, "an object"), (_NULL, "null"))

# Each message type: who may send it ("board", "host" or "*" for both) and its fields, each
# (name, kind, required).  Unknown extra fields are allowed (a newer minor version may add them)
# and ignored by receivers.  Every tuple here is a constant: frozen into a board's image it
# stays in flash, and only the dict is made in RAM.  A board checks what it receives, not what
# it sends (Encoder(check=False)): the laptop checks that on arrival.
MESSAGES = {
    # both ways
    "hello": ("*", (("proto", _LIST, True), ("role", ("board", "host"), True), ("sw", _STR, True),
                    ("board", _STR, False), ("config", _OBJ, False), ("variants", _LIST, False),
                    ("game", _UINT | _NULL, False), ("time", _UINT, False), ("re", _SEQ, False),
                    ("virtual", _BOOL, False), ("brief", _BOOL, False))),
    "ping": ("*", ()),
    "pong": ("*", (("re", _SEQ, True), ("up", _UINT, False))),
    "resync": ("*", (("reason", _STR, False),)),
    "error": ("*", (("code", _STR, True), ("msg", _STR, True), ("re", _SEQ | _NULL, False))),
    # host -> board: requests; each is answered by the message named in docs/protocol.md
    "get_state": ("host", ()),
    "new_game": ("host", (("variant", _STR, True), ("options", _OBJ, False))),
    "set_pos": ("host", (("pos", _OBJ, True),)),
    "undo": ("host", ()),
    "hint": ("host", (("on", _BOOL, True),)),
    "brightness": ("host", (("level", _UINT, True),)),
    "self_test": ("host", ()),
    "calibrate": ("host", (("step", ("empty", "full", "save", "cancel"), True),)),
    "journal_list": ("host", (("from", _UINT, False), ("max", _UINT, False))),
    "journal_get": ("host", (("game", _UINT, True), ("from", _UINT, True), ("max", _UINT, False))),
    "journal_ack": ("host", (("game", _UINT, True), ("upto", _UINT, True))),
    "reboot": ("host", (("to", ("app", "repl"), True),)),
    # 1.1: a button pressed from the host; a virtual board's seeds moved (docs/protocol.md)
    "press": ("host", (("button", ("confirm", "undo", "hint", "menu"), True),)),
    "sim": ("host", (("act", ("lift", "drop", "take", "add", "remove", "press", "seeds"), True),
                     ("cell", _INT, False), ("n", _UINT, False), ("to", _INT, False),
                     ("button", ("confirm", "undo", "hint", "menu"), False))),
    # 1.2: only this move may be made next, the LEDs leading the hands (remote play)
    "guide": ("host", (("ply", _UINT, True), ("move", _MOVE, False), ("wait", _BOOL, False))),
    # board -> host: replies and events
    "ok": ("board", (("re", _SEQ, True),)),
    "state": ("board", (("re", _SEQ | _NULL, False), ("game", _UINT | _NULL, True), ("variant", _STR | _NULL, True),
                        ("options", _OBJ, False), ("pos", _OBJ | _NULL, True), ("ply", _UINT, True),
                        ("phase", _STR, True), ("expect", _LIST | _NULL, False), ("hint", _BOOL, True),
                        ("brightness", _UINT, True), ("rx", _SEQ | _NULL, False), ("lit", _LIST, False),
                        ("error", _STR, False))),
    "move": ("board", (("game", _UINT, True), ("ply", _UINT, True), ("player", _UINT, True), ("move", _MOVE, True),
                       ("name", _STR, False), ("trace", _LIST | _NULL, True), ("pos", _OBJ, False))),
    "step": ("board", (("game", _UINT, True), ("ply", _UINT, True), ("ev", ("lifted", "dropped", "mismatch"), True),
                       ("cell", _INT, True), ("i", _UINT, False), ("n", _UINT, False), ("expect", _LIST | _NULL, False))),
    "leds": ("board", (("lit", _LIST, True), ("game", _UINT | _NULL, False))),
    "journal": ("board", (("re", _SEQ, True), ("games", _LIST, True), ("more", _BOOL, False))),
    "records": ("board", (("re", _SEQ, True), ("game", _UINT, True), ("records", _LIST, True), ("more", _BOOL, True))),
    "log": ("board", (("level", ("debug", "info", "warn", "error"), True), ("msg", _STR, True))),
}
BUTTONS = MESSAGES["press"][1][0][1]        # `press`, `sim` act press
SIM_ACTS = MESSAGES["sim"][1][0][1]         # what `sim` can do to seeds

# Fields of the objects inside some lists and of a board's hello, checked by validate() too.
_GAME_FIELDS = (("game", _UINT, True), ("variant", _STR, True), ("first", _UINT, True), ("last", _UINT, True),
                ("synced", _INT, True), ("over", _BOOL, True))
_RECORD_FIELDS = (("ply", _UINT, True), ("kind", _STR, True))
_CONFIG_FIELDS = (("geometry", _OBJ, True), ("sensors", _OBJ, True))
_BOARD_HELLO = (("board", _STR, True), ("config", _OBJ, True), ("variants", _LIST, True))
_BRIEF_HELLO = (("board", _STR, True), ("config", _OBJ, False), ("variants", _LIST, False))
_RE_ROOM = const(11)       # ',"re":65535': room for the "re" a link adds to a reply
_MAX_ANCHORS = const(8)    # "@"s tried when looking for a frame at the end of a damaged line


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


def _check_fields(payload, fields, where, arg=None):
    """Raise FrameError unless `payload` has `fields` ((name, kind, required), ...) right; the
    error names the payload as `where`, or `where % arg` (made only then)."""
    for name, kind, required in fields:
        if name in payload:
            v = payload[name]
            if type(kind) is tuple:
                ok = type(v) is str and v in kind
            else:
                ok = _kind_ok(v, kind)
            if not ok:
                raise FrameError(BAD_PAYLOAD, "%s field '%s' must be %s, not %s" % (
                    where if arg is None else where % arg, name, _kind_text(kind), _short_repr(v)))
        elif required:
            raise FrameError(BAD_PAYLOAD, "%s needs field '%s' (%s)" % (
                where if arg is None else where % arg, name, _kind_text(kind)))


def validate(mtype, payload, sender=None):
    """Check a payload against the message table; raise FrameError saying what is wrong.

    `sender` ("board" or "host"), when given, must be allowed to send `mtype`.
    """
    entry = MESSAGES.get(mtype) if type(mtype) is str else None
    if entry is None:
        raise FrameError(UNKNOWN_TYPE, "unknown message type %s; known types: %s" % (
            _short_repr(mtype), ", ".join(sorted(MESSAGES))))
    who, fields = entry
    if sender is not None and who != "*" and who != sender:
        raise FrameError(UNKNOWN_TYPE, "'%s' is sent by the %s, not by the %s" % (mtype, who, sender))
    if type(payload) is not dict:
        raise FrameError(BAD_PAYLOAD, "the payload of '%s' must be a JSON object, not %s" % (mtype, _short_repr(payload)))
    if fields:
        _check_fields(payload, fields, "'%s'", mtype)
    # What the table cannot say: shapes inside lists and role-dependent fields (_check_more).
    if mtype == "hello" or mtype == "journal" or mtype == "records":
        _check_more(mtype, payload)
    elif mtype == "leds":
        for item in payload["lit"]:
            if type(item) is not list or not 2 <= len(item) <= 3 or type(item[0]) is not int \
                    or type(item[1]) is not str or (len(item) == 3 and not _kind_ok(item[2], _UINT)):
                raise FrameError(BAD_PAYLOAD, "'leds' field 'lit' must hold [cell, role] or [cell, role, count] "
                                 "entries, not %s" % _short_repr(item))
    elif mtype == "move" and type(payload["move"]) is list:
        m = payload["move"]
        # A pit and what the player chose: [pit, direction], Enkeshui's [pit, direction, 0], the
        # Omweso family's [pit, "cn..."] (a letter a choice point); or a staged move: a word
        # naming the stage, then its numbers (["place", 0, 1]).
        ok = 1 <= len(m) <= 8
        for x in m:
            if type(x) is not int and (type(x) is not str or len(x) > 64):
                ok = False
        if ok and type(m[0]) is int:
            ok = 2 <= len(m) <= 3
            for x in m[1:]:
                if type(x) is str and not (x and x.isalpha()):
                    ok = False
        if not ok:
            raise FrameError(BAD_PAYLOAD, "'move' field 'move' must be a pit, [pit, choices...] or a staged move "
                             "[\"stage\", numbers...], not %s" % _short_repr(m))


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


# The text of the small numbers a payload is full of (cells, counts, plies, and -1, a trace
# step's "no cell"), at [n + 1]: a constant, which a board's image keeps in flash, where str()
# would make a string of each (32 bytes of heap).
_INTS = ("-1", "0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "11", "12", "13", "14", "15", "16",
         "17", "18", "19", "20", "21", "22", "23", "24", "25", "26", "27", "28", "29", "30", "31", "32",
         "33", "34", "35", "36", "37", "38", "39", "40", "41", "42", "43", "44", "45", "46", "47", "48",
         "49", "50", "51", "52", "53", "54", "55", "56", "57", "58", "59", "60", "61", "62", "63", "64",
         "65", "66", "67", "68", "69", "70", "71", "72", "73", "74", "75", "76", "77", "78", "79", "80",
         "81", "82", "83", "84", "85", "86", "87", "88", "89", "90", "91", "92", "93", "94", "95", "96",
         "97", "98", "99")


def _put(s, out):
    """Append the JSON text of str `s` to `out`."""
    if _is_plain(s):
        out.extend('"')
        out.extend(s)
        out.extend('"')
    else:
        out.extend(_escaped(s))      # (a quote, a backslash, a control or non-ASCII character)


def _write(v, out, depth):
    t = type(v)
    if t is dict:
        if depth >= _MAX_DEPTH:
            raise FrameError(MALFORMED, "payload nested deeper than %d levels" % _MAX_DEPTH)
        for k in v:
            if type(k) is not str:
                raise FrameError(MALFORMED, "payload keys must be strings, not %s" % _short_repr(k))
        sep = "{"
        for k in sorted(v):
            out.extend(sep)
            sep = ","
            _put(k, out)
            out.extend(":")
            x = v[k]
            tx = type(x)
            if tx is int:
                out.extend(_INTS[x + 1] if -1 <= x < 100 else str(x))
            elif tx is str:
                _put(x, out)
            else:
                _write(x, out, depth + 1)
        out.extend("}" if sep == "," else "{}")
    elif t is list or isinstance(v, tuple):
        if depth >= _MAX_DEPTH:
            raise FrameError(MALFORMED, "payload nested deeper than %d levels" % _MAX_DEPTH)
        # A list of integers and plain ASCII words (pits), or of plain lists of them (the lit
        # cells), is written by the C json module: its output for those is canonical on both
        # CPython and MicroPython, and it is many times faster there and makes one string, not
        # one a piece.  A named tuple (a trace's Step) is written piece by piece below:
        # MicroPython's json writes one as its repr, and a text made for each step of a long
        # Kombe `move` frame took kilobytes of a board's heap.
        for x in v:
            tx = type(x)
            if tx is int or (tx is str and _is_plain(x)):
                continue
            if (tx is list or tx is tuple) and depth + 1 < _MAX_DEPTH and _scalars(x):
                continue
            break
        else:
            if _C_LISTS and (t is list or t is tuple):
                out.extend(json.dumps(v, separators=_SEPARATORS))
                return
        sep = "["
        for x in v:
            out.extend(sep)
            sep = ","
            tx = type(x)
            if tx is int:
                out.extend(_INTS[x + 1] if -1 <= x < 100 else str(x))
            elif tx is str:
                _put(x, out)
            else:
                _write(x, out, depth + 1)
        out.extend("]" if sep == "," else "[]")
    elif t is str:
        _put(v, out)
    elif t is int:
        out.extend(_INTS[v + 1] if -1 <= v < 100 else str(v))
    elif v is True:
        out.extend("true")
    elif v is False:
        out.extend("false")
    elif v is None:
        out.extend("null")
    else:
        # A float (its text differs between ports) or no JSON type.
        if type(v) is float:
            raise FrameError(MALFORMED, "floats are not allowed in payloads (%s): send integers, e.g. thousandths" % v)
        raise FrameError(MALFORMED, "cannot put %s in a payload: use dict, list, str, int, bool or None"
                         % _short_repr(v))


# Lists go through the C json module on MicroPython only: there every Python
# call is dear, while CPython's json.dumps builds an encoder object per call
# (with separators given), which costs more than the loop it would save.
# Ports built without MICROPY_PY_JSON_SEPARATORS take no separators argument.
try:
    _C_LISTS = sys.implementation.name == "micropython" and \
        json.dumps([1, "a"], separators=_SEPARATORS) == '[1,"a"]'
except TypeError:
    _C_LISTS = False


def _scalars(v):
    """Whether every item of `v` is an int or a str whose JSON text is itself between quotes."""
    for x in v:
        tx = type(x)
        if tx is not int and (tx is not str or not _is_plain(x)):
            return False
    return True


# What the writer writes into.  On MicroPython a bytearray, which takes a str as it takes bytes
# and grows in place: a frame's text is made without a list of its pieces and their join (on
# a board, twice a frame's length of garbage).  On CPython, whose bytearray takes no str, a list
# of the pieces, joined at the end.
_STR_IS_BYTES = sys.implementation.name == "micropython"
if _STR_IS_BYTES:
    _output = bytearray
else:
    class _output(list):
        extend = list.append


def _written(out):
    """What the writer wrote into `out` (an _output): the bytearray itself on MicroPython, else
    the pieces joined."""
    return out if _STR_IS_BYTES else "".join(out)


def _text(v, depth=0):
    """The canonical JSON text of `v`, as the writer's output holds it (bytes-like on MicroPython)."""
    out = _output()
    _write(v, out, depth)
    return _written(out)


def dumps(payload):
    """The canonical JSON text of a payload (sorted keys, no spaces, ASCII only)."""
    t = _text(payload)
    return str(t, "ascii") if _STR_IS_BYTES else t


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
    return _joined(pieces(seq, mtype, payload, check))


def _joined(two):
    """The bytes of a frame from the two pieces pieces() gives."""
    body, tail = two
    return (body.encode() if type(body) is str else bytes(body)) + tail


def pieces(seq, mtype, payload=None, check=True, text=None):
    """The frame encode() makes, as two pieces to write one after the other: its text up to the
    payload's end, and " CRC\n".  On MicroPython the text is the bytearray the writer wrote it
    into (_output), or a str, which its streams and binascii take as they take bytes: the board
    writes a frame without more copies of it (encoded, then joined with its CRC).  Elsewhere
    both are bytes.

    `text`, instead of a payload: the payload's JSON text as an earlier frame had it (the text
    after its header), e.g. a reply sent again under a new seq."""
    if type(seq) is not int or not 0 <= seq < SEQ_MOD:
        raise FrameError(MALFORMED, "seq must be an integer 0..65535, not %s" % _short_repr(seq))
    if not _type_ok(mtype):
        raise FrameError(MALFORMED, "message type must be 1-%d characters a-z or _, not %s" % (
            _MAX_TYPE, _short_repr(mtype)))
    # The header is the first piece of the payload's text: the frame is not copied again by a
    # format around the payload.
    head = "@%04x %s " % (seq, mtype)
    if text is None:
        if payload is None:
            payload = {}
        if check:
            validate(mtype, payload)
        out = _output()
        out.extend(head)
        _write(payload, out, 0)
        body = _written(out)
    elif type(text) is str:
        body = head + text
    else:
        body = head.encode() + text
    if type(body) is str and not _STR_IS_BYTES:
        body = body.encode()
    n = len(body) + 10          # (" %08x\n")
    if n > MAX_FRAME:
        raise FrameError(TOO_LONG, "a '%s' frame of %d bytes is longer than the %d-byte limit" % (
            mtype, n, MAX_FRAME))
    return body, b" %08x\n" % crc32(body)


def payload_text(body, mtype):
    """The payload's text in the first piece pieces() gave for a frame of type `mtype`."""
    return body[len(mtype) + 7:]        # (after "@0000 " and the type and a space)



class Encoder:
    """Numbers outgoing frames: one Encoder per direction of a link.  `check`: each payload is
    validated first (encode(); a board's link leaves it to the laptop, which checks what it
    receives, and spends no scan's time on it)."""

    def __init__(self, start=0, check=True):
        self.seq = (start - 1) % SEQ_MOD  # the seq of the last frame made
        self.check = check

    def frame(self, mtype, payload=None):
        """The next frame; its seq is then in `self.seq` (to match replies' "re")."""
        return _joined(self.pieces(mtype, payload))

    def pieces(self, mtype, payload=None, text=None):
        """The next frame as codec.pieces() gives it (two pieces to write one after the other)."""
        seq = (self.seq + 1) % SEQ_MOD
        out = pieces(seq, mtype, payload, self.check, text)
        self.seq = seq  # only a frame that was really made uses up a number
        return out


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


def _parse(line, sender):
    n = len(line)
    if n == 0 or line[0] != 0x40:  # "@"
        return BadFrame(NOISE, None, "a line that is not a frame (no '@' at its start)")
    if n < _MIN_FRAME:
        return BadFrame(MALFORMED, None, "a line of %d bytes is too short to be a frame" % n)
    sp = n - 9
    if line[sp] != 0x20:
        return BadFrame(MALFORMED, None, "a frame must end with a space and 8 hex digits of CRC-32")
    crc = _hex(line, sp + 1, n)
    if crc < 0:
        return BadFrame(MALFORMED, None, "the CRC-32 field is not 8 hex digits")
    if crc32(memoryview(line)[:sp]) != crc:
        return BadFrame(CHECKSUM, None, "CRC-32 mismatch: the line was damaged on the way")
    # The checksum is right, so what follows is what the peer meant to send.
    seq = _hex(line, 1, 5) if line[5] == 0x20 else -1
    if seq < 0:
        return BadFrame(MALFORMED, None, "the frame does not start with '@' and 4 hex digits of seq")
    tend = line.find(b" ", 6, sp)
    if tend < 0:
        tend = sp
    if not 0 < tend - 6 <= _MAX_TYPE:
        return BadFrame(MALFORMED, seq, "the message type must be 1-%d characters" % _MAX_TYPE)
    for i in range(6, tend):
        o = line[i]
        if not (0x61 <= o <= 0x7A or o == 0x5F):
            return BadFrame(MALFORMED, seq, "the message type may hold only a-z and _")
    if tend == sp:
        return BadFrame(MALFORMED, seq, "the frame has no payload (send {} for an empty one)")
    mtype = line[6:tend].decode()
    try:
        payload = json.loads(line[tend + 1:sp])
    except Exception:  # ValueError on both; MicroPython may raise others on odd bytes
        return BadFrame(MALFORMED, seq, "the payload of '%s' is not valid JSON" % mtype)
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
        """Decode `data` (bytes-like, or a str as a board's link writes on MicroPython: pieces());
        return the list of Messages and BadFrames it completed."""
        if type(data) is str:
            data = data.encode()
        elif type(data) is not bytes:
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
                    self._bad(out, _too_long_line(total + 1, limit))
                else:
                    self._room(total)
                    self._mv[self._n:total] = memoryview(data)[i:j]
                    self._line(bytes(self._mv[:total]), out)
                self._n = 0
            elif j - i + 1 > limit:
                self._bad(out, _too_long_line(j - i + 1, limit))
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
            self._bad(out, _too_long_line(None, self.max_frame))
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
            # A damaged line may end with a whole frame: _salvage looks for it.
            item = self._salvage(line, item, out)
        self._emit(item, out)

    def _salvage(self, line, item, out):
        """A damaged line (_line: `item`, its BadFrame, has no seq) may end with a
        whole frame: the rest of a line cut off by a link drop, or two frames joined by a lost
        newline.  Look for it at the next few "@"s so that it is not lost too; what comes before it
        is its own line (maybe a whole frame too) and goes to `out`.  Returns what is left to emit."""
        k = 0
        for _ in range(_MAX_ANCHORS):
            k = line.find(b"@", k + 1)
            if k < 0 or len(line) - k < _MIN_FRAME:
                break
            if line[k + 5] != 0x20:
                continue
            rest = parse_line(line[k:], self.sender)
            if type(rest) is Message or rest.seq is not None:
                self._emit(parse_line(line[:k], self.sender), out)
                return rest
        return item

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


# ----- the message table, for the laptop's tests, tools and docs ----------------------------

def messages():
    """The message table: type -> (sender, ((name, kind, required), ...)); a kind is a bit set
    (_kind_text names it) or a tuple of the strings allowed."""
    return dict(MESSAGES)


def _kind_text(kind):
    if type(kind) is tuple:
        return "one of " + ", ".join(kind)
    names = []
    for bit, name in _KIND_NAMES:
        if kind & bit:
            names.append(name)
    return " or ".join(names)


def _short_repr(v):
    r = repr(v)
    if len(r) > 40:
        r = r[:37] + "..."
    return r


# ----- JSON text of a string that needs escaping (codec._put) -----------------------------------

_ESCAPES = {0x22: '\\"', 0x5C: "\\\\", 0x0A: "\\n", 0x0D: "\\r", 0x09: "\\t", 0x08: "\\b", 0x0C: "\\f"}


def _escaped(s):
    """The JSON text of a str that needs escaping (or may: see _is_plain)."""
    out = ['"']
    for ch in s:
        o = ord(ch)
        if 0x20 <= o <= 0x7E and o != 0x22 and o != 0x5C:
            out.append(ch)
        elif o in _ESCAPES:
            out.append(_ESCAPES[o])
        elif o < 0x10000:
            out.append("\\u%04x" % o)
        else:  # outside the BMP: a UTF-16 surrogate pair, as JSON wants
            o -= 0x10000
            out.append("\\u%04x\\u%04x" % (0xD800 | (o >> 10), 0xDC00 | (o & 0x3FF)))
    out.append('"')
    return "".join(out)


def _too_long_line(n, limit):
    """The BadFrame of a line longer than `limit` bytes (n of them; None: not known yet)."""
    if n is None:
        return BadFrame(TOO_LONG, None, "a line longer than %d bytes" % limit)
    return BadFrame(TOO_LONG, None, "a line of %d bytes (limit %d)" % (n, limit))


def _check_more(mtype, payload):
    """What the table cannot say of a hello, a `journal` or a `records` (validate() asks)."""
    if mtype == "hello":
        p = payload["proto"]
        if len(p) != 2 or type(p[0]) is not int or type(p[1]) is not int or p[0] < 0 or p[1] < 0:
            raise FrameError(BAD_PAYLOAD, "'hello' field 'proto' must be [major, minor] (two integers >= 0), not %s"
                             % _short_repr(p))
        if payload["role"] == BOARD:
            # (1.2) A brief hello -- the answer to a host's that asked for one -- may leave out
            # the config and the variants: on a noisy line a long frame rarely arrives whole.
            _check_fields(payload, _BRIEF_HELLO if payload.get("brief") is True else _BOARD_HELLO, "a board's 'hello'")
            if "config" in payload:
                _check_fields(payload["config"], _CONFIG_FIELDS, "'hello' field 'config'")
            for v in payload.get("variants", ()):
                if type(v) is not str:
                    raise FrameError(BAD_PAYLOAD, "'hello' field 'variants' must list strings, not %s"
                                     % _short_repr(v))
    elif mtype == "journal":
        _check_items("'journal' games", payload["games"], _GAME_FIELDS)
    elif mtype == "records":
        _check_items("'records' records", payload["records"], _RECORD_FIELDS)


def _check_items(where, items, spec):
    i = 0
    for item in items:
        if type(item) is not dict:
            raise FrameError(BAD_PAYLOAD, "%s[%d] must be an object, not %s" % (where, i, _short_repr(item)))
        _check_fields(item, spec, where + "[%d]", i)
        i += 1


# ----- hellos ---------------------------------------------------------------------------------

def check_hello(payload):
    """Raise VersionError unless a validated hello speaks our major version; return (major, minor)."""
    major = payload["proto"][0]
    minor = payload["proto"][1]
    if major != PROTO_MAJOR:
        # The side with the older major version is the one to bring up to date.
        if (major < PROTO_MAJOR) == (payload["role"] == BOARD):
            fix = "redeploy the firmware that matches this companion (sowlight deploy)"
        else:
            fix = "update the companion (pip install -U sowlight)"
        raise VersionError("the %s speaks link protocol %d.%d, this side speaks %d.%d: %s" % (
            payload["role"], major, minor, PROTO_MAJOR, PROTO_MINOR, fix))
    return major, minor


def hello(role, sw, **fields):
    """The payload of our hello: protocol version, role, software version and `fields`."""
    p = {"proto": [PROTO_MAJOR, PROTO_MINOR], "role": role, "sw": sw}
    for k in fields:
        p[k] = fields[k]
    return p


# ----- long replies ---------------------------------------------------------------------------

def fit(mtype, payload, key, limit=MAX_FRAME):
    """Shorten the list payload[key] to the items, from the first, that fit in one frame.

    Returns how many were cut off (0: all fit).  Room is kept for an "re"
    field when the payload has none yet (the link adds it to replies).  Used
    for replies whose length the board does not know in advance: `records`,
    `journal`.
    """
    items = payload[key]
    payload[key] = []
    # "@0000 " + type + " " + payload + " " + 8 hex digits + newline
    # (Lengths of the writer's own output: dumps() would also make a str of each on a board.)
    size = 17 + len(mtype) + len(_text(payload)) + (0 if "re" in payload else _RE_ROOM)
    n = 0
    for item in items:
        size += len(_text(item)) + (1 if n else 0)
        if size > limit:
            break
        n += 1
    payload[key] = items[:n] if n < len(items) else items
    return len(items) - n


def chunks(frame, size=CHUNK):
    """Pieces of `frame` of at most `size` bytes, to write one by one.

    MicroPython's USB CDC can hold back a write of exactly 64 bytes until the
    next write (micropython issue #15960, rp2), so the board writes < 64 at a time.
    """
    mv = memoryview(frame)
    n = len(frame)
    i = 0
    while i < n:
        yield mv[i:i + size]
        i += size
