"""Journal sync: copy what the board's journal holds and the archive lacks, then acknowledge it.

    report = sync(link, archive)       # link: a connected link.Link; archive: an Archive or a MemoryStore
    print(report.summary())

docs/protocol.md ("Journal sync", "Host link") is the specification.  For
each game the board lists, the host asks for the records it lacks by
(game, ply), stores each reply's records in one transaction of the store, and
only after that commit acknowledges the highest ply of the unbroken run it
holds -- so the board never prunes what the laptop does not have.  A record
already held is ignored; a reply with a hole is kept up to the hole and the
rest asked for again.  A sync cut off anywhere (a raised LinkError) leaves the
store consistent, and the next sync picks up where it stopped: what was
committed is not fetched again, what was not acknowledged is acknowledged.

The store is anything with these methods (archive.Archive has them;
MemoryStore below is the reference, for tests):

    note_board(board_id, info)                    the board was seen, with its hello
    note_journal(board_id, games) -> plan         the board's listing; for each game, in order,
                                                  {"game", "fetch_from": ply or None, "ack": ply or None}
    store_board_moves(board_id, game, ply, records) -> result
                                                  one transaction; idempotent; result.upto = the
                                                  highest ply of the unbroken run held from ply 0,
                                                  .stored, .duplicates, .conflicts (lists of plies),
                                                  .problem; raises archive.SyncGapError (and stores
                                                  nothing) when `ply` is past upto + 1
    mark_acked(board_id, game, upto)              the board confirmed our acknowledgement
"""
import json
import threading

from sowlight.terminal import harmless
from sowlight.games.archive import SyncGapError
from sowlight.board.link import BoardError, LinkError, ReplyDamaged

LIST_PAGE = 32     # most games asked for per journal_list page (boards without paging send all)
RECORDS_PAGE = 50  # most records asked for per journal_get (the protocol's default)
FIRST_PAGE = 8     # what a sync starts with; doubled after each reply that came through clean
PASSES = 3         # listings per sync: the last one finds nothing left to do
_STALLS = 5        # replies in a row that bring nothing new before a game is left for the next sync
_DAMAGED = 4       # damaged copies of one reply before it is asked for again, smaller
_HOPELESS = 50     # such re-asks in a row, at one item a page, before the line is declared unusable


class SyncError(LinkError):
    """A sync that could not finish; `report` holds what it did."""

    def __init__(self, message, report=None):
        LinkError.__init__(self, message)
        self.report = report


class SyncReport:
    """What one sync did, game by game (board game numbers)."""

    def __init__(self, board_id):
        self.board_id = board_id
        self.games = set()       # games the board listed
        self.fetched = 0         # records received (duplicates included)
        self.stored = 0          # records new to the store
        self.duplicates = 0      # records the store already held
        self.conflicts = {}      # game -> plies re-sent with other content (the stored ones kept)
        self.gaps = 0            # replies that skipped a ply (the rest asked for again)
        self.acked = {}          # game -> the ply the board now has as synced
        self.lost = []           # (game, first ply, last ply) the board pruned but the store lacks
        self.gone = []           # games the board no longer had when asked for them
        self.problems = {}       # game -> why it could not be synced (or rebuilt) this time
        self.damaged = []        # (game, ply, "rebuilt" or "lost"): records a damaged byte took on the board
        self.passes = 0
        self.complete = False    # the last listing had nothing left to fetch or acknowledge

    def failed(self):
        """True when something of the board's journal did not reach the store whole: a record the
        board lost, records it pruned, a game that could not be stored (`sowlight sync` exits 1)."""
        return bool(self.lost or self.problems or any(how == "lost" for _, _, how in self.damaged))

    def summary(self):
        # Each piece of the board's own text is escaped here, so the lines are only the summary's.
        parts = ["board %s: %d game%s listed, %d record%s stored" % (
            harmless.text(self.board_id), len(self.games), "" if len(self.games) == 1 else "s",
            self.stored, "" if self.stored == 1 else "s")]
        if self.duplicates:
            parts.append("%d already held" % self.duplicates)
        if self.acked:
            parts.append("%d game%s acknowledged" % (len(self.acked), "" if len(self.acked) == 1 else "s"))
        conflicts = sum(len(v) for v in self.conflicts.values())
        if conflicts:
            parts.append("%d conflicting record%s kept as first stored" % (conflicts, "" if conflicts == 1 else "s"))
        text = ", ".join(parts) + "."
        for g, a, b in self.lost:
            text += "\nboard game %d: plies %d-%d were deleted from the board after an earlier sync, but the archive " \
                    "does not hold them (restored from an older copy?): they cannot be fetched again" % (g, a, b)
        for g in self.gone:
            text += "\nboard game %d: no longer on the board (synced and deleted there meanwhile)" % g
        for g, p, how in self.damaged:
            if how == "rebuilt":
                text += "\nboard game %d: the board's record of ply %d was damaged; the board rebuilt it from the " \
                        "records after it (stored, marked rebuilt)" % (g, p)
            else:
                text += "\nboard game %d: the board's record of ply %d was damaged and could not be rebuilt: that " \
                        "move is lost, the records after it are stored (the game stops before it)" % (g, p)
        for g, why in sorted(self.problems.items()):
            text += "\nboard game %d: %s" % (g, harmless.text(why))
        if not self.complete:
            text += "\nthe board's journal changed during the sync: run `sowlight sync` again to finish"
        return text


class _Pace:
    """How many items to ask for per reply: halved when a reply had to be sent again
    (a noisy line damages long frames most), doubled when one came through clean."""

    def __init__(self, most, first=FIRST_PAGE):
        self.most = most
        self.now = min(most, first)

    def after(self, resent):
        if resent:
            self.now = max(1, self.now // 2)
        else:
            self.now = min(self.most, self.now * 2)


class _Syncer:
    def __init__(self, link, store, board_id, records_page, list_page, progress):
        self.link = link
        self.store = store
        self.board_id = board_id
        self.report = SyncReport(board_id)
        self.records = _Pace(records_page)
        self.listing = _Pace(list_page)
        self.progress = progress

    def ask(self, mtype, payload):
        return self.link.request(mtype, payload, board=self.board_id)

    def read(self, pace, mtype, payload, key):
        """A read request whose reply size follows `pace` (payload[key] = how many items)."""
        damaged = 0
        while True:
            payload[key] = pace.now
            before = self._resent()
            try:
                reply = self.link.request(mtype, payload, damaged_limit=_DAMAGED, board=self.board_id)
            except ReplyDamaged:
                # Too long for this line: ask again (a read, so asking twice is harmless), for less.
                damaged = damaged + 1 if pace.now == 1 else 0
                if damaged >= _HOPELESS:
                    raise SyncError("the line to the board is too noisy: even the shortest replies arrive "
                                    "damaged (check the cable and the ground)", self.report)
                pace.after(True)
                continue
            pace.after(self._resent() != before)
            return reply

    def _resent(self):
        s = self.link.stats
        return s["resent_damaged"] + s["resent_timeout"] + s["requests_retried"]

    def run(self, passes):
        for _ in range(passes):
            self.report.passes += 1
            if not self.one_pass():
                self.report.complete = True
                break
        return self.report

    def one_pass(self):
        """One walk through the board's listing; True when there was anything to do."""
        work = False
        start = 0
        while True:
            reply = self.read(self.listing, "journal_list", {"from": start}, "max")
            # A board without paging ignores from/max and lists every game: keep those
            # from `start` on, in order.
            games = sorted((g for g in reply["games"] if g["game"] >= start), key=lambda g: g["game"])
            if not games:
                break
            plan = self.store.note_journal(self.board_id, games)
            for item, step in zip(games, plan):
                self.report.games.add(item["game"])
                if self.game(item, step):
                    work = True
                if self.progress:
                    self.progress(self.report)
            start = games[-1]["game"] + 1
            if not reply.get("more"):
                break
        return work

    def game(self, item, step):
        g = item["game"]
        did = False
        held = None
        frm = step["fetch_from"]
        if frm is not None:
            if frm < item["first"]:
                # The board pruned these after an acknowledgement, yet the store lacks
                # them: they are gone.  The store refuses a run with a hole, so the
                # rest of this game cannot be stored either.
                if (g, frm, item["first"] - 1) not in self.report.lost:
                    self.report.lost.append((g, frm, item["first"] - 1))
                return False
            held, did = self.fetch(g, frm)
        ack = step["ack"]
        if held is not None and held > item["synced"]:
            ack = held
        if ack is not None and ack > item["synced"]:
            self.acknowledge(g, ack)
            did = True
        return did

    def fetch(self, g, frm):
        """Fetch and store records of game g from ply frm on; return (ply held up to, fetched anything)."""
        upto = frm - 1
        stalls = 0
        fetched = False
        while True:
            try:
                reply = self.read(self.records, "journal_get", {"game": g, "from": frm}, "max")
            except BoardError as e:
                if e.code == "pruned":
                    if (g, frm, frm) not in self.report.lost:
                        self.report.lost.append((g, frm, frm))
                elif e.code == "no_such_game":
                    if g not in self.report.gone:
                        self.report.gone.append(g)
                else:
                    self.report.problems[g] = str(e)
                return upto, fetched
            recs = reply["records"]
            # The unbroken run the reply holds, from its first ply: it must reach frm.
            # Records before frm (sent again) go to the store too, which ignores
            # the ones it holds and reports any that differ.
            run = []
            base = recs[0]["ply"] if recs else frm
            if reply["game"] == g and base <= frm:
                for rec in recs:
                    if rec["ply"] != base + len(run):
                        break
                    run.append(rec)
                if base + len(run) <= frm:
                    run = []  # nothing new in it
            self.report.fetched += len(recs)
            if recs and len(run) < len(recs):
                self.report.gaps += 1  # a hole or a jump: keep what came before it, ask again from it
            if run:
                fetched = True
                try:
                    res = self.store.store_board_moves(self.board_id, g, base, run)  # one transaction
                except SyncGapError as e:  # someone else changed the store meanwhile
                    self.report.problems[g] = str(e)
                    return upto, fetched
                self.report.stored += len(res.stored)
                new = set(res.stored)
                for rec in run:
                    if rec["ply"] in new and (rec.get("kind") == "lost" or rec.get("rebuilt") is True):
                        self.report.damaged.append((g, rec["ply"], "lost" if rec["kind"] == "lost" else "rebuilt"))
                self.report.duplicates += len(res.duplicates)
                if res.conflicts:
                    self.report.conflicts.setdefault(g, []).extend(res.conflicts)
                if res.problem:
                    self.report.problems[g] = "stored, but it does not replay: %s" % res.problem
                else:
                    self.report.problems.pop(g, None)
                if res.upto >= frm:
                    upto = res.upto
                    frm = upto + 1
                    stalls = 0
                else:
                    stalls += 1
                if not reply["more"] and len(run) == len(recs):
                    return upto, fetched
            elif not recs and not reply["more"]:
                return upto, fetched  # the board holds nothing from frm on
            else:
                stalls += 1
            if stalls >= _STALLS:
                self.report.problems[g] = "the board keeps sending records that do not continue ply %d" % (frm - 1)
                return upto, fetched

    def acknowledge(self, g, upto):
        try:
            ok = self.ask("journal_ack", {"game": g, "upto": upto})
        except BoardError as e:
            if e.code == "no_such_game":
                # The board deletes a game only once it is acknowledged to its end:
                # an earlier ack of ours got there, and its answer was lost.
                self.store.mark_acked(self.board_id, g, upto)
                self.report.acked[g] = upto
            else:
                self.report.problems[g] = str(e)
            return
        synced = ok.get("synced", upto)
        if type(synced) is not int:
            synced = upto
        # The board keeps the larger of what it had and what we sent; we record
        # what we know it holds of ours.
        self.store.mark_acked(self.board_id, g, min(synced, upto))
        self.report.acked[g] = synced


def sync(link, store, board_id=None, records_page=RECORDS_PAGE, list_page=LIST_PAGE, passes=PASSES, progress=None):
    """Sync the board's journal into `store`; return a SyncReport.

    `link` must be connected (Link.connect()).  Raises SyncError (with the
    partial report) when the link fails for good; everything committed before
    stays, and the next sync completes the rest."""
    if board_id is None:
        board_id = link.board_id
    if board_id is None:
        raise SyncError("the board has not said who it is: connect the link first")
    info = dict(link.board_hello or {})
    info.pop("re", None)
    store.note_board(board_id, info)
    s = _Syncer(link, store, board_id, records_page, list_page, progress)
    try:
        return s.run(passes)
    except LinkError as e:
        if isinstance(e, SyncError):
            raise
        raise SyncError("the sync with board %s was cut off (%s); what was stored is kept: run it again to "
                        "finish" % (board_id, e), s.report) from e


# -- a store in memory ------------------------------------------------------------------------

class StoreResult:
    def __init__(self, stored, duplicates, conflicts, upto, problem=None):
        self.stored = stored
        self.duplicates = duplicates
        self.conflicts = conflicts
        self.upto = upto
        self.problem = problem


class MemoryStore:
    """The store interface in memory, with the archive's rules (tests, dry runs).

    Every call is one atomic step under a lock: a batch is checked whole, then
    applied whole."""

    def __init__(self):
        self.lock = threading.Lock()
        self.boards = {}        # board id -> info
        self.held = {}          # (board, game) -> {ply: canonical record text}
        self.state = {}         # (board, game) -> {"stored_upto", "acked_upto", "board_last", "board_over", "conflicts"}
        self.commits = 0        # store_board_moves calls that committed
        self.seats = {}         # (table topic, seat) -> remote seat (Archive.note_remote_seat)

    def _row(self, board_id, game):
        key = (board_id, game)
        if key not in self.state:
            self.state[key] = {"stored_upto": -1, "acked_upto": -1, "board_last": -1, "board_over": False,
                               "conflicts": 0}
            self.held[key] = {}
        return self.state[key]

    def note_board(self, board_id, info=None):
        with self.lock:
            self.boards[board_id] = dict(info or {})

    def note_remote_seat(self, table_topic, seat, spec, board_id, board_game):
        with self.lock:
            self.seats[(table_topic, seat)] = {"spec": dict(spec), "board_id": board_id, "board_game": board_game}

    def remote_seat(self, table_topic, seat):
        with self.lock:
            found = self.seats.get((table_topic, seat))
            return None if found is None else dict(found)

    def note_journal(self, board_id, listing):
        plan = []
        with self.lock:
            self.boards.setdefault(board_id, {})
            for item in listing:
                row = self._row(board_id, item["game"])
                row["board_last"] = item["last"]
                row["board_over"] = bool(item.get("over"))
                stored = row["stored_upto"]
                plan.append({"game": item["game"], "fetch_from": stored + 1 if stored < item["last"] else None,
                             "ack": stored if item.get("synced", -1) < stored else None})
        return plan

    def store_board_moves(self, board_id, board_game, ply, records):
        with self.lock:
            row = self._row(board_id, board_game)
            held = self.held[(board_id, board_game)]
            upto = row["stored_upto"]
            if ply > upto + 1:
                raise SyncGapError("board %s game %d: records up to ply %d are held, so ply %d would leave a gap"
                                   % (board_id, board_game, upto, ply))
            stored, dups, conflicts, new = [], [], [], {}
            expect = ply
            for rec in records:
                p = rec.get("ply", expect)
                if p != expect:
                    break
                expect += 1
                text = json.dumps(rec, sort_keys=True, separators=(",", ":"))
                if p in held:
                    (dups if held[p] == text else conflicts).append(p)
                else:
                    new[p] = text
                    stored.append(p)
            held.update(new)
            row["stored_upto"] = max(upto, expect - 1)
            row["conflicts"] += len(conflicts)
            self.commits += 1
            return StoreResult(stored, dups, conflicts, row["stored_upto"])

    def mark_acked(self, board_id, board_game, upto):
        with self.lock:
            row = self._row(board_id, board_game)
            row["acked_upto"] = max(row["acked_upto"], upto)

    def sync_state(self, board_id):
        with self.lock:
            return {g: dict(row) for (b, g), row in self.state.items() if b == board_id}

    def journal(self, board_id, board_game):
        """The records held for a board's game, in ply order (dicts)."""
        with self.lock:
            held = self.held.get((board_id, board_game), {})
            return [json.loads(held[p]) for p in sorted(held)]
