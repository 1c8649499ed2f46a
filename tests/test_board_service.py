"""`sowlight board selftest` and `sowlight board calibrate` over the link, on a virtual board (the real
firmware's service modes behind a pseudo-terminal), and what they say without a board."""
import json
import os

import pytest
from serial.tools import list_ports

from sowlight import cli
from sowlight.board import link
from sowlight.board import ports
from sowlight.simulation.virtual import VirtualBoard
from sowlight_fw import config as fw_config

pytestmark = pytest.mark.skipif(not hasattr(os, "openpty"), reason="virtual boards need pseudo-terminals")

@pytest.fixture
def board():
    vb = VirtualBoard(variant="oware")
    vb.start()
    yield vb
    vb.stop()


def state_of(path):
    lk = link.Link(ports.opener(port=path), reconnect_for=5.0)
    try:
        lk.connect()
        return lk.request("get_state"), lk.request("sim", {"act": "seeds"})
    finally:
        lk.close()


def test_selftest_lights_every_led_and_reads_every_cell(board, capsys):
    assert cli.main(["board", "selftest", "--port", board.path]) == 0
    out = capsys.readouterr().out
    assert "self-test of board %s on %s (occupancy-mux sensors)" % (board.board_id, board.path) in out
    assert "leds      14 lit one after the other" in out
    # Pits hold seeds (the sensor sees them covered), stores are empty.
    assert "pit A     30000" in out and "pit a     30000" in out and "store 1    3000" in out and "problems  none" in out
    assert board.strip.writes > 14          # one write per LED lit in turn, at least
    assert cli.main(["board", "selftest", "--port", board.path, "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["board"] == board.board_id and report["report"]["leds"] == 14
    assert report["report"]["cells"] == [30000] * 12 + [3000] * 2 and report["report"]["problems"] == []
    state, _ = state_of(board.path)
    assert state["phase"] == "await_lift"   # the game goes on afterwards


def test_guided_calibration_on_a_virtual_board_moves_the_seeds_and_keeps_the_game(board, capsys):
    before, seeds = state_of(board.path)
    assert cli.main(["board", "calibrate", "--port", board.path]) == 0
    out = capsys.readouterr().out
    assert "the board shows its menu while it calibrates: the game waits" in out
    assert "virtual board: every seed taken off" in out and "virtual board: 1 seed put in every cell" in out
    assert "saved: the board uses the new levels now" in out and "back to the game" in out
    after, seeds_after = state_of(board.path)
    assert (after["game"], after["ply"], after["phase"], after["pos"]) == (
        before["game"], before["ply"], before["phase"], before["pos"])
    assert seeds_after["counts"] == seeds["counts"]
    # The levels are in the board's config file now (a copy of the preset of its own).
    with open(board.config_path) as f:
        saved = json.load(f)["calibration"]
    assert saved["empty"] == [3000] * 14 and saved["covered"] == [30000] * 14
    fw_config.check(dict(json.load(open(board.config_path))))


def test_calibration_step_by_step(board, capsys):
    assert cli.main(["board", "calibrate", "--port", board.path, "--step", "save"]) == 1
    assert "calibrate empty and full first" in capsys.readouterr().err
    assert cli.main(["board", "calibrate", "--port", board.path, "--step", "full", "--json"]) == 0
    full = json.loads(capsys.readouterr().out)
    assert full["step"] == "full" and full["readings"] == [30000] * 12 + [3000] * 2
    assert cli.main(["board", "calibrate", "--port", board.path, "--step", "empty"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("empty: read every cell empty") and "--step save" in out
    assert state_of(board.path)[0]["phase"] == "calibrating"
    assert cli.main(["board", "calibrate", "--port", board.path, "--step", "cancel"]) == 0
    assert "cancelled" in capsys.readouterr().out
    assert state_of(board.path)[0]["phase"] == "await_lift"


def test_a_guided_calibration_of_a_real_board_asks_and_can_be_declined(capsys, monkeypatch):
    # The guided steps wait for the user at each step; the answer to "save?" is no.
    answers = iter(["", "", "n"])
    asked = []
    opened = []
    real_connect = link.Link.connect

    def connect(lk, *args, **kw):
        hello = real_connect(lk, *args, **kw)
        hello.pop("virtual")                # as a board with real seeds says: the user moves them
        opened.append(lk)
        return hello

    def read(prompt):
        # The person takes the seeds off and covers the pits: here, the test's hands.
        asked.append(prompt)
        lk = opened[-1]
        if prompt.startswith("Take every seed"):
            for c in range(14):
                if lk.request("sim", {"act": "seeds"})["counts"][c]:
                    lk.request("sim", {"act": "remove", "cell": c})
        elif prompt.startswith("Put seeds"):
            for c in range(14):
                lk.request("sim", {"act": "add", "cell": c})
        return next(answers)

    monkeypatch.setattr(link.Link, "connect", connect)
    monkeypatch.setattr("builtins.input", read)
    vb = VirtualBoard(variant="kalah")
    vb.start()
    try:
        status = cli.main(["board", "calibrate", "--port", vb.path])
    finally:
        vb.stop()
    out = capsys.readouterr().out
    assert status == 0 and "not saved: the board keeps its old levels" in out
    assert [a.split(",")[0] for a in asked] == ["Take every seed off the board", "Put seeds in every pit and store",
                                                "save these levels to the board? [Y/n] "]
    assert "empty: read" in out and "pit A      3000" in out and "covered: read" in out


def test_no_board(monkeypatch, capsys):
    monkeypatch.setattr(list_ports, "comports", lambda: [])
    assert cli.main(["board", "selftest"]) == 1
    assert capsys.readouterr().err.startswith("sowlight board selftest: no board found")
    assert cli.main(["board", "calibrate", "--port", "/nonexistent", "--step", "empty"]) == 1
    assert "there is no serial port /nonexistent" in capsys.readouterr().err
