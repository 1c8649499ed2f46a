"""The journal on the board's storage: one file per game, appended to, repaired at boot.

records.py has a record's bytes and why a power cut loses at most the record
being written.  open() reads every game file at boot (a game over and on the
laptop to its end at its two ends only, _settled()): a record whose mark,
length or CRC is wrong is dropped and the file rewritten with the intact ones
(through a temporary file and a rename, storage.py); plies missing between
intact records go to `gaps` for mend() (mend.py).  Nothing is deleted until
the laptop has acknowledged it (`synced` = `last`) and the game is over; when
space runs low the oldest such games go first, and the newest game's file
always stays (its number keeps game numbers from being reused).
"""

import gc

from .records import (JournalError, MAGIC, START, SYNC, SETTLED, PREFIX, SUFFIX, RESERVE, RECLAIM_AHEAD, _CODES,
                      HEAD, TAIL, GameInfo, written, file_name, parse, intact, decode, _frame, new_info,
                      noted)


_START_READ = 96     # bytes read for a settled game's start record (most are 40-60 long)
_COLLECT_EVERY = 16  # game files read at boot between two collections (open())


class Journal:
    def __init__(self, storage, reserve=RESERVE):
        self.storage = storage
        self.reserve = reserve
        self.games = {}          # game number -> GameInfo
        self.repaired = []       # what open() had to fix, for the log
        self.gaps = {}           # game -> plies no intact record holds (open() finds them, mend() fills them)
        # (game, ply, offset) of the first record the last records() gave: the laptop reads a
        # game on from there (each page from the ply after the last one it has), and a read
        # from that offset leaves out the game's earlier records, which would otherwise all be
        # read and checked again for every page, a move or two each (several KB of a board's
        # heap late in a game).
        self._at = None
        # (game, bytes) of the last record append() wrote: after each move the laptop asks
        # for that one record, which is then read from here, not from the file (opening a file
        # takes littlefs a 1 KB buffer of the board's heap, and reading it more).
        self._last = None

    # ----- boot ------------------------------------------------------------------

    def open(self):
        """Read every game file, repair torn or damaged ones; the repairs made.  Plies missing
        between intact records (a damaged byte, not a torn end) go to self.gaps ({game: [ply, ...]})
        for mend() to fill."""
        st = self.storage
        self.games = {}
        self.repaired = []
        self.gaps = {}
        names = st.names()
        for name in names:
            if name.endswith(".tmp"):
                # A repair cut short: the file it was for is still intact.
                st.remove(name)
        n = 0
        for name in names:
            if not (name.startswith(PREFIX) and name.endswith(SUFFIX)):
                continue
            try:
                game = int(name[len(PREFIX):-len(SUFFIX)])
            except ValueError:
                continue
            self._load(game, name)
            n += 1
            if n % _COLLECT_EVERY == 0:
                # What stays of each game (its GameInfo) would otherwise lie between the garbage
                # of the reads, spread over the heap: a flash of 300 games left no 2.3 KB hole
                # in 214 KB free for the dict of them (a MemoryError at boot).  Collected, the
                # next ones are made in the holes at the heap's bottom.
                gc.collect()
        return self.repaired

    def _load(self, game, name):
        info = self._settled(game, name)
        if info is not None:
            self.games[game] = info
            return
        data = self.storage.read(name)
        info = new_info(game)
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
            info = noted(info, kind, ply, data[a:b])
        # Plies up to the last one recorded or acknowledged that no intact record holds: a damaged
        # record inside the file (a torn end is the last record only, never acknowledged), or one
        # whose damaged bytes an earlier boot dropped before it could fill the gap.
        top = max(info.last, info.synced)
        gaps = [p for p in range(min(top + 1, len(held) << 3)) if not held[p >> 3] & (1 << (p & 7))]
        if gaps:
            self.gaps[game] = gaps
        if dropped:
            good = b"".join(data[s:e] for s, e in keep)
            self.storage.replace(name, good)
            self.repaired.append("game %d: dropped %d damaged bytes (%s), kept %d records"
                              % (game, len(data) - len(good),
                                 "a torn record" if not gaps else "ply %s" % ", ".join(str(p) for p in gaps),
                                 len(keep)))
        if keep:
            self.games[game] = info
        else:
            self.storage.remove(name)

    def _settled(self, game, name):
        """The GameInfo of a game over and acknowledged to its end, read from the file's two ends:
        its last record is a `synced` that says so (SETTLED), its first the start.  None for
        any other file, which open() reads whole.  Such a game is on the laptop already, so its
        records are not checked (a damaged byte in one is no loss), and a flash full of old games
        boots in a fraction of the time (some 30 ms a game read whole on an emulated Pico)."""
        st = self.storage
        tail = HEAD + len(SETTLED) + TAIL
        first, last = st.ends(name, _START_READ, tail)
        r = parse(last, 0)
        if r is None or r[0] != SYNC or r[1] != game or r[5] != tail or last[r[3]:r[4]] != SETTLED:
            return None
        s = parse(first, 0)
        if s is None or s[0] != START or s[1] != game:
            return None     # (or a start longer than the read, with a position in it: read whole)
        variant = noted(new_info(game), START, 0, first[s[3]:s[4]]).variant
        return GameInfo(game, variant, r[2], r[2], True)

    def mend(self, make, variants):
        """Fill the gaps open() found: each missing record rebuilt from the records after it, or
        a `lost` record in its place (mend.py).  `make(variant,
        options, pos)` makes a game of the rules core; `variants`: those to try for a lost start.
        Returns [(game, ply, record or None when lost)]."""
        from . import mend      # (only for a journal with a damaged record: its code stays out of the heap)
        return mend.mend(self, make, variants)

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
                raise JournalError("internal", "game %d has no start record, so it cannot take a %s at ply %d" % (
                    game, rec["kind"], ply))
            info = new_info(game)
        elif ply != info.last + 1:
            raise JournalError("internal", "game %d: ply %d follows ply %d" % (game, ply, info.last))
        data = written(rec)
        self._last = None
        self._write(file_name(game), data)
        n = data[2] | (data[3] << 8)      # the payload's length (of the first copy)
        self.games[game] = noted(info, _CODES[rec["kind"]], ply, data[HEAD:HEAD + n])
        self._last = (game, data)
        return len(data)

    def _write(self, name, data):
        if self.storage.free() < self.reserve + len(data):
            self.reclaim(self.reserve + len(data) + RECLAIM_AHEAD)
        try:
            self.storage.append(name, data)
        except OSError:
            if not self.reclaim(1 << 30):
                raise JournalError("storage", "the journal is full and every game on it still waits for the laptop: "
                                              "connect the board to sync")
            try:
                self.storage.append(name, data)
            except OSError as e:
                raise JournalError("storage", "the journal cannot be written (%s)" % e)

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

    def list_games(self):
        """Every game's listing (the `journal` reply's entries), oldest first."""
        return [_listing(self.games[g]) for g in sorted(self.games)]

    def records(self, game, first, most=50):
        """(records, more): up to `most` records of `game` from ply `first`."""
        info = self.games.get(game)
        if info is None:
            raise JournalError("no_such_game", "the journal has no game %d" % game)
        last = self._last
        if last is not None and last[0] == game and first == info.last:
            # The record just written, the game's last: as it went to the file.
            r = parse(last[1], 0)
            return [decode(r[0], first, memoryview(last[1])[r[3]:r[4]])], False
        name = file_name(game)
        at = self._at
        start = at[2] if at is not None and at[0] == game and at[1] <= first else 0
        data = self.storage.read(name, start)
        if start:
            r = parse(data, 0)
            if r is None or r[1] != game or r[2] != at[1]:
                # The file was rewritten since (repaired, mended): read it whole.
                start = 0
                data = self.storage.read(name)
        out = []
        more = False
        seen = -1
        for i, r in intact(data):
            kind, _, ply, a, b, _ = r
            if kind == SYNC or ply < first or ply <= seen:     # (ply <= seen: a second copy)
                continue
            seen = ply
            if len(out) >= most:
                more = True
                break
            if not out:
                self._at = (game, ply, start + i)
            out.append(decode(kind, ply, memoryview(data)[a:b]))
        return out, more

    def ack(self, game, upto):
        """The laptop has stored every record of `game` up to ply `upto` (a `synced`
        mark is written); returns the new synced ply."""
        info = self.games.get(game)
        if info is None:
            raise JournalError("no_such_game", "the journal has no game %d" % game)
        if upto > info.last:
            raise JournalError("ack_ahead", "game %d has records up to ply %d only, not %d" % (game, info.last, upto))
        if upto > info.synced:
            settled = SETTLED if upto == info.last and info.over else b""
            self._write(file_name(game), _frame(SYNC, game, upto, settled))
            self.games[game] = noted(info, SYNC, upto, settled)
        return upto if upto > info.synced else info.synced


def _listing(info):
    return {"game": info.game, "variant": info.variant or "", "first": 0, "last": max(info.last, 0),
            "synced": info.synced, "over": info.over}
