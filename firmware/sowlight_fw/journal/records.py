"""The journal's records: their bytes on flash, written and read back.

One file per game (`g00000012.jnl` holds game 12), appended to and never
rewritten while the game goes on.  A record is

    offset  size
    0       1     0xA7, the mark a record starts with
    1       1     kind: 1 start, 2 move, 3 undo, 4 setpos, 5 end, 6 synced (the laptop's acknowledgement),
                  7 lost (in place of a damaged record that could not be rebuilt)
    2       2     payload length n (little-endian, as every number here)
    4       4     game number
    8       2     ply: the record's number in its game (start is 0); for `synced`, the ply acknowledged
    10      n     payload: a move in a few bytes (below), anything else compact JSON
    10+n    4     CRC-32 of the bytes 0 .. 10+n-1

A `synced` record's payload is empty, or SETTLED (one byte, 1) when the game is over and
acknowledged to its last record: a file that ends so is read at boot at its two ends only
(games.py), the start record for the variant and this one.

A move's payload: player (1 byte); flags (bit 0: a time follows; bits 1-2: 0 =
the move is a pit < 256 (1 byte), 1 = [pit, direction] (2 bytes: pit, 0 for
clockwise or 1), 2 = anything else, as a length byte and JSON; bit 3: a
position digest follows; bit 4: the record was rebuilt); then the move's name
(length byte, ASCII); then the Unix time (4 bytes) if flagged; then the digest
(2 bytes) if flagged: the low 16 bits of the CRC-32 of the position the move
was played from (digest()) -- the position the move before it left, which is
what lets that move be rebuilt if a damaged byte takes its record.

A `start` or `setpos` record is written twice, one copy after the other:
what it holds (the variant, its options, a position) cannot be inferred from
the records after it.

A power cut can tear only the record being appended.  At boot every file is
read; a record whose mark, length or CRC is wrong is dropped and the file is
rewritten with the intact records only (through a temporary file and a rename,
so a second cut during the repair loses nothing more).  So a cut at any byte
loses at most the record being written.  A damaged byte inside an earlier
record (flash wear, a stray write) leaves a gap in the plies instead:
mend.py fills it, with the record rebuilt from the records after it
(the one move that leads to the position their digests name) or a `lost`
record, and the board says so (docs/firmware.md, "The journal").

Nothing is deleted until the laptop has acknowledged it (`synced` = `last`)
and the game is over; when space runs low the oldest such games go first, and
the newest game's file always stays (its number keeps game numbers from
being reused).  docs/firmware.md gives the capacity per MB.

parse() checks a record's mark, length and CRC; games.py keeps the files,
mend.py fills gaps, requests.py answers the laptop's sync requests.
"""
import json
import struct

try:
    from collections import namedtuple
except ImportError:  # older MicroPython
    from ucollections import namedtuple

try:
    from micropython import const
except ImportError:  # CPython
    def const(x):
        return x

from ..crc import crc32

MAGIC = const(0xA7)
HEAD = const(10)
TAIL = const(4)
MAX_PAYLOAD = const(2048)
START = const(1)
MOVE = const(2)
UNDO = const(3)
SETPOS = const(4)
END = const(5)
SYNC = const(6)
LOST = const(7)
SETTLED = b"\x01"     # a `synced` record's payload: the game is over and the laptop has all of it
KINDS = ("", "start", "move", "undo", "setpos", "end", "synced", "lost")
_CODES = {"start": START, "move": MOVE, "undo": UNDO, "setpos": SETPOS, "end": END, "lost": LOST}

PREFIX = "g"
SUFFIX = ".jnl"
RESERVE = const(16384)   # free bytes kept for the game in progress (4 littlefs blocks)
# What reclaiming frees beyond the reserve: about 20 old games at once, so that a flash kept full
# is not at the reserve's edge, where each record's check asks the filesystem (storage.py).
RECLAIM_AHEAD = const(131072)


class JournalError(ValueError):
    """A journal request that cannot be met; `code` is the link protocol's error code."""

    def __init__(self, code, msg):
        super().__init__(msg)
        self.code = code
        self.msg = msg


# What the journal knows of one game without keeping its records in memory: its variant (None
# until its start record is read), the highest ply recorded (-1: none), the highest the laptop
# acknowledged (-1: none), and whether its last record is an `end`.  A tuple, made anew when a
# record changes it: a board keeps one per game on its flash, which holds some 300 games, and
# a tuple takes 32 bytes of heap where an object with its attribute table took 80.
GameInfo = namedtuple("GameInfo", ("game", "variant", "last", "synced", "over"))


def new_info(game):
    return GameInfo(game, None, -1, -1, False)


def noted(info, kind, ply, payload):
    """`info` once a record of `kind` at `ply` (its payload) is on the flash."""
    if kind == SYNC:
        return info if ply <= info.synced else GameInfo(info.game, info.variant, info.last, ply, info.over)
    variant = info.variant
    if kind == START:
        try:
            variant = json.loads(bytes(payload)).get("variant")
        except ValueError:
            pass
    return GameInfo(info.game, variant, max(ply, info.last), info.synced, kind == END)


# ----- one record ------------------------------------------------------------

def _json(obj):
    return json.dumps(obj, separators=(",", ":")).encode()


def encode(rec):
    """The bytes of a record dict (kind, game, ply and the kind's fields)."""
    kind = _CODES.get(rec.get("kind"))
    if kind is None:
        raise JournalError("internal", "a journal record of unknown kind %r" % (rec.get("kind"),))
    return _frame(kind, rec["game"], rec["ply"], _payload(kind, rec))


def written(rec):
    """The bytes Journal.append writes for a record: it, twice for a start or a setpos."""
    one = encode(rec)
    return one + one if rec["kind"] == "start" or rec["kind"] == "setpos" else one


def _frame(kind, game, ply, payload):
    # Written into one buffer of the record's size: the board writes one at every move, and
    # the header, the payload and the CRC joined piece by piece were copies of it each.
    n = len(payload)
    if n > MAX_PAYLOAD:
        raise JournalError("internal", "a journal record of %d bytes is too long (at most %d)" % (n, MAX_PAYLOAD))
    out = bytearray(HEAD + n + TAIL)
    struct.pack_into("<BBHIH", out, 0, MAGIC, kind, n, game, ply)
    out[HEAD:HEAD + n] = payload
    struct.pack_into("<I", out, HEAD + n, crc32(memoryview(out)[:HEAD + n]) & 0xFFFFFFFF)
    return out


def _payload(kind, rec):
    if kind == MOVE:
        return _move_payload(rec)
    fields = {}
    for k in rec:
        if k not in ("kind", "game", "ply"):
            fields[k] = rec[k]
    return _json(fields)


def digest(pits, stores, to_move):
    """The position digest a move record carries: 16 bits of the CRC-32 of the position."""
    b = bytearray(len(pits) + len(stores) + 1)
    i = 0
    for x in pits:
        b[i] = x & 255
        i += 1
    for x in stores:
        b[i] = x & 255
        i += 1
    b[i] = to_move & 255
    return crc32(b) & 0xFFFF


def _move_payload(rec):
    move = rec["move"]
    t = rec.get("t")
    pd = rec.get("pd")
    flags = 0 if t is None else 1
    if pd is not None:
        flags |= 8
    if rec.get("rebuilt"):
        flags |= 16
    out = bytearray(2)
    if isinstance(move, int) and not isinstance(move, bool) and 0 <= move < 256:
        out.append(move)
    elif (isinstance(move, list) and len(move) == 2 and isinstance(move[0], int) and 0 <= move[0] < 256
          and move[1] in (-1, 1)):
        flags |= 2
        out.append(move[0])
        out.append(1 if move[1] > 0 else 0)
    else:
        flags |= 4
        js = _json(move)
        if len(js) > 255:
            raise JournalError("internal", "a move too long to journal: %r" % (move,))
        out.append(len(js))
        out.extend(js)
    out[0] = rec["player"]
    out[1] = flags
    name = rec.get("name", "").encode()
    out.append(len(name))
    out.extend(name)
    if t is not None:
        k = len(out)
        out.extend(b"\0\0\0\0")
        struct.pack_into("<I", out, k, t)
    if pd is not None:
        k = len(out)
        out.extend(b"\0\0")
        struct.pack_into("<H", out, k, pd)
    return out


def file_name(game):
    return "%s%08d%s" % (PREFIX, game, SUFFIX)


# ----- read back ---------------------------------------------------------------

def parse(data, i):
    """The intact record at offset i: (kind, game, ply, payload_start, payload_end, next), or None."""
    n = len(data)
    if i + HEAD + TAIL > n or data[i] != MAGIC:
        return None
    kind = data[i + 1]
    length = data[i + 2] | (data[i + 3] << 8)
    end = i + HEAD + length
    if kind < START or kind > LOST or length > MAX_PAYLOAD or end + TAIL > n:
        return None
    if crc32(memoryview(data)[i:end]) & 0xFFFFFFFF != struct.unpack_from("<I", data, end)[0]:
        return None
    game, ply = struct.unpack_from("<IH", data, i + 4)
    return kind, game, ply, i + HEAD, end, end + TAIL


def intact(data):
    """(offset, parse(data, offset)) of each intact record of a game's file, in file order."""
    i = 0
    while i < len(data):
        r = parse(data, i)
        if r is None:
            i += 1
            continue
        yield i, r
        i = r[5]


def decode(kind, ply, payload, mending=False):
    """The record dict (as the link sends it: ply, kind, fields) of a record's payload; `mending`:
    with what only the board reads (an end's `pd` and `lm`, mend.py)."""
    if kind == MOVE:
        rec = _decode_move(payload)
    else:
        rec = json.loads(bytes(payload)) if len(payload) else {}
        if not mending:
            rec.pop("pd", None)   # (an end's position digest and last move stay on the board,
            rec.pop("lm", None)   # as a move's digest does)
    rec["kind"] = KINDS[kind]
    rec["ply"] = ply
    return rec


def _decode_move(p):
    flags = p[1]
    form = (flags >> 1) & 3
    if form == 0:
        move = p[2]
        i = 3
    elif form == 1:
        move = [p[2], 1 if p[3] else -1]
        i = 4
    else:
        n = p[2]
        move = json.loads(bytes(p[3:3 + n]))
        i = 3 + n
    n = p[i]
    name = bytes(p[i + 1:i + 1 + n]).decode()
    rec = {"player": p[0], "move": move, "name": name}
    if flags & 1:
        rec["t"] = struct.unpack_from("<I", p, i + 1 + n)[0]
    if flags & 16:
        rec["rebuilt"] = True
    return rec


def move_digest(p):
    """The position digest a move record's payload carries (journal.digest), or None."""
    if not p[1] & 8:
        return None
    return struct.unpack_from("<H", p, len(p) - 2)[0]


def move_json(move):
    """A move as JSON holds it: tuples as lists (a record's `move`)."""
    if isinstance(move, tuple):
        return [move_json(x) for x in move]
    return move


def move_tuple(move):
    """A move from JSON as the rules core takes it: lists as tuples."""
    if isinstance(move, list):
        return tuple(move_tuple(x) for x in move)
    return move
