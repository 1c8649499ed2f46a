"""`sowlight games ...`, `sowlight replay`, `sowlight hint`, run as a user runs them."""
import hashlib
import json
import os
import pty
import random
import select
import signal
import sqlite3
import subprocess
import sys
import time

import pytest

import mancala
from mancala.registry import variants

from sowlight.games import record as gamerecord


def sowlight(*args, input=None, env=None, timeout=180):
    e = dict(os.environ)
    e.pop("SOWLIGHT_DB", None)
    e.update(env or {})
    return subprocess.run([sys.executable, "-m", "sowlight", *args], input=input, capture_output=True, text=True,
                          timeout=timeout, env=e)


def ok(r):
    assert r.returncode == 0, r.stdout[-2000:] + r.stderr[-2000:]
    assert "Traceback" not in r.stderr
    return r


def refused(r, *words):
    assert r.returncode != 0, r.stdout[-1000:]
    assert "Traceback" not in r.stderr, r.stderr
    for w in words:
        assert w in r.stderr, r.stderr
    return r


def digest(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


@pytest.fixture
def db(tmp_path):
    return str(tmp_path / "games.sqlite3")


def play_kalah(db):
    """A whole game, the computer against itself, saved in the archive."""
    return ok(sowlight("play", "--no-board", "--variant", "kalah", "--vs", "self", "--depth", "1", "--db", db, input=""))


def test_a_played_game_is_listed_shown_exported_and_imported_identically(db, tmp_path):
    r = play_kalah(db)
    assert "saved as game 1" in r.stderr
    listing = ok(sowlight("games", "list", "--db", db)).stdout
    assert "kalah" in listing and "computer (depth 1)" in listing
    rows = json.loads(ok(sowlight("games", "list", "--json", "--db", db)).stdout)
    assert len(rows) == 1 and rows[0]["variant"] == "kalah" and rows[0]["moves"] > 5 and rows[0]["result"] != "*"
    shown = ok(sowlight("games", "show", "1", "--db", db)).stdout
    assert '[Variant "kalah"]' in shown and "1. " in shown and "store 0" in shown and ("wins" in shown or "Draw" in shown)
    game = json.loads(ok(sowlight("games", "show", rows[0]["id"][:8], "--json", "--db", db)).stdout)
    assert game["number"] == 1 and len(game["moves"]) == rows[0]["moves"]
    assert game["moves"][0]["trace"][0][0] == "lift"

    for fmt, name in (("json", "one.json"), ("record", "one.txt")):
        first = str(tmp_path / name)
        ok(sowlight("games", "export", "1", "--format", fmt, "-o", first, "--db", db))
        other = str(tmp_path / ("other-%s.sqlite3" % fmt))
        out = ok(sowlight("games", "import", first, "--db", other)).stdout
        assert "imported 1 game" in out
        again = ok(sowlight("games", "export", "--all", "--format", fmt, "--db", other)).stdout
        assert again == open(first, encoding="utf-8").read()
        # Importing the same file again finds the game already there.
        out = ok(sowlight("games", "import", first, "--db", other)).stdout
        assert "imported 0 games" in out and "1 already there" in out


def test_every_variant_round_trips_through_both_formats(tmp_path):
    games = []
    for i, v in enumerate(variants() + ["kpo"]):
        rnd = random.Random(i)
        g = mancala.Game(v, **({"players": 3} if i == len(variants()) else {}))
        while not g.is_over() and g.ply < (8 if i % 3 == 0 else 10000):
            g.play(rnd.choice(g.legal_moves()))
        games.append(gamerecord.from_game(g, started="2026-11-21T09:00:00Z"))
    src = tmp_path / "all.json"
    src.write_text(gamerecord.dumps(games), encoding="utf-8")
    a, b = str(tmp_path / "a.sqlite3"), str(tmp_path / "b.sqlite3")
    ok(sowlight("games", "import", str(src), "--db", a))
    records = ok(sowlight("games", "export", "--all", "--db", a)).stdout
    (tmp_path / "all.txt").write_text(records, encoding="utf-8")
    ok(sowlight("games", "import", str(tmp_path / "all.txt"), "--db", b))
    assert ok(sowlight("games", "export", "--all", "--db", b)).stdout == records
    assert ok(sowlight("games", "export", "--all", "-f", "json", "--db", b)).stdout == src.read_text(encoding="utf-8")


RECORD = """[Variant "oware"]
[Players "Ann; Bob"]
[Date "2026.11.21"]
[Result "*"]

1. C f 2. D e *

[Variant "kalah"]
[Players "Ann; Bob"]
[Result "*"]

1. C,D b,c 2. A *
"""


def test_a_record_with_an_illegal_move_is_refused_with_its_line_and_nothing_is_imported(db, tmp_path):
    bad = tmp_path / "games.txt"
    bad.write_text(RECORD.replace("2. A *", "2. a *"), encoding="utf-8")
    refused(sowlight("games", "import", str(bad), "--db", db), "games.txt line 12: a is not played: pit a belongs to player 1")
    assert json.loads(ok(sowlight("games", "list", "--json", "--db", db)).stdout) == []
    bad.write_text(RECORD.replace('[Players "Ann; Bob"]\n[Result', '[Players "Ann, Bob"]\n[Result'), encoding="utf-8")
    refused(sowlight("games", "import", str(bad), "--db", db), "line 9:", "2 players, but 1 name")
    bad.write_text(RECORD.replace("1. C f", "1. C f f"), encoding="utf-8")
    refused(sowlight("games", "import", str(bad), "--db", db), "line 6: f is not played: pit f belongs to player 1")
    bad.write_text(RECORD.replace("2. D e", "2. D f"), encoding="utf-8")
    refused(sowlight("games", "import", str(bad), "--db", db), "line 6: f is not played: pit f is empty")
    good = tmp_path / "good.txt"
    good.write_text(RECORD, encoding="utf-8")
    assert "nothing imported" in ok(sowlight("games", "import", "--dry-run", str(good), "--db", db)).stdout
    assert "imported 2 games" in ok(sowlight("games", "import", str(good), "--db", db)).stdout
    assert len(json.loads(ok(sowlight("games", "list", "--json", "--db", db)).stdout)) == 2
    assert "kalah" in ok(sowlight("games", "list", "--variant", "Kalaha", "--db", db)).stdout
    assert "oware" not in ok(sowlight("games", "list", "--variant", "kalah", "--db", db)).stdout
    refused(sowlight("games", "import", str(tmp_path / "nowhere.txt"), "--db", db), "No such file")
    (tmp_path / "notes.txt").write_text("hello\n")
    refused(sowlight("games", "import", str(tmp_path / "notes.txt"), "--db", db), "neither a JSON export nor a game record")


def test_a_newer_archive_is_refused_with_what_to_do(db):
    play_kalah(db)
    con = sqlite3.connect(db)
    con.execute("PRAGMA user_version = 99")
    con.commit()
    con.close()
    before = digest(db)
    for args in (("games", "list"), ("games", "show", "1"), ("games", "import", "-"), ("replay", "1")):
        refused(sowlight(*args, "--db", db, input=RECORD), "written by a newer sowlight", "upgrade sowlight", "--db")
    refused(sowlight("play", "--no-board", "--db", db, input="quit\n"), "newer sowlight", "--no-archive")
    refused(sowlight("play", "--virtual", "--db", db, input="quit\n"), "newer sowlight", "--no-archive")
    assert digest(db) == before


def test_a_damaged_archive_is_refused_and_kept(db):
    play_kalah(db)
    data = bytearray(open(db, "rb").read())
    for i in range(100, len(data), 3):
        data[i] ^= 0x55
    with open(db, "wb") as f:
        f.write(data)
    before = digest(db)
    r = refused(sowlight("games", "list", "--db", db), "is damaged", "left untouched", "restore a backup", "move it aside")
    assert r.returncode == 1
    refused(sowlight("games", "import", "-", "--db", db, input=RECORD), "is damaged")
    assert digest(db) == before


def test_a_game_cut_off_by_a_kill_keeps_every_move_made(db):
    p = subprocess.Popen([sys.executable, "-m", "sowlight", "play", "--no-board", "--vs", "human", "--db", db],
                         stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    for move in ("C", "f", "D"):
        p.stdin.write(move + "\n")
        p.stdin.flush()
        deadline = time.time() + 60
        while True:  # wait until the move is told, so it has been written
            line = p.stdout.readline()
            assert line and time.time() < deadline
            if "plays %s" % move in line:
                break
    time.sleep(0.5)
    p.send_signal(signal.SIGKILL)
    p.wait(timeout=30)
    p.stdin.close()
    p.stdout.close()
    game = json.loads(ok(sowlight("games", "show", "1", "--json", "--db", db)).stdout)
    assert [m["notation"] for m in game["moves"]] in (["C", "f"], ["C", "f", "D"])
    con = sqlite3.connect(db)
    assert con.execute("PRAGMA integrity_check").fetchone()[0] == "ok"


def test_replay_tells_every_move(db, tmp_path):
    good = tmp_path / "good.txt"
    good.write_text(RECORD, encoding="utf-8")
    ok(sowlight("games", "import", str(good), "--db", db))
    out = ok(sowlight("replay", "2", "--step", "--db", db, input="")).stdout  # not a terminal: no waiting
    assert "1. player 0 (Ann) plays C" in out and "lift C (4): sow D E F store 0" in out
    assert "another move for the same player" in out and "5. player 0 (Ann) plays A" in out
    assert out.strip().endswith("Not finished: player 1 to move")
    refused(sowlight("replay", "9", "--db", db), "no game 9")


def test_replay_step_waits_for_enter_on_a_terminal(db, tmp_path):
    good = tmp_path / "good.txt"
    good.write_text(RECORD, encoding="utf-8")
    ok(sowlight("games", "import", str(good), "--db", db))
    master, slave = pty.openpty()
    env = dict(os.environ)
    env.pop("SOWLIGHT_DB", None)
    p = subprocess.Popen([sys.executable, "-m", "sowlight", "replay", "1", "--step", "--db", db],
                         stdin=slave, stdout=slave, stderr=slave, env=env)
    os.close(slave)
    seen = b""

    def until(text):
        nonlocal seen
        deadline = time.time() + 60
        while text not in seen:
            assert time.time() < deadline, seen[-500:]
            if select.select([master], [], [], 1)[0]:
                try:
                    seen += os.read(master, 4096)
                except OSError:
                    break
        return seen

    until(b"[Enter: next move, q: stop]")
    assert b"plays C" not in seen
    os.write(master, b"\n")
    until(b"plays C")
    os.write(master, b"q\n")
    until(b"stopped after 1 of 4")
    assert p.wait(timeout=30) == 0
    os.close(master)


def test_delete_asks_first(db):
    play_kalah(db)
    r = sowlight("games", "delete", "1", "--db", db, input="n\n")
    assert r.returncode == 1 and "not deleted" in r.stdout and "delete game 1 (kalah" in r.stdout
    r = ok(sowlight("games", "delete", "1", "--db", db, input="y\n"))
    assert "deleted game 1" in r.stdout
    assert json.loads(ok(sowlight("games", "list", "--json", "--db", db)).stdout) == []
    play_kalah(db)
    ok(sowlight("games", "delete", "2", "--yes", "--db", db))
    refused(sowlight("games", "delete", "2", "--yes", "--db", db), "no game 2")


def test_export_needs_games_and_writes_files_whole(db, tmp_path):
    play_kalah(db)
    refused(sowlight("games", "export", "--db", db), "--all")
    out = str(tmp_path / "x.json")
    r = ok(sowlight("games", "export", "--all", "-o", out, "--db", db))
    assert "exported 1 game to" in r.stderr
    assert json.load(open(out))["format"] == "sowlight-games"
    assert [f for f in os.listdir(tmp_path) if f.startswith(".sowlight-export-")] == []


def test_no_archive_yet(tmp_path):
    missing = str(tmp_path / "none.sqlite3")
    assert "no games yet" in ok(sowlight("games", "list", "--db", missing)).stdout
    refused(sowlight("games", "show", "1", "--db", missing), "no archive at", "sowlight play")
    assert not os.path.exists(missing)


def test_the_archive_lives_in_the_user_data_directory_unless_told(tmp_path):
    home = tmp_path / "home"
    env = {"HOME": str(home), "XDG_DATA_HOME": "", "APPDATA": ""}
    ok(sowlight("play", "--no-board", "--variant", "kalah", "--vs", "self", "--depth", "1", input="", env=env))
    assert (home / ".local" / "share" / "sowlight" / "archive.sqlite3").exists()
    env["SOWLIGHT_DB"] = str(tmp_path / "env.sqlite3")
    ok(sowlight("play", "--no-board", "--variant", "kalah", "--vs", "self", "--depth", "1", input="", env=env))
    assert len(json.loads(ok(sowlight("games", "list", "--json", env=env)).stdout)) == 1
    ok(sowlight("play", "--no-board", "--variant", "kalah", "--vs", "self", "--depth", "1", "--no-archive", input="", env=env))
    assert len(json.loads(ok(sowlight("games", "list", "--json", env=env)).stdout)) == 1


def test_hint_finds_a_forced_capture():
    # Only F captures (its seed makes two in pit a); A and C capture nothing.
    pos = "oware grand_slam=no-capture 2,0,3,0,0,1/1,2,0,0,0,4 17,18 0"
    r = ok(sowlight("hint", "--position", pos, "--time", "2"))
    assert "best move for player 0: F" in r.stdout
    j = json.loads(ok(sowlight("hint", "--position", pos, "--depth", "6", "--json")).stdout)
    assert j["best"] == "F" and j["move"] == 5 and j["depth"] == 6 and sorted(j["legal"]) == ["A", "C", "F"]
    j = json.loads(ok(sowlight("hint", "--variant", "kalah", "--moves", "1. C,D b", "--depth", "3", "--json")).stdout)
    assert j["to_move"] == 1 and j["best"] in j["legal"]
    refused(sowlight("hint", "--variant", "kalah", "--moves", "C f"), "move 2 (f) is not played", "player 0 is to move")
    refused(sowlight("hint", "--position", "oware - 1,2/3 0,0 0"), "Oware has 12 pits")
    refused(sowlight("hint"), "--position")


def test_import_shows_a_progress_bar_on_a_terminal(db, tmp_path):
    games = []
    for seed in range(40):
        rnd = random.Random(seed)
        g = mancala.Game("oware")
        for _ in range(6):
            g.play(rnd.choice(g.legal_moves()))
        games.append(gamerecord.from_game(g))
    src = tmp_path / "many.json"
    src.write_text(gamerecord.dumps(games), encoding="utf-8")
    master, slave = pty.openpty()
    env = dict(os.environ)
    env.pop("SOWLIGHT_DB", None)
    p = subprocess.Popen([sys.executable, "-m", "sowlight", "games", "import", str(src), "--db", db],
                         stdout=subprocess.PIPE, stderr=slave, env=env, text=True)
    os.close(slave)
    out, _ = p.communicate(timeout=120)
    err = b""
    while select.select([master], [], [], 0.5)[0]:
        try:
            chunk = os.read(master, 65536)
        except OSError:
            break
        if not chunk:
            break
        err += chunk
    os.close(master)
    assert p.returncode == 0 and "imported 40 games" in out
    assert b"importing [" in err and b"] 40/40" in err and b"\r" in err
    # Not a terminal: no bar.
    r = ok(sowlight("games", "import", str(src), "--db", str(tmp_path / "b.sqlite3")))
    assert "importing [" not in r.stderr


def test_games_without_a_subcommand_prints_help():
    r = sowlight("games")
    assert r.returncode == 2 and "list" in r.stdout and "export" in r.stdout


def test_a_stored_game_the_rules_no_longer_accept_is_still_shown(db):
    play_kalah(db)
    # As if the rules had changed since: the third move becomes one they refuse.
    con = sqlite3.connect(db)
    con.execute("UPDATE moves SET move = '99' WHERE ply = 3")
    con.commit()
    con.close()
    r = sowlight("games", "show", "1", "--db", db)
    assert r.returncode == 0 and '[Variant "kalah"]' in r.stdout and "store 0" in r.stdout
    assert "ply 3" in r.stderr and "does not replay with this version's rules" in r.stderr
    refused(sowlight("replay", "1", "--db", db), "ply 3", "does not replay")
    assert ok(sowlight("games", "export", "1", "--db", db)).stdout.startswith('[Variant "kalah"]')


def test_a_record_saved_by_a_windows_editor_reads(db, tmp_path):
    f = tmp_path / "notepad.txt"
    f.write_bytes(b"\xef\xbb\xbf" + RECORD.replace("\n", "\r\n").encode("utf-8"))
    assert "imported 2 games" in ok(sowlight("games", "import", str(f), "--db", db)).stdout
