"""The archive: schema and migrations, refusals, transactions, crashes, board journal sync."""
import hashlib
import os
import random
import signal
import sqlite3
import subprocess
import sys
import textwrap

import pytest

import mancala
from mancala.registry import variants

from sowlight.games import archive
from sowlight.games import record as gr
from sowlight import paths
from sowlight.games.archive import Archive


def played(variant="oware", seed=1, stop=10000, **options):
    rnd = random.Random(seed)
    g = mancala.Game(variant, **options)
    while not g.is_over() and g.ply < stop:
        g.play(rnd.choice(g.legal_moves()))
    return g


def digest(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


@pytest.fixture
def db(tmp_path):
    return str(tmp_path / "archive.sqlite3")


# -- the file ------------------------------------------------------------------------

def test_a_new_archive_has_the_latest_schema_in_wal_mode(db):
    with Archive(db) as arc:
        assert arc.version == archive.LATEST
    con = sqlite3.connect(db)
    assert con.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert con.execute("PRAGMA application_id").fetchone()[0] == archive.APPLICATION_ID
    names = {r[0] for r in con.execute("SELECT name FROM sqlite_master")}
    assert {"boards", "games", "moves", "positions", "journal_records", "sync_state"} <= names


def test_foreign_keys_are_enforced(db):
    # A deleted game's moves go with it (ON DELETE CASCADE, which SQLite applies only with
    # foreign keys on): nothing in the file refers to a game that is not there.
    g = mancala.Game("oware")
    for m in (2, 8, 3):
        g.play(m)
    with Archive(db) as arc:
        kept, gone = arc.record_game(g), arc.record_game(g.copy())
        held = len(arc.game(kept)["moves"])
        arc.delete(gone)
        with pytest.raises(archive.GameNotFoundError, match="no game 99"):
            arc.add_move(99, {"ply": 1, "kind": "setup", "position": gr.standard_start("oware", {})})
        # A change the schema refuses is said to be refused, with SQLite's reason.
        with pytest.raises(archive.ArchiveError, match=r"refused a change \(UNIQUE constraint failed: games.uuid\)"):
            arc.add_game(arc.game(kept))
    con = sqlite3.connect(db)
    try:
        assert held == 3 and con.execute("SELECT game_id, COUNT(*) FROM moves GROUP BY game_id").fetchall() == [(kept, 3)]
        assert con.execute("PRAGMA foreign_key_check").fetchall() == []
    finally:
        con.close()


def test_a_missing_archive_is_not_created_by_readers(db):
    with pytest.raises(archive.MissingArchiveError, match="sowlight play"):
        Archive(db, create=False)
    assert not os.path.exists(db)


def test_a_newer_archive_is_refused_and_left_alone(db):
    Archive(db).close()
    con = sqlite3.connect(db)
    con.execute("PRAGMA user_version = %d" % (archive.LATEST + 1))
    con.commit()
    con.close()
    before = digest(db)
    with pytest.raises(archive.NewerArchiveError, match="newer sowlight.*upgrade sowlight, or open another archive with --db"):
        Archive(db)
    assert digest(db) == before


def test_a_file_that_is_not_a_database_is_refused_untouched(db):
    with open(db, "wb") as f:
        f.write(b"my shopping list: seeds, more seeds\n" * 20)
    before = digest(db)
    with pytest.raises(archive.CorruptArchiveError, match="damaged.*left untouched.*restore a backup.*move it aside"):
        Archive(db)
    assert digest(db) == before


def test_a_damaged_archive_is_refused_untouched(db):
    with Archive(db) as arc:
        for seed in range(20):
            arc.record_game(played(seed=seed))
    data = bytearray(open(db, "rb").read())
    for i in range(4096, len(data) - 4096, 5):
        data[i] = 0x5A
    with open(db, "wb") as f:
        f.write(data)
    before = digest(db)
    with pytest.raises(archive.CorruptArchiveError, match="damaged"):
        with Archive(db) as arc:
            for g in arc.games():
                arc.game(g["number"])
    assert digest(db) == before


def test_another_sqlite_database_is_not_taken_for_an_archive(db):
    con = sqlite3.connect(db)
    con.execute("CREATE TABLE recipes (name TEXT)")
    con.commit()
    con.close()
    with pytest.raises(archive.CorruptArchiveError, match="not a Sowlight archive"):
        Archive(db)


def test_migrations_run_in_order_after_a_backup(db, monkeypatch):
    with Archive(db) as arc:
        arc.record_game(played())
    v2 = (archive.LATEST + 1, "test: a note per game", "ALTER TABLE games ADD COLUMN note TEXT;\nUPDATE games SET note = 'old';")
    monkeypatch.setattr(archive, "MIGRATIONS", archive.MIGRATIONS + [v2])
    monkeypatch.setattr(archive, "LATEST", v2[0])
    with Archive(db) as arc:
        assert arc.version == v2[0]
        assert len(arc.games()) == 1
    con = sqlite3.connect(db)
    assert con.execute("SELECT note FROM games").fetchall() == [("old",)]
    backup = sqlite3.connect(db + ".before-v%d" % v2[0])
    assert backup.execute("PRAGMA user_version").fetchone()[0] == v2[0] - 1
    assert backup.execute("SELECT COUNT(*) FROM games").fetchone()[0] == 1


def test_a_version_1_archive_gains_remote_seats_and_keeps_its_games(db, monkeypatch):
    monkeypatch.setattr(archive, "MIGRATIONS", archive.MIGRATIONS[:1])
    monkeypatch.setattr(archive, "LATEST", 1)
    with Archive(db) as arc:
        arc.record_game(played())
    monkeypatch.undo()
    spec = {"variant": "kalah", "options": {"seeds": 2}, "id": "abc"}
    with Archive(db) as arc:
        assert arc.version == 2 and len(arc.games()) == 1
        assert arc.remote_seat("sowlight/tables/t", 1) is None
        arc.note_remote_seat("sowlight/tables/t", 1, spec, "board-1", 3)
    with Archive(db) as arc:
        assert arc.remote_seat("sowlight/tables/t", 1) == {"spec": spec, "board_id": "board-1", "board_game": 3}
        assert arc.remote_seat("sowlight/tables/t", 0) is None
    assert os.path.exists(db + ".before-v2")


def test_a_failing_migration_changes_nothing(db, monkeypatch):
    with Archive(db) as arc:
        arc.record_game(played())
    bad = (archive.LATEST + 1, "broken", "ALTER TABLE games ADD COLUMN note TEXT;\nTHIS IS NOT SQL;")
    monkeypatch.setattr(archive, "MIGRATIONS", archive.MIGRATIONS + [bad])
    monkeypatch.setattr(archive, "LATEST", bad[0])
    with pytest.raises(archive.ArchiveError):
        Archive(db)
    monkeypatch.undo()
    with Archive(db) as arc:
        assert arc.version == archive.LATEST and len(arc.games()) == 1
    cols = [r[1] for r in sqlite3.connect(db).execute("PRAGMA table_info(games)")]
    assert "note" not in cols


# -- transactions and crashes ---------------------------------------------------------

def test_an_error_inside_a_transaction_stores_nothing(db):
    with Archive(db) as arc:
        kept = arc.record_game(played(seed=1))
        with pytest.raises(RuntimeError):
            with arc.transaction():
                arc.record_game(played(seed=2))
                arc.record_game(played(seed=3))
                raise RuntimeError("power cut")
        assert [g["number"] for g in arc.games()] == [kept]


def test_a_process_killed_mid_write_loses_nothing_committed(db):
    script = textwrap.dedent("""
        import random, sys, time
        import mancala
        from sowlight.games.archive import Archive
        from sowlight.games import record as gamerecord
        def played(seed):
            rnd = random.Random(seed)
            g = mancala.Game("kalah")
            while not g.is_over():
                g.play(rnd.choice(g.legal_moves()))
            return g
        arc = Archive(sys.argv[1])
        arc.record_game(played(1))
        print("committed", flush=True)
        with arc.transaction():
            arc.record_game(played(2))
            d = gamerecord.from_game(played(3))
            arc.add_game(d)
            print("inside", flush=True)
            time.sleep(60)
    """)
    p = subprocess.Popen([sys.executable, "-c", script, db], stdout=subprocess.PIPE, text=True)
    assert p.stdout.readline().strip() == "committed"
    assert p.stdout.readline().strip() == "inside"
    p.send_signal(signal.SIGKILL)
    p.wait(timeout=30)
    p.stdout.close()
    with Archive(db) as arc:
        assert arc.check() == "ok"
        games = arc.games()
        assert len(games) == 1
        d = arc.game(games[0]["number"])
    expected = gr.from_game(played("kalah", 1), started=d["started"], game_id=d["id"])
    d.pop("number")
    assert d == dict(expected, players=d["players"])


# -- games ----------------------------------------------------------------------------

def test_games_are_stored_and_read_back_exactly(db):
    with Archive(db) as arc:
        for i, v in enumerate(variants()):
            g = played(v, seed=i)
            d = gr.from_game(g, started="2026-11-21T10:00:00Z")
            n = arc.add_game(d)
            back = arc.game(n)
            assert back.pop("number") == n
            assert back == d
        assert {g["variant"] for g in arc.games()} == set(variants())
        assert all(g["variant"] == "kalah" for g in arc.games(variant="kalah"))
        assert len(arc.games(limit=3)) == 3


def test_the_positions_view_holds_every_position_of_a_game(db):
    with Archive(db) as arc:
        g = played("oware", seed=4)
        n = arc.record_game(g)
        rows = sqlite3.connect(db).execute("SELECT ply, position FROM positions WHERE game_id = ? ORDER BY ply", (n,)).fetchall()
    assert len(rows) == g.ply + 1
    assert rows[-1][1] == mancala.to_text(g)


def test_games_are_found_by_number_or_id_prefix(db):
    with Archive(db) as arc:
        n = arc.record_game(played(seed=1))
        uid = arc.game(n)["id"]
        assert arc.resolve(str(n)) == n
        assert arc.resolve(uid) == n and arc.resolve(uid[:6].upper()) == n
        with pytest.raises(archive.GameNotFoundError, match="no game 7"):
            arc.resolve("7")
        with pytest.raises(archive.GameNotFoundError, match="too short"):
            arc.resolve("ab")


def test_trace_text_is_compact_and_exact():
    g = mancala.Game("kalah")
    assert archive.trace_to_text(g.play(2)) == "L2*4 D3 D4 D5 D12 X"
    for v in variants():
        g = mancala.Game(v)
        rnd = random.Random(9)
        while not g.is_over():
            steps = gr.trace_to_json(g.play(rnd.choice(g.legal_moves())))
            assert archive.trace_from_text(archive.trace_to_text(steps)) == steps


def test_import_is_all_or_nothing_and_skips_games_already_there(db):
    games = [gr.from_game(played(seed=s)) for s in range(3)]
    with Archive(db) as arc:
        arc.add_game(games[0])
        broken = dict(games[2], moves=games[2]["moves"] + games[2]["moves"][:1])  # ply 1 twice: its insert fails
        with pytest.raises(archive.ArchiveError):
            arc.import_games([games[1], broken])
        assert len(arc.games()) == 1
        added, skipped = arc.import_games(games)
        assert len(added) == 2 and skipped == [(games[0]["id"], "already in the archive as game 1")]


def test_the_recorder_logs_moves_take_backs_and_the_result(db):
    g = mancala.Game("kalah")
    with Archive(db) as arc:
        rec = archive.Recorder(arc, g, ["Ann", "Bob"])
        rnd = random.Random(3)
        taken_back = False
        while not g.is_over():
            p = g.to_move
            rec.moved(p, g.play(rnd.choice(g.legal_moves())))
            if g.ply == 5 and not taken_back:
                g.undo()
                rec.undone()
                taken_back = True
        d = arc.game(rec.number)
    assert d.pop("number") == rec.number
    assert d == gr.from_game(g, players=["Ann", "Bob"], started=d["started"], game_id=d["id"], ended=d["ended"])
    assert d["result"] != "*" and d["ended"]


# -- the board's journal ------------------------------------------------------------------

START = {"kind": "start", "ply": 0, "variant": "oware", "options": {}, "t": 1767225600}


def moves_of(names, first_ply=1, variant="oware"):
    g = mancala.Game(variant)
    out = []
    for i, name in enumerate(names):
        m = g.parse_move(name)
        out.append({"kind": "move", "ply": first_ply + i, "player": g.to_move, "move": gr.move_to_json(m), "name": name})
        g.play(m)
    return out


def test_a_ctrl_c_between_a_transactions_begin_and_its_end_does_not_break_the_next(db):
    # Python raises KeyboardInterrupt between any two bytecodes: one that comes right after a
    # transaction's BEGIN, before the `with` has entered, leaves SQLite's transaction open and
    # the archive's count of them at 0.  The next transaction then took the archive for damaged
    # (the likely cause of a failure seen once: Ctrl-C in `sowlight play` amid a sync, whose last
    # sync then failed, and a move the board had told was not archived).
    recs = [START] + moves_of(["C", "c", "D"])

    class Interrupting:
        """The archive's connection, with a Ctrl-C right after the next BEGIN."""
        def __init__(self, con):
            self.con, self.armed = con, True

        def execute(self, sql, *args):
            cur = self.con.execute(sql, *args)
            if self.armed and sql.startswith("BEGIN"):
                self.armed = False
                raise KeyboardInterrupt
            return cur

        def __getattr__(self, name):
            return getattr(self.con, name)
    with Archive(db) as arc:
        arc.store_board_moves("b1", 12, 0, recs[:2])
        con = arc._db
        arc._db = Interrupting(con)
        with pytest.raises(KeyboardInterrupt):
            arc.store_board_moves("b1", 12, 2, recs[2:])
        arc._db = con
        r = arc.store_board_moves("b1", 12, 2, recs[2:])
        assert (r.stored, r.upto) == ([2, 3], 3)
    with Archive(db) as arc:
        [g] = arc.games()
        assert [e["notation"] for e in arc.game(g["number"])["moves"]] == ["C", "c", "D"]


def test_board_records_are_stored_once_whatever_is_resent(db):
    recs = [START] + moves_of(["C", "c", "D", "d"])
    with Archive(db) as arc:
        r = arc.store_board_moves("b1", 12, 0, recs[:3])
        assert (r.stored, r.duplicates, r.upto) == ([0, 1, 2], [], 2)
        r = arc.store_board_moves("b1", 12, 0, recs[:3])  # a retransmitted reply
        assert (r.stored, r.duplicates, r.upto) == ([], [0, 1, 2], 2)
        r = arc.store_board_moves("b1", 12, 1, recs[1:])  # overlapping
        assert (r.stored, r.duplicates, r.upto) == ([3, 4], [1, 2], 4)
        [g] = arc.games()
        d = arc.game(g["number"])
        assert [e["notation"] for e in d["moves"]] == ["C", "c", "D", "d"]
        assert (d["board"], d["board_game"], d["started"]) == ("b1", 12, "2026-01-01T00:00:00Z")
        assert sqlite3.connect(db).execute("SELECT COUNT(*) FROM journal_records").fetchone()[0] == 5


def test_a_gap_is_refused_and_a_hole_keeps_what_came_before(db):
    recs = [START] + moves_of(["C", "c", "D", "d"])
    with Archive(db) as arc:
        arc.store_board_moves("b1", 3, 0, recs[:2])
        with pytest.raises(archive.SyncGapError, match="holds records up to ply 1.*fetch from ply 2"):
            arc.store_board_moves("b1", 3, 3, recs[3:])
        assert arc.sync_state("b1")[3]["stored_upto"] == 1
        r = arc.store_board_moves("b1", 3, 2, [recs[2], recs[4]])  # ply 3 missing from the reply
        assert (r.stored, r.upto) == ([2], 2)


def test_a_resent_record_that_differs_is_a_conflict_and_the_stored_one_is_kept(db):
    recs = [START] + moves_of(["C", "c"])
    with Archive(db) as arc:
        arc.store_board_moves("b1", 1, 0, recs)
        other = dict(recs[2], move=9, name="d")
        r = arc.store_board_moves("b1", 1, 2, [other])
        assert r.conflicts == [2] and r.upto == 2
        assert arc.sync_state("b1")[1]["conflicts"] == 1
        assert [e["notation"] for e in arc.game(1)["moves"]] == ["C", "c"]


def test_undo_setpos_and_end_records_rebuild_the_game(db):
    recs = [START] + moves_of(["C", "c", "D"])
    recs.append({"kind": "undo", "ply": 4})
    recs.append({"kind": "setpos", "ply": 5, "pos": {"pits": [0, 0, 0, 0, 0, 1, 1, 2, 0, 0, 0, 4], "stores": [20, 20], "to_move": 0}})
    recs.append({"kind": "move", "ply": 6, "player": 0, "move": 5, "name": "F"})
    recs.append({"kind": "end", "ply": 7, "winner": 0, "scores": [22, 20], "reason": "player 1 resigned", "t": 1767229200})
    with Archive(db) as arc:
        r = arc.store_board_moves("b1", 5, 0, recs)
        assert r.problem is None and r.upto == 7
        d = arc.game(1)
    assert [e["kind"] for e in d["moves"]] == ["move", "move", "setup", "move"]
    assert d["moves"][2]["position"] == "oware grand_slam=no-capture 0,0,0,0,0,1/1,2,0,0,0,4 20,20 0"
    assert (d["result"], d["winner"], d["reason"], d["ended"]) == ("1-0", 0, "player 1 resigned", "2026-01-01T01:00:00Z")
    # The readable record keeps all of it.
    d.pop("number")
    assert gr.parse(gr.write(d))[0] == d


def test_a_record_the_rules_refuse_is_kept_and_reported(db):
    recs = [START] + moves_of(["C"]) + [{"kind": "move", "ply": 2, "player": 1, "move": 0, "name": "A"}]
    with Archive(db) as arc:
        r = arc.store_board_moves("b1", 8, 0, recs)
        assert r.upto == 2 and "ply 2" in r.problem and "belongs to player 0" in r.problem
        assert len(arc.game(1)["moves"]) == 1
        assert arc.sync_state("b1")[8]["problem"] == r.problem


def test_the_sync_plan_fetches_what_is_missing_and_acknowledges_what_is_stored(db):
    recs = [START] + moves_of(["C", "c"])
    with Archive(db) as arc:
        arc.store_board_moves("b1", 12, 0, recs)
        plan = arc.note_journal("b1", [{"game": 11, "first": 0, "last": 57, "synced": -1, "over": True},
                                       {"game": 12, "first": 0, "last": 9, "synced": -1, "over": False}])
        assert plan == [{"game": 11, "fetch_from": 0, "ack": None}, {"game": 12, "fetch_from": 3, "ack": 2}]
        arc.mark_acked("b1", 12, 2)
        assert arc.sync_state("b1")[12]["acked_upto"] == 2


def test_a_board_game_is_deleted_only_once_fully_synced_and_never_comes_back(db):
    recs = [START] + moves_of(["C", "c"]) + [{"kind": "end", "ply": 3, "winner": None, "scores": [0, 0], "reason": "abandoned"}]
    with Archive(db) as arc:
        arc.store_board_moves("b1", 4, 0, recs[:3])
        arc.note_journal("b1", [{"game": 4, "first": 0, "last": 3, "synced": -1, "over": True}])
        with pytest.raises(archive.DeleteRefusedError, match="not fully synced.*sowlight sync"):
            arc.delete(1)
        arc.store_board_moves("b1", 4, 3, recs[3:])
        with pytest.raises(archive.DeleteRefusedError):
            arc.delete(1)  # stored but not acknowledged yet
        arc.mark_acked("b1", 4, 3)
        arc.delete(1)
        assert arc.games() == []
        r = arc.store_board_moves("b1", 4, 0, recs)  # the board sends it all again
        assert r.stored == [] and arc.games() == []
        assert arc.note_journal("b1", [{"game": 4, "first": 0, "last": 3, "synced": 3, "over": True}]) == [
            {"game": 4, "fetch_from": None, "ack": None}]


# -- paths ------------------------------------------------------------------------------------

def test_the_data_directory_of_each_platform():
    home = "/home/ann"
    assert paths.data_dir("linux", {}, home) == "/home/ann/.local/share/sowlight"
    assert paths.data_dir("linux", {"XDG_DATA_HOME": "/data"}, home) == "/data/sowlight"
    assert paths.data_dir("linux", {"XDG_DATA_HOME": "relative/path"}, home) == "/home/ann/.local/share/sowlight"
    assert paths.data_dir("darwin", {}, home) == "/home/ann/Library/Application Support/sowlight"
    assert paths.data_dir("win32", {"APPDATA": "C:\\Users\\ann\\AppData\\Roaming"}, home) == "C:\\Users\\ann\\AppData\\Roaming\\sowlight"


def test_db_flag_beats_the_environment_which_beats_the_default():
    env = {"SOWLIGHT_DB": "/tmp/x.sqlite3", "XDG_DATA_HOME": "/data"}
    assert paths.archive_path("/elsewhere.db", env) == "/elsewhere.db"
    assert paths.archive_path(None, env) == "/tmp/x.sqlite3"
    assert paths.archive_path(None, {"XDG_DATA_HOME": "/data"}).endswith(os.path.join("sowlight", "archive.sqlite3"))
