"""Rule options played from the terminal: `sowlight play --no-board -o name=value`, scripted as
two people typing their moves (docs/variants: each option in its variant's doc).

For each option a short game is found where the option changes what happens (a move is legal
only with it, or leaves another board); the same moves typed with the option must leave the board
the rules core gives, and the archived game records the option.
"""
import json
import random

import pytest

import mancala
from sowlight.terminal import render
from test_cli_play import archive_in_tmp, sowlight  # noqa: F401 (archive_in_tmp: a fixture used by every test here)


def _differs(variant, options, other, g, m):
    """Whether move m, played on g (with `options`), is refused or does otherwise with `other`."""
    a = g.copy()
    a.play(m)
    b = mancala.Game(variant, **other)
    b = mancala.from_text(mancala.to_text(g).replace(_opts_text(g), _opts_text(b), 1))
    try:
        b.play(b.parse_move(g.move_name(m)))
    except mancala.RulesError:
        return True
    return b.cells() != a.cells() or b.to_move != a.to_move


def _opts_text(g):
    return mancala.to_text(g).split()[1]


def game_where_the_option_matters(variant, options, other, seed=1, most=300):
    """Move names of a random game with `options` up to the first move that `other` options refuse
    or play otherwise (chosen whenever one is legal), and the game after them."""
    rnd = random.Random(seed)
    g = mancala.Game(variant, **options)
    names = []
    while not g.is_over() and len(names) < most:
        legal = g.legal_moves()
        telling = [m for m in legal if _differs(variant, options, other, g, m)]
        m = rnd.choice(telling or legal)
        names.append(g.move_name(m))
        g.play(m)
        if telling:
            return names, g
    pytest.fail("no move of %s tells %r from %r" % (variant, options, other))


def play_typed(variant, options, names):
    args = ["play", "--no-board", "--variant", variant, "--vs", "human"]
    for k, v in options.items():
        args += ["-o", "%s=%s" % (k, v)]
    return sowlight(*args, input="\n".join(names) + "\nquit\n")


CASES = [
    ("kalah", {"empty_capture": "leave"}, {}),
    ("omweso", {"race": "none", "declined": "sleep"}, {"race": "none"}),
    ("omweso", {"race": "none"}, {"race": "none", "declined": "sleep"}),
    ("kombe", {"race": "none"}, {"race": "none", "declined": "sleep"}),
    ("pandi", {"claims": "chosen"}, {}),
    ("pallam-kuzhi", {"claims": "chosen"}, {}),
    ("mbothe", {"exemption": "handful"}, {}),
]


@pytest.mark.parametrize("variant,options,other", CASES, ids=lambda x: x if isinstance(x, str) else
                         ",".join("%s=%s" % kv for kv in sorted(x.items())) or "default")
def test_an_option_typed_on_the_command_line_is_the_game_played(variant, options, other):
    names, g = game_where_the_option_matters(variant, options, other)
    r = play_typed(variant, options, names)
    assert r.returncode in (0, 1), r.stderr
    assert "not played" not in r.stdout
    last = r.stdout.rsplit("plays %s" % names[-1], 1)[1]
    assert "\n".join(render.board(g)) in last
    game = json.loads(sowlight("games", "show", "1", "--json").stdout)
    assert [m["notation"] for m in game["moves"]] == names
    for k, v in options.items():
        assert game["options"][k] == v


def test_variants_names_each_option_with_its_default_and_values():
    rows = {r["id"]: r for r in json.loads(sowlight("variants", "--json").stdout)}
    kalah = {o["name"]: o for o in rows["kalah"]["options"]}
    assert kalah["empty_capture"] == {"name": "empty_capture", "default": "take", "allowed": ["take", "leave"]}
    assert kalah["seeds"]["allowed"] == list(range(1, 13))
    for ident in ("omweso", "coro", "kombe", "mongale", "aweet", "mongola-driedger"):
        assert {"name": "declined", "default": "sow-on", "allowed": ["sow-on", "sleep"]} in rows[ident]["options"]
    for ident in ("pandi", "pallam-kuzhi"):
        assert {"name": "claims", "default": "automatic", "allowed": ["automatic", "chosen"]} in rows[ident]["options"]
    assert rows["mbothe"]["options"] == [{"name": "exemption", "default": "turn", "allowed": ["turn", "handful"]}]
    assert rows["choro"]["options"] == []
    text = sowlight("variants").stdout
    assert "empty_capture=take (take|leave)" in text and "seeds=4 (1..12)" in text
    assert "declined=sow-on (sow-on|sleep)" in text and "exemption=turn (turn|handful)" in text
