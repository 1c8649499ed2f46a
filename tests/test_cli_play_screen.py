"""`sowlight play`'s screen, run as a user runs it: every board shape drawn as a board, and in a
terminal the board redrawn in place above a prompt with line editing and history."""
import os
import select
import sys
import time

import pytest

import mancala
from clirun import sowlight

pytestmark = pytest.mark.usefixtures("archive_in_tmp")


def first_board(out, game):
    """The lines of the first board printed, and the x of each pit's name in them."""
    lines = out.splitlines()
    names = {game.pit_name(i): i for i in range(game.n_pits)}
    xs = {}
    for line in lines[:30]:
        words = line.split()
        if words and all(w in names for w in words[:game.pits_per_row]) and len(words) >= game.pits_per_row:
            at = 0
            for w in words[:game.pits_per_row]:
                at = line.index(" %s " % w if line.find(" %s " % w, at) >= 0 else w, at) + 1
                xs[names[w]] = at
    return xs


@pytest.mark.parametrize("variant", ["omweso", "hus", "mongola", "aweet"])
def test_a_four_row_board_shows_each_players_outer_and_inner_row_with_facing_pits_aligned(variant):
    r = sowlight("play", "--no-board", "-v", variant, "--vs", "human", input="quit\n")
    assert r.returncode == 1, r.stderr
    out = r.stdout
    rows = [l for l in out.splitlines() if l.rstrip().endswith(("outer row", "inner row", "<- to move"))]
    assert [l.split("player ")[1].split(" <-")[0] for l in rows[:4]] == [
        "1, outer row", "1, inner row", "0, inner row", "0, outer row"]
    game = mancala.Game(variant)
    xs = first_board(out, game)
    assert len(xs) == game.n_pits, out
    for pit in range(game.n_pits):
        if game.is_front(pit):
            assert xs[pit] == xs[game.opposite(pit)], (game.pit_name(pit), out)   # facing pits: one column
        assert xs[pit] == xs[game.behind(pit)]                                      # a column of a player's own


@pytest.mark.parametrize("players", [3, 4])
def test_kpo_with_three_or_four_players_shows_whose_pits_are_whose(players):
    r = sowlight("play", "--no-board", "-v", "kpo", "-o", "players=%d" % players, "--vs", "human", input="quit\n")
    assert r.returncode == 1, r.stderr
    lines = r.stdout.splitlines()
    boxes = [l for l in lines if l.strip().startswith("[")][:2]
    game = mancala.Game("kpo", players=players)
    owners = [l for l in lines if l.count("player ") >= 2 and "store" not in l]
    assert len(owners) == 2, r.stdout                          # over the far row, under the near row
    for p in range(players):
        assert any("player %d" % p in l for l in owners)
    # The bars between players' pits stand in the same place in both rows.
    assert boxes[0].index("|") == boxes[1].index("|") and boxes[0].count("|") == (2 if players == 3 else 1)
    assert "store %d ( 0)" % (players - 1) in r.stdout and "player 0 to move" in r.stdout
    xs = first_board(r.stdout, game)
    for pit in range(game.n_pits):
        assert xs[pit] == xs[game.opposite(pit)]


def test_a_one_player_board_has_its_store_where_the_sowing_reaches_it():
    r = sowlight("play", "--no-board", "-v", "sitas-solitaire", input="quit\n")
    lines = r.stdout.splitlines()
    assert any(l.startswith("store 0 ( 0)") for l in lines) and r.stdout.count("<- to move") == 1


def _pty_run(args, keys, env, pause=1.0, timeout=60):
    import pty
    pid, fd = pty.fork()
    if pid == 0:
        os.execvpe(sys.executable, [sys.executable, "-m", "sowlight", *args], env)
    out = b""

    def pump(seconds):
        nonlocal out
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            if select.select([fd], [], [], 0.05)[0]:
                try:
                    data = os.read(fd, 65536)
                except OSError:
                    return
                if not data:
                    return
                out += data

    def wait_for(text, seconds=20):
        end = time.monotonic() + seconds
        while text not in out and time.monotonic() < end:
            pump(0.1)

    for expect, key in keys:
        wait_for(expect.encode())
        pump(pause)
        os.write(fd, key.encode())
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            break
        pump(0.1)
    else:
        os.kill(pid, 9)
        os.waitpid(pid, 0)
        raise AssertionError("still running: %r" % out[-2000:])
    pump(0.2)
    os.close(fd)
    return out.decode(errors="replace"), os.waitstatus_to_exitcode(status)


@pytest.mark.skipif(not hasattr(os, "openpty"), reason="needs pseudo-terminals")
def test_in_a_terminal_the_board_is_redrawn_in_place_and_the_prompt_has_history(tmp_path):
    env = dict(os.environ, XDG_DATA_HOME=str(tmp_path / "data"), TERM="xterm", PROMPT_TOOLKIT_NO_CPR="1",
               COLUMNS="100", LINES="40")
    keys = [("player 0>", "C\r"), ("player 1>", "moves\r"), ("legal moves", "\x1b[A"), ("moves", "\r"),
            ("player 1>", "quit\r")]
    out, status = _pty_run(["play", "--no-board", "--vs", "human"], keys, env)
    assert status == 1, out
    assert out.count("legal moves: a b c d e f") == 2, out        # the second by the history (up arrow)
    assert out.count("player 1> moves\r\n") == 2                  # each line typed stays in the scrollback
    assert "player 0 plays C" in out and "game stopped (1 moves played)" in out
    # The board is drawn at the bottom above the prompt and redrawn there: the cursor goes up over it
    # and the old picture is erased, rather than a new board printed below the last.
    assert "\x1b[5A" in out and "\x1b[J" in out
    assert "Traceback" not in out
    assert out.rindex("\x1b[?2004l") > out.rindex("\x1b[?2004h")     # the terminal given back as it was
    assert "+moves" in (tmp_path / "data" / "sowlight" / "play-history").read_text()     # kept for the next game


@pytest.mark.skipif(not hasattr(os, "openpty"), reason="needs pseudo-terminals")
def test_on_a_board_the_live_screen_follows_the_hands_and_gives_the_terminal_back(tmp_path):
    env = dict(os.environ, XDG_DATA_HOME=str(tmp_path / "data"), TERM="xterm", PROMPT_TOOLKIT_NO_CPR="1",
               COLUMNS="100", LINES="40")
    keys = [("player 0>", "C\r"), ("computer (player 1) plays", ""), ("player 0>", "quit\r")]
    out, status = _pty_run(["play", "--virtual", "--depth", "1"], keys, env)
    assert status == 1, out[-3000:]
    assert "player 0 plays C" in out and "game stopped (2 moves played)" in out and "Traceback" not in out
    assert out.rindex("\x1b[?2004l") > out.rindex("\x1b[?2004h")
