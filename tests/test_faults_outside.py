"""Faults found by attacking the companion from outside (issue: records, boards, files, the
command line), each tried again as a user meets it: through `sowlight ...` (cli.main with the
argv a user types, or a subprocess), through a board on a pseudo-terminal, or through the files.

- Text from outside never reaches the terminal raw: escapes, OSC, BEL, C1 controls and bidi
  overrides in a record or a board's hello are shown as visible escapes, everywhere.
- A damaged archive is refused before anything is written; a cut-short one is not read silently.
- Hostile inputs (nan, inf, huge numbers, binary files, deep JSON, impossible dates, empty
  names) get a clear error and the documented exit status, never a traceback.
- Files are private (0600); a read-only archive is read without leaving files beside it.
- A long junk line on the link does not hold the board's next answer back.
"""
import hashlib
import json
import os
import shutil
import sqlite3
import stat
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

import mancala
from sowlight.games import archive
from sowlight.hardware import config as boardconfig
from sowlight import cli
from sowlight.hardware import drawings
from sowlight.games import record as gamerecord
from sowlight.terminal import harmless

from mockboard import MockBoard, PtyBoard, random_games
from test_firmware_link import cable, fake  # noqa: F401  (fixtures: the real app on a scripted cable)

pytestmark = pytest.mark.filterwarnings("error::pytest.PytestUnhandledThreadExceptionWarning")

ROOT = Path(__file__).resolve().parent.parent
REFERENCE = ROOT / "hardware" / "boards" / "2x6-stores.json"

# What a hostile name carries: CSI colour, BEL, an OSC title ended by BEL, ST, a C1 CSI, a bidi
# override, a zero-width joiner, DEL (no ';': a name holds none).
EVIL = "\x1b[31mEve\x07\x1b]2:owned\x07\x1b\\\x9b2J\u202eevil\u200d\x7f"


def run(capsys, *argv, stdin=None, monkeypatch=None):
    if stdin is not None:
        import io
        monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    status = cli.main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def assert_harmless(*texts):
    """No character a terminal would obey: only printable ones and line breaks."""
    for text in texts:
        bad = [c for c in text if not (c.isprintable() or c == "\n")]
        assert not bad, "raw %r in %r" % (bad[:5], text[:300])


def sowlight(*args, input=None):
    env = dict(os.environ)
    env.pop("SOWLIGHT_DB", None)
    return subprocess.run([sys.executable, "-m", "sowlight", *args], input=input, capture_output=True, timeout=120,
                          env=env)


def digest(path):
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


def evil_record():
    """A whole Oware game whose Players, Event and Site tags carry terminal controls."""
    g = mancala.Game("oware")
    r = gamerecord.Replay(mancala.to_text(g))
    for _ in range(12):
        r.move(move=r.game.legal_moves()[0])
    d = gamerecord.new_game(start=r.start, players=[EVIL, "Bob\u202e"], started="2026-11-27T10:00:00Z",
                            tags=[["Event", "club\x1b[2J night\x85"], ["Site", "\x1b]8;;http://evil\x07here"]])
    d["moves"] = r.events
    gamerecord.settle(d, r)
    return d


@pytest.fixture
def evil_db(tmp_path, capsys):
    db = str(tmp_path / "a.sqlite3")
    src = tmp_path / "evil.json"
    src.write_text(gamerecord.dumps([evil_record()]), encoding="utf-8")
    status, out, err = run(capsys, "games", "import", str(src), "--db", db)
    assert status == 0, err
    return db


# -- text from outside on the terminal -------------------------------------------------------------

def test_the_one_function_shows_controls_as_escapes_and_keeps_printable_text():
    assert harmless.text("Kwame Nkrumah, Ọ̀yọ́, 名人") == "Kwame Nkrumah, Ọ̀yọ́, 名人"
    assert harmless.text("\x1b[31m\x07\x9b\u202e\t\udcff") == "\\x1b[31m\\x07\\x9b\\u202e\\t\\udcff"
    assert harmless.text("a\nb") == "a\\nb" and harmless.text("a\nb", lines=True) == "a\nb"
    obj = {"name": EVIL + "\U000e0001"}
    text = harmless.json_dumps(obj, indent=1)
    assert_harmless(text)
    assert json.loads(text) == obj          # the same JSON value


def test_a_records_controls_are_escaped_by_every_command_that_shows_it(evil_db, capsys, monkeypatch, tmp_path):
    outs = []
    for argv in (["games", "list"], ["games", "list", "--json"], ["games", "show", "1"], ["games", "show", "1", "--json"],
                 ["games", "export", "1"], ["games", "export", "1", "-f", "json"], ["replay", "1"],
                 ["hint", "--game", "1", "--depth", "2"]):
        status, out, err = run(capsys, *argv, "--db", evil_db)
        assert status == 0, (argv, err)
        outs += [out, err]
    status, out, err = run(capsys, "games", "delete", "1", "--db", evil_db, stdin="n\n", monkeypatch=monkeypatch)
    assert status == 1 and "not deleted" in out
    outs += [out, err]
    status, out, err = run(capsys, "hint", "--game", "\x1b[31m1\u202e", "--db", evil_db)
    assert status == 1 and "there is no game \\x1b[31m1\\u202e" in err
    outs += [out, err]
    assert_harmless(*outs)
    listing = outs[0]
    assert "\\x1b[31mEve\\x07\\x1b]2:owned\\x07" in listing      # shown, visibly
    # The exported record and JSON still hold the names exactly: export -> import -> export is the same.
    status, record, _ = run(capsys, "games", "export", "1", "--db", evil_db)
    assert '[Players "\\u001b[31mEve\\u0007' in record and '[Event "club\\u001b[2J night\\u0085"]' in record
    (tmp_path / "again.rec").write_text(record, encoding="utf-8")
    again = str(tmp_path / "again.sqlite3")
    assert run(capsys, "games", "import", str(tmp_path / "again.rec"), "--db", again)[0] == 0
    status, shown, _ = run(capsys, "games", "show", "1", "--json", "--db", again)
    d = json.loads(shown)
    assert d["players"] == [EVIL, "Bob\u202e"] and ["Event", "club\x1b[2J night\x85"] in d["tags"]
    assert run(capsys, "games", "export", "1", "--db", again)[1] == record


def test_a_boards_hello_with_controls_is_shown_harmless_by_board_info_and_sync(tmp_path, capsys):
    board_id = "sowlight-\x1b]2:pwned\x07\u202e01"
    board = MockBoard(random_games(3, seed=4), board_id=board_id, sw="fw \x1b[2J\x9b1.0")
    board.tamper = lambda mtype, p: dict(p, msg="\x1b[31mred\x07") if mtype == "error" else p
    pb = PtyBoard(board)
    try:
        db = str(tmp_path / "a.sqlite3")
        outs = []
        for argv in (["board", "info"], ["board", "info", "--json"], ["sync", "--db", db], ["sync", "--db", db, "--json"]):
            status, out, err = run(capsys, *argv, "--port", pb.port)
            assert status == 0, (argv, err)
            outs += [out, err]
    finally:
        pb.close()
    assert_harmless(*outs)
    assert "board     sowlight-\\x1b]2:pwned\\x07\\u202e01" in outs[0] and "fw \\x1b[2J\\x9b1.0" in outs[0]
    assert json.loads(outs[2])["hello"]["board"] == board_id
    status, out, err = run(capsys, "games", "list", "--db", db)
    assert_harmless(out, err)
    with archive.Archive(db) as arc:
        assert {g["board"] for g in arc.games()} == {board_id}       # stored exactly as the board said it


def test_arguments_quoted_by_argparse_are_shown_harmless(capsys):
    with pytest.raises(SystemExit) as e:
        cli.main(["games", "list", "\x1b]2:owned\x07", "\u202e"])
    out, err = capsys.readouterr()
    assert e.value.code == 2 and "unrecognized arguments: \\x1b]2:owned\\x07 \\u202e" in err
    assert_harmless(out, err)


def test_a_control_character_in_a_configs_name_fails_the_check_and_drawings_stay_xml(tmp_path, capsys):
    config = json.loads(REFERENCE.read_text())
    for key, value in (("name", "Board\x1b[31m red"), ("description", "right\u202eleft")):
        bad = dict(config, **{key: value})
        path = tmp_path / ("bad-%s.json" % key)
        path.write_text(json.dumps(bad))
        status, out, err = run(capsys, "board", "config", "check", str(path))
        assert status == 1 and "%s: must be one line of printable text" % key in out, out
        assert_harmless(out, err)
        status, out, err = run(capsys, "board", "config", "drawings", str(path), "--out", str(tmp_path / "svg"))
        assert status == 1 and "is not a valid board config" in err
    # The drawings escape whatever they are given: a name set in code is still valid XML, shown visibly.
    board = boardconfig.load_board(str(REFERENCE))
    board.name = "B\x1b[31m<&>\x07"
    for svg in drawings.all_drawings(board).values():
        ET.fromstring(svg)
        assert "B\\x1b[31m&lt;&amp;&gt;\\x07" in svg


# -- a damaged archive -----------------------------------------------------------------------------

def archive_with_games(path, n=12):
    with archive.Archive(path) as arc:
        for i in range(n):
            g = mancala.Game("oware")
            for _ in range(30):
                if g.is_over():
                    break
                g.play(g.legal_moves()[i % len(g.legal_moves())])
            arc.record_game(g, players=["Ann %d" % i, "Bob"])


def test_sync_refuses_a_damaged_archive_and_writes_nothing(tmp_path, capsys):
    db = str(tmp_path / "a.sqlite3")
    archive_with_games(db)
    page = 4096
    data = bytearray(Path(db).read_bytes())
    assert len(data) >= 7 * page
    data[5 * page:6 * page] = bytes(range(256)) * (page // 256)     # page 6 overwritten
    Path(db).write_bytes(bytes(data))
    before = digest(db)
    pb = PtyBoard(MockBoard(random_games(2, seed=3)))
    try:
        status, out, err = run(capsys, "sync", "--port", pb.port, "--db", db)
    finally:
        pb.close()
    assert status == 1 and "is damaged" in err and "quick_check" in err and "nothing was written" in err
    assert digest(db) == before and not os.path.exists(db + "-wal")
    con = sqlite3.connect("file:%s?mode=ro" % db, uri=True)
    try:
        with pytest.raises(sqlite3.DatabaseError, match="malformed"):      # SQLite agrees: it is damaged
            con.execute("PRAGMA integrity_check").fetchall()
    finally:
        con.close()
    # every other command that writes refuses it too
    src = tmp_path / "g.json"
    src.write_text(gamerecord.dumps([evil_record()]))
    status, out, err = run(capsys, "games", "import", str(src), "--db", db)
    assert status == 1 and "is damaged" in err and digest(db) == before


def test_after_a_commit_a_damage_found_is_not_said_to_have_left_the_archive_untouched(tmp_path):
    db = str(tmp_path / "a.sqlite3")
    archive_with_games(db)
    arc = archive.Archive(db)
    other = None
    try:
        arc.record_game(mancala.Game("oware"))
        # The file is damaged under the open archive (every page but the header's), and another
        # writer changes it, so that this archive reads the file again instead of its cache.
        page = 4096
        with open(db, "r+b") as f:
            for p in range(1, os.path.getsize(db) // page):
                f.seek(p * page)
                f.write(bytes(range(256)) * (page // 256))
        other = sqlite3.connect(db, isolation_level=None)
        other.execute("PRAGMA user_version = %d" % other.execute("PRAGMA user_version").fetchone()[0])
        with pytest.raises(archive.CorruptArchiveError) as err:
            arc.games()
    finally:
        if other is not None:
            other.close()
        arc.close()
    assert "had committed 1 change to it before it found the damage" in str(err.value)
    assert "untouched" not in str(err.value)


def test_an_archive_cut_short_by_one_byte_is_refused_not_read_with_a_zero_in_a_move(tmp_path, capsys):
    db = str(tmp_path / "a.sqlite3")
    archive_with_games(db, n=3)
    size = os.path.getsize(db)
    os.truncate(db, size - 1)
    for argv in (["games", "show", "3", "--json"], ["games", "list"], ["games", "export", "--all"], ["replay", "1"]):
        status, out, err = run(capsys, *argv, "--db", db)
        assert status == 1 and "cut short" in err and "\\u0000" not in out, (argv, out[-300:], err)
    assert os.path.getsize(db) == size - 1      # and it was not written to


def test_a_damaged_position_inside_an_intact_file_is_reported_not_shown(tmp_path, capsys):
    db = str(tmp_path / "a.sqlite3")
    archive_with_games(db, n=1)
    con = sqlite3.connect(db)
    con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    con.close()
    data = Path(db).read_bytes()
    with archive.Archive(db) as arc:
        pos = arc.game(1)["moves"][4]["position"]
    at = data.index(pos.encode())
    damaged = data[:at + len(pos) - 1] + b"\x00" + data[at + len(pos):]   # its last byte, as a cut would
    Path(db).write_bytes(damaged)
    status, out, err = run(capsys, "games", "show", "1", "--json", "--db", db)
    assert status == 1 and "game 1, ply 5 does not read back as it was written" in err and out == ""


# -- hostile command lines and files: clean errors, documented exit codes -----------------------------

BIG = "9999999999999999999999"


@pytest.fixture
def one_game_db(tmp_path):
    db = str(tmp_path / "a.sqlite3")
    archive_with_games(db, n=1)
    return db


@pytest.mark.parametrize("argv, status, words", [
    (["hint", "--variant", "oware", "--time", "nan"], 2, "--time a number of seconds more than 0"),
    (["hint", "--variant", "oware", "--time", "inf"], 2, "--time a number of seconds more than 0"),
    (["games", "show", BIG], 1, "there is no game %s" % BIG),
    (["games", "delete", BIG, "--yes"], 1, "there is no game %s" % BIG),
    (["games", "export", BIG], 1, "there is no game %s" % BIG),
    (["replay", BIG], 1, "there is no game %s" % BIG),
    (["hint", "--game", BIG], 1, "there is no game %s" % BIG),
    (["games", "show", "\u00b2"], 1, "too short for a game id"),
    (["games", "list", "--last", BIG], 0, ""),
])
def test_hostile_arguments_get_a_clear_error(one_game_db, capsys, argv, status, words):
    got, out, err = run(capsys, *argv, "--db", one_game_db)
    assert got == status and words in err, (got, err)
    assert_harmless(out, err)


def test_hostile_import_files_get_a_clear_error(tmp_path, capsys):
    db = str(tmp_path / "a.sqlite3")
    files = {
        "binary.bin": bytes(range(256)) * 40,
        "latin1.rec": '[Variant "oware"]\n[Players "Jos\xe9; Ana"]\n\n*\n'.encode("latin-1"),
        "deep.json": b'{"format": "sowlight-games", "version": 1, "games": ' + b"[" * 100000 + b"]" * 100000 + b"}",
        "deep-objects.json": b'{"a":' * 100000 + b"1" + b"}" * 100000,
        "surrogate.json": json.dumps({"format": "sowlight-games", "version": 1, "games": [
            dict(gamerecord.dumps and json.loads(gamerecord.dumps([evil_record()]))["games"][0],
                 players=["\udcff", "Bob"])]}).encode(),
    }
    expect = {"binary.bin": "not UTF-8 text", "latin1.rec": "not UTF-8 text (byte 0xe9",
              "deep.json": "nested too deeply", "deep-objects.json": "nested too deeply",
              "surrogate.json": "half of a UTF-16 surrogate pair"}
    for name, data in files.items():
        (tmp_path / name).write_bytes(data)
        status, out, err = run(capsys, "games", "import", str(tmp_path / name), "--db", db)
        assert status == 1 and expect[name] in err and name in err, (name, err)
        assert_harmless(out, err)
    assert not os.path.exists(db)            # nothing imported, no archive made


@pytest.mark.parametrize("date, time, words", [
    ("2026.13.45", None, "Date 2026.13.45 is not a date of the calendar"),
    ("2026.02.30", None, "Date 2026.02.30 is not a date of the calendar"),
    ("2026.11.27", "25:61:99", "Time 25:61:99 is not a time of day"),
])
def test_impossible_dates_are_refused_on_import(tmp_path, capsys, date, time, words):
    record = '[Variant "oware"]\n[Date "%s"]\n%s[Result "*"]\n\n1. A *\n' % (date, '[Time "%s"]\n' % time if time else "")
    (tmp_path / "g.rec").write_text(record)
    status, out, err = run(capsys, "games", "import", str(tmp_path / "g.rec"), "--db", str(tmp_path / "a.sqlite3"))
    assert status == 1 and words in err, err
    d = json.loads(gamerecord.dumps([evil_record()]))
    d["games"][0]["started"] = "2026-13-45T25:61:99Z"
    (tmp_path / "g.json").write_text(json.dumps(d))
    status, out, err = run(capsys, "games", "import", str(tmp_path / "g.json"), "--db", str(tmp_path / "a.sqlite3"))
    assert status == 1 and "started must be YYYY-MM-DD" in err


def test_a_config_with_a_4301_digit_number_is_an_error_with_its_line(tmp_path, capsys):
    text = REFERENCE.read_text().replace('"format": 1', '"format": ' + "9" * 4301, 1)
    assert "9" * 4301 in text
    (tmp_path / "big.json").write_text(text)
    (tmp_path / "inf.json").write_text(REFERENCE.read_text().replace('"format": 1', '"format": 1e999', 1))
    (tmp_path / "digit.json").write_text(REFERENCE.read_text().replace('"format": 1', '"format": \u00b2', 1))
    for name, words in (("big.json", "a number 4301 characters long"), ("inf.json", "1e999 is too large"),
                        ("digit.json", "expected a value")):
        status, out, err = run(capsys, "board", "config", "check", str(tmp_path / name))
        assert status == 1 and words in out and ":2:" in out, (name, out)


@pytest.mark.parametrize("argv", [
    ["play", "--no-board", "--no-archive", "--variant", ""],
    ["hint", "--variant", " "],
    ["games", "list", "--variant", ""],
    ["games", "export", "--all", "--variant", ""],
    ["board", "virtual", "--variant", ""],
])
def test_an_empty_variant_is_a_bad_command_line_not_oware(argv, capsys):
    with pytest.raises(SystemExit) as e:
        cli.main(argv)
    out, err = capsys.readouterr()
    assert e.value.code == 2 and "give a variant's name" in err and out == ""


def test_exit_statuses_as_docs_cli_md_says(tmp_path, capsys):
    status, out, err = run(capsys, "board", "virtual", "--variant", "nosuch")
    assert status == 2 and "no variant is called 'nosuch'" in err
    bad = tmp_path / "bad.sqlite3"
    bad.write_bytes(b"SQLite format 3\x00" + bytes(5000))
    status, out, err = run(capsys, "play", "--no-board", "--db", str(bad))
    assert status == 1 and "is damaged" in err
    r = sowlight("hint", "--variant", "oware", "--time", "nan")     # once as a process: no traceback anywhere
    assert r.returncode == 2 and b"Traceback" not in r.stderr and b"--time" in r.stderr


# -- files: private, and left as they were ----------------------------------------------------------

def test_the_archive_journal_and_lock_files_are_private(tmp_path, capsys):
    db = tmp_path / "new" / "a.sqlite3"
    archive_with_games(str(db), n=1)
    assert stat.S_IMODE(os.stat(db).st_mode) == 0o600
    assert stat.S_IMODE(os.stat(db.parent).st_mode) == 0o700
    from sowlight.simulation.virtual import VirtualBoard
    journal = tmp_path / "j.journal"
    with VirtualBoard(variant="kalah", options={"seeds": 2}, journal=str(journal)):
        assert stat.S_IMODE(os.stat(str(journal) + ".lock").st_mode) == 0o600
    assert stat.S_IMODE(os.stat(journal).st_mode) == 0o600


def _unprivileged():
    """A command prefix that runs without the right to ignore file permissions (root's)."""
    if os.geteuid() != 0:
        return []
    if not shutil.which("setpriv"):
        pytest.skip("running as root without setpriv: permissions cannot be tried")
    return ["setpriv", "--bounding-set", "-dac_override,-dac_read_search,-fowner", "--"]


def test_a_read_only_archive_is_listed_and_left_exactly_as_it_was(tmp_path):
    prefix = _unprivileged()
    env = dict(os.environ)
    env.pop("SOWLIGHT_DB", None)
    for case in ("file", "folder"):
        folder = tmp_path / case
        folder.mkdir()
        db = folder / "a.sqlite3"
        archive_with_games(str(db), n=2)
        if case == "file":
            os.chmod(db, 0o444)
        else:
            os.chmod(folder, 0o555)
        try:
            before = sorted(os.listdir(folder)), digest(db)
            r = subprocess.run(prefix + [sys.executable, "-m", "sowlight", "games", "list", "--db", str(db)],
                               capture_output=True, text=True, env=env, timeout=60)
            assert r.returncode == 0 and "Ann 1; Bob" in r.stdout, (case, r.stderr)
            assert (sorted(os.listdir(folder)), digest(db)) == before, case      # no -wal, no -shm
            r = subprocess.run(prefix + [sys.executable, "-m", "sowlight", "games", "delete", "1", "--yes", "--db",
                                         str(db)], capture_output=True, text=True, env=env, timeout=60)
            assert r.returncode == 1 and "is read-only for you" in r.stderr and "nothing was written" in r.stderr
            assert (sorted(os.listdir(folder)), digest(db)) == before, case
        finally:
            os.chmod(folder, 0o755)


# -- the link ----------------------------------------------------------------------------------------

def test_a_200_kb_junk_line_does_not_hold_the_boards_next_answer_back(cable):  # noqa: F811
    c, a, step = cable
    c.take()
    c.hello()
    step()
    c.waiting += b"x" * 200000 + b"\n"
    seq = c.send("ping")
    scans = 0
    while not any(t == "pong" and p.get("re") == seq for t, p in step()):
        scans += 1
        assert scans < 30, "the ping waits behind the junk"      # 512 bytes a scan would take 400 scans (8 s)
    assert a.link.decoder.errors["too_long"] == 1


def test_demo_refuses_an_empty_variant_and_the_sync_summary_escapes_the_boards_text(tmp_path):
    from sowlight.games.sync import SyncReport
    r = subprocess.run([sys.executable, "-m", "sowlight", "demo", "--variant", ""], capture_output=True, text=True,
                       timeout=60)
    assert r.returncode == 2 and "give a variant's name" in r.stderr
    report = SyncReport("evil\x1b]0;owned\x07\nboard")
    report.problems[3] = "it said \x1b[31mred\nand more"
    text = report.summary()
    assert "\x1b" not in text and "\x07" not in text
    assert "\nboard:" not in text and "\nand more" not in text      # the board's line breaks are escaped
    assert "evil\\x1b]0;owned\\x07\\nboard" in text
