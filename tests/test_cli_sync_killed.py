"""`sowlight sync` killed at any moment, then run again: nothing lost, nothing stored twice.

As a user would meet it: a virtual board in its own process, a demo that plays
moves on it without archiving them, then `sowlight sync` processes killed with
SIGKILL at moments spread over their run (connecting, fetching, committing,
acknowledging), and a last sync that completes.
"""
import json
import os
import signal
import subprocess
import sys
import time

import pytest

pytestmark = pytest.mark.skipif(not hasattr(os, "openpty"), reason="pseudo-terminals are POSIX only")

SOWLIGHT = [sys.executable, "-m", "sowlight"]
MOVES = 16          # the game synced: long enough that a sync takes a while


def test_a_sync_killed_mid_way_and_run_again_archives_every_move_once(tmp_path):
    env = dict(os.environ, XDG_DATA_HOME=str(tmp_path / "data"))
    db = str(tmp_path / "archive.sqlite3")
    board = subprocess.Popen(SOWLIGHT + ["board", "virtual"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)

    def run(*args):
        r = subprocess.run(SOWLIGHT + list(args), capture_output=True, text=True, env=env, timeout=120)
        return r.returncode, r.stdout, r.stderr

    try:
        path = board.stdout.readline().decode().strip()
        assert path.startswith("/"), board.stderr.read()
        status, out, err = run("demo", "--port", path, "--moves", str(MOVES), "--seed", "3", "--no-archive")
        assert status == 0, out + err
        kills = 0
        # From before the sync has connected to well into it: a sync that completes leaves the
        # next ones nothing to do, so the first moments are the short ones.
        for delay in (0.05, 0.15, 0.3, 0.5, 0.7, 0.9, 1.2):
            p = subprocess.Popen(SOWLIGHT + ["sync", "--port", path, "--db", db], stdout=subprocess.DEVNULL,
                                 stderr=subprocess.DEVNULL, env=env)
            time.sleep(delay)
            if p.poll() is None:
                p.send_signal(signal.SIGKILL)
                kills += 1
            p.wait(10)
        assert kills, "no sync was cut off: the test proves nothing"
        status, out, err = run("sync", "--port", path, "--db", db, "--json")
        assert status == 0, out + err
        status, out, err = run("games", "list", "--db", db, "--json")
        assert status == 0, err
        (row,) = json.loads(out)
        assert row["moves"] == MOVES and row["board_game"] == 1
        status, out, err = run("board", "info", "--port", path, "--json")
        assert status == 0, err
        info = json.loads(out)
        (game,) = [g for g in info["journal"] if g["game"] == 1]
        assert game["synced"] == game["last"]        # the board may now free it: the archive holds it all
    finally:
        board.send_signal(signal.SIGTERM)
        board.wait(10)
        board.stdout.close()
        board.stderr.close()
