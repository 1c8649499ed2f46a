"""The readable game record and the JSON export: writing, reading, checking by replay."""
import json
import random

import pytest

import mancala
from mancala.registry import variants  # not mancala.variants: the subpackage of that name shadows it once loaded

from sowlight.games import record as gr

# Every playable variant, and the player counts of those that allow several.
CASES = [(v, {}) for v in variants()] + [("kpo", {"players": 3}), ("kpo", {"players": 4})]


def random_game(variant, options, seed, stop):
    rnd = random.Random(seed)
    g = mancala.Game(variant, **options)
    while not g.is_over() and g.ply < stop:
        g.play(rnd.choice(g.legal_moves()))
    return g


@pytest.mark.parametrize("variant,options", CASES, ids=["%s%s" % (v, o.get("players", "")) for v, o in CASES])
def test_record_and_json_round_trip_every_variant(variant, options):
    kinds = set()
    for seed, stop in ((1, 6), (2, 60), (3, 10000), (4, 10000)):
        g = random_game(variant, options, seed, stop)
        d = gr.from_game(g, players=["p%d" % i for i in range(g.players)], started="2026-11-21T10:20:30Z",
                         ended="2026-11-21T10:41:07Z" if seed % 2 else None)
        kinds.update(type(m).__name__ for m in g.moves_played())
        text = gr.write(d)
        [back] = gr.parse(text, "game.txt")
        assert back == d
        assert gr.write(back) == text
        doc = gr.dumps([d])
        [again] = gr.loads(doc)
        assert again == d and gr.dumps([again]) == doc
        # The final position is the rules core's.
        last = d["moves"][-1]["position"] if d["moves"] else d["start"]
        assert last == mancala.to_text(g)
    assert kinds  # every variant got moves played


def test_moves_of_one_turn_are_joined_and_rounds_numbered():
    g = mancala.Game("kalah")
    for name in ("C", "D", "b", "c"):  # C ends in player 0's store: another move
        g.play(g.parse_move(name))
    d = gr.from_game(g)
    assert gr.movetext_tokens(d) == ["1.", "C,D", "b,c", "*"]
    g = mancala.Game("kpo", players=3)
    for _ in range(4):
        g.play(g.legal_moves()[0])
    toks = gr.movetext_tokens(gr.from_game(g))
    assert toks[0] == "1." and toks[4] == "2." and toks[-1] == "*"


def test_tags_follow_pgn_conventions():
    g = random_game("oware", {}, 5, 10000)
    d = gr.from_game(g, players=["Ann", "Bob"], started="2026-11-21T14:03:22Z")
    d["board"], d["board_game"] = "sowlight-e661", 12
    d["tags"] = [["Event", 'Club "night"']]
    text = gr.write(d)
    head = text.split("\n\n")[0].splitlines()
    assert head[:4] == ['[Variant "oware"]', '[Options "grand_slam=no-capture"]', '[Players "Ann; Bob"]', '[Date "2026.11.21"]']
    assert '[Time "14:03:22"]' in head and '[Board "sowlight-e661"]' in head and '[BoardGame "12"]' in head
    assert '[Event "Club \\"night\\""]' in head
    assert '[Result "%s"]' % d["result"] in head and text.rstrip().endswith(d["result"])
    assert not any(h.startswith("[Setup") for h in head)
    assert all(len(line) <= 79 for line in text.split("\n\n")[1].splitlines())
    [back] = gr.parse(text)
    assert back["tags"] == [["Event", 'Club "night"']] and back == d


def test_a_game_from_a_set_position_has_a_setup_tag():
    g = mancala.from_text("oware grand_slam=no-capture 2,0,3,0,0,1/1,2,0,0,0,4 17,18 0")
    g.play(5)
    d = gr.from_game(g)
    text = gr.write(d)
    assert '[Setup "oware grand_slam=no-capture 2,0,3,0,0,1/1,2,0,0,0,4 17,18 0"]' in text
    assert gr.parse(text)[0]["moves"][0]["trace"][-1] == ["take", 6, 2, 12]


def test_a_position_set_during_the_game_is_kept():
    d = gr.new_game("oware")
    r = gr.Replay(d["start"])
    r.move("C")
    r.setup("oware grand_slam=no-capture 0,0,0,0,0,1/1,2,0,0,0,4 20,20 1")
    r.move("b")
    d["moves"] = r.events
    text = gr.write(d)
    movetext = " ".join(text.split("\n\n")[1].split())
    assert movetext == '1. C {Setup "oware grand_slam=no-capture 0,0,0,0,0,1/1,2,0,0,0,4 20,20 1"} 2... b *'
    [back] = gr.parse(text)
    assert back == d


def test_one_player_games_number_every_move():
    g = random_game("sitas-solitaire", {}, 1, 4)
    toks = gr.movetext_tokens(gr.from_game(g))
    assert toks[:4] == ["1.", toks[1], "2.", toks[3]]


@pytest.mark.parametrize("players,winner,scores,text", [
    (2, 0, [26, 22], "1-0"), (2, 1, [20, 28], "0-1"), (2, None, [24, 24], "1/2-1/2"),
    (3, 2, [5, 6, 9], "0-0-1"), (3, None, [8, 8, 2], "1/2-1/2-0"), (4, None, [6, 6, 6, 6], "1/4-1/4-1/4-1/4"),
    (1, 0, [105], "1"), (1, None, [12], "0"),
])
def test_result_forms(players, winner, scores, text):
    assert gr.result_text(players, winner, scores) == text
    assert gr.parse_result(text, players) == (winner, True)
    assert gr.parse_result("*", players) == (None, False)


@pytest.mark.parametrize("text", ["1-1", "2-0", "1/2-0", "1-0-0", "½-½"])
def test_bad_results_are_refused(text):
    with pytest.raises(ValueError, match="result"):
        gr.parse_result(text, 2)


GOOD = """[Variant "kalah"]
[Players "Ann; Bob"]
[Date "2026.11.21"]
[Result "*"]

1. C,D b,c 2. A *
"""


@pytest.mark.parametrize("edit,line,words", [
    (("1. C,D b,c 2. A *", "1. C,D b,z 2. A *"), 6, "'z' is not a pit of Kalah"),
    (("1. C,D b,c 2. A *", "1. C D b,c 2. A *"), 6, "join the moves of one turn with commas"),
    (("1. C,D b,c 2. A *", "1. C,D b,c 3. A *"), 6, "move number 3., but this is round 2."),
    (("1. C,D b,c 2. A *", "1. C,D 2. b,c A *"), 6, "in the middle of round 1"),
    (("1. C,D b,c 2. A *", "1. C,D b,c A *"), 6, "starts round 2: write 2. before it"),
    (("1. C,D b,c 2. A *", "1. C,D b,c 2. A {good} *"), 6, "comments"),
    (("1. C,D b,c 2. A *", "1. C,D b,c 2. A 1-0"), 6, "but the Result tag says *"),
    (("1. C,D b,c 2. A *", "1. C,D b,c 2. A * B"), 6, "must end the moves"),
    (("1. C,D b,c 2. A *", "1. C,D b,c 2. A {Setup \"oware - 1/2 0,0 0\"} *"), 6, "the position set here"),
    (('[Date "2026.11.21"]', '[Date "21/11/2026"]'), 3, "Date is YYYY.MM.DD"),
    (('[Players "Ann; Bob"]', '[Players "Ann"]'), 2, "2 players, but 1 name was given"),
    (('[Players "Ann; Bob"]', '[Players "Ann; Bob]'), 2, 'a tag is [Name "value"]'),
    (('[Variant "kalah"]', '[Variant "kalha"]'), 1, "did you mean kalah"),
    (('[Variant "kalah"]', '[Variant "kalah"]\n[Options "seeds=99"]'), 2, "seeds=99 is not allowed"),
    (('[Result "*"]', '[Result "*"]\n[Result "*"]'), 5, "appears twice (first on line 4)"),
    (('[Result "*"]', '[Result "1-0-0"]'), 4, "3 fields, but this game has 2 players"),
])
def test_parse_errors_name_the_line(edit, line, words):
    text = GOOD.replace(*edit)
    assert text != GOOD
    with pytest.raises(gr.RecordError) as e:
        gr.parse(text, "games.txt")
    assert e.value.line == line, str(e.value)
    assert words in str(e.value)
    assert str(e.value).startswith("games.txt line %d: " % line)


def test_the_good_record_reads():
    [d] = gr.parse(GOOD)
    assert [e["notation"] for e in d["moves"]] == ["C", "D", "b", "c", "A"]
    assert d["players"] == ["Ann", "Bob"] and d["started"] == "2026-11-21"
    # Without an Id tag the id comes from the content: the same record, the same id.
    assert gr.parse(GOOD)[0]["id"] == d["id"]
    assert gr.parse(GOOD.replace("2. A", "2. B"))[0]["id"] != d["id"]


def test_a_result_that_contradicts_the_rules_is_refused():
    g = random_game("oware", {}, 7, 10000)
    d = gr.from_game(g)
    wrong = "0-1" if d["result"] != "0-1" else "1-0"
    text = gr.write(d).replace('[Result "%s"]' % d["result"], '[Result "%s"]' % wrong).replace(" " + d["result"] + "\n", " " + wrong + "\n")
    with pytest.raises(gr.RecordError, match="disagrees with the rules") as e:
        gr.parse(text)
    assert e.value.line == 5  # the Result tag


def test_moves_after_the_end_are_refused():
    g = random_game("kalah", {}, 2, 10000)
    d = gr.from_game(g)
    text = gr.write(d).replace(" " + d["result"] + "\n", " 99. A " + d["result"] + "\n")
    with pytest.raises(gr.RecordError, match="after the end of the game|in the middle of round|is not a round"):
        gr.parse(text)


def test_json_faults_are_named_by_place():
    d = gr.from_game(random_game("oware", {}, 3, 12))
    doc = json.loads(gr.dumps([d]))
    doc["games"][0]["moves"][3]["trace"][0][2] += 1
    with pytest.raises(gr.RecordError, match=r"games\[0\]\.moves\[3\]: the trace differs"):
        gr.loads(json.dumps(doc), "x.json")
    doc = json.loads(gr.dumps([d]))
    doc["games"][0]["moves"][2]["notation"] = "Z"
    with pytest.raises(gr.RecordError, match=r"moves\[2\].*'Z' is not a pit"):
        gr.loads(json.dumps(doc))
    doc = json.loads(gr.dumps([d]))
    doc["version"] = 2
    with pytest.raises(gr.RecordError, match="upgrade sowlight"):
        gr.loads(json.dumps(doc))
    with pytest.raises(gr.RecordError, match="not valid JSON") as e:
        gr.loads('{"format": "sowlight-games",\n "games": [}')
    assert e.value.line == 2


def test_minimal_json_is_completed_by_the_rules():
    doc = {"format": "sowlight-games", "version": 1, "games": [
        {"variant": "oware", "start": gr.standard_start("oware", {}), "moves": [{"notation": "C"}, {"move": 8}]}]}
    [d] = gr.loads(json.dumps(doc))
    assert [e["notation"] for e in d["moves"]] == ["C", "c"]
    assert d["moves"][1]["trace"][0] == ["lift", 8, 4, -1]  # C sowed D E F a, not c
    assert d["players"] == ["?", "?"] and d["result"] == "*"
    assert gr.loads(json.dumps(doc))[0]["id"] == d["id"]  # an id from the content
