"""Board journals synced into the archive (sowlight.games.sync over the scripted board of
tests/mockboard.py): every game rebuilt by the rules core, nothing stored twice,
a cut-off sync completed by the next one."""
import random

import pytest

from mancala.registry import variants

from sowlight.games import record as gamerecord
from sowlight.games.archive import Archive
from sowlight.board.link import Link
from sowlight.games.sync import SyncError, sync

from mockboard import MockBoard, Wire, WireOpener, random_game

FAST = dict(timeout=0.3, backoff=0.005, backoff_max=0.04, reconnect_for=3.0, ping_every=30.0, dead_after=60.0)


def journals(n, seed):
    rng = random.Random(seed)
    names = variants()  # every playable variant, tuple moves and set-up phases included
    return {i + 1: random_game(rng, plies=(2, 60), variants=names) for i in range(n)}


def standing(records):
    """What a game's journal amounts to: the moves still standing, and its end record."""
    moves, end = [], None
    for r in records[1:]:
        if r["kind"] == "move":
            moves.append(r["name"])
        elif r["kind"] == "undo":
            moves.pop()
        elif r["kind"] == "end":
            end = r
    return moves, end


def synced(board, db, make_wire=None, wires=None):
    opener = WireOpener(board, make_wire=make_wire)
    if wires is not None:
        wires.append(opener.wires)
    lk = Link(opener, **FAST)
    try:
        lk.connect()
        with Archive(db) as arc:
            return sync(lk, arc)
    finally:
        lk.close()
        opener.close()


@pytest.fixture
def db(tmp_path):
    return str(tmp_path / "archive.sqlite3")


def check_archive(db, games, board_id):
    with Archive(db) as arc:
        rows = {g["board_game"]: g for g in arc.games(board=board_id)}
        assert sorted(rows) == sorted(games)
        for number, g in games.items():
            d = arc.game(rows[number]["number"])
            moves, end = standing(g["records"])
            assert [e["notation"] for e in d["moves"]] == moves
            replay = gamerecord.Replay(d["start"])
            for name in moves:
                replay.move(name)
            if replay.game.is_over():
                o = replay.game.outcome()
                assert (d["winner"], d["scores"], d["reason"]) == (o.winner, list(o.scores), o.reason)
            elif end is not None:
                assert (d["winner"], d["reason"]) == (end["winner"], end["reason"])
            else:
                assert d["result"] == "*"
            # What the archive holds exports and reads back exactly.
            d.pop("number")
            assert gamerecord.parse(gamerecord.write(d))[0] == d
        for state in arc.sync_state(board_id).values():
            assert state["problem"] is None and state["conflicts"] == 0
        assert arc.check() == "ok"


def test_a_sync_rebuilds_every_game_of_every_variant(db):
    games = journals(30, seed=4)
    board = MockBoard(games)
    report = synced(board, db)
    assert report.complete and not report.problems, report.summary()
    assert report.stored == sum(len(g["records"]) for g in games.values())
    check_archive(db, games, board.board_id)
    again = synced(board, db)
    assert again.stored == 0 and again.fetched == 0
    check_archive(db, games, board.board_id)


def test_a_noisy_cable_stores_each_record_once(db):
    games = journals(12, seed=9)
    board = MockBoard(games)
    wires = []
    try:
        # Per byte: some frames are lost, damaged or repeated; replies come again.
        synced(board, db, make_wire=lambda n: Wire(seed=n, drop=0.0005, corrupt=0.0005, duplicate=0.0005, repeat=0.05),
               wires=wires)
    except SyncError:
        pass  # cut off: the next sync finishes it
    pipes = [p for w in wires[0] for p in (w.faults.a_to_b, w.faults.b_to_a)]
    assert sum(p.repeated for p in pipes) and sum(p.dropped + p.corrupted for p in pipes)  # the noise was there
    report = synced(board, db)
    assert not report.problems, report.summary()
    check_archive(db, games, board.board_id)
    with Archive(db) as arc:
        held = {n: [r["ply"] for r in arc.journal(board.board_id, n)] for n in games}
    assert held == {n: [r["ply"] for r in g["records"]] for n, g in games.items()}


def test_a_game_still_going_on_the_board_grows_with_each_sync(db):
    rng = random.Random(3)
    g = random_game(rng, plies=(30, 30), variants=["oware"], undo_rate=0)
    full = g["records"]
    cut = [r for r in full if r["kind"] != "end"][:10]
    board = MockBoard({7: {"variant": "oware", "records": cut, "over": False}})
    synced(board, db)
    with Archive(db) as arc:
        assert len(arc.game(1)["moves"]) == 9 and arc.game(1)["result"] == "*"
        assert arc.games()[0]["number"] == 1
    for r in full[10:]:
        board.add_record(7, dict(r))
    board.games[7]["over"] = True
    synced(board, db)
    check_archive(db, {7: {"variant": "oware", "records": full, "over": True}}, board.board_id)
    with Archive(db) as arc:
        assert [x["number"] for x in arc.games()] == [1]  # rebuilt in place: the same number
