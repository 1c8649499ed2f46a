"""`sowlight broadcast` through a real Mosquitto: many boards at once, a viewer rebuilding every game
from the topics, the broker restarted and a board's host killed in the middle."""
import os
import signal
import subprocess
import sys
import time

import pytest

from sowlight.broadcast import broker
from sowlight.broadcast.feed import EventFeed
from sowlight.broadcast.topics import EventTopics, level
from sowlight_fw.journal import Journal
from sowlight_fw.storage import FileStorage

from brokers import Mosquitto, mosquitto, need_mosquitto  # noqa: F401 (the fixture)

pytestmark = pytest.mark.skipif(not hasattr(os, "openpty"), reason="virtual boards need pseudo-terminals")

SOWLIGHT = [sys.executable, "-m", "sowlight"]
DEMO = ["--demo", "kalah", "-o", "seeds=1", "--games", "1"]


def viewer(url, event):
    conn = broker.BrokerConnection(broker.BrokerSettings.from_url(url), "viewer-%d" % os.getpid()).start()
    conn.wait_connected(10)
    return conn, EventFeed(conn, EventTopics(event), fill_every=0.5).start()


def board_journal(path):
    """{game: [records]} of a virtual board's journal file, and the board's unique id."""
    st = FileStorage(path)
    j = Journal(st)
    j.open()
    out = {}
    for g in sorted(j.games):
        out[g] = j.records(g, 0, 100000)[0]
    return out, bytes(st.read("virtual.id")).decode().strip()


def records_held(feed):
    return sum(len(g.records) for g in feed.games().values())


def test_sixteen_boards_broadcast_demo_games_a_viewer_rebuilds_them_through_a_broker_restart_and_a_killed_host(
        tmp_path, mosquitto):
    conn, feed = viewer(mosquitto.url, "club")
    common = SOWLIGHT + ["broadcast", "--broker", mosquitto.url, "--event", "club"] + DEMO
    procs = []
    try:
        # Fifteen virtual boards under one host; the sixteenth a board of its own with a host of its own.
        alone = str(tmp_path / "alone.journal")
        board = subprocess.Popen(SOWLIGHT + ["board", "virtual", "--journal", alone], stdout=subprocess.PIPE,
                                 stderr=subprocess.PIPE, text=True)
        procs.append(board)
        port = board.stdout.readline().strip()
        assert port.startswith("/"), board.stderr.read()
        many = subprocess.Popen(common + ["--virtual", "15", "--journal-dir", str(tmp_path / "j"), "--seed", "1",
                                          "--db", str(tmp_path / "many.sqlite")],
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        procs.append(many)
        host_args = common + ["--port", port, "--db", str(tmp_path / "alone.sqlite")]
        host = subprocess.Popen(host_args + ["--seed", "2"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        procs.append(host)

        # The broker goes down once games are under way, and comes back empty (no persistence).
        assert feed.wait(lambda f: records_held(f) >= 60, 180), records_held(feed)
        mosquitto.restart()
        # The lone board's host is killed in the middle of its game, and started again.
        _, alone_id = board_journal(alone)
        mine = lambda f: [g for (b, _), g in f.games().items() if b.endswith(alone_id)]
        assert feed.wait(lambda f: any(g.held() >= 5 for g in mine(f)), 120)
        host.kill()
        host.wait()
        time.sleep(1.0)
        host = subprocess.Popen(host_args + ["--seed", "3"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        procs.append(host)

        for p in (many, host):
            out, err = p.communicate(timeout=300)
            assert p.returncode == 0 and "the hands stopped" not in err, out + err
        assert "broadcasting virtual board" in out and "published" in out
        board.send_signal(signal.SIGTERM)
        assert board.wait(10) == 0

        # Every game, from the topics alone, equals its board's journal: nothing lost, nothing twice.
        journals = {}
        for path in [alone] + [str(tmp_path / "j" / ("board-%d.journal" % i)) for i in range(1, 16)]:
            games, uid = board_journal(path)
            journals[uid] = games
        assert len(journals) == 16

        def all_in(f):
            held = f.games()
            for uid, games in journals.items():
                for g, recs in games.items():
                    keys = [k for k in held if k[0].endswith(uid) and k[1] == g]
                    if len(keys) != 1 or held[keys[0]].held() < len(recs) - 1:
                        return False
            return True
        assert feed.wait(all_in, 30), feed.snapshots()
        for uid, games in journals.items():
            for g, recs in games.items():
                (gf,) = [gf for (b, n), gf in feed.games().items() if b.endswith(uid) and n == g]
                assert gf.journal() == recs
                snap = gf.snapshot()
                assert snap["over"] and snap["complete"] and len(snap["moves"]) == sum(r["kind"] == "move" for r in recs)
                last = recs[-1]
                assert last["kind"] == "end" and snap["scores"] == last["scores"]
                # Each move came with its trace and the position after it, as the rules core replays it.
                moves = [r for r in gf.records.values() if r["kind"] == "move"]
                assert all(r["trace"] and r["trace"][0][0] == "lift" and r["pos"] for r in moves)
        assert conn.drops >= 1 and conn.connections >= 2      # the viewer lived through the restart too
        assert mosquitto.starts == 2
        # A host's presence: its last will says when it went away; both ended cleanly here.
        assert feed.hosts and not any(h["online"] for h in feed.hosts.values())
    finally:
        for p in procs:
            if p.poll() is None:
                p.kill()
                p.wait()
        conn.stop()


def test_topic_levels_cannot_reach_into_another_branch():
    assert level("a/b+c#d e") == "a_b_c_d_e"
    t = EventTopics("club night")
    assert t.record("sowlight-x", 3, 12) == "sowlight/club_night/boards/sowlight-x/games/3/12"
    assert t.parse(t.record("sowlight-x", 3, 12)) == ("record", "sowlight-x", 3, 12)
    assert t.parse(t.state("b")) == ("state", "b", None, None)
    assert t.parse("sowlight/club_night/boards/b/games/x/1") is None
    assert t.parse("sowlight/other/boards/b/state") is None


def test_a_viewer_missing_a_record_asks_for_it_and_the_host_publishes_it_again_from_its_archive(tmp_path, mosquitto):
    import random
    from sowlight.games import archive
    from sowlight.board.view import VIRTUAL_SETTINGS, open_board
    from sowlight.broadcast.publisher import BoardBroadcaster
    from sowlight.simulation.robot import Robot
    from sowlight.simulation.virtual import VirtualBoard

    topics = EventTopics("gaps")
    vb = VirtualBoard(preset="2x6-stores", settings=VIRTUAL_SETTINGS)
    board = open_board(port=vb.start())
    host = broker.BrokerConnection(broker.BrokerSettings.from_url(mosquitto.url), "host").start()
    host.wait_connected(10)
    db = str(tmp_path / "a.sqlite")
    bc = BoardBroadcaster(host, topics, board.link, lambda: archive.Archive(db), "host")
    board.view.watchers.append(bc.take)
    bc.start()
    conn = None
    try:
        board.link.request("new_game", {"variant": "kalah", "options": {"seeds": 2}})
        robot = Robot(board.view, rng=random.Random(2))
        robot.set_up()
        for _ in range(3):
            robot.play_move()
        bc.wake()
        first, feed = viewer(mosquitto.url, "gaps")
        assert feed.wait(lambda f: any(g.held() >= 3 for g in f.games().values()), 20)
        first.stop()
        # The broker loses ply 2 (cleared); a viewer that comes later finds the hole and asks.
        (key,) = feed.games()
        host.publish(topics.record(key[0], key[1], 2), None, retain=True)
        time.sleep(0.5)
        conn, late = viewer(mosquitto.url, "gaps")
        assert late.wait(lambda f: f.game(*key) is not None and f.game(*key).complete()
                         and f.game(*key).held() >= 3, 20), late.snapshots()
        assert late.fills >= 1
        with archive.Archive(db) as arc:
            assert late.game(*key).journal() == arc.journal(*key)
    finally:
        bc.stop()
        if conn is not None:
            conn.stop()
        host.stop()
        board.close()
        vb.stop()


def test_a_board_whose_journal_holds_games_is_published_by_a_host_that_only_listens(tmp_path, mosquitto):
    journal = str(tmp_path / "b.journal")
    board = subprocess.Popen(SOWLIGHT + ["board", "virtual", "--journal", journal], stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True)
    conn = None
    try:
        port = board.stdout.readline().strip()
        r = subprocess.run(SOWLIGHT + ["demo", "--port", port, "--variant", "kalah", "-o", "seeds=1", "--seed", "3",
                                       "--no-archive"], capture_output=True, text=True, timeout=120)
        assert r.returncode == 0, r.stdout + r.stderr
        conn, feed = viewer(mosquitto.url, "listen")
        r = subprocess.run(SOWLIGHT + ["broadcast", "--broker", mosquitto.url, "--event", "listen", "--port", port,
                                       "--for", "4", "--db", str(tmp_path / "a.sqlite")],
                           capture_output=True, text=True, timeout=60)
        assert r.returncode == 0, r.stdout + r.stderr
        board.send_signal(signal.SIGTERM)
        board.wait(10)
        games, uid = board_journal(journal)
        (g,) = games
        assert feed.wait(lambda f: any(b.endswith(uid) and gf.complete() and len(gf.records) == len(games[g])
                                       for (b, _), gf in f.games().items()), 10)
        (gf,) = feed.games().values()
        assert gf.journal() == games[g] and gf.snapshot()["over"]
        state = feed.boards[gf.board]["state"]
        assert state["game"] == g and state["over"] and state["ply"] == len(games[g]) - 1
    finally:
        if board.poll() is None:
            board.kill()
            board.wait()
        if conn is not None:
            conn.stop()
