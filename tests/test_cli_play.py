"""`sowlight play --no-board` (the terminal game) and `sowlight variants`, run as a user runs them.

The game on a board is tested in test_cli_play_board.py."""
import json
import subprocess
import sys

import pytest


@pytest.fixture(autouse=True)
def archive_in_tmp(tmp_path, monkeypatch):
    """`sowlight play` saves every game: keep these tests' games out of the user's archive."""
    path = str(tmp_path / "archive.sqlite3")
    monkeypatch.setenv("SOWLIGHT_DB", path)
    return path


def sowlight(*args, input=None, timeout=120):
    return subprocess.run([sys.executable, "-m", "sowlight", *args], input=input, capture_output=True,
                          text=True, timeout=timeout)


def test_play_against_the_computer_step_by_step():
    r = sowlight("play", "--no-board", "--variant", "Wari", "--depth", "2", input="C\nquit\n")
    assert r.returncode == 1, r.stderr
    out = r.stdout
    assert "Oware" in out and "store 0" in out and "store 1" in out
    assert "player 0 plays C" in out
    assert "lift C (4): sow D E F a" in out
    assert "computer (player 1) plays" in out
    assert "game stopped (2 moves played)" in out


def test_bad_input_is_explained_and_asked_again():
    r = sowlight("play", "--no-board", "--vs", "human", input="Z\n\nb\nC\nmoves\nhelp\nundo\nundo\nquit\n")
    out = r.stdout
    assert "not played: 'Z' is not a pit of Oware" in out
    assert "not played: pit b belongs to player 1, and player 0 is to move" in out
    assert "legal moves: a b c d e f" in out  # after C, player 1 is to move
    assert "pit name" in out  # help
    assert out.count("taken back") == 1 and "nothing to take back" in out
    assert "Traceback" not in r.stderr


def test_end_of_input_stops_cleanly():
    r = sowlight("play", "--no-board", "--vs", "human", input="A\n")
    assert r.returncode == 1
    assert "input ended" in r.stdout and "Traceback" not in r.stderr


@pytest.mark.parametrize("variant", ["oware", "kalah", "ayoayo"])
def test_computer_against_itself_plays_to_the_end(variant):
    r = sowlight("play", "--no-board", "--variant", variant, "--vs", "self", "--depth", "1", input="")
    assert r.returncode == 0, r.stdout[-2000:] + r.stderr
    last = r.stdout.strip().splitlines()[-1]
    assert "wins" in last or "Draw" in last


def test_two_people_can_finish_a_game():
    # Both players always choose their first legal move: a scripted game to the end.
    import mancala
    g = mancala.Game("kalah")
    lines = []
    while not g.is_over():
        m = g.legal_moves()[0]
        lines.append(g.move_name(m))
        g.play(m)
    r = sowlight("play", "--no-board", "--variant", "kalah", "--vs", "human", input="\n".join(lines) + "\n")
    assert r.returncode == 0
    o = g.outcome()
    assert ("player 0: %d, player 1: %d" % tuple(o.scores)) in r.stdout


def test_bad_variant_or_option_is_a_clear_error():
    r = sowlight("play", "--no-board", "--variant", "owarre")
    assert r.returncode == 2 and "did you mean oware" in r.stderr and "Traceback" not in r.stderr
    r = sowlight("play", "--no-board", "--variant", "oware", "-o", "grand_slam=maybe")
    assert r.returncode == 2 and "grand_slam" in r.stderr
    r = sowlight("play", "--no-board", "-o", "seeds")
    assert r.returncode == 2 and "NAME=VALUE" in r.stderr


def test_variants_lists_every_rule_set_with_its_source():
    r = sowlight("variants", "--json")
    rows = json.loads(r.stdout)
    ids = {row["id"] for row in rows}
    assert {"oware", "kalah", "choro", "omweso"} <= ids
    choro = next(row for row in rows if row["id"] == "choro")
    assert not choro["playable"] and "CHORO" in choro["source"]
    text = sowlight("variants").stdout
    assert "003 OWARE" in text and "no rules in the sources" in text


def test_every_game_played_is_saved_with_its_moves_and_take_backs(archive_in_tmp):
    r = sowlight("play", "--no-board", "--vs", "human", input="C\nf\nD\nundo\nE\nquit\n")
    assert r.returncode == 1 and "saved as game 1 in %s" % archive_in_tmp in r.stderr
    game = json.loads(sowlight("games", "show", "1", "--json").stdout)
    assert [m["notation"] for m in game["moves"]] == ["C", "f", "E"]
    assert game["players"] == ["human", "human"] and game["result"] == "*"
    assert game["moves"][0]["trace"][0] == ["lift", 2, 4, -1]


def test_a_finished_game_is_saved_with_its_result(archive_in_tmp):
    r = sowlight("play", "--no-board", "--variant", "kalah", "--vs", "self", "--depth", "1", input="")
    assert r.returncode == 0
    [row] = json.loads(sowlight("games", "list", "--json").stdout)
    assert row["result"] in ("1-0", "0-1", "1/2-1/2") and row["reason"] and row["ended"]
    assert row["players"] == ["computer (depth 1)", "computer (depth 1)"]
    last = r.stdout.strip().splitlines()[-1]
    shown = sowlight("games", "show", "1").stdout
    assert last in shown  # the same outcome line


def test_no_archive_and_db_choose_where_games_go(tmp_path, archive_in_tmp):
    r = sowlight("play", "--no-board", "--vs", "human", "--no-archive", input="C\nquit\n")
    assert "saved" not in r.stderr
    other = str(tmp_path / "other.sqlite3")
    r = sowlight("play", "--no-board", "--vs", "human", "--db", other, input="C\nquit\n")
    assert "saved as game 1 in %s" % other in r.stderr
    assert not (tmp_path / "archive.sqlite3").exists()


def test_a_game_with_no_move_is_not_saved(archive_in_tmp):
    r = sowlight("play", "--no-board", "--vs", "human", input="quit\n")
    assert "saved" not in r.stderr
    r = sowlight("play", "--no-board", "--vs", "human", input="C\nundo\nquit\n")
    assert "saved" not in r.stderr
    assert json.loads(sowlight("games", "list", "--json").stdout) == []


def test_an_archive_that_cannot_be_opened_stops_play_with_what_to_do(tmp_path):
    bad = tmp_path / "not-a-db.sqlite3"
    bad.write_bytes(b"not a database, just text" * 10)
    r = sowlight("play", "--no-board", "--db", str(bad), input="C\nquit\n")
    assert r.returncode == 1 and "is damaged" in r.stderr and "--no-archive" in r.stderr
    assert "Traceback" not in r.stderr
