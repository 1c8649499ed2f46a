"""The board's journal: every game, record by record, on flash, until the laptop has it.

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
journalmend.py fills it, with the record rebuilt from the records after it
(the one move that leads to the position their digests name) or a `lost`
record, and the board says so (docs/firmware.md, "The journal").

Nothing is deleted until the laptop has acknowledged it (`synced` = `last`)
and the game is over; when space runs low the oldest such games go first, and
the newest game's file always stays (its number keeps game numbers from
being reused).  docs/firmware.md gives the capacity per MB.

This module is the writing half, which a board keeps loaded while it plays;
reading the journal back (at boot: repairs, the game to resume; the laptop's
sync requests) is journalread.py, imported for that and unloaded after.
"""
import json
import struct

try:
    from micropython import const
except ImportError:  # CPython
    def const(x):
        return x

from .crc import crc32
from .unload import unload

MAGIC = const(0xA7)
_HEAD = const(10)
_TAIL = const(4)
MAX_PAYLOAD = const(2048)
START = const(1)
MOVE = const(2)
UNDO = const(3)
SETPOS = const(4)
END = const(5)
SYNC = const(6)
LOST = const(7)
KINDS = ("", "start", "move", "undo", "setpos", "end", "synced", "lost")
_CODES = {"start": START, "move": MOVE, "undo": UNDO, "setpos": SETPOS, "end": END, "lost": LOST}

PREFIX = "g"
SUFFIX = ".jnl"
RESERVE = const(16384)   # free bytes kept for the game in progress (4 littlefs blocks)


# Why a record is refused: journalread.refusal(k, ...) makes the JournalError that says it in
# words (loaded for it only; none but _FULL and _UNWRITABLE happens on a working board).
_UNKNOWN_KIND = const(0)
_TOO_LONG = const(1)
_MOVE_TOO_LONG = const(2)
_NO_START = const(3)
_PLY_GAP = const(4)
_FULL = const(5)
_UNWRITABLE = const(6)


class JournalError(ValueError):
    """A journal request that cannot be met; `code` is the link protocol's error code."""

    def __init__(self, code, msg):
        super().__init__(msg)
        self.code = code
        self.msg = msg


# ----- one record ------------------------------------------------------------

def _json(obj):
    return json.dumps(obj, separators=(",", ":")).encode()


def encode(rec):
    """The bytes of a record dict (kind, game, ply and the kind's fields)."""
    kind = _CODES.get(rec.get("kind"))
    if kind is None:
        raise _reading("refusal", _UNKNOWN_KIND, rec.get("kind"))
    return _frame(kind, rec["game"], rec["ply"], _payload(kind, rec))


def written(rec):
    """The bytes Journal.append writes for a record: it, twice for a start or a setpos."""
    one = encode(rec)
    return one + one if rec["kind"] == "start" or rec["kind"] == "setpos" else one


def _frame(kind, game, ply, payload):
    if len(payload) > MAX_PAYLOAD:
        raise _reading("refusal", _TOO_LONG, len(payload), MAX_PAYLOAD)
    body = struct.pack("<BBHIH", MAGIC, kind, len(payload), game, ply) + payload
    return body + struct.pack("<I", crc32(body) & 0xFFFFFFFF)


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
    if isinstance(move, int) and not isinstance(move, bool) and 0 <= move < 256:
        mb = bytes((move,))
    elif (isinstance(move, list) and len(move) == 2 and isinstance(move[0], int) and 0 <= move[0] < 256
          and move[1] in (-1, 1)):
        flags |= 2
        mb = bytes((move[0], 1 if move[1] > 0 else 0))
    else:
        flags |= 4
        js = _json(move)
        if len(js) > 255:
            raise _reading("refusal", _MOVE_TOO_LONG, move)
        mb = bytes((len(js),)) + js
    name = rec.get("name", "").encode()
    out = bytes((rec["player"], flags)) + mb + bytes((len(name),)) + name
    if t is not None:
        out += struct.pack("<I", t)
    if pd is not None:
        out += struct.pack("<H", pd)
    return out


def file_name(game):
    return "%s%08d%s" % (PREFIX, game, SUFFIX)


# ----- the journal ----------------------------------------------------------------

class GameInfo:
    """What the journal knows of one game without keeping its records in memory."""

    def __init__(self, game):
        self.game = game
        self.variant = None
        self.last = -1       # highest ply recorded
        self.synced = -1     # highest ply the laptop acknowledged
        self.over = False    # the game's last record is an `end`
        self.records = 0


class Journal:
    def __init__(self, storage, reserve=RESERVE):
        self.storage = storage
        self.reserve = reserve
        self.games = {}          # game number -> GameInfo
        self.repaired = []       # what open() had to fix, for the log
        self.gaps = {}           # game -> plies no intact record holds (open() finds them, mend() fills them)

    # ----- boot ------------------------------------------------------------------

    def open(self):
        """Read every game file; repair torn or damaged ones. Returns the list of repairs made."""
        return _reading("open_journal", self)

    def _note(self, info, kind, ply, payload):
        if kind == SYNC:
            if ply > info.synced:
                info.synced = ply
            return
        info.records += 1
        if ply > info.last:
            info.last = ply
        info.over = kind == END
        if kind == START:
            try:
                info.variant = json.loads(bytes(payload)).get("variant")
            except ValueError:
                pass

    def mend(self, make, variants):
        """Fill the gaps open() found: each missing record rebuilt from the records after it, or
        a `lost` record in its place (journalmend.py, loaded for the call only).  `make(variant,
        options, pos)` makes a game of the rules core; `variants`: those to try for a lost start.
        Returns [(game, ply, record or None when lost)]."""
        from . import journalmend
        try:
            return journalmend.mend(self, make, variants)
        finally:
            unload("journalmend")

    def next_game(self):
        """The number for a new game: never one used before (the newest file is always kept)."""
        return max(self.games) + 1 if self.games else 1

    def current(self):
        """(game, records) of the newest game if it is not over, for the controller to resume; else None."""
        if not self.games:
            return None
        game = max(self.games)
        if self.games[game].over:
            return None
        return game, self.records(game, 0, 1 << 16)[0]

    # ----- writing -----------------------------------------------------------------

    def append(self, rec):
        """Write one record of the controller's (checks that plies follow on)."""
        game = rec["game"]
        ply = rec["ply"]
        info = self.games.get(game)
        if info is None:
            if rec["kind"] != "start" or ply != 0:
                raise _reading("refusal", _NO_START, game, rec["kind"], ply)
            info = GameInfo(game)
        elif ply != info.last + 1:
            raise _reading("refusal", _PLY_GAP, game, ply, info.last)
        data = written(rec)
        self._write(file_name(game), data)
        self.games[game] = info
        n = data[2] | (data[3] << 8)      # the payload's length (of the first copy)
        self._note(info, _CODES[rec["kind"]], ply, data[_HEAD:_HEAD + n])
        return len(data)

    def _write(self, name, data):
        if self.storage.free() < self.reserve + len(data):
            self.reclaim(self.reserve + len(data))
        try:
            self.storage.append(name, data)
        except OSError:
            if not self.reclaim(1 << 30):
                raise _reading("refusal", _FULL)
            try:
                self.storage.append(name, data)
            except OSError as e:
                raise _reading("refusal", _UNWRITABLE, e)

    def reclaim(self, need):
        """Delete the oldest games the laptop has stored until `need` bytes are free; return them."""
        gone = []
        newest = max(self.games) if self.games else -1
        for game in sorted(self.games):
            if self.storage.free() >= need:
                break
            info = self.games[game]
            if game == newest or not info.over or info.synced < info.last:
                continue
            self.storage.remove(file_name(game))
            del self.games[game]
            gone.append(game)
        return gone

    # ----- the link's journal requests ---------------------------------------------------

    def list_games(self):
        """Every game's listing (the `journal` reply's entries), oldest first."""
        return _reading("list_games", self)

    def records(self, game, first, most=50):
        """(records, more): up to `most` records of `game` from ply `first`, as dicts."""
        return _reading("records", self, game, first, most)

    def ack(self, game, upto):
        """The laptop has stored every record of `game` up to ply `upto`; returns the new synced ply."""
        return _reading("ack", self, game, upto)


def _reading(name, *args):
    """journalread.<name>(*args), with the module loaded for the call only."""
    from . import journalread
    try:
        return getattr(journalread, name)(*args)
    finally:
        unload("journalread")


def __getattr__(name):
    # parse(), decode() and move_digest() (a record read back) are journalread's; tests and
    # tools read them here.
    if name == "parse" or name == "decode" or name == "move_digest":
        from . import journalread
        return getattr(journalread, name)
    from .unload import missing
    raise missing(__name__, name)
