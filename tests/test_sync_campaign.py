"""The fault campaign: 200 games of random variants synced through tests/faults.py with 1 % of
the bytes corrupted in both directions and the cable pulled at random bytes more than 50 times
(half of the replugs restart the board). The store must equal the board's journal move for
move -- nothing lost, nothing stored twice -- and the board must mark nothing synced that the
store had not committed.

Timings are scaled down for an in-process cable (a reply within 20 ms, a stalled line after
5 ms); the logic is the one the defaults of docs/protocol.md drive.  Bounded: well under a
minute on a 2-core machine."""
import json
import random
import sqlite3

import pytest

from sowlight.games.archive import Archive
from sowlight.board.link import Link
from sowlight.games.sync import MemoryStore, sync

from mockboard import MockBoard, Wire, WireOpener, random_games

pytestmark = pytest.mark.filterwarnings("error::pytest.PytestUnhandledThreadExceptionWarning")

SCALED = dict(timeout=0.02, line_idle=0.005, backoff=0.001, backoff_max=0.01, reconnect_for=20.0,
              damaged_retries=2000, ping_every=1.0, dead_after=5.0)


def campaign(games, store, seed, corrupt=0.01, cut_between=(10000, 60000), **faults):
    """Sync `games` from a fresh board into `store` over a noisy cable pulled at random bytes."""
    board = MockBoard(games, answer_every=0.0, seed=seed)
    early = []

    def on_ack(game, upto):  # on the board's side, when an ack arrives
        held = [r["ply"] for r in store_records(store, board.board_id, game)]
        if held[:upto + 1] != list(range(upto + 1)):
            early.append((game, upto))
    board.on_ack = on_ack
    rng = random.Random(seed)

    def make_wire(n):
        wire = Wire(seed=seed * 1000 + n, corrupt=corrupt, **faults)
        pipe = wire.faults.a_to_b if rng.random() < 0.5 else wire.faults.b_to_a
        pipe.cut_at(rng.randrange(*cut_between))
        return wire
    opener = WireOpener(board, make_wire=make_wire, reboot=lambda n: n % 2 == 0)
    try:
        with Link(opener, **SCALED) as lk:
            lk.connect(wait=20)
            report = sync(lk, store)
            stats = dict(lk.stats)
    finally:
        opener.close()
    pipes = [p for w in opener.wires for p in (w.faults.a_to_b, w.faults.b_to_a)]
    figures = {
        "cuts": sum(1 for p in pipes if not p.up),
        "bytes": sum(p.written for p in pipes),
        "corrupted": sum(p.corrupted for p in pipes),
        "reboots": board.boots - 1,
    }
    return board, report, stats, figures, early


def check(board, store, report, early, expected):
    assert report.complete
    for g, records in expected.items():
        assert store_records(store, board.board_id, g) == records, g
        assert board.games[g]["synced"] == len(records) - 1, g
    assert early == []  # no ack ever named a ply the store had not committed
    total = sum(len(r) for r in expected.values())
    assert report.stored == total  # each record stored once: the store counts only what was new to it


def store_records(store, board_id, game):
    """What the store has committed for a game (read through a connection of its own for the archive)."""
    if isinstance(store, MemoryStore):
        return store.journal(board_id, game)
    db = sqlite3.connect(store.path)
    try:
        return [json.loads(r[0]) for r in db.execute(
            "SELECT record FROM journal_records WHERE board_id = ? AND board_game = ? ORDER BY ply", (board_id, game))]
    finally:
        db.close()


def test_200_games_through_1_percent_corruption_and_50_cuts():
    games = random_games(200, seed=7)
    expected = {g: v["records"] for g, v in games.items()}
    store = MemoryStore()
    board, report, stats, fig, early = campaign(games, store, seed=3)
    print("\ncampaign: %d games, %d records; %d bytes on the wire, %d corrupted (%.2f %%), %d cuts, "
          "%d board restarts; %d requests, %d sent again for damage, %d after a timeout, %d reconnects"
          % (len(games), report.stored, fig["bytes"], fig["corrupted"], 100.0 * fig["corrupted"] / fig["bytes"],
             fig["cuts"], fig["reboots"], stats["requests"], stats["resent_damaged"], stats["resent_timeout"],
             stats["reconnects"]))
    check(board, store, report, early, expected)
    assert len(games) >= 200 and fig["cuts"] >= 50
    assert 0.008 < fig["corrupted"] / fig["bytes"] < 0.012
    assert stats["bad_checksum"] > 1000 and stats["reconnects"] >= 40


def test_the_archive_through_corruption_and_cuts(tmp_path):
    games = random_games(12, seed=21)
    expected = {g: v["records"] for g, v in games.items()}
    with Archive(str(tmp_path / "a.sqlite3")) as arc:
        board, report, stats, fig, early = campaign(games, arc, seed=5, cut_between=(4000, 20000))
        check(board, arc, report, early, expected)
        assert fig["cuts"] >= 5
        rebuilt = {g["board_game"]: g for g in arc.games(board=board.board_id)}
        assert sorted(rebuilt) == sorted(games) and report.problems == {}


def test_dropped_duplicated_and_repeated_bytes_too():
    # Bytes dropped (a lost newline joins two lines), bytes doubled, whole writes
    # delivered twice (a repeated frame: same seq, not acted on twice).
    games = random_games(30, seed=33)
    expected = {g: v["records"] for g, v in games.items()}
    store = MemoryStore()
    board, report, stats, fig, early = campaign(games, store, seed=9, corrupt=0.002, drop=0.002, duplicate=0.002,
                                                repeat=0.02, cut_between=(20000, 60000))
    check(board, store, report, early, expected)
    assert stats["duplicates"] > 0 and board.replayed > 0
