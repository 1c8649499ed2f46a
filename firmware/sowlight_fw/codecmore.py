"""What the wire codec (codec.py) needs rarely: what is wrong with a line or a frame, in
words; a whole frame at the end of a damaged line; a string that needs escaping; the table's
lines of what only a board sends; the message table as a dict; the hellos; fitting a long
reply into one frame.

A stock Pico keeps the code of every module it imports in its heap, and the
board keeps codec.py loaded for as long as it runs: so what only a refused or
unusual frame, a hello or a long reply needs is here, imported for that call
and dropped after it (codec._more, codec.__getattr__, unload.py).  The names
are read through codec (codec.hello, codec.check_hello, codec.fit,
codec.chunks, codec.MESSAGES); the laptop imports this module once and keeps it.
"""
from .codec import (FrameError, VersionError, BadFrame, Message, BAD_PAYLOAD, CHECKSUM, MALFORMED, NOISE,
                    TOO_LONG, UNKNOWN_TYPE, PROTO_MAJOR, PROTO_MINOR, BOARD, MAX_FRAME, CHUNK, _TABLE, _KIND_LETTERS,
                    _KIND_BITS, _line, _find, _check_fields, dumps, parse_line)

# codec.py's private constants (a const() whose name starts with "_" is no module attribute on
# MicroPython, so they are repeated here): the depth and type limits, the kinds' bits.
_MAX_DEPTH = 16
_MAX_TYPE = 16
_INT = 1
_STR = 2
_BOOL = 4
_LIST = 8
_OBJ = 16
_NULL = 32
_UINT = 64
_SEQ = 128

# Fields of the objects inside some lists and of a board's hello, checked by validate() too.
_GAME_FIELDS = "game:u! variant:s! first:u! last:u! synced:i! over:b!"
_RECORD_FIELDS = "ply:u! kind:s!"
_CONFIG_FIELDS = "geometry:o! sensors:o!"
_BOARD_HELLO = "board:s! config:o! variants:l!"
_BRIEF_HELLO = "board:s! config:o variants:l"

_KIND_NAMES = ((_INT, "an integer"), (_UINT, "an integer >= 0"), (_SEQ, "a seq number 0..65535"),
               (_STR, "a string"), (_BOOL, "true or false"), (_LIST, "a list"),
               (_OBJ, "an object"), (_NULL, "null"))

_RE_ROOM = 11  # ',"re":65535': room for the "re" a link adds to a reply
_MAX_ANCHORS = 8   # "@"s tried when looking for a frame at the end of a damaged line
_MIN_FRAME = 19    # "@0000 t {} 00000000", the shortest frame, newline excluded

# The message table's lines of what only a board sends (codec._TABLE has the others, and the
# format): replies and events.  Read through codec._line, on the laptop, which checks what it
# receives; a board does not check what it sends against the table (codec.Encoder(check=False)).
_BOARD_TABLE = (
    "\n"
    "ok board re:q!\n"
    "state board re:Q game:U! variant:S! options:o pos:O! ply:u! phase:s! expect:L hint:b! brightness:u! rx:Q"
    " lit:l error:s\n"
    "move board game:u! ply:u! player:u! move:m! name:s trace:L! pos:o\n"
    "step board game:u! ply:u! ev:=lifted/dropped/mismatch! cell:i! i:u n:u expect:L\n"
    "leds board lit:l! game:U\n"
    "journal board re:q! games:l! more:b\n"
    "records board re:q! game:u! records:l! more:b!\n"
    "log board level:=debug/info/warn/error! msg:s!\n"
)


def board_line(mtype):
    """codec._line of a type codec._TABLE does not have: its line in _BOARD_TABLE, or None."""
    return _find(_BOARD_TABLE, mtype)


# ----- the message table as data (for the laptop's tests, tools and docs) -----------------

def types():
    """Every message type of the table, in its order."""
    out = []
    for table in (_TABLE, _BOARD_TABLE):
        i = 0
        while True:
            j = table.find("\n", i + 1)
            if j < 0:
                break
            k = table.find(" ", i + 1, j)
            out.append(table[i + 1:k if k >= 0 else j])
            i = j
    return out


def _fields(spec):
    """(name, kind, required) of each field of a spec (fields as in the table); kind is a bit
    set, or a tuple of strings for "one of these".  (validate() reads the spec in place.)"""
    for f in spec.split(" "):
        if f:
            k = f.find(":")
            required = f[-1] == "!"
            yield f[:k], _kind(f[k + 1:len(f) - 1 if required else len(f)]), required


def messages():
    """The message table as a dict: type -> (sender, ((name, kind, required), ...))."""
    table = {}
    for mtype in types():
        line = _line(mtype)
        sp = line.find(" ")
        table[mtype] = (line if sp < 0 else line[:sp], tuple(_fields("" if sp < 0 else line[sp + 1:])))
    return table


def _kind(text):
    """The kind a table entry's text names: its bits, or a tuple of the strings it allows."""
    if text[0] == "=":
        return tuple(text[1:].split("/"))
    return _KIND_BITS[_KIND_LETTERS.find(text)]


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


# ----- what is wrong, in words (each returns the FrameError to raise) --------------------

# ----- JSON text of a string that needs escaping (codec._put) -----------------------------------

_ESCAPES = {0x22: '\\"', 0x5C: "\\\\", 0x0A: "\\n", 0x0D: "\\r", 0x09: "\\t", 0x08: "\\b", 0x0C: "\\f"}


def escaped(s):
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


# ----- a refused line, in words -----------------------------------------------------------------
# codec._parse's refusals, in the order of its constants (_NOT_A_FRAME ... _NOT_JSON): the reason,
# and what is wrong (with the value _parse passes, where it says one).
_BAD_LINES = (
    (NOISE, "a line that is not a frame (no '@' at its start)"),
    (MALFORMED, "a line of %d bytes is too short to be a frame"),
    (MALFORMED, "a frame must end with a space and 8 hex digits of CRC-32"),
    (MALFORMED, "the CRC-32 field is not 8 hex digits"),
    (CHECKSUM, "CRC-32 mismatch: the line was damaged on the way"),
    (MALFORMED, "the frame does not start with '@' and 4 hex digits of seq"),
    (MALFORMED, "the message type must be 1-%d characters"),
    (MALFORMED, "the message type may hold only a-z and _"),
    (MALFORMED, "the frame has no payload (send {} for an empty one)"),
    (MALFORMED, "the payload of '%s' is not valid JSON"),
)


def salvage(decoder, line, item, out):
    """A damaged line (codec.Decoder._line: `item`, its BadFrame, has no seq) may end with a
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
        rest = parse_line(line[k:], decoder.sender)
        if type(rest) is Message or rest.seq is not None:
            decoder._emit(parse_line(line[:k], decoder.sender), out)
            return rest
    return item


def bad_line(k, seq, value):
    """The BadFrame of a line codec._parse refused for the k-th reason of _BAD_LINES."""
    reason, text = _BAD_LINES[k]
    return BadFrame(reason, seq, text % value if "%" in text else text)


def too_long_line(n, limit):
    """The BadFrame of a line longer than `limit` bytes (n of them; None: not known yet)."""
    if n is None:
        return BadFrame(TOO_LONG, None, "a line longer than %d bytes" % limit)
    return BadFrame(TOO_LONG, None, "a line of %d bytes (limit %d)" % (n, limit))


def unknown_type(mtype):
    return FrameError(UNKNOWN_TYPE, "unknown message type %s; known types: %s" % (
        _short_repr(mtype), ", ".join(sorted(types()))))


def not_object(mtype, payload):
    return FrameError(BAD_PAYLOAD, "the payload of '%s' must be a JSON object, not %s" % (mtype, _short_repr(payload)))


def wrong_field(where, name, kind, v):
    return FrameError(BAD_PAYLOAD, "%s field '%s' must be %s, not %s" % (where, name, _kind_text(_kind(kind)),
                                                                       _short_repr(v)))


def missing_field(where, name, kind):
    return FrameError(BAD_PAYLOAD, "%s needs field '%s' (%s)" % (where, name, _kind_text(_kind(kind))))


def bad_lit(item):
    return FrameError(BAD_PAYLOAD, "'leds' field 'lit' must hold [cell, role] or [cell, role, count] "
                      "entries, not %s" % _short_repr(item))


def bad_move(m):
    return FrameError(BAD_PAYLOAD, "'move' field 'move' must be a pit, [pit, direction] or a staged move "
                      "[\"stage\", numbers...], not %s" % _short_repr(m))


def too_deep():
    return FrameError(MALFORMED, "payload nested deeper than %d levels" % _MAX_DEPTH)


def bad_key(k):
    return FrameError(MALFORMED, "payload keys must be strings, not %s" % _short_repr(k))


def bad_value(v):
    if type(v) is float:
        return FrameError(MALFORMED, "floats are not allowed in payloads (%s): send integers, e.g. thousandths" % v)
    return FrameError(MALFORMED, "cannot put %s in a payload: use dict, list, str, int, bool or None"
                      % _short_repr(v))


def bad_seq(seq):
    return FrameError(MALFORMED, "seq must be an integer 0..65535, not %s" % _short_repr(seq))


def bad_type(mtype):
    return FrameError(MALFORMED, "message type must be 1-%d characters a-z or _, not %s" % (
        _MAX_TYPE, _short_repr(mtype)))


def too_long(mtype, n):
    return FrameError(TOO_LONG, "a '%s' frame of %d bytes is longer than the %d-byte limit" % (mtype, n, MAX_FRAME))


# ----- validate(): the rarer messages' shapes ----------------------------------------------

def check_more(mtype, payload):
    """What the table cannot say of a hello, a `journal` or a `records` (validate() asks)."""
    if mtype == "hello":
        p = payload["proto"]
        if len(p) != 2 or type(p[0]) is not int or type(p[1]) is not int or p[0] < 0 or p[1] < 0:
            raise FrameError(BAD_PAYLOAD, "'hello' field 'proto' must be [major, minor] (two integers >= 0), not %s"
                             % _short_repr(p))
        if payload["role"] == BOARD:
            # (1.2) A brief hello -- the answer to a host's that asked for one -- may leave out
            # the config and the variants: on a noisy line a long frame rarely arrives whole.
            _check_fields("a board's 'hello'", payload, _BRIEF_HELLO if payload.get("brief") is True else _BOARD_HELLO)
            if "config" in payload:
                _check_fields("'hello' field 'config'", payload["config"], _CONFIG_FIELDS)
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
        _check_fields("%s[%d]" % (where, i), item, spec)
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
    size = 17 + len(mtype) + len(dumps(payload)) + (0 if "re" in payload else _RE_ROOM)
    n = 0
    for item in items:
        size += len(dumps(item)) + (1 if n else 0)
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
