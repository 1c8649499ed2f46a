"""`sowlight serve`'s HTTP side, as a browser's scripts use it: games filtered, a game's replay data,
downloads, analysis, statistics, the live board's snapshot -- against a real server process."""
import json
import random
import time

import pytest

import mancala
from mancala.search import best_move
from sowlight.games import record as gamerecord
from sowlight.web import board as webboard
from webserver import Serve

import subprocess
import sys


def play(variant, seed, names, started, moves=60, **options):
    rng = random.Random(seed)
    g = mancala.Game(variant, **options)
    while not g.is_over() and len(g.moves_played()) < moves:
        g.play(rng.choice(g.legal_moves()) if rng.random() < 0.5 else best_move(g, depth=2).best)
    return gamerecord.from_game(g, players=names, started=started)


@pytest.fixture(scope="module")
def db(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("web")
    games = [play("kalah", 1, ["Ann", "Bob"], "2026-11-10T10:00:00Z", moves=200),
             play("oware", 2, ["Bob", "Cid"], "2026-11-12T10:00:00Z", moves=20),
             play("hus", 3, ["Ann", "Cid"], "2026-11-14T10:00:00Z", moves=30),
             play("kpo", 4, ["Ann", "Bob", "Cid"], "2026-11-16T10:00:00Z", moves=200, players=3)]
    path = tmp / "games.json"
    path.write_text(gamerecord.dumps(games))
    db = str(tmp / "a.sqlite3")
    r = subprocess.run([sys.executable, "-m", "sowlight", "games", "import", str(path), "--db", db],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    return db


@pytest.fixture(scope="module")
def server(db):
    with Serve(["--no-board", "--db", db, "--depth", "3"]) as srv:
        yield srv


def test_games_are_listed_newest_first_and_filtered(server):
    all_games = server.json("/api/games")["games"]
    assert [g["number"] for g in all_games] == [4, 3, 2, 1]
    assert [g["number"] for g in server.json("/api/games?player=ann")["games"]] == [4, 3, 1]
    assert [g["number"] for g in server.json("/api/games?variant=Kalah")["games"]] == [1]
    assert [g["number"] for g in server.json("/api/games?since=2026-11-11&until=2026-11-14")["games"]] == [3, 2]
    assert [g["number"] for g in server.json("/api/games?result=*")["games"]] == [
        g["number"] for g in all_games if g["result"] == "*"]
    assert server.json("/api/games?variant=nosuchgame", status=400)["error"]


def test_a_game_has_its_positions_and_each_move_step_by_step(server):
    d = server.json("/api/games/1")
    assert d["layout"]["rows"] == [[11, 10, 9, 8, 7, 6], [0, 1, 2, 3, 4, 5]]
    assert (d["layout"]["left"], d["layout"]["right"]) == (13, 12)
    assert len(d["positions"]) == len(d["plies"]) + 1 == len(d["moves"]) + 1
    for i, ply in enumerate(d["plies"]):
        before = gamerecord.position_game(d["moves"][i - 1]["position"] if i else d["start"])
        after = gamerecord.position_game(d["moves"][i]["position"])
        assert d["positions"][i + 1]["counts"] == list(after.cells())
        # Seed by seed: each frame is one step of the recorded trace; the last is the position after.
        assert [f["step"] for f in ply["frames"]] == d["moves"][i]["trace"]
        assert ply["frames"][-1]["counts"] == list(after.cells())
        drops = [f for f in ply["frames"] if f["step"][0] == "drop"]
        for a, b in zip(ply["frames"], ply["frames"][1:]):
            if b["step"][0] == "drop":
                assert sum(b["counts"]) == sum(a["counts"]) + 1 and b["hand"] == a["hand"] - 1
        assert sum(before.cells()) == sum(after.cells())
        assert drops
    assert d["movetext"][0] == "1." and d["movetext"][-1] == d["result"]
    assert d["record"].startswith('[Variant "kalah"]')
    kpo = server.json("/api/games/4")
    assert kpo["layout"]["counters"] == [12, 13, 14] and kpo["layout"]["left"] is None
    assert kpo["layout"]["owner"][:12] == [0, 0, 1, 1, 2, 2, 2, 2, 1, 1, 0, 0]
    hus = server.json("/api/games/3")
    assert len(hus["layout"]["rows"]) == 4 and hus["layout"]["rows"][3] == list(range(12))
    assert server.json("/api/games/99", status=404)["error"].startswith("there is no game 99")


def test_the_record_downloads_in_both_formats(server):
    status, headers, body = server.get("/api/games/2/record.txt")
    assert status == 200 and 'filename="sowlight-game-2.txt"' in headers["content-disposition"]
    (d,) = gamerecord.parse(body.decode())
    assert d["players"] == ["Bob", "Cid"] and d["variant"] == "oware"
    status, headers, body = server.get("/api/games/2/record.json")
    (j,) = gamerecord.loads(body.decode())
    assert [e["notation"] for e in j["moves"]] == [e["notation"] for e in d["moves"]]
    assert server.get("/api/games/2/record.pdf")[0] == 404


def test_the_analysis_is_the_cli_s(server, db):
    rep = server.json("/api/games/2/analysis?depth=3")
    r = subprocess.run([sys.executable, "-m", "sowlight", "analyse", "2", "--depth", "3", "--json", "--db", db],
                       capture_output=True, text=True)
    cli = json.loads(r.stdout)
    assert rep["moves"] == cli["moves"] and rep["share"] == cli["share"] and rep["graph"] == cli["graph"]
    assert server.json("/api/games/2/analysis?depth=x", status=400)["error"]


def test_statistics_count_the_archive(server):
    s = server.json("/api/stats")
    assert s["games"] == 4
    ann = next(p for p in s["players"] if p["player"] == "Ann")
    assert ann["games"] == 3 and ann["wins"] + ann["draws"] + ann["losses"] + ann["open"] == 3
    kalah = next(v for v in s["variants"] if v["variant"] == "kalah")
    assert kalah["games"] == 1 and kalah["finished"] == 1
    for name in ("results", "first", "lengths"):
        assert s["plots"][name].startswith("<svg") and s["plots"][name].endswith("</svg>")
    assert ">Ann</text>" in s["plots"]["results"]


def test_no_board_is_said_and_the_page_is_served(server):
    snap = server.json("/api/live")
    assert snap["board"] is None and "--no-board" in snap["message"]
    assert "no game" in server.json("/api/live/analysis", status=400)["error"]
    status, headers, body = server.get("/")
    assert status == 200 and b"/static/app.js" in body
    for asset in ("app.js", "board.js", "style.css"):
        assert server.get("/static/" + asset)[0] == 200
    meta = server.json("/api/meta")
    assert meta["colours"]["lift0"] == "#ff6e00" and meta["colours"]["hint"] == "#00ff1e"
    assert "drop one seed here" in meta["roles"]["drop"] and meta["thresholds"]["mistake"] >= 1


def test_listening_beyond_this_computer_is_warned_about(db):
    with Serve(["--no-board", "--db", db, "--host", "0.0.0.0"]) as srv:
        assert srv.json("/api/games")["games"]
    assert "WARNING: listening on 0.0.0.0" in srv.stderr and "no login" in srv.stderr
    with Serve(["--no-board", "--db", db]) as srv:
        # A second server on the same port is told so, plainly.
        r = subprocess.run([sys.executable, "-m", "sowlight", "serve", "--no-board", "--db", db, "--port", str(srv.port)],
                           capture_output=True, text=True, timeout=60)
        assert r.returncode == 1 and "cannot listen on 127.0.0.1 port %d" % srv.port in r.stderr
        assert "choose another with --port" in r.stderr and "Traceback" not in r.stderr
    assert "WARNING" not in srv.stderr and "http://127.0.0.1:%d/" % srv.port in srv.stderr


def test_frames_follow_the_firmware_s_bookkeeping_in_every_shape():
    # Captures to a store, relays, four rows, three players, a set-up stage: the last frame of
    # every move is the position the rules core leaves.
    rng = random.Random(7)
    for variant, options in (("oware", {}), ("hus", {}), ("kpo", {"players": 4}), ("enkeshui", {}), ("lane", {})):
        g = mancala.Game(variant, **options)
        for _ in range(40):
            if g.is_over():
                break
            before = g.copy()
            trace = list(g.play(rng.choice(g.legal_moves())))
            frames = webboard.frames(before, trace)
            if not trace:           # a move the hands make nothing of (Lane's `keep`): no frame
                assert frames == [] and before.cells() == g.cells()
                continue
            assert frames[-1]["counts"] == list(g.cells()), (variant, trace)
            assert all(f["hand"] >= 0 for f in frames)


def test_a_board_at_a_port_is_shown_and_its_loss_said(tmp_path):
    board = subprocess.Popen([sys.executable, "-m", "sowlight", "board", "virtual", "--variant", "oware"],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        port = board.stdout.readline().strip()
        assert port.startswith("/dev/"), board.stderr.read()
        with Serve(["--board-port", port, "--db", str(tmp_path / "a.sqlite3")]) as srv:
            end = time.monotonic() + 20
            while not (snap := srv.json("/api/live")).get("counts") and time.monotonic() < end:
                time.sleep(0.2)
            assert snap["board"]["virtual"] and snap["variant"] == "oware" and snap["counts"] == [4] * 12 + [0, 0]
            assert snap["to_move"] == 0 and snap["phase"] == "await_lift" and snap["error"] is None
            assert sorted(snap["roles"]) == [str(c) for c in range(6)] and {r for r, _ in snap["roles"].values()} == {"lift"}
            values = srv.json("/api/live/analysis")
            assert values["to_move"] == 0 and sorted(m["notation"] for m in values["moves"]) == list("ABCDEF")
            board.terminate()
            board.wait(10)
            t0 = time.monotonic()
            while "stopped answering" not in (srv.json("/api/live").get("error") or ""):
                assert time.monotonic() - t0 < 40, srv.json("/api/live")
                time.sleep(0.5)
            print("the board's loss was said after %.1f s" % (time.monotonic() - t0))
    finally:
        if board.poll() is None:
            board.kill()
            board.wait()
