"""`sowlight sync`, `sowlight board info`, `sowlight board ports` against the mock board behind a
pseudo-terminal, as a user runs them; and what they say when there is no board."""
import io
import json
import os

import pytest
from serial.tools import list_ports, list_ports_common

from sowlight import cli
from sowlight.games.archive import Archive
from sowlight_fw.link import codec

from mockboard import MockBoard, PtyBoard, random_games

pytestmark = pytest.mark.filterwarnings("error::pytest.PytestUnhandledThreadExceptionWarning")


@pytest.fixture
def board():
    return MockBoard(random_games(5, seed=8))


@pytest.fixture
def pty_board(board):
    pb = PtyBoard(board)
    yield pb
    pb.close()


def test_sync_into_the_archive_then_nothing_left(pty_board, board, tmp_path, capsys):
    db = str(tmp_path / "a.sqlite3")
    assert cli.main(["sync", "--port", pty_board.port, "--db", db]) == 0
    out = capsys.readouterr().out
    total = sum(len(g["records"]) for g in board.games.values())
    assert "5 games listed, %d records stored, 5 games acknowledged" % total in out
    assert all(v["synced"] == board.last_ply(g) for g, v in board.games.items())
    with Archive(db) as arc:
        assert sorted(g["board_game"] for g in arc.games()) == sorted(board.games)
    assert cli.main(["sync", "--port", pty_board.port, "--db", db, "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["complete"] and report["stored"] == 0 and report["acked"] == {}
    assert report["games"] == sorted(board.games)


def test_board_info(pty_board, board, capsys):
    assert cli.main(["board", "info", "--port", pty_board.port]) == 0
    out = capsys.readouterr().out
    assert "board     %s" % board.board_id in out and "mockboard 0.1" in out
    assert "protocol  %d.%d" % (codec.PROTO_MAJOR, codec.PROTO_MINOR) in out and "oware, kalah, ayoayo" in out and "5 games, 5 not yet synced" in out
    assert cli.main(["board", "info", "--port", pty_board.port, "--json"]) == 0
    info = json.loads(capsys.readouterr().out)
    assert info["hello"]["board"] == board.board_id and info["port"] == pty_board.port
    assert [g["game"] for g in info["journal"]] == list(board.games) and "re" not in info["hello"]


def test_no_board_plugged_in(monkeypatch, tmp_path, capsys):
    monkeypatch.setattr(list_ports, "comports", lambda: [list_ports_common.ListPortInfo("/dev/ttyS0", True)])
    db = tmp_path / "a.sqlite3"
    assert cli.main(["sync", "--db", str(db)]) == 1
    err = capsys.readouterr().err
    assert err.startswith("sowlight sync: no board found") and "--port" in err and "/dev/ttyS0" in err
    assert not db.exists()  # no archive is made for nothing
    assert cli.main(["board", "info"]) == 1
    assert "sowlight board info: no board found" in capsys.readouterr().err


def test_a_port_that_is_not_there(capsys, tmp_path):
    assert cli.main(["sync", "--port", "/dev/sowlight-none", "--db", str(tmp_path / "a.db")]) == 1
    assert "there is no serial port /dev/sowlight-none" in capsys.readouterr().err


def test_a_board_that_does_not_answer(tmp_path, capsys):
    import pty
    import tty
    master, slave = pty.openpty()  # a port where nothing runs
    tty.setraw(slave)
    try:
        assert cli.main(["board", "info", "--port", os.ttyname(slave)]) == 1
    finally:
        os.close(master)
        os.close(slave)
    assert "does not answer" in capsys.readouterr().err


def test_usb_ids_are_checked(capsys):
    with pytest.raises(SystemExit):
        cli.main(["sync", "--vid", "nothex"])
    assert "not a USB id" in capsys.readouterr().err


def test_board_ports_lists_and_marks(monkeypatch, capsys):
    pico = list_ports_common.ListPortInfo("/dev/ttyACM0", True)
    pico.vid, pico.pid, pico.description = 0x2E8A, 0x0005, "Board in FS mode"
    monkeypatch.setattr(list_ports, "comports", lambda: [list_ports_common.ListPortInfo("/dev/ttyS0", True), pico])
    assert cli.main(["board", "ports"]) == 0
    out = capsys.readouterr().out
    assert "/dev/ttyACM0" in out and "2E8A:0005" in out and "board: /dev/ttyACM0" in out


def test_sync_draws_a_progress_bar_on_a_terminal_only(pty_board, board, tmp_path, capsys, monkeypatch):
    from sowlight.terminal import progress
    db = str(tmp_path / "a.sqlite3")
    monkeypatch.setattr(progress, "is_terminal", lambda stream: True)
    assert cli.main(["sync", "--port", pty_board.port, "--db", db]) == 0
    err = capsys.readouterr().err
    total = sum(len(g["records"]) for g in board.games.values())
    assert "\rsyncing [" in err and "] 1/5 games" in err
    assert "\rsyncing [" + "#" * 30 + "] 5/5 games, %d records stored" % total in err and err.endswith("\n")
    monkeypatch.undo()
    assert cli.main(["sync", "--port", pty_board.port, "--db", db]) == 0
    assert capsys.readouterr().err == ""      # a pipe, a log: no bar


def test_the_progress_bar_follows_a_total_that_grows():
    from sowlight.terminal import progress

    class Tty(io.StringIO):
        def isatty(self):
            return True

    out = Tty()
    bar = progress.Bar("syncing", out, width=10)
    bar.show(1, 2, "a long detail")
    bar.show(1, 2, "a long detail")         # the same line: not drawn again
    bar.show(2, 4)
    bar.close()
    text = out.getvalue()
    assert text == ("\rsyncing [#####.....] 1/2 a long detail"
                    "\rsyncing [#####.....] 2/4" + " " * len(" a long detail") + "\n")
    quiet = io.StringIO()                   # not a terminal: nothing at all
    bar = progress.Bar("syncing", quiet)
    bar.show(1, 2)
    bar.close()
    assert quiet.getvalue() == ""
