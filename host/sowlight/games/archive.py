"""The archive: every game played or synced, in one SQLite file (WAL).

    with Archive(path) as arc:
        number = arc.add_game(gamerecord.from_game(game))
        arc.games(variant="oware")          # summaries, newest last
        arc.game(number)                    # the whole game dict (see gamerecord)

Every write runs in one transaction (BEGIN IMMEDIATE ... COMMIT), so a crash
or a kill in the middle of one leaves the archive as it was before it, and
nothing committed is ever lost (WAL with synchronous=FULL).

The schema is versioned with SQLite's user_version and upgraded by the
ordered MIGRATIONS; a file from a newer sowlight, a damaged file or a database
that is not an archive is refused with a message saying what to do, and left
untouched.  The schema and the formats are described in docs/archive.md.
"""
import datetime
import json
import os
import sqlite3
import struct
import urllib.request
import uuid as _uuid

import mancala

from sowlight.games import record as gamerecord

# "Sowl" in the file header: tells an archive from any other SQLite file.
APPLICATION_ID = 0x536F776C

_SQLITE_MAGIC = b"SQLite format 3\x00"


class ArchiveError(ValueError):
    """A problem with the archive, said so that the user knows what to do."""


class MissingArchiveError(ArchiveError):
    """No archive file yet (read-only commands do not create one)."""


class NewerArchiveError(ArchiveError):
    """The archive's schema is newer than this sowlight knows."""


class CorruptArchiveError(ArchiveError):
    """The file is damaged, or is not a Sowlight archive."""


class BusyArchiveError(ArchiveError):
    """Another process holds the archive's write lock for too long."""


class GameNotFoundError(ArchiveError):
    """No game has that number or id."""


class SyncGapError(ArchiveError):
    """Board records that would leave a gap in a game's journal."""


class DeleteRefusedError(ArchiveError):
    """A game that cannot be deleted yet (its board still holds unsynced records)."""


# -- the schema, one migration per version --------------------------------------------

_V1 = """
CREATE TABLE boards (
    id          TEXT PRIMARY KEY,            -- the board's id from its hello
    first_seen  TEXT NOT NULL,
    last_seen   TEXT NOT NULL,
    info        TEXT NOT NULL DEFAULT '{}'   -- JSON: firmware, config summary, variants
);
CREATE TABLE games (
    id              INTEGER PRIMARY KEY AUTOINCREMENT, -- the number the CLI shows; never reused
    uuid            TEXT NOT NULL UNIQUE,    -- the game's id everywhere (exports, other archives)
    board_id        TEXT REFERENCES boards(id),
    board_game      INTEGER,                 -- the board's game number; NULL when not from a board
    variant         TEXT NOT NULL,
    options         TEXT NOT NULL,           -- JSON object
    players         TEXT NOT NULL,           -- JSON list of names
    started         TEXT,                    -- UTC, YYYY-MM-DD[THH:MM:SSZ]
    ended           TEXT,
    result          TEXT NOT NULL DEFAULT '*',
    winner          INTEGER,
    scores          TEXT,                    -- JSON list, or NULL
    reason          TEXT,                    -- how the game ended
    start_position  TEXT NOT NULL,           -- position text (mancala.to_text)
    tags            TEXT NOT NULL DEFAULT '[]', -- JSON [[name, value], ...]: record tags kept as read
    UNIQUE (board_id, board_game),
    CHECK (board_game IS NULL OR board_id IS NOT NULL)
);
CREATE INDEX games_variant ON games(variant);
CREATE TABLE moves (
    game_id   INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    ply       INTEGER NOT NULL CHECK (ply >= 1),
    kind      TEXT NOT NULL DEFAULT 'move' CHECK (kind IN ('move', 'setup')),
    player    INTEGER,                       -- who moved (NULL for a setup)
    notation  TEXT,                          -- the variant's notation
    move      TEXT,                          -- JSON: the rules core's move
    trace     TEXT,                          -- compact trace (see trace_to_text)
    position  TEXT NOT NULL,                 -- position text after the move (or the position set)
    PRIMARY KEY (game_id, ply)
) WITHOUT ROWID;
CREATE VIEW positions (game_id, ply, position) AS
    SELECT id, 0, start_position FROM games
    UNION ALL SELECT game_id, ply, position FROM moves;
CREATE TABLE journal_records (
    board_id    TEXT NOT NULL REFERENCES boards(id),
    board_game  INTEGER NOT NULL,
    ply         INTEGER NOT NULL CHECK (ply >= 0),
    kind        TEXT NOT NULL,
    record      TEXT NOT NULL,               -- the record as the board sent it (canonical JSON)
    stored      TEXT NOT NULL,
    PRIMARY KEY (board_id, board_game, ply)
) WITHOUT ROWID;
CREATE TABLE sync_state (
    board_id     TEXT NOT NULL REFERENCES boards(id),
    board_game   INTEGER NOT NULL,
    stored_upto  INTEGER NOT NULL DEFAULT -1, -- every record 0..stored_upto is held
    acked_upto   INTEGER NOT NULL DEFAULT -1, -- the highest ply acknowledged to the board
    board_last   INTEGER NOT NULL DEFAULT -1, -- the board's `last` at the latest journal_list
    board_over   INTEGER NOT NULL DEFAULT 0,
    conflicts    INTEGER NOT NULL DEFAULT 0,  -- records re-sent with other content (stored ones kept)
    problem      TEXT,                        -- why the records could not be replayed, if so
    deleted      INTEGER NOT NULL DEFAULT 0,  -- the game was deleted here: never rebuilt again
    PRIMARY KEY (board_id, board_game)
);
"""

# What a host remembers of the remote tables its boards play at (broadcast/remote.py): the table's
# game and this seat's board game for it, so that a host started again finds its game even when the
# broker has lost its retained topics (a broker restarted without persistence).
_V2 = """
CREATE TABLE remote_seats (
    table_topic TEXT NOT NULL,                -- the table's topic prefix (broadcast/topics.py)
    seat        INTEGER NOT NULL,
    spec        TEXT NOT NULL,                -- JSON: the table's game {variant, options, id}
    board_id    TEXT NOT NULL,
    board_game  INTEGER NOT NULL,
    noted       TEXT NOT NULL,
    PRIMARY KEY (table_topic, seat)
);
"""

# (version, what it does, SQL script).  Append only: a released step never changes.
MIGRATIONS = [
    (1, "boards, games, moves, positions view, journal records, sync state", _V1),
    (2, "remote seats: the table's game and this host's board game for it", _V2),
]

LATEST = MIGRATIONS[-1][0]


# -- the compact trace -------------------------------------------------------------

_CODES = {"lift": "L", "drop": "D", "relay": "R", "take": "T", "place": "P", "extra_turn": "X",
          "pass": "N", "end": "E", "choice": "C", "skip": "S"}
_KINDS = {v: k for k, v in _CODES.items()}
_DEFAULT_COUNT = {"drop": 1}


def trace_to_text(steps):
    """Steps ([kind, pit, count, to] or Step) as short tokens: 'L2*4 D3 D4 T7*2>12 X E'.

    A token is the kind's letter, the pit (left out when -1), '*count' when the
    count is not the kind's usual one (1 for a drop, else 0) and '>to' when the
    destination is not -1."""
    out = []
    for kind, pit, count, to in steps:
        tok = _CODES[kind]
        if pit != -1:
            tok += str(pit)
        if count != _DEFAULT_COUNT.get(kind, 0):
            tok += "*%d" % count
        if to != -1:
            tok += ">%d" % to
        out.append(tok)
    return " ".join(out)


def trace_from_text(text):
    """The [[kind, pit, count, to], ...] of a compact trace."""
    steps = []
    for tok in text.split():
        kind = _KINDS.get(tok[0])
        if kind is None:
            raise ValueError("trace token %r: unknown step letter" % tok)
        rest = tok[1:]
        to = -1
        count = _DEFAULT_COUNT.get(kind, 0)
        if ">" in rest:
            rest, _, t = rest.partition(">")
            to = int(t)
        if "*" in rest:
            rest, _, c = rest.partition("*")
            count = int(c)
        pit = int(rest) if rest else -1
        steps.append([kind, pit, count, to])
    return steps


def now_utc():
    """The time now as the archive writes it: 2026-11-21T14:03:22Z."""
    return datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def _utc(seconds):
    return datetime.datetime.fromtimestamp(seconds, datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def _canonical(obj):
    return json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


class StoreResult:
    """What store_board_moves did: plies stored, duplicates ignored, conflicts kept, the run held."""

    def __init__(self, stored, duplicates, conflicts, upto, problem=None):
        self.stored = stored
        self.duplicates = duplicates
        self.conflicts = conflicts
        self.upto = upto          # every record 0..upto is held: acknowledge this
        self.problem = problem    # why the game could not be rebuilt from its records, if so

    def __repr__(self):
        return "StoreResult(stored=%r, duplicates=%r, conflicts=%r, upto=%r, problem=%r)" % (
            self.stored, self.duplicates, self.conflicts, self.upto, self.problem)


def _create_private(path):
    """Make an empty file only its owner may read: games and boards are nobody else's business.
    SQLite gives the -wal and -shm files beside it the same permissions."""
    try:
        os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
    except FileExistsError:
        pass


class Archive:
    """An open archive.  Archive(path) creates it (and its folder) when missing,
    unless create=False; every problem is an ArchiveError with a message for the user.

    read_only=True is for commands that only read: an archive this user may not
    write (a read-only file, or a file in a read-only folder) is then opened
    read-only and left exactly as it was, with no -wal or -shm files made
    beside it.  Otherwise the archive is first checked whole (SQLite's
    quick_check) and a damaged one is refused before anything is written."""

    def __init__(self, path, create=True, read_only=False):
        self.path = path
        self._depth = 0
        self._db = None
        self._commits = 0          # transactions this object committed: a later fault must not claim "untouched"
        self.read_only = False     # opened read-only (this user may not write it)
        exists = os.path.exists(path) and os.path.getsize(path) > 0
        if not exists and not create:
            raise MissingArchiveError("there is no archive at %s yet: play a game (sowlight play) "
                                      "or import one (sowlight games import FILE)" % path)
        folder = os.path.dirname(os.path.abspath(path))
        if exists:
            self._check_header()
            writable = os.access(path, os.W_OK) and os.access(folder, os.W_OK | os.X_OK)
            if not writable and not read_only:
                raise ArchiveError("cannot write the archive %s: %s is read-only for you (nothing was written): "
                                   "check the permissions, or choose another archive with --db PATH" % (
                                       path, "the file" if not os.access(path, os.W_OK) else "its folder"))
            self.read_only = not writable
        else:
            try:
                os.makedirs(folder, mode=0o700, exist_ok=True)
                _create_private(path)
            except OSError as e:
                raise ArchiveError("cannot create the archive %s (%s): choose another with --db PATH" % (
                    path, e.strerror or e))
        try:
            if self.read_only:
                self._db = sqlite3.connect(self._read_only_uri(), uri=True, isolation_level=None, timeout=10)
            else:
                self._db = sqlite3.connect(path, isolation_level=None, timeout=10)
        except sqlite3.Error as e:
            raise ArchiveError("cannot open the archive %s (%s): check the path and its permissions, or choose another with --db PATH" % (path, e))
        try:
            self._open()
        except sqlite3.Error as e:
            self.close()
            raise self._translate(e)
        except ArchiveError:
            self.close()
            raise

    # -- opening, checking, migrating ---------------------------------------------

    def _read_only_uri(self):
        # No -wal beside it: nobody is writing it, so SQLite may read it as it stands
        # (immutable) and needs no -shm file, which a read-only folder could not hold.
        uri = "file:%s?mode=ro" % urllib.request.pathname2url(os.path.abspath(self.path))
        if not self._wal_size():
            uri += "&immutable=1"
        return uri

    def _wal_size(self):
        try:
            return os.path.getsize(self.path + "-wal")
        except OSError:
            return 0

    def _check_header(self):
        try:
            with open(self.path, "rb") as f:
                head = f.read(100)
            size = os.path.getsize(self.path)
        except OSError as e:
            raise ArchiveError("cannot read the archive %s (%s)" % (self.path, e.strerror or e))
        if head[:16] != _SQLITE_MAGIC:
            raise self._corrupt("it is not an SQLite database", sqlite_file=False)
        if len(head) < 100:
            raise self._corrupt("the file is %d bytes, shorter than an SQLite header" % size)
        # The header says how many pages the file holds (valid when its two change
        # counters agree).  A file shorter than that was cut off: SQLite would read
        # the missing bytes as zeros, inside a move or a name, and say nothing.  A
        # -wal file beside it holds the latest pages and is the truth until the
        # next checkpoint, so the sizes are compared only without one.
        page = struct.unpack(">H", head[16:18])[0]
        page = 65536 if page == 1 else page
        if page < 512 or page & (page - 1):
            raise self._corrupt("its header gives no valid page size")
        counter, pages, valid_for = struct.unpack(">I", head[24:28])[0], struct.unpack(">I", head[28:32])[0], \
            struct.unpack(">I", head[92:96])[0]
        if not self._wal_size() and (size % page or (counter == valid_for and pages and size < pages * page)):
            raise self._corrupt("the file is %d bytes, but its header says %d pages of %d bytes (%d bytes): it was "
                                "cut short or damaged, and what it holds cannot be trusted" % (
                                    size, pages, page, pages * page))

    def _open(self):
        db = self._db
        version = db.execute("PRAGMA user_version").fetchone()[0]
        app = db.execute("PRAGMA application_id").fetchone()[0]
        tables = [r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type='table' AND name NOT LIKE 'sqlite_%'")]
        if app not in (0, APPLICATION_ID) or (app == 0 and tables):
            raise CorruptArchiveError(
                "%s is an SQLite database but not a Sowlight archive; it was left untouched: "
                "choose another file with --db PATH" % self.path)
        if version > LATEST:
            raise NewerArchiveError(
                "%s was written by a newer sowlight (archive schema %d; this one reads up to %d): "
                "upgrade sowlight, or open another archive with --db PATH. "
                "The file was not changed." % (self.path, version, LATEST))
        # Before anything is read or written: a damaged archive is refused whole, never written into.
        found = [r[0] for r in db.execute("PRAGMA quick_check(5)")]
        if found != ["ok"]:
            raise self._corrupt("SQLite's quick_check finds: %s" % "; ".join(found))
        if self.read_only:
            if version < LATEST or len(tables) < 5:
                raise ArchiveError("%s is read-only for you and is not a complete archive of this sowlight's schema "
                                   "(it would need writing to become one): check its permissions" % self.path)
            db.execute("PRAGMA query_only = ON")
            return
        db.execute("PRAGMA foreign_keys = ON")
        db.execute("PRAGMA busy_timeout = 10000")
        db.execute("PRAGMA journal_mode = WAL")
        # FULL: a committed transaction survives a power cut too, not only a crash.
        db.execute("PRAGMA synchronous = FULL")
        if version < LATEST:
            self._migrate(version)
        found = db.execute("SELECT name FROM sqlite_master WHERE type='table' AND name IN "
                           "('games','moves','boards','journal_records','sync_state')").fetchall()
        if len(found) != 5:
            raise self._corrupt("tables are missing")

    def _migrate(self, version):
        if version > 0:
            self._backup("before-v%d" % LATEST)
        db = self._db
        db.execute("BEGIN IMMEDIATE")
        try:
            # Someone else may have migrated it while we waited for the lock.
            version = db.execute("PRAGMA user_version").fetchone()[0]
            for step, _, script in MIGRATIONS:
                if step <= version:
                    continue
                if callable(script):
                    script(db)
                else:
                    for statement in _statements(script):
                        db.execute(statement)
                db.execute("PRAGMA user_version = %d" % step)
            db.execute("PRAGMA application_id = %d" % APPLICATION_ID)
            db.execute("COMMIT")
        except BaseException:
            db.execute("ROLLBACK")
            raise

    def _backup(self, suffix):
        """A copy of the archive before a migration changes it: <file>.<suffix>."""
        target = "%s.%s" % (self.path, suffix)
        if os.path.exists(target):
            return
        _create_private(target)
        copy = sqlite3.connect(target)
        try:
            self._db.backup(copy)
        finally:
            copy.close()

    def _corrupt(self, detail, sqlite_file=True):
        rescue = (" `sqlite3 '%s' .recover` may rescue its games." % self.path) if sqlite_file else ""
        if self._commits:
            done = ("This command had committed %d change%s to it before it found the damage." % (
                self._commits, "" if self._commits == 1 else "s"))
        else:
            done = "It was left untouched: nothing was written to it."
        return CorruptArchiveError(
            "%s is damaged and cannot be used (%s). %s To recover: restore a backup of it, "
            "or move it aside (mv '%s' '%s.damaged') and sowlight starts a new archive there.%s" % (
                self.path, detail, done, self.path, self.path, rescue))

    def _translate(self, e):
        text = str(e)
        if isinstance(e, sqlite3.OperationalError) and ("locked" in text or "busy" in text):
            return BusyArchiveError("the archive %s is busy: another sowlight is writing to it; try again in a moment" % self.path)
        if isinstance(e, sqlite3.OperationalError) and ("readonly" in text or "read-only" in text or "unable to open" in text):
            return ArchiveError("cannot write the archive %s (%s): check its permissions, or choose another with --db PATH" % (self.path, text))
        if isinstance(e, sqlite3.OperationalError) and "disk" in text and "full" in text:
            return ArchiveError("the disk holding %s is full: nothing was written; free some space and try again" % self.path)
        if isinstance(e, (sqlite3.DatabaseError,)) and not isinstance(e, sqlite3.IntegrityError):
            return self._corrupt(text)
        return ArchiveError("the archive %s refused a change (%s)" % (self.path, text))

    def close(self):
        if self._db is not None:
            self._db.close()
            self._db = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    @property
    def version(self):
        return self._q1("PRAGMA user_version")

    # -- transactions -----------------------------------------------------------

    def transaction(self):
        """`with arc.transaction():` - one transaction (nested calls join the outer one)."""
        return _Transaction(self)

    def _q(self, sql, args=()):
        try:
            return self._db.execute(sql, args)
        except sqlite3.Error as e:
            raise self._translate(e)

    def _q1(self, sql, args=()):
        row = self._q(sql, args).fetchone()
        return None if row is None else row[0]

    def check(self):
        """SQLite's integrity check: 'ok' or the problems found."""
        rows = self._q("PRAGMA integrity_check").fetchall()
        return "; ".join(r[0] for r in rows)

    # -- writing games ---------------------------------------------------------------

    def add_game(self, d):
        """Store a game dict (gamerecord's shape) with its moves; return its number."""
        with self.transaction():
            return self._write_game(d)

    def _write_game(self, d, number=None):
        """Insert a game, or replace game `number`'s fields and moves (keeping its number)."""
        if d.get("board"):
            self._touch_board(d["board"])
        fields = (d["id"], d.get("board"), d.get("board_game"), d["variant"], json.dumps(d["options"]),
                  json.dumps(d["players"], ensure_ascii=False), d.get("started"), d.get("ended"), d["result"],
                  d.get("winner"), None if d.get("scores") is None else json.dumps(d["scores"]), d.get("reason"),
                  d["start"], json.dumps(d.get("tags") or [], ensure_ascii=False))
        if number is None:
            number = self._q(
                "INSERT INTO games (uuid, board_id, board_game, variant, options, players, started, ended, result, "
                "winner, scores, reason, start_position, tags) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?)", fields).lastrowid
        else:
            self._q("UPDATE games SET uuid = ?, board_id = ?, board_game = ?, variant = ?, options = ?, players = ?, "
                    "started = ?, ended = ?, result = ?, winner = ?, scores = ?, reason = ?, start_position = ?, tags = ? "
                    "WHERE id = ?", fields + (number,))
            self._q("DELETE FROM moves WHERE game_id = ?", (number,))
        for e in d["moves"]:
            self._insert_event(number, e)
        return number

    def _insert_event(self, number, e):
        if e["kind"] == "setup":
            self._q("INSERT INTO moves (game_id, ply, kind, position) VALUES (?,?,'setup',?)", (number, e["ply"], e["position"]))
        else:
            self._q("INSERT INTO moves (game_id, ply, kind, player, notation, move, trace, position) VALUES (?,?,'move',?,?,?,?,?)",
                    (number, e["ply"], e["player"], e["notation"], json.dumps(e["move"]), trace_to_text(e["trace"]), e["position"]))

    def add_move(self, number, event):
        """Append one move (or setup) event to a game; its ply must be the next one."""
        with self.transaction():
            last = self._q1("SELECT COALESCE(MAX(ply), 0) FROM moves WHERE game_id = ?", (number,))
            if self._q1("SELECT 1 FROM games WHERE id = ?", (number,)) is None:
                raise GameNotFoundError("there is no game %s in the archive" % number)
            if event["ply"] != last + 1:
                raise ArchiveError("game %d: ply %d cannot follow ply %d" % (number, event["ply"], last))
            self._insert_event(number, event)

    def truncate(self, number, ply):
        """Forget the moves after `ply` (a move taken back), and any result."""
        with self.transaction():
            self._q("DELETE FROM moves WHERE game_id = ? AND ply > ?", (number, ply))
            self._q("UPDATE games SET result = '*', winner = NULL, scores = NULL, reason = NULL, ended = NULL WHERE id = ?", (number,))

    def finish(self, number, result, winner=None, scores=None, reason=None, ended=None):
        """Record how a game ended."""
        with self.transaction():
            self._q("UPDATE games SET result = ?, winner = ?, scores = ?, reason = ?, ended = ? WHERE id = ?",
                    (result, winner, None if scores is None else json.dumps(scores), reason, ended or now_utc(), number))

    def record_game(self, game, players=None, started=None, ended=None):
        """Store a rules-core game object as it stands; return its number."""
        return self.add_game(gamerecord.from_game(game, players=players, started=started or now_utc(), ended=ended))

    def import_games(self, games, progress=None):
        """Store many game dicts in one transaction: all of them or, on any error, none.

        A game already here (same id, or same board and board game) is skipped.
        Returns (numbers added, [(game id, why skipped)])."""
        added, skipped = [], []
        with self.transaction():
            for i, d in enumerate(games):
                dup = self._q1("SELECT id FROM games WHERE uuid = ?", (d["id"],))
                if dup is None and d.get("board_game") is not None:
                    dup = self._q1("SELECT id FROM games WHERE board_id = ? AND board_game = ?", (d["board"], d["board_game"]))
                if dup is not None:
                    same = self._comparable(self.game(dup)) == self._comparable(d)
                    skipped.append((d["id"], "already in the archive as game %d%s" % (
                        dup, "" if same else ", with other content: the archived one is kept")))
                else:
                    added.append(self.add_game(d))
                if progress:
                    progress(i + 1)
        return added, skipped

    @staticmethod
    def _comparable(d):
        # What makes two copies the same game; times and names may be missing from one export format.
        return (d["variant"], d["start"], d["result"], [(e["kind"], e.get("notation"), e["position"]) for e in d["moves"]])

    # -- reading -------------------------------------------------------------------------

    def resolve(self, ref):
        """The number of the game `ref` names: its number, or its id (or a unique prefix of it, 4+ characters)."""
        text = str(ref).strip()
        if text.isascii() and text.isdigit():
            # A number past SQLite's integers (2**63 - 1) names no game: asked as it is, it would overflow.
            if int(text) < 1 << 63 and self._q1("SELECT id FROM games WHERE id = ?", (int(text),)) is not None:
                return int(text)
            if len(text) < 4:
                raise GameNotFoundError("there is no game %s in the archive %s (sowlight games list shows them)" % (text, self.path))
        if len(text) < 4:
            raise GameNotFoundError("%r is not a game number, and too short for a game id (give 4 or more characters)" % text)
        rows = self._q("SELECT id FROM games WHERE uuid LIKE ? ESCAPE '\\' ORDER BY id",
                       (text.lower().replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%",)).fetchall()
        if not rows:
            raise GameNotFoundError("there is no game %s in the archive %s (sowlight games list shows them)" % (text, self.path))
        if len(rows) > 1:
            raise GameNotFoundError("%s is the start of %d game ids (games %s): give more of it" % (
                text, len(rows), ", ".join(str(r[0]) for r in rows[:5])))
        return rows[0][0]

    _SUMMARY = ("SELECT g.id, g.uuid, g.variant, g.options, g.players, g.started, g.ended, g.board_id, g.board_game, "
                "g.result, g.winner, g.scores, g.reason, (SELECT COUNT(*) FROM moves m WHERE m.game_id = g.id AND m.kind = 'move') "
                "FROM games g")

    def games(self, variant=None, board=None, limit=None):
        """Summaries of the games (oldest first): dicts without moves, with `number` and `moves` (a count)."""
        sql, args, where = self._SUMMARY, [], []
        if variant:
            where.append("g.variant = ?")
            args.append(variant)
        if board:
            where.append("g.board_id = ?")
            args.append(board)
        if where:
            sql += " WHERE " + " AND ".join(where)
        sql += " ORDER BY g.id"
        if limit:
            sql = "SELECT * FROM (%s DESC LIMIT %d) ORDER BY 1" % (sql, min(int(limit), 1 << 62))
        out = []
        for r in self._q(sql, args).fetchall():
            try:
                out.append({"number": r[0], "id": r[1], "variant": r[2], "options": json.loads(r[3]),
                            "players": json.loads(r[4]), "started": r[5], "ended": r[6], "board": r[7],
                            "board_game": r[8], "result": r[9], "winner": r[10],
                            "scores": None if r[11] is None else json.loads(r[11]), "reason": r[12], "moves": r[13]})
            except (ValueError, TypeError) as e:
                raise self._corrupt("game %s does not read back as it was written (%s)" % (r[0], e))
        return out

    def numbers(self, variant=None):
        return [g["number"] for g in self.games(variant=variant)]

    def game(self, ref):
        """The whole game: gamerecord's dict plus its `number` here."""
        number = self.resolve(ref)
        r = self._q("SELECT uuid, variant, options, players, started, ended, board_id, board_game, result, winner, scores, "
                    "reason, start_position, tags FROM games WHERE id = ?", (number,)).fetchone()
        at = "game %d" % number
        try:
            d = {"id": r[0], "variant": r[1], "options": json.loads(r[2]), "players": json.loads(r[3]), "started": r[4],
                 "ended": r[5], "board": r[6], "board_game": r[7], "result": r[8], "winner": r[9],
                 "scores": None if r[10] is None else json.loads(r[10]), "reason": r[11], "start": r[12],
                 "tags": json.loads(r[13]), "moves": [], "number": number}
            _check_position(d["start"])
            for ply, kind, player, notation, move, trace, position in self._q(
                    "SELECT ply, kind, player, notation, move, trace, position FROM moves WHERE game_id = ? ORDER BY ply",
                    (number,)):
                at = "game %d, ply %s" % (number, ply)
                _check_position(position)
                if kind == "setup":
                    d["moves"].append({"ply": ply, "kind": "setup", "position": position})
                else:
                    d["moves"].append({"ply": ply, "kind": "move", "player": player, "notation": notation,
                                       "move": json.loads(move), "trace": trace_from_text(trace), "position": position})
        except (ValueError, TypeError, IndexError, mancala.RulesError) as e:
            # Written by this module, these fields always read back: one that does not was damaged in the file.
            raise self._corrupt("%s does not read back as it was written (%s)" % (at, e))
        return d

    def delete(self, ref, force=False):
        """Delete a game and its moves.  A board game whose records the board still
        holds unacknowledged is refused (sync first) unless `force` (the board is gone
        for good); a deleted board game's sync bookmark is kept, so the next sync does
        not fetch it again."""
        number = self.resolve(ref)
        with self.transaction():
            board, bgame = self._q("SELECT board_id, board_game FROM games WHERE id = ?", (number,)).fetchone()
            if bgame is not None:
                st = self._q("SELECT stored_upto, acked_upto, board_last, board_over FROM sync_state "
                             "WHERE board_id = ? AND board_game = ?", (board, bgame)).fetchone()
                if st is not None:
                    stored, acked, last, over = st
                    if not force and (not over or last > stored or acked < stored):
                        raise DeleteRefusedError(
                            "game %d is board %s's game %d, which is not fully synced (the board has records up to %d%s, "
                            "the archive holds up to %d, acknowledged up to %d): connect the board and run "
                            "`sowlight sync`, then delete it; if that board is gone for good (a virtual board that "
                            "has stopped), `sowlight games delete %d --force`"
                            % (number, board, bgame, last, "" if over else ", game still open", stored, acked, number))
                    self._q("UPDATE sync_state SET deleted = 1 WHERE board_id = ? AND board_game = ?", (board, bgame))
                    self._q("DELETE FROM journal_records WHERE board_id = ? AND board_game = ?", (board, bgame))
            self._q("DELETE FROM games WHERE id = ?", (number,))
        return number

    def set_players(self, ref, players):
        """Name the players of a game (a board's journal does not hold them: a synced game
        starts with each player unknown, "?")."""
        number = self.resolve(ref)
        with self.transaction():
            self._q("UPDATE games SET players = ? WHERE id = ?", (json.dumps(list(players), ensure_ascii=False), number))
        return number

    # -- boards and journal sync ---------------------------------------------------------

    def _touch_board(self, board_id, info=None):
        now = now_utc()
        if self._q1("SELECT 1 FROM boards WHERE id = ?", (board_id,)) is None:
            self._q("INSERT INTO boards (id, first_seen, last_seen, info) VALUES (?,?,?,?)",
                    (board_id, now, now, _canonical(info or {})))
        elif info is not None:
            # A brief hello (sowlight sync's) leaves out what an earlier whole one said: keep that.
            known = json.loads(self._q1("SELECT info FROM boards WHERE id = ?", (board_id,)) or "{}")
            known.update(info)
            self._q("UPDATE boards SET last_seen = ?, info = ? WHERE id = ?", (now, _canonical(known), board_id))

    def note_board(self, board_id, info=None):
        """Record that a board was seen (info: what its hello said)."""
        with self.transaction():
            self._touch_board(board_id, info if info is not None else {})

    def boards(self):
        return [{"id": r[0], "first_seen": r[1], "last_seen": r[2], "info": json.loads(r[3])}
                for r in self._q("SELECT id, first_seen, last_seen, info FROM boards ORDER BY id")]

    def sync_state(self, board_id):
        """{board game: {stored_upto, acked_upto, board_last, board_over, conflicts, problem, deleted}}."""
        out = {}
        for r in self._q("SELECT board_game, stored_upto, acked_upto, board_last, board_over, conflicts, problem, deleted "
                         "FROM sync_state WHERE board_id = ? ORDER BY board_game", (board_id,)):
            out[r[0]] = {"stored_upto": r[1], "acked_upto": r[2], "board_last": r[3], "board_over": bool(r[4]),
                         "conflicts": r[5], "problem": r[6], "deleted": bool(r[7])}
        return out

    def note_journal(self, board_id, listing):
        """Take a journal_list reply's games; return what to do for each:
        [{"game", "fetch_from" (ply or None), "ack" (ply to acknowledge or None)}]."""
        plan = []
        with self.transaction():
            self._touch_board(board_id)
            for item in listing:
                g, last, synced = item["game"], item["last"], item.get("synced", -1)
                self._ensure_sync_row(board_id, g)
                self._q("UPDATE sync_state SET board_last = ?, board_over = ? WHERE board_id = ? AND board_game = ?",
                        (last, 1 if item.get("over") else 0, board_id, g))
                stored = self._q1("SELECT stored_upto FROM sync_state WHERE board_id = ? AND board_game = ?", (board_id, g))
                plan.append({"game": g, "fetch_from": stored + 1 if stored < last else None,
                             "ack": stored if synced < stored else None})
        return plan

    def mark_acked(self, board_id, board_game, upto):
        """The board confirmed our acknowledgement up to `upto`."""
        with self.transaction():
            self._ensure_sync_row(board_id, board_game)
            self._q("UPDATE sync_state SET acked_upto = MAX(acked_upto, ?) WHERE board_id = ? AND board_game = ?",
                    (upto, board_id, board_game))

    def _ensure_sync_row(self, board_id, board_game):
        self._touch_board(board_id)
        self._q("INSERT OR IGNORE INTO sync_state (board_id, board_game) VALUES (?, ?)", (board_id, board_game))

    def store_board_moves(self, board_id, board_game, ply, records):
        """Store journal records of a board's game, the first being ply `ply`; idempotent.

        Records already held are ignored (one that differs is a conflict: the
        stored one is kept and counted).  Records must continue the run held
        without a gap: a batch starting past it raises SyncGapError and stores
        nothing; a hole inside the batch stores what comes before it.  The game
        is then rebuilt from its records with the rules core, in the same
        transaction.  Returns a StoreResult whose `upto` is the ply to acknowledge.
        """
        if not isinstance(records, list):
            raise ArchiveError("records must be a list of journal records")
        stored, dups, conflicts = [], [], []
        with self.transaction():
            self._ensure_sync_row(board_id, board_game)
            upto, deleted = self._q("SELECT stored_upto, deleted FROM sync_state WHERE board_id = ? AND board_game = ?",
                                    (board_id, board_game)).fetchone()
            if ply > upto + 1:
                raise SyncGapError(
                    "board %s game %d: the archive holds records up to ply %d, so records from ply %d would leave a gap: "
                    "fetch from ply %d" % (board_id, board_game, upto, ply, upto + 1))
            expect = ply
            for rec in records:
                if not isinstance(rec, dict) or not isinstance(rec.get("kind"), str):
                    raise ArchiveError("board %s game %d: a journal record must be an object with a kind, not %r" % (
                        board_id, board_game, rec))
                p = rec.get("ply", expect)
                if p != expect:
                    break  # a hole: keep what came before it (the sync asks again from it)
                expect += 1
                text = _canonical(rec)
                old = self._q1("SELECT record FROM journal_records WHERE board_id = ? AND board_game = ? AND ply = ?",
                               (board_id, board_game, p))
                if old is not None:
                    (dups if old == text else conflicts).append(p)
                    continue
                if p <= upto:
                    # Held once, since deleted with its game: not stored again.
                    dups.append(p)
                    continue
                self._q("INSERT INTO journal_records (board_id, board_game, ply, kind, record, stored) VALUES (?,?,?,?,?,?)",
                        (board_id, board_game, p, rec["kind"], text, now_utc()))
                stored.append(p)
            new_upto = max(upto, expect - 1)
            self._q("UPDATE sync_state SET stored_upto = ?, conflicts = conflicts + ? WHERE board_id = ? AND board_game = ?",
                    (new_upto, len(conflicts), board_id, board_game))
            problem = None
            if stored and not deleted:
                problem = self._rebuild_board_game(board_id, board_game)
                self._q("UPDATE sync_state SET problem = ? WHERE board_id = ? AND board_game = ?", (problem, board_id, board_game))
        return StoreResult(stored, dups, conflicts, new_upto, problem)

    def note_remote_seat(self, table_topic, seat, spec, board_id, board_game):
        """Remember that `board_id`'s game `board_game` plays `seat` of the table's game `spec`."""
        with self.transaction():
            self._q("INSERT OR REPLACE INTO remote_seats (table_topic, seat, spec, board_id, board_game, noted) "
                    "VALUES (?, ?, ?, ?, ?, ?)", (table_topic, seat, _canonical(spec), board_id, board_game,
                                                  now_utc()))

    def remote_seat(self, table_topic, seat):
        """{"spec", "board_id", "board_game"} of what note_remote_seat() remembered, or None."""
        row = self._q("SELECT spec, board_id, board_game FROM remote_seats WHERE table_topic = ? AND seat = ?",
                      (table_topic, seat)).fetchone()
        if row is None:
            return None
        return {"spec": json.loads(row[0]), "board_id": row[1], "board_game": row[2]}

    def journal(self, board_id, board_game):
        """The journal records held of a board's game, in ply order (dicts), as MemoryStore.journal."""
        return [json.loads(r[0]) for r in self._q(
            "SELECT record FROM journal_records WHERE board_id = ? AND board_game = ? ORDER BY ply", (board_id, board_game))]

    def _rebuild_board_game(self, board_id, board_game):
        """Replay a board game's records into its games/moves rows; return a problem text or None."""
        records = [json.loads(r[0]) for r in self._q(
            "SELECT record FROM journal_records WHERE board_id = ? AND board_game = ? ORDER BY ply", (board_id, board_game))]
        d, problem = journal_game(board_id, board_game, records)
        if d is None:
            return problem
        row = self._q("SELECT id, uuid, players, tags FROM games WHERE board_id = ? AND board_game = ?",
                      (board_id, board_game)).fetchone()
        if row is not None:
            # Rebuilt in place: the game keeps its number, id, player names and tags.
            d["id"], d["players"], d["tags"] = row[1], json.loads(row[2]), json.loads(row[3])
        self._write_game(d, None if row is None else row[0])
        return problem


def journal_game(board_id, board_game, records):
    """(game dict, problem or None) of a board's game from its journal records (plies from 0, in
    order), as gamerecord describes games; (None, problem) when they do not begin a game.  A record
    the rules refuse ends the game there, and the problem says which."""
    if not records or records[0].get("kind") != "start":
        return None, "ply 0 is not a start record"
    start = records[0]
    try:
        options = start.get("options") or {}
        if start.get("pos"):
            text = _position_text(start["variant"], options, start["pos"])
        else:
            text = gamerecord.standard_start(start["variant"], options)
        d = gamerecord.new_game(start=text, started=_utc(start["t"]) if "t" in start else None,
                                board=board_id, board_game=board_game,
                                game_id=str(_uuid.uuid5(_uuid.NAMESPACE_URL, "sowlight-board:%s/%d" % (board_id, board_game))))
    except (mancala.RulesError, ValueError, KeyError, TypeError) as e:
        return None, "ply 0: %s" % e
    r = gamerecord.Replay(d["start"])
    problem = None
    end = None
    for rec in records[1:]:
        kind = rec.get("kind")
        try:
            if kind == "move":
                r.move(move=gamerecord.move_from_json(rec["move"]))
            elif kind == "undo":
                r.undo()
            elif kind == "setpos":
                r.setup(_position_text(d["variant"], d["options"], rec["pos"]))
            elif kind == "end":
                end = rec
            elif kind == "lost":
                # A record a damaged byte took on the board's flash, which it could not rebuild.
                problem = "ply %s was lost on the board (a damaged journal record): the game stops before it" \
                          % rec.get("ply")
                break
            else:
                raise ValueError("unknown record kind %r" % kind)
        except (mancala.RulesError, ValueError, KeyError, TypeError) as e:
            problem = "ply %s: %s" % (rec.get("ply"), e)
            break
    for i, e in enumerate(r.events):
        e["ply"] = i + 1
    d["moves"] = r.events
    if end is not None and r.outcome() is None:
        gamerecord.settle(d, r, gamerecord.result_text(r.game.players, end.get("winner"), end.get("scores")),
                          end.get("winner"), end.get("scores"), end.get("reason"))
    else:
        gamerecord.settle(d, r)
    if end is not None and "t" in end:
        d["ended"] = _utc(end["t"])
    return d, problem


def _check_position(text):
    """A stored position must be one the rules read: a damaged byte in it would otherwise pass unseen."""
    if not isinstance(text, str):
        raise ValueError("a position is text, not %r" % (text,))
    mancala.from_text(text)


def _position_text(variant, options, pos):
    """The position text of a link protocol position object {"pits", "stores", "to_move", ...state}."""
    opts = ",".join("%s=%s" % (k, v) for k, v in options.items()) or "-"
    fields = [variant, opts, ",".join(str(int(c)) for c in pos["pits"]), ",".join(str(int(c)) for c in pos["stores"]) or "0",
              str(int(pos["to_move"]))]
    for k, v in pos.items():
        if k not in ("pits", "stores", "to_move"):
            fields.append("%s=%s" % (k, v))
    g = mancala.from_text(" ".join(fields))
    # Write the options as the variant names them (all of them, defaults too).
    return mancala.to_text(g)


def _statements(script):
    """Split a migration script into whole statements (executescript would commit first)."""
    out, buf = [], ""
    for line in script.splitlines(True):
        buf += line
        if sqlite3.complete_statement(buf):
            out.append(buf.strip())
            buf = ""
    if buf.strip():
        raise ValueError("a migration script ends with an incomplete statement: %r" % buf.strip()[:60])
    return out


class _Transaction:
    def __init__(self, archive):
        self.archive = archive

    def __enter__(self):
        a = self.archive
        if a._depth == 0:
            try:
                if a._db.in_transaction:
                    # One left open: a Ctrl-C came between an earlier one's BEGIN and its
                    # __exit__ (the caller was told by the KeyboardInterrupt that it was not done).
                    a._db.execute("ROLLBACK")
                a._db.execute("BEGIN IMMEDIATE")
            except sqlite3.Error as e:
                raise a._translate(e)
        a._depth += 1
        return a

    def __exit__(self, kind, value, tb):
        a = self.archive
        a._depth -= 1
        if a._depth:
            return False
        try:
            if kind is None:
                a._db.execute("COMMIT")
                a._commits += 1
            else:
                a._db.execute("ROLLBACK")
        except sqlite3.Error as e:
            if kind is None:
                try:
                    a._db.execute("ROLLBACK")
                except sqlite3.Error:
                    pass
                raise a._translate(e)
        return False



class Recorder:
    """Logs a game as it is played (sowlight play): the game is stored at its
    first move, then each move and take-back in its own transaction, so a game
    cut off by a crash keeps every move made before it.

    A write that fails is reported once through `warn` and recording stops;
    the game itself goes on."""

    def __init__(self, archive, game, players=None, warn=None):
        self.archive = archive
        self.game = game
        self.players = players
        self.warn = warn
        self.number = None
        self.start = mancala.to_text(game)
        self.started = now_utc()
        self.failed = False

    def _guard(self, write):
        if self.failed:
            return
        try:
            write()
        except ArchiveError as e:
            self.failed = True
            if self.warn:
                self.warn("the archive could not be written (%s); this game is no longer being recorded" % e)

    def moved(self, player, trace):
        """The game just made a move (by `player`, with this trace)."""
        self._guard(lambda: self._moved(player, trace))

    def _moved(self, player, trace):
        g = self.game
        move = g.moves_played()[-1]
        event = {"ply": g.ply, "kind": "move", "player": player, "notation": g.move_name(move),
                 "move": gamerecord.move_to_json(move), "trace": gamerecord.trace_to_json(trace),
                 "position": mancala.to_text(g)}
        with self.archive.transaction():
            if self.number is None:
                d = gamerecord.new_game(start=self.start, players=self.players, started=self.started)
                self.number = self.archive.add_game(d)
            self.archive.add_move(self.number, event)
            o = g.outcome()
            if o is not None:
                self.archive.finish(self.number, gamerecord.result_text(g.players, o.winner, o.scores),
                                    o.winner, list(o.scores), o.reason)

    def undone(self):
        """Moves were taken back: the game now stands at game.ply."""
        if self.number is None:
            return
        if self.game.ply == 0:
            # Back to the start: nothing of this game is left to keep.
            self._guard(lambda: self.archive.delete(self.number))
            if not self.failed:
                self.number = None
            return
        self._guard(lambda: self.archive.truncate(self.number, self.game.ply))
