"""`sowlight demo` goes on from what another run left half done, and holds on a noisy line.

- A demo killed with seeds in the robot's hand: the next run finds the move from the seeds (the
  legal move whose first acts made them, the board still following it) and finishes it, or puts
  the seeds where the board's position has them when the board took the move already; it never
  lifts a new pit over a half-made move.
- Against `sowlight board virtual --drop 0.001 --corrupt 0.001`: the runs complete (a `leds`
  event lost on the way is made good from the board's state), each in bounded time.
"""
import json
import os
import signal
import subprocess
import sys

import pytest

from test_demo import SOWLIGHT, moves_printed, sowlight

pytestmark = pytest.mark.skipif(not hasattr(os, "openpty"), reason="virtual boards need pseudo-terminals")

HX711 = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "hardware", "examples",
                     "2x6-stores-hx711.json")


def _board(*args):
    proc = subprocess.Popen(SOWLIGHT + ["board", "virtual"] + list(args), stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE)
    path = proc.stdout.readline().decode().strip()
    assert path.startswith("/"), proc.stderr.read()
    return proc, path


def _stop(proc):
    proc.send_signal(signal.SIGTERM)
    proc.wait(10)
    proc.stdout.close()
    proc.stderr.close()


def _kill_after(path, drops, *args):
    """Run a demo on the board at `path` and kill it (SIGKILL) once it has told `drops` drops."""
    demo = subprocess.Popen(SOWLIGHT + ["demo", "--port", path, "--acts", "--no-archive"] + list(args),
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    seen = 0
    for line in demo.stdout:
        if b"    drop " in line:
            seen += 1
            if seen == drops:
                demo.kill()
                break
    demo.wait(10)
    demo.stdout.close()
    assert seen == drops


@pytest.mark.parametrize("preset, drops", [(HX711, 3), ("2x6-stores", 2)])
def test_a_move_left_half_done_is_finished_by_the_next_run(tmp_path, preset, drops):
    # Load cells see every seed: the board follows the move step by step and is still sowing when
    # the hands stop.  Occupancy sensors: the board took the move at its lift, the last drops unseen.
    proc, path = _board("--preset", preset)
    try:
        _kill_after(path, drops + 4, "--variant", "kalah", "--moves", "3", "--seed", "3")
        status, out, err = sowlight(None, "demo", "--port", path, "--moves", "2", "--seed", "5", "--no-archive",
                                    timeout=120)
        assert status == 0, out + err
        assert "the game in progress: board game 1, kalah" in out
        assert "was half made" in out or "put them right" in out, out
        assert len(moves_printed(out)) == 2
        # All in order now: the next run has nothing to pick up, and plays on.
        status, out, err = sowlight(None, "demo", "--port", path, "--moves", "1", "--seed", "6", "--no-archive",
                                    timeout=120)
        assert status == 0, out + err
        assert "half made" not in out and "put them right" not in out and len(moves_printed(out)) == 1
        db = str(tmp_path / "a.sqlite3")
        status, out, err = sowlight(None, "sync", "--port", path, "--db", db)
        assert status == 0, out + err
        status, lst, err = sowlight(db, "games", "list", "--json")
        (row,) = json.loads(lst)
        assert row["variant"] == "kalah" and row["moves"] >= 4      # the board's own journal replays whole
    finally:
        _stop(proc)


def test_the_move_found_half_made_is_the_one_the_hands_began():
    # Through the API: the hands lift a pit and sow part of it, then new hands take over.
    from sowlight.board.view import open_board
    from sowlight.simulation.robot import Robot, physical_steps
    import random
    conn = open_board(virtual="always", variant="kalah", preset=HX711, wait=5.0)
    try:
        view = conn.view
        conn.link.request("new_game", {"variant": "kalah", "options": {}})
        first = Robot(view, rng=random.Random(1))
        state = first.set_up()
        game = view.game(state)
        move = game.legal_moves()[-1]
        steps = physical_steps(game.copy().play(move), view.cells_of(game))
        for act, cell, n, to in steps[:3]:             # the lift and two drops
            view.sim(act, cell=cell)
        view.wait_for(lambda: view.refresh().get("phase") == "sowing", 3.0)
        second = Robot(view, rng=random.Random(2))
        told = second.resume()
        assert told and "the move %s was half made (3 of its %d acts)" % (game.move_name(move), len(steps)) in told
        m = second.play_move()
        assert m["move"] == move and m["player"] == game.to_move
        assert view.sim("seeds")["hand"] == 0
    finally:
        conn.close()


def test_demo_runs_complete_at_0_1_percent_drop_and_corruption():
    for seed in (1, 2):
        proc, path = _board("--drop", "0.001", "--corrupt", "0.001", "--seed", str(seed))
        try:
            status, out, err = sowlight(None, "demo", "--port", path, "--moves", "8", "--seed", str(seed),
                                        "--no-archive", timeout=90)
        finally:
            _stop(proc)
        assert status == 0, out[-2000:] + err
        assert len(moves_printed(out)) == 8
