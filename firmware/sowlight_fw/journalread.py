"""Reading the journal back: at boot, and for the laptop's sync requests.

- open_journal(): every game file read at boot; a record whose mark, length or
  CRC is wrong is dropped and the file rewritten with the intact ones
  (journal.py's docstring has the format and why a power cut loses at most
  the record being written);
- records(), list_games(), decode(): the records and the games as the link
  sends them; ack(): the laptop's acknowledgement, marked in the game's file;
- request(): the app's `journal_list`, `journal_get` and `journal_ack`.

A board needs this only at boot (and to resume the game in progress) and
while the laptop syncs, so the journal and the app import it for each such
call and unload it after: the game in progress keeps only the writing half
(journal.py) in the heap.
"""
import json
import struct

try:
    from micropython import const
except ImportError:  # CPython
    def const(x):
        return x

from . import codec
from .crc import crc32
from .journal import GameInfo, JournalError, file_name, _frame, MAGIC, START, MOVE, SYNC, LOST, KINDS, PREFIX, \
    SUFFIX, MAX_PAYLOAD

_HEAD = const(10)     # a record's head and tail, in bytes (journal.py has the layout)
_TAIL = const(4)

RECORDS_MOST = 50          # records per `records` reply at most (journal_get's default max)


# journal.py's refusals, in the order of its constants (_UNKNOWN_KIND ... _UNWRITABLE): the
# protocol's error code and the words.
_REFUSALS = (
    ("internal", "a journal record of unknown kind %r"),
    ("internal", "a journal record of %d bytes is too long (at most %d)"),
    ("internal", "a move too long to journal: %r"),
    ("internal", "game %d has no start record, so it cannot take a %s at ply %d"),
    ("internal", "game %d: ply %d follows ply %d"),
    ("storage", "the journal is full and every game on it still waits for the laptop: connect the board to sync"),
    ("storage", "the journal cannot be written (%s)"),
)


def refusal(k, *args):
    """The JournalError for journal.py's k-th refusal (_REFUSALS), with its values."""
    code, text = _REFUSALS[k]
    return JournalError(code, text % args if args else text)


def parse(data, i):
    """The intact record at offset i: (kind, game, ply, payload_start, payload_end, next), or None."""
    n = len(data)
    if i + _HEAD + _TAIL > n or data[i] != MAGIC:
        return None
    kind = data[i + 1]
    length = data[i + 2] | (data[i + 3] << 8)
    end = i + _HEAD + length
    if kind < START or kind > LOST or length > MAX_PAYLOAD or end + _TAIL > n:
        return None
    if crc32(memoryview(data)[i:end]) & 0xFFFFFFFF != struct.unpack_from("<I", data, end)[0]:
        return None
    game, ply = struct.unpack_from("<IH", data, i + 4)
    return kind, game, ply, i + _HEAD, end, end + _TAIL


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


# ----- boot ------------------------------------------------------------------------

def open_journal(j):
    """Journal.open(): read every game file of `j`, repair torn or damaged ones; the repairs made.
    Plies missing between intact records (a damaged byte, not a torn end) go to j.gaps
    ({game: [ply, ...]}) for journalmend.py to fill."""
    st = j.storage
    j.games = {}
    j.repaired = []
    j.gaps = {}
    names = st.names()
    for name in names:
        if name.endswith(".tmp"):
            # A repair cut short: the file it was for is still intact.
            st.remove(name)
    for name in names:
        if not (name.startswith(PREFIX) and name.endswith(SUFFIX)):
            continue
        try:
            game = int(name[len(PREFIX):-len(SUFFIX)])
        except ValueError:
            continue
        _load(j, game, name)
    return j.repaired


def _load(j, game, name):
    data = j.storage.read(name)
    info = GameInfo(game)
    keep = []
    i = 0
    dropped = 0
    held = bytearray((len(data) >> 4) + 1)    # a bit per ply seen (a record is at least 14 bytes)
    while i < len(data):
        r = parse(data, i)
        if r is None or r[1] != game:
            dropped += 1
            i += 1
            # Skip to the next possible record start.
            while i < len(data) and data[i] != MAGIC:
                i += 1
            continue
        kind, _, ply, a, b, nxt = r
        keep.append((i, nxt))
        i = nxt
        if kind != SYNC:
            if ply < len(held) << 3 and held[ply >> 3] & (1 << (ply & 7)):
                continue         # the second copy of a start or setpos
            if ply < len(held) << 3:
                held[ply >> 3] |= 1 << (ply & 7)
        j._note(info, kind, ply, data[a:b])
    # Plies up to the last one recorded or acknowledged that no intact record holds: a damaged
    # record inside the file (a torn end is the last record only, never acknowledged), or one
    # whose damaged bytes an earlier boot dropped before it could fill the gap.
    top = max(info.last, info.synced)
    gaps = [p for p in range(min(top + 1, len(held) << 3)) if not held[p >> 3] & (1 << (p & 7))]
    if gaps:
        j.gaps[game] = gaps
    if dropped:
        good = b"".join(data[s:e] for s, e in keep)
        j.storage.replace(name, good)
        j.repaired.append("game %d: dropped %d damaged bytes (%s), kept %d records"
                          % (game, len(data) - len(good),
                             "a torn record" if not gaps else "ply %s" % ", ".join(str(p) for p in gaps),
                             len(keep)))
    if keep:
        j.games[game] = info
    else:
        j.storage.remove(name)


# ----- records and games as the link sends them -----------------------------------

def decode(kind, ply, payload, mending=False):
    """The record dict (as the link sends it: ply, kind, fields) of a record's payload; `mending`:
    with what only the board reads (an end's `pd` and `lm`, journalmend.py)."""
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





def records(j, game, first, most=50):
    """Journal.records(): (records, more), up to `most` records of `game` from ply `first`."""
    if game not in j.games:
        raise JournalError("no_such_game", "the journal has no game %d" % game)
    data = j.storage.read(file_name(game))
    out = []
    more = False
    seen = -1
    for _, r in intact(data):
        kind, _, ply, a, b, _ = r
        if kind == SYNC or ply < first or ply <= seen:     # (ply <= seen: a second copy)
            continue
        seen = ply
        if len(out) >= most:
            more = True
            break
        out.append(decode(kind, ply, memoryview(data)[a:b]))
    return out, more


def _listing(info):
    return {"game": info.game, "variant": info.variant or "", "first": 0, "last": max(info.last, 0),
            "synced": info.synced, "over": info.over}


def list_games(j):
    """Journal.list_games(): every game's entry of the `journal` reply, oldest first."""
    return [_listing(j.games[g]) for g in sorted(j.games)]


def ack(j, game, upto):
    """Journal.ack(): the laptop has stored every record of `game` up to ply `upto` (a `synced`
    mark is written); returns the new synced ply."""
    info = j.games.get(game)
    if info is None:
        raise JournalError("no_such_game", "the journal has no game %d" % game)
    if upto > info.last:
        raise JournalError("ack_ahead", "game %d has records up to ply %d only, not %d" % (game, info.last, upto))
    if upto > info.synced:
        j._write(file_name(game), _frame(SYNC, game, upto, b""))
        info.synced = upto
    return info.synced


# ----- the app's journal requests ----------------------------------------------------------

def request(app, t, p):
    """The reply to `journal_list`, `journal_get` or `journal_ack` (docs/protocol.md)."""
    j = app.journal
    try:
        if t == "journal_list":
            return journal_page(j, p.get("from", 0), p.get("max"))
        if t == "journal_get":
            most = max(1, min(p.get("max", RECORDS_MOST), RECORDS_MOST))
            recs, more = records(j, p["game"], p["from"], most)
            reply = {"type": "records", "game": p["game"], "records": recs, "more": more}
            if codec.fit("records", reply, "records") and reply["records"]:
                reply["more"] = True      # the rest did not fit in one frame: the host asks again
            return reply
        if t == "journal_ack":
            synced = ack(j, p["game"], p["upto"])
            app.flush()            # space may have come free for records waiting
            return {"type": "ok", "game": p["game"], "synced": synced}
    except JournalError as e:
        return {"type": "error", "code": e.code, "msg": e.msg}
    return {"type": "error", "code": "unknown_type", "msg": "the board has no request '%s'" % t}


def journal_page(j, first=0, most=None):
    """The `journal` reply: the games numbered `first` on, at most `most` of them and as many
    as one frame holds; "more" when the journal holds games after the last one listed."""
    games = [g for g in list_games(j) if g["game"] >= first]
    more = False
    if most is not None and len(games) > max(most, 1):
        games = games[:max(most, 1)]
        more = True
    reply = {"type": "journal", "games": games, "more": more}
    if codec.fit("journal", reply, "games"):
        reply["more"] = True
    return reply
