"""`sowlight play` on a board, run as a user runs it: a virtual board when none is attached,
moves typed and carried out by robot hands as the LEDs show, the user as the hands (lift,
drop ...) with a wrong act flagged as the board flags it, the game archived as it goes."""
import io
import json
import os
import subprocess
import sys

import pytest
from serial.tools import list_ports

import mancala
from sowlight import cli
from sowlight.terminal import render

pytestmark = pytest.mark.skipif(not hasattr(os, "openpty"), reason="virtual boards need pseudo-terminals")


@pytest.fixture(autouse=True)
def archive_in_tmp(tmp_path, monkeypatch):
    """Every game is archived: keep these tests' games out of the user's archive."""
    path = str(tmp_path / "archive.sqlite3")
    monkeypatch.setenv("SOWLIGHT_DB", path)
    return path


def sowlight(*args, input=None, timeout=180):
    return subprocess.run([sys.executable, "-m", "sowlight", *args], input=input, capture_output=True, text=True,
                          timeout=timeout)


def archived():
    r = sowlight("games", "list", "--json")
    assert r.returncode == 0, r.stderr
    return json.loads(r.stdout)


def test_with_no_board_attached_a_virtual_board_is_started_and_typed_moves_are_played(monkeypatch, capsys):
    monkeypatch.setattr(list_ports, "comports", lambda: [])          # nothing plugged in
    monkeypatch.setattr(sys, "stdin", io.StringIO("C\nboard\nquit\n"))
    status = cli.main(["play", "--depth", "2", "--seed", "1"])
    out, err = capsys.readouterr()
    assert status == 1, err                                            # stopped by quit
    assert "no board attached: playing on a virtual board" in out
    assert "the hands set the seeds out as the LEDs ask" in out
    assert "player 0 plays C" in out and "lift C (4): sow D E F a" in out
    assert "computer (player 1) plays" in out
    assert "the hands: lift C (4)" in out                             # the robot's acts, told
    assert "game stopped (2 moves played)" in out
    # The live board: the LEDs under the pits, and what they mean.
    assert render.legend(["lift"])[0] in out and "<- to move" in out
    assert "saved as game 1 in" in err and "Traceback" not in err
    (g,) = archived()
    assert g["variant"] == "oware" and g["moves"] == 2 and g["board"].startswith("sowlight-2x6-stores-")


def test_the_user_as_the_hands_and_a_wrong_act_flagged_as_the_board_flags_it():
    script = "\n".join([
        "lift a",            # player 1's pit, at player 0's turn: the board flags it
        "undo",              # the hands put it back
        "lift C", "drop D", "drop E", "drop F", "drop a",          # C, sown by hand
        "take Q", "drop", "drop b x",                               # bad acts: explained, nothing done
        "quit"]) + "\n"
    r = sowlight("play", "--virtual", "--vs", "human", input=script)
    out = r.stdout
    assert r.returncode == 1, r.stderr
    flagged = out.index("the board flashes: not what it expected")
    assert out.index("board: a looks empty") < flagged or "board: a looks empty" in out
    assert "!   not as it should be" in out[flagged:]
    assert "the mistake taken back: the hands put the seeds back" in out
    assert "in the hand: 4" in out
    assert "player 0 plays C" in out
    assert "'Q' is not a pit of Oware" in out and "drop which pit?" in out
    assert "drop takes a number of seeds after the pit" in out
    assert "Traceback" not in r.stderr
    (g,) = archived()
    assert g["moves"] == 1


def test_the_computer_against_itself_on_a_virtual_board_plays_a_game_to_its_end():
    r = sowlight("play", "--virtual", "--variant", "kalah", "-o", "seeds=2", "--vs", "self", "--depth", "1", input="")
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr
    game = mancala.Game("kalah", seeds=2)
    last = r.stdout.strip().splitlines()[-1]
    assert "wins" in last or "Draw" in last
    plays = [l for l in r.stdout.splitlines() if l.startswith("computer (player ")]
    (g,) = archived()
    assert g["variant"] == game.id and g["moves"] == len(plays) and g["result"] in ("1-0", "0-1", "1/2-1/2")


def test_undo_against_the_computer_goes_back_to_the_human_turn():
    r = sowlight("play", "--virtual", "--depth", "1", input="C\nundo\nmoves\nquit\n")
    out = r.stdout
    assert "taken back: the hands put the seeds back" in out
    after = out[out.index("taken back"):]
    assert "legal moves: A B C D E F" in after                 # player 0 again, at the start
    assert "game stopped (0 moves played)" in after


def test_bad_moves_and_commands_are_explained_and_asked_again():
    r = sowlight("play", "--virtual", "--vs", "human", input="Z\nb\nnew bao\nhelp\nconfirm\nquit\n")
    out = r.stdout
    assert "not played: 'Z' is not a pit of Oware" in out
    assert "not played: pit b belongs to player 1, and player 0 is to move" in out
    assert "no new game: this board has no bao" in out or "no new game:" in out
    assert "lift PIT" in out and "what its LED asks for" in out
    assert "Traceback" not in r.stderr and r.returncode == 1


def test_a_port_that_is_not_there_is_a_clear_error():
    r = sowlight("play", "--port", "/nonexistent", input="quit\n", timeout=60)
    assert r.returncode == 1
    assert "sowlight play: there is no serial port /nonexistent" in r.stderr and "Traceback" not in r.stderr
    assert r.stdout == ""


def test_bad_variant_or_option_is_said_before_any_board():
    r = sowlight("play", "--virtual", "--variant", "owarre", timeout=60)
    assert r.returncode == 2 and "did you mean oware" in r.stderr and r.stdout == ""
    r = sowlight("play", "--computer", "3", timeout=60)
    assert r.returncode == 2 and "--computer names a player" in r.stderr


def test_the_board_is_drawn_with_what_each_led_asks_for():
    g = mancala.Game("oware")
    lines = render.board(g, {0: ("lift", 1), 7: ("trail", 2), 12: ("dest", 1), 13: ("take", 1)}, [5] * 12 + [0, 1])
    b_column = lines[1].index("[") + 4 * 4                  # b: the fifth pit of the top row (f e d c b a)
    assert lines[2].strip() == "t2" and lines[2].index("t2") == b_column + 1
    assert lines[3].startswith("store 1 ( 1)T") and lines[3].endswith("<( 0) store 0")
    assert lines[5].strip() == "^" and lines[4].startswith("             [ 5]")
    assert render.board(g) == [l for i, l in enumerate(render.board(g, {})) if i not in (2, 5)]
    assert render.mark("need", 4) == "+4" and render.mark("something new") == "*"


def test_on_a_board_with_real_seeds_the_screen_follows_the_hands_and_the_computer_moves_by_the_hint(tmp_path):
    """A board whose seeds the program cannot move: the person moves them (here: a test thread acting
    on the virtual seeds directly, at a person's pace); the computer's move is shown as the board's hint."""
    import threading
    import time

    from sowlight.games import archive
    from sowlight.play import board as boardplay
    from sowlight.board import view as boardview
    from sowlight.simulation.robot import physical_steps
    from sowlight_fw import virtual as fw_virtual

    conn = boardview.open_board(virtual="always", variant="oware")
    conn.view.virtual = False                 # as a real board: nothing is moved for the player
    vb = conn.virtual
    ctl = lambda: vb.app.controller

    def wait(cond, timeout=15):
        end = time.monotonic() + timeout
        while not cond():
            assert time.monotonic() < end, "the board never got there: %s" % ctl().state
            time.sleep(0.02)

    def carry_out(move):
        """A person making `move` on the board, one act every 0.15 s."""
        c = ctl()
        for act, cell, n, to in physical_steps(c.game.copy().play(move), list(c.gmap)):
            vb.sim.act({"act": act if act != "place" else "add", "cell": cell, "n": n if act == "place" else None,
                        "to": to})
            time.sleep(0.15)

    def set_out():
        wait(lambda: ctl().state == "setup")
        fw_virtual.set_out(vb.sim, ctl())                         # the person sets the seeds out ...
        wait(lambda: fw_virtual.ready_to_confirm(ctl()))
        vb.buttons.press("confirm")                               # ... and confirms

    person = threading.Thread(target=set_out, daemon=True)
    person.start()
    script = []

    def read(prompt):
        step = len(script)
        script.append(prompt)
        if step == 0:
            wait(lambda: ctl().state == "await_lift")
            return "C"
        if step == 1:
            carry_out(2)                                          # C, by hand
            wait(lambda: ctl().game.to_move == 1 and ctl().hints and ctl().hint_move is not None)
            time.sleep(0.5)                                       # the screen says it is the hint
            carry_out(ctl().hint_move)                            # the computer's move, by hand
            wait(lambda: ctl().game.to_move == 0)
            time.sleep(0.5)
            return "quit"
        raise EOFError

    out = io.StringIO()
    store = archive.Archive(str(tmp_path / "a.sqlite3"))
    try:
        bg = boardplay.BoardGame(conn, variant="oware", computer=[1], depth=2, read=read, out=out, store=store)
        status = bg.run()
        bg.archive()
        games = store.games()
    finally:
        store.close()
        conn.close()
    text = out.getvalue()
    assert status == 1 and len(script) >= 2, text        # (the input thread may ask once more)
    assert "set the seeds out as the LEDs show" in text
    assert "move C: lift C (4): sow D E F a" in text and "carry it out on the board" in text
    assert "player 0 plays C" in text
    hint = text[text.index("computer (player 1): its move is the board's hint, "):].split(",")[1].split(":")[0].strip()
    assert "computer (player 1) plays %s" % hint in text
    assert games[0]["moves"] == 2
