"""`sowlight play` as a new user met it: what the first trial found, each run through the CLI on a
virtual board (or in the terminal alone) as a user types it."""
import json
import os
import subprocess
import sys

import pytest

from clirun import sowlight

pytestmark = [pytest.mark.skipif(not hasattr(os, "openpty"), reason="virtual boards need pseudo-terminals"),
              pytest.mark.usefixtures("archive_in_tmp")]

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LOAD_CELLS = os.path.join(ROOT, "hardware", "examples", "2x6-stores-hx711.json")


def after(out, text):
    assert text in out, out[-3000:]
    return out[out.index(text) + len(text):]


def test_a_capture_after_unseen_drops_asks_for_confirm_and_take_puts_the_seeds_in_the_store():
    # F d B a, then E by hand: its last seed lands unseen in d (it holds one), a capture of two.
    script = ["F", "d", "B", "a", "lift E", "drop F", "drop a", "drop b", "drop c", "drop d", "take d",
              "take d", "drop store 1", "drop store1", "take b to store", "drop store 7", "quit"]
    r = sowlight("play", "--virtual", "--vs", "human", input="\n".join(script) + "\n")
    out = r.stdout
    assert r.returncode == 1 and "Traceback" not in r.stderr, r.stderr
    rest = after(out, "the seeds marked t are in? then press confirm (type `confirm`)")
    rest = after(rest, "player 0 plays E")
    assert "take 2 from d to store 0" in rest and "( 2) store 0" in rest           # no seed lost
    assert "the hands cannot: d is empty: there is nothing to take" in rest         # a pit's name, not its cell
    assert rest.count("the hands cannot: the hand is empty") == 2                   # store 1 and store1 both named
    assert "there is no store 7 on this board: its stores are store 0, store 1" in rest
    (game,) = json.loads(sowlight("games", "list", "--json").stdout)
    assert game["moves"] == 5


def test_a_pit_the_player_may_lift_where_an_unseen_seed_went_is_marked_so():
    r = sowlight("play", "--virtual", "--vs", "human", input="C\nquit\n")
    rest = after(r.stdout, "player 0 plays C")
    picture = rest.split("player 1>")[0]
    marks = [l for l in picture.splitlines() if "^" in l][0]
    assert marks.split() == ["^"] * 5 + ["^t"]             # f e d c b, and a with C's last seed
    assert "^t  a pit the player to move may lift, once its seed marked t is in" in picture


def test_a_wrong_drop_the_sensors_cannot_see_is_said():
    r = sowlight("play", "--virtual", "--vs", "human", input="lift C\ndrop D\ndrop D\nquit\n")
    out = r.stdout
    assert out.count("the sensors cannot see a seed dropped into D") == 1, out[-3000:]


def test_kiothi_against_the_computer_passes_its_redeployment_on_the_board():
    r = sowlight("play", "--virtual", "-v", "kiothi", "--depth", "1", input="pass\nmoves\nquit\n")
    out = r.stdout
    assert "does not take it" not in out + r.stderr, out[-3000:] + r.stderr
    assert "player 0 plays pass" in out
    assert "computer (player 1) plays" in after(out, "player 0 plays pass")
    assert r.returncode == 1 and "Traceback" not in r.stderr


def test_egyptian_mankalah_on_a_board_that_cannot_count_names_what_plays_it():
    r = sowlight("play", "-v", "egyptian mankalah", "--virtual", input="quit\n")
    out = r.stdout
    assert "occupancy sensors cannot count them" in out
    assert "sowlight play -v egyptian-simple -o setup=even" in out
    assert "--preset %s" % LOAD_CELLS in out


def test_the_computer_places_handfuls_in_the_terminal_and_on_a_board_with_load_cells():
    r = sowlight("play", "--no-board", "-v", "egyptian-simple", "--vs", "self", "--depth", "1", input="")
    assert r.returncode == 0, r.stdout[-2000:]
    placed = [l for l in r.stdout.splitlines() if l.strip().startswith("place ")]
    assert 12 <= len(placed) <= 40 and "place 6 in A" in placed[0]          # handfuls, spread over the pits
    # On a board: the computer (the distributor) places, then it is the chooser's turn.
    r = sowlight("play", "-v", "egyptian-simple", "--virtual", "--preset", LOAD_CELLS, "--depth", "1",
                 input="quit\n")
    out = r.stdout
    assert out.count("computer (player 1) plays") >= 12, out[-3000:]
    assert "place 6 in A" in out and "Traceback" not in r.stderr


def games():
    r = sowlight("games", "list", "--json")
    assert r.returncode == 0, r.stderr
    return json.loads(r.stdout)


def test_names_are_recorded_in_the_terminal_and_on_a_board():
    sowlight("play", "--no-board", "--vs", "human", "--names", "Ama; Kofi", input="C\nquit\n")
    sowlight("play", "--virtual", "--depth", "1", "--names", "Ama", input="C\nquit\n")
    sowlight("play", "--virtual", "--depth", "1", input="C\nquit\n")
    assert [g["players"] for g in games()] == [["Ama", "Kofi"], ["Ama", "computer (depth 1)"],
                                              ["human", "computer (depth 1)"]]
    r = sowlight("play", "--no-board", "--names", "A; B; C", input="quit\n")
    assert r.returncode == 2 and "--names gives 3 names, and the game has 2 players" in r.stderr


def test_an_unfinished_game_is_played_on_with_game_in_the_terminal_and_on_a_board():
    sowlight("play", "--no-board", "--vs", "human", input="C\nf\nquit\n")
    r = sowlight("play", "--no-board", "--vs", "human", "--game", "1", input="moves\nB\nquit\n")
    assert r.returncode == 1 and "playing on game 1" in r.stderr and "saved as game 1" in r.stderr
    assert "legal moves: A B C D E F" in r.stdout and "player 0 plays B" in r.stdout
    (g,) = games()
    assert g["moves"] == 3
    shown = sowlight("games", "show", "1").stdout
    assert "1. C f 2. B *" in shown
    # On a board: set to the position (the hands lay the seeds out), then the computer plays on.
    r = sowlight("play", "--virtual", "--depth", "1", "--game", "1", input="moves\nquit\n")
    out = r.stdout
    assert "set to the archived game's position after 3 moves" in out, out[-3000:] + r.stderr
    assert "computer (player 1) plays" in out and "Traceback" not in r.stderr
    assert "[ 5][ 0][ 2][ 7][ 6][ 6]" in out                 # the position after C f B, player 0's row
    # What cannot be played on is said.
    r = sowlight("play", "--no-board", "--game", "9")
    assert r.returncode == 1 and "sowlight games list" in r.stderr
    sowlight("play", "--no-board", "-v", "kalah", "-o", "seeds=1", "--vs", "self", "--depth", "1", input="")
    over = [g for g in games() if g["result"] != "*"][0]["number"]
    r = sowlight("play", "--no-board", "--game", str(over))
    assert r.returncode == 1 and "is over" in r.stderr and "sowlight replay %d" % over in r.stderr


def test_an_unfinished_game_of_a_board_that_is_gone_is_deleted_with_force():
    sowlight("play", "--virtual", "--vs", "human", input="C\nquit\n")
    r = sowlight("games", "delete", "1", "--yes")
    assert r.returncode == 1 and "sowlight games delete 1 --force" in r.stderr
    r = sowlight("games", "delete", "1", "--yes", "--force")
    assert r.returncode == 0 and games() == []


def test_version_and_every_sub_command_says_what_it_does():
    r = sowlight("--version")
    assert r.returncode == 0 and r.stdout.startswith("sowlight 0.")
    r = sowlight("games", "list", "--help")
    assert "List the games in the archive." in r.stdout
    r = sowlight("variants")
    assert "1 player " in r.stdout and "1 players" not in r.stdout


def test_a_board_that_goes_away_is_said_and_the_game_stops_without_a_long_wait(tmp_path):
    import time
    board = subprocess.Popen([sys.executable, "-m", "sowlight", "board", "virtual", "--variant", "oware"],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        port = board.stdout.readline().strip()
        play = subprocess.Popen([sys.executable, "-m", "sowlight", "play", "--port", port, "--wait", "2",
                                 "--vs", "human"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True)
        play.stdin.write("C\n")
        play.stdin.flush()
        time.sleep(4)
    finally:
        board.terminate()
        board.wait(30)
    time.sleep(4)                       # more than --wait: it is said
    start = time.monotonic()
    out, err = play.communicate("quit\n", timeout=60)
    assert time.monotonic() - start < 8, err
    assert "the link to the board is down" in out
    assert "the board has been gone for 2 s: the game is kept in its journal" in out
    assert "not archived yet: the board is not connected" in err and "Traceback" not in err


def test_after_the_board_restarts_the_screen_shows_it_as_it_is_now():
    import io
    import time
    from sowlight.play import board as boardplay
    from sowlight.board import view as boardview
    conn = boardview.open_board(virtual="always", variant="oware")
    script = iter(["C", None, "board", "quit"])

    def read(prompt):
        line = next(script)
        if line is None:                # the board is reset (its button): a new hello, the game from its journal
            end = time.monotonic() + 60
            while "player 0 plays C" not in out.getvalue() and time.monotonic() < end:
                time.sleep(0.1)
            time.sleep(1)
            conn.virtual.reset()
            time.sleep(3)
            line = next(script)
        return line
    out = io.StringIO()
    try:
        bg = boardplay.BoardGame(conn, variant="oware", computer=[], read=read, out=out)
        bg.run()
    finally:
        conn.close()
    text = out.getvalue()
    rest = after(text, "the board restarted: its game is read again from its journal")
    assert "player 1 <- to move" in rest and "[ 4][ 4][ 0][ 5][ 5][ 5]" in rest, text[-3000:]


def test_ctrl_c_during_the_robots_move_stops_the_game_and_keeps_it():
    import signal
    import time
    play = subprocess.Popen([sys.executable, "-m", "sowlight", "play", "--virtual", "--vs", "self", "--depth", "1"],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env=dict(os.environ, PYTHONUNBUFFERED="1"))
    # Ctrl-C once the board has started and the robot's second move is told: a game takes dozens
    # of moves more, so it comes in the middle of the game whatever the machine's speed.
    seen = []
    deadline = time.monotonic() + 120
    while sum("computer (player " in line for line in seen) < 2 and time.monotonic() < deadline:
        line = play.stdout.readline()
        if not line:
            break
        seen.append(line)
    play.send_signal(signal.SIGINT)
    out, err = play.communicate(timeout=60)
    out = "".join(seen) + out
    assert play.returncode == 130, out[-2000:] + err
    assert "interrupted: game stopped" in out and "Traceback" not in err
    assert "saved as game 1" in err
    (g,) = games()
    told = out.count("computer (player ")
    assert 0 < g["moves"] and told <= g["moves"] <= told + 1, out[-2000:] + err  # (one may be journalled, not yet told)


def test_undo_after_a_wrong_lift_takes_back_only_the_lift():
    # Kalah: C ends in the store, another move for player 0; then a pit of player 1 lifted.
    r = sowlight("play", "--virtual", "-v", "kalah", "--vs", "human", input="C\nlift a\nundo\nmoves\nquit\n")
    out = r.stdout
    rest = after(out, "the board flashes: not what it expected")
    assert "the mistake taken back: the hands put the seeds back" in rest
    assert "legal moves: A B D E F" in rest                     # C stays played: player 0 moves again
    assert "C looks empty" not in out and "game stopped (1 moves played)" in rest


def test_at_the_end_the_winners_pits_are_not_offered_and_the_board_is_drawn_once():
    r = sowlight("play", "--virtual", "-v", "kalah", "-o", "seeds=1", "--vs", "self", "--depth", "1", input="")
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr
    end = r.stdout[r.stdout.rindex("computer (player "):]
    assert end.count("store 1 (") == 1, end                   # one picture after the last move
    assert "may lift" not in end and "game over" in end
    last = end.strip().splitlines()[-1]
    assert "wins" in last or "Draw" in last
    if "wins" in last:
        assert "*   the winner's pits (the game is over)" in end


def test_the_drop_mark_after_unseen_drops_says_they_come_first():
    # After B e, F (5) sows a b c d (each holding seeds: unseen) and then e (empty: seen).
    r = sowlight("play", "--virtual", "--vs", "human", input="B\ne\nlift F\nquit\n")
    rest = after(r.stdout, "in the hand: 5")
    assert "v   drop a seed here once the seeds marked t on the way are in (sowing order)" in rest
    assert "drop one seed here next" not in rest
