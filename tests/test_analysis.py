"""`sowlight analyse GAME`: every move valued by the engine, mistakes flagged, share of best moves --
through the CLI, against the search the hints use."""
import json
import random
import subprocess
import sys

import pytest

import mancala
from mancala.search import best_move
from sowlight.games import analysis
from sowlight.games import record as gamerecord

SOWLIGHT = [sys.executable, "-m", "sowlight"]
DEPTH = 3


def sowlight(*args, timeout=120):
    r = subprocess.run(SOWLIGHT + list(args), capture_output=True, text=True, timeout=timeout)
    return r.returncode, r.stdout, r.stderr


def searcher_vs_random(variant, seed, moves=40, **options):
    """Player 0 plays the search's best move (depth DEPTH), player 1 a random one."""
    rng = random.Random(seed)
    g = mancala.Game(variant, **options)
    while not g.is_over() and len(g.moves_played()) < moves:
        if g.to_move == 0:
            g.play(best_move(g, depth=DEPTH, max_nodes=10 ** 9).best)
        else:
            g.play(rng.choice(g.legal_moves()))
    return gamerecord.from_game(g, players=["Engine", "Random"], started="2026-11-20T10:00:00Z")


@pytest.fixture(scope="module")
def archived(tmp_path_factory):
    """An archive with two games imported through the CLI: (db, [game dicts])."""
    tmp = tmp_path_factory.mktemp("analyse")
    games = [searcher_vs_random("kalah", 1), searcher_vs_random("oware", 2, moves=30)]
    path = tmp / "games.json"
    path.write_text(gamerecord.dumps(games))
    db = str(tmp / "a.sqlite3")
    status, out, err = sowlight("games", "import", str(path), "--db", db)
    assert status == 0, err
    return db, games, str(path)


def test_every_move_is_valued_as_the_search_values_it(archived):
    db, games, _ = archived
    status, out, err = sowlight("analyse", "1", "--json", "--depth", str(DEPTH), "--db", db)
    assert status == 0, err
    rep = json.loads(out)
    d = games[0]
    assert rep["variant"] == "kalah" and rep["players"] == ["Engine", "Random"]
    assert [m["notation"] for m in rep["moves"]] == [e["notation"] for e in d["moves"]]
    game = gamerecord.position_game(d["start"])
    for m, e in zip(rep["moves"], d["moves"]):
        values = {x["notation"]: x["value"] for x in m["moves"]}
        # Every legal move is valued, best first; the best is the search's own value of the position.
        assert sorted(values) == sorted(game.move_name(x) for x in game.legal_moves())
        assert [x["value"] for x in m["moves"]] == sorted(values.values(), reverse=True)
        r = best_move(game, depth=DEPTH, max_nodes=10 ** 9)
        assert m["best_value"] == max(values.values())
        if abs(r.value) < 100000:
            assert m["best_value"] == r.value, m
            assert values[game.move_name(r.best)] == r.value
        assert m["value"] == values[m["notation"]] and m["loss"] == m["best_value"] - m["value"]
        expected = ("best" if m["loss"] == 0 else "blunder" if m["loss"] >= analysis.BLUNDER
                    else "mistake" if m["loss"] >= analysis.MISTAKE else None)
        if expected:
            assert m["verdict"] == expected, m
        game.play(gamerecord.move_from_json(e["move"]))
    # The search's own moves are all best moves at its depth; the random player's are not.
    share = {s["player"]: s for s in rep["share"]}
    assert share[0]["share"] == 1.0 and share[0]["moves"] > 5
    assert share[1]["share"] < 1.0
    flagged = [m["ply"] for m in rep["moves"] if m["verdict"] in ("mistake", "blunder")]
    assert flagged and [m["ply"] for m in rep["mistakes"]] == flagged
    assert all(rep["moves"][p - 1]["player"] == 1 for p in flagged)
    # The graph: one point a move, player 0's view (player 1's values negated).
    assert [p["ply"] for p in rep["graph"]] == [m["ply"] for m in rep["moves"]]
    for p, m in zip(rep["graph"], rep["moves"]):
        assert p["value"] == (m["best_value"] if m["player"] == 0 else -m["best_value"])


def test_the_terminal_report_says_the_same(archived):
    db, games, _ = archived
    status, out, err = sowlight("analyse", "2", "--depth", str(DEPTH), "--db", db)
    assert status == 0, err
    status, js, err = sowlight("analyse", "2", "--depth", str(DEPTH), "--db", db, "--json")
    rep = json.loads(js)
    assert out.startswith("game 2: oware, Engine; Random")
    for m in rep["moves"]:
        line = next(l for l in out.splitlines() if l.split()[:1] == [str(m["ply"])])
        assert m["notation"] in line.split() and ("%+d" % m["value"]) in line.split()
    for m in rep["mistakes"]:
        assert "ply %d, player %d: %s" % (m["ply"], m["player"], m["notation"]) in out
    assert "player 0 (Engine): 100%" in out
    assert "evaluation (player 0's view): " in out


def test_a_record_file_is_analysed_too(archived, tmp_path):
    db, games, path = archived
    status, out, err = sowlight("analyse", path, "--index", "2", "--json", "--depth", "2")
    assert status == 0, err
    assert json.loads(out)["variant"] == "oware"
    status, out, err = sowlight("analyse", path, "--index", "3")
    assert status == 2 and "holds 2 games: --index is 1 to 2" in err


def test_three_players_and_a_time_bound(tmp_path):
    rng = random.Random(4)
    g = mancala.Game("kpo", players=3)
    for _ in range(8):
        g.play(rng.choice(g.legal_moves()))
    path = tmp_path / "kpo.txt"
    path.write_text(gamerecord.write(gamerecord.from_game(g, players=["A", "B", "C"])))
    status, out, err = sowlight("analyse", str(path), "--json", "--depth", "4", "--time", "0.2")
    assert status == 0, err
    rep = json.loads(out)
    assert rep["view"] == "mover" and len(rep["share"]) == 3 and len(rep["moves"]) == 8
    assert all(1 <= m["depth"] <= 4 for m in rep["moves"])


def test_bad_input_is_explained(archived):
    db, _, _ = archived
    status, out, err = sowlight("analyse", "9", "--db", db)
    assert status == 1 and "there is no game 9" in err and "Traceback" not in err
    status, out, err = sowlight("analyse", "1", "--depth", "0", "--db", db)
    assert status == 2 and "--depth must be 1 or more" in err


def test_player_names_are_not_printed_raw(tmp_path):
    g = mancala.Game("kalah")
    g.play(2)
    d = gamerecord.from_game(g, players=["Ann\x1b[2J", "Bob"])
    path = tmp_path / "g.json"
    path.write_text(gamerecord.dumps([d]))
    status, out, err = sowlight("analyse", str(path), "--depth", "2")
    assert status == 0, err
    assert "\x1b" not in out and "Ann\\x1b[2J" in out
