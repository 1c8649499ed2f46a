"""`sowlight demo`: robot hands play on a virtual board, doing only what its LEDs show; the game is
then synced into the archive."""
import json
import os
import re
import signal
import subprocess
import sys
import time

import pytest

import mancala
from sowlight import cli

from mockboard import MockBoard, PtyBoard, random_games

pytestmark = pytest.mark.skipif(not hasattr(os, "openpty"), reason="virtual boards need pseudo-terminals")

SOWLIGHT = [sys.executable, "-m", "sowlight"]


def sowlight(db, *args, timeout=300):
    r = subprocess.run(SOWLIGHT + list(args) + (["--db", db] if db and args[0] in ("demo", "games") else []),
                       capture_output=True, text=True, timeout=timeout)
    return r.returncode, r.stdout, r.stderr


def moves_printed(out):
    """The moves `sowlight demo` printed: [(player, name)]."""
    return re.findall(r"^ *\d+\. player (\d) plays (\S+)", out, re.M)


def test_a_whole_game_of_oware_is_played_and_archived(tmp_path):
    db = str(tmp_path / "a.sqlite3")
    t0 = time.monotonic()
    status, out, err = sowlight(db, "demo", "--variant", "oware", "--depth", "1")
    took = time.monotonic() - t0
    assert status == 0, out[-3000:] + err
    assert out.startswith("playing on a virtual board (the real firmware, seeds in software) at /dev/")
    played = moves_printed(out)
    # The same game as the search playing itself with the rules core: the robot played what it meant.
    g = mancala.Game("oware")
    from mancala.search import best_move
    names = []
    while not g.is_over():
        m = best_move(g, depth=1).best
        names.append(g.move_name(m))
        g.play(m)
    assert [n for _, n in played] == names
    o = g.outcome()
    assert ("player 0: %d, player 1: %d" % tuple(o.scores)) in out
    status, lst, err = sowlight(db, "games", "list", "--json")
    (row,) = json.loads(lst)
    assert row["variant"] == "oware" and row["moves"] == len(played) and row["scores"] == list(o.scores)
    assert row["result"] == {0: "1-0", 1: "0-1", None: "1/2-1/2"}[o.winner]
    assert "archived as game 1 in %s" % db in out
    print("a whole game of Oware, %d moves, in %.1f s" % (len(played), took))


def test_n_moves_on_a_virtual_board_already_running_then_more_on_the_same_game(tmp_path):
    env = dict(os.environ, XDG_DATA_HOME=str(tmp_path / "data"))
    proc = subprocess.Popen(SOWLIGHT + ["board", "virtual"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
    try:
        path = proc.stdout.readline().decode().strip()
        assert path.startswith("/"), proc.stderr.read()
        db = str(tmp_path / "a.sqlite3")
        status, out, err = sowlight(db, "demo", "--port", path, "--moves", "3", "--seed", "4", "--acts")
        assert status == 0, out + err + "\nthe board: " + _ended(proc)
        assert "new game 1: Oware" in out and len(moves_printed(out)) == 3
        assert "    lift " in out and "    drop " in out                      # --acts: every act told
        status, out, err = sowlight(db, "demo", "--port", path, "--moves", "2", "--seed", "5")
        assert status == 0, out + err
        assert "the game in progress: board game 1, oware" in out and len(moves_printed(out)) == 2
        status, lst, err = sowlight(db, "games", "list", "--json")
        (row,) = json.loads(lst)
        assert row["moves"] == 5 and row["board_game"] == 1 and row["result"] == "*"
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(10)
        proc.stdout.close()
        proc.stderr.close()


def _ended(proc):
    """What the board's process said, if it ended."""
    if proc.poll() is None:
        return "still running"
    return "ended with %s: %s" % (proc.returncode, proc.stderr.read().decode())


def test_choices_and_load_cells(tmp_path):
    # Giuthi: the player chooses which way to sow, at a choice the occupancy sensors cannot see.
    status, out, err = sowlight(None, "demo", "--variant", "giuthi", "--moves", "4", "--seed", "2", "--no-archive")
    assert status == 0, out[-3000:] + err
    assert len(moves_printed(out)) == 4 and "archived" not in out
    # A board whose load cells count every seed: no trail, nothing to confirm.
    cfg = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "hardware", "examples",
                       "2x6-stores-hx711.json")
    status, out, err = sowlight(None, "demo", "--variant", "kalah", "--preset", cfg, "--moves", "4", "--seed", "2",
                                "--no-archive")
    assert status == 0, out[-3000:] + err
    assert "4 moves by" in out and "and 0 button presses" in out


def test_lanes_feed_of_one_seed_on_occupancy_sensors_and_on_load_cells():
    # A feed takes one seed of several into the hand: load cells see it, occupancy sensors
    # do not (the pit still holds seeds), and the hands go on to the drop the rules say.
    status, out, err = sowlight(None, "demo", "--variant", "lane", "--option", "setup=even", "--moves", "16",
                                "--seed", "2", "--no-archive")
    assert status == 0, out[-3000:] + err
    feeds = re.findall(r"^ *\d+\. player \d plays \S+ +take 1 from \S+ to the hand: sow \S+$", out, re.M)
    assert len(moves_printed(out)) == 16 and feeds, out[-3000:]
    # On load cells, from the placing stage on.
    cfg = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "hardware", "examples",
                       "2x6-stores-hx711.json")
    status, out, err = sowlight(None, "demo", "--variant", "lane", "--preset", cfg, "--moves", "30", "--seed", "2",
                                "--no-archive")
    assert status == 0, out[-3000:] + err
    assert len(moves_printed(out)) == 30, out[-3000:]
    assert len(re.findall(r"take 1 from \S+ to the hand: sow", out)) >= 2, out[-3000:]


def test_a_board_with_real_seeds_is_refused(tmp_path, capsys):
    board = PtyBoard(MockBoard(random_games(1, seed=3)))
    try:
        assert cli.main(["demo", "--port", board.port, "--no-archive"]) == 1
    finally:
        board.close()
    err = capsys.readouterr().err
    assert "has real seeds: the robot's hands move a virtual board's seeds" in err and "Traceback" not in err


def test_bad_arguments(capsys, tmp_path):
    assert cli.main(["demo", "--moves", "0"]) == 2
    assert "--moves must be 1 or more" in capsys.readouterr().err
    assert cli.main(["demo", "--variant", "owarre"]) == 2
    assert "did you mean oware" in capsys.readouterr().err
    assert cli.main(["demo", "-o", "seeds=3"]) == 2
    assert "--option needs --variant" in capsys.readouterr().err
    assert cli.main(["demo", "--port", "/nonexistent"]) == 1
    assert "there is no serial port /nonexistent" in capsys.readouterr().err
    assert cli.main(["demo", "--variant", "kalah", "--preset", "2x99"]) == 1
    assert "unknown preset '2x99'" in capsys.readouterr().err
