"""Journal sync (host/sowlight/games/sync.py): fetch what the store lacks by (game, ply), store each
reply in one transaction, acknowledge only after the commit; duplicates ignored, holes asked
for again, losses and conflicts reported; against the in-memory store and the real archive."""
import json
import sqlite3

import pytest

from sowlight.games.archive import Archive, ArchiveError
from sowlight.board.link import Link
from sowlight.games.sync import MemoryStore, SyncError, sync

from mockboard import MockBoard, Wire, WireOpener, random_games

pytestmark = pytest.mark.filterwarnings("error::pytest.PytestUnhandledThreadExceptionWarning")

FAST = dict(timeout=0.3, backoff=0.005, backoff_max=0.04, reconnect_for=3.0, ping_every=30.0, dead_after=60.0)


class Rig:
    """A mock board, a cable to it, a link and a store; checks every ack against the store."""

    def __init__(self, games=8, seed=1, store=None, board=None, **link_options):
        self.board = board or MockBoard(random_games(games, seed=seed))
        self.store = store if store is not None else MemoryStore()
        self.early_acks = []
        self.board.on_ack = self.check_ack
        self.opener = WireOpener(self.board)
        self.link = Link(self.opener, **dict(FAST, **link_options))
        self.link.connect()

    def check_ack(self, game, upto):
        # Runs on the board's side when an ack arrives: the store must already hold 0..upto.
        held = held_plies(self.store, self.board.board_id, game)
        if held[:upto + 1] != list(range(upto + 1)):
            self.early_acks.append((game, upto))

    def sync(self, **kw):
        return sync(self.link, self.store, **kw)

    def close(self):
        self.link.close()
        self.opener.close()

    def assert_synced(self):
        for g in self.board.games:
            assert self.store.journal(self.board.board_id, g) == self.board.journal(g), g
            assert self.board.games[g]["synced"] == self.board.last_ply(g), g
        assert self.early_acks == []


def held_plies(store, board_id, game):
    if isinstance(store, MemoryStore):
        return [r["ply"] for r in store.journal(board_id, game)]
    # A connection of its own: what it sees is what was committed, not what is in a transaction.
    db = sqlite3.connect(store.path)
    try:
        return [r[0] for r in db.execute(
            "SELECT ply FROM journal_records WHERE board_id = ? AND board_game = ? ORDER BY ply", (board_id, game))]
    finally:
        db.close()


@pytest.fixture
def rig():
    r = Rig()
    yield r
    r.close()


def total_records(board):
    return sum(len(g["records"]) for g in board.games.values())


def test_a_sync_copies_every_record_and_acknowledges_it(rig):
    report = rig.sync()
    rig.assert_synced()
    assert report.complete and report.stored == total_records(rig.board) and report.duplicates == 0
    assert sorted(report.acked) == sorted(rig.board.games)
    assert report.passes == 2  # the second listing found nothing left to do
    assert rig.board.acks == [(g, rig.board.last_ply(g)) for g in rig.board.games]
    for g, row in rig.store.sync_state(rig.board.board_id).items():
        assert row["stored_upto"] == row["acked_upto"] == rig.board.last_ply(g)


def test_a_second_sync_fetches_and_acknowledges_nothing(rig):
    rig.sync()
    acks, gets = len(rig.board.acks), rig.board.executed["journal_get"]
    report = rig.sync()
    assert report.complete and report.stored == 0 and report.fetched == 0 and report.acked == {}
    assert len(rig.board.acks) == acks and rig.board.executed["journal_get"] == gets
    assert "0 records stored" in report.summary()


def test_new_moves_are_fetched_from_where_the_store_stops(rig):
    rig.sync()
    game = max(rig.board.games)
    rig.board.games[game]["over"] = False
    before = rig.board.last_ply(game)
    for m in range(3):
        rig.board.add_record(game, {"kind": "undo"})
    report = rig.sync()
    rig.assert_synced()
    assert report.stored == 3 and report.fetched == 3 and report.acked == {game: before + 3}


def test_small_pages_when_asked_for(rig):
    report = rig.sync(records_page=3, list_page=2)
    rig.assert_synced()
    assert report.stored == total_records(rig.board)
    assert rig.board.executed["journal_list"] >= len(rig.board.games) // 2


def test_a_board_without_list_pages_is_synced_too():
    r = Rig(board=MockBoard(random_games(40, seed=9), pages=False))
    try:
        report = r.sync(list_page=4)
        r.assert_synced()
        assert report.complete and len(report.games) == 40
    finally:
        r.close()


def test_a_reply_with_a_hole_is_kept_up_to_it_and_asked_again(rig):
    holes = []

    def tamper(rtype, payload):
        recs = payload.get("records")
        if rtype == "records" and len(recs) > 3 and not holes:
            holes.append(recs[2]["ply"])
            payload = dict(payload, records=recs[:2] + recs[3:])
        return payload
    rig.board.tamper = tamper
    report = rig.sync()
    rig.assert_synced()
    assert holes and report.gaps == 1 and report.complete


def test_records_sent_again_are_ignored(rig):
    def tamper(rtype, payload):
        if rtype == "records" and payload["records"] and payload["records"][0]["ply"] >= 2:
            # starts two plies early: those two are held already
            g = rig.board.games[payload["game"]]
            first = payload["records"][0]["ply"]
            payload = dict(payload, records=g["records"][first - 2:first] + payload["records"])
        return payload
    rig.sync(records_page=4)
    for g in list(rig.board.games):
        rig.board.games[g]["over"] = False
        rig.board.add_record(g, {"kind": "undo"})
    rig.board.tamper = tamper
    report = rig.sync()
    rig.assert_synced()
    assert report.duplicates == 2 * len(rig.board.games) and report.stored == len(rig.board.games)


def test_a_conflicting_record_keeps_the_stored_one(rig):
    bid = rig.board.board_id
    game = min(rig.board.games)
    rec0, rec1 = rig.board.journal(game)[:2]
    other = dict(rec1, name="ZZ")
    rig.store.store_board_moves(bid, game, 0, [rec0, other])  # an earlier copy that differs at ply 1

    def tamper(rtype, payload):
        if rtype == "records" and payload["game"] == game and payload["records"][0]["ply"] == 2:
            payload = dict(payload, records=[rec0, rec1] + payload["records"])  # sent again from ply 0
        return payload
    rig.board.tamper = tamper
    report = rig.sync()
    assert report.conflicts == {game: [1]} and report.duplicates == 1
    assert rig.store.journal(bid, game)[1] == other  # the stored one is kept
    assert rig.store.journal(bid, game)[2:] == rig.board.journal(game)[2:]
    assert rig.store.sync_state(bid)[game]["conflicts"] == 1
    assert "conflicting record" in report.summary()


def test_a_failed_commit_sends_no_ack_and_the_next_sync_finishes(rig):
    calls = []

    class Boom(Exception):
        pass

    storing = rig.store.store_board_moves

    def failing(board_id, game, ply, records):
        # The third batch fails to commit, as a full disk would fail the archive's write.
        calls.append(game)
        if len(calls) == 3:
            raise Boom("disk full")
        return storing(board_id, game, ply, records)
    rig.store.store_board_moves = failing
    with pytest.raises(Boom):
        rig.sync(records_page=4)
    failed_game = calls[-1]
    assert all(g != failed_game for g, _ in rig.board.acks)
    assert rig.board.games[failed_game]["synced"] == -1
    del rig.store.store_board_moves
    report = rig.sync()
    rig.assert_synced()
    assert report.complete


def test_records_pruned_from_the_board_but_missing_here_are_reported(rig):
    game = min(rig.board.games)
    g = rig.board.games[game]
    g["records"] = g["records"][5:]
    g["first"] = 5
    g["synced"] = 4
    report = rig.sync()
    assert report.lost == [(game, 0, 4)]
    assert "deleted from the board" in report.summary()
    for other in rig.board.games:
        if other != game:
            assert rig.store.journal(rig.board.board_id, other) == rig.board.journal(other)


def test_acknowledged_games_pruned_by_the_board_are_not_fetched_again():
    r = Rig(board=MockBoard(random_games(10, seed=5), auto_prune=True))
    try:
        finished = [g for g, v in r.board.games.items() if v["over"]]
        expected = {g: r.board.journal(g) for g in r.board.games}
        report = r.sync()
        assert report.complete
        assert sorted(r.board.games) == sorted(set(expected) - set(finished))  # the board freed them
        for g, recs in expected.items():
            assert r.store.journal(r.board.board_id, g) == recs
        gets = r.board.executed["journal_get"]
        assert r.sync().stored == 0 and r.board.executed["journal_get"] == gets
    finally:
        r.close()


def test_records_added_during_a_sync_are_picked_up(rig):
    game = max(rig.board.games)
    rig.board.games[game]["over"] = False
    added = []

    def on_ack(g, upto):
        rig.check_ack(g, upto)
        if g != game and not added:
            added.append(rig.board.add_record(game, {"kind": "undo"}))
    rig.board.on_ack = on_ack
    report = rig.sync()
    rig.assert_synced()
    assert added and report.complete


def test_a_lost_ack_is_sent_by_the_next_sync(rig):
    game = min(rig.board.games)
    # Every copy of the first ack is lost on the way, and the cable does not come back.
    rig.board.deaf["journal_ack"] = 10 ** 6
    rig.opener.missing = 10 ** 6
    rig.link.reconnect_for = 0.05
    with pytest.raises(SyncError) as e:
        rig.sync()
    first = e.value.report
    assert "run it again" in str(e.value) and first.stored == len(rig.board.journal(game))
    assert rig.board.games[game]["synced"] == -1
    assert rig.store.sync_state(rig.board.board_id)[game]["stored_upto"] == rig.board.last_ply(game)
    rig.close()
    rig.board.deaf.clear()
    again = Rig(board=rig.board, store=rig.store)
    try:
        report = again.sync()
        again.assert_synced()
    finally:
        again.close()
    # The committed game is acknowledged without being fetched again.
    assert report.acked[game] == rig.board.last_ply(game)
    assert report.fetched == report.stored == total_records(rig.board) - first.stored


def test_the_archive_is_a_store(tmp_path):
    path = str(tmp_path / "archive.sqlite3")
    with Archive(path) as arc:
        r = Rig(games=12, seed=3, store=arc)
        try:
            report = r.sync()
            assert report.complete and report.stored == total_records(r.board) and report.problems == {}
            again = r.sync()
            assert again.stored == 0 and again.acked == {}
            state = arc.sync_state(r.board.board_id)
            games = {g["board_game"]: g for g in arc.games(board=r.board.board_id)}
        finally:
            r.close()
    assert r.early_acks == []
    db = sqlite3.connect(path)
    for g in r.board.games:
        rows = db.execute("SELECT record FROM journal_records WHERE board_id = ? AND board_game = ? ORDER BY ply",
                          (r.board.board_id, g)).fetchall()
        assert [json.loads(x[0]) for x in rows] == r.board.journal(g)
        assert state[g]["stored_upto"] == state[g]["acked_upto"] == r.board.last_ply(g)
        assert games[g]["variant"] == r.board.games[g]["variant"]  # rebuilt from the records
    assert db.execute("SELECT COUNT(*) FROM journal_records").fetchone()[0] == total_records(r.board)
    assert r.board.games and all(v["synced"] == r.board.last_ply(g) for g, v in r.board.games.items())
    db.close()


def test_the_board_must_have_said_who_it_is():
    with pytest.raises(SyncError, match="connect the link first"):
        sync(Link(lambda: Wire().host), MemoryStore())


def test_the_store_refuses_a_batch_that_would_leave_a_gap():
    store = MemoryStore()
    with pytest.raises(ArchiveError, match="gap"):
        store.store_board_moves("b", 1, 3, [{"ply": 3, "kind": "undo"}])
    res = store.store_board_moves("b", 1, 0, [{"ply": 0, "kind": "start"}, {"ply": 2, "kind": "undo"}])
    assert res.upto == 0 and res.stored == [0]  # kept up to the hole
