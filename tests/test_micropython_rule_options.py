"""Rule options on a real MicroPython VM (the board's interpreter): each option plays the same
games as on CPython, and the positions each option was made for give the same steps.

Kalah empty_capture, the Omweso family's declined, Pandi's and Pallam Kuzhi's claims, Mbothe's
exemption (docs/variants/: kalah.md, omweso.md, pandi.md, pallam-kuzhi.md, mbothe.md).
"""
import json
import sys
from pathlib import Path

import pytest

import mancala

HERE = Path(__file__).resolve().parent
CHECKS = HERE / "micropython" / "checks"
sys.path.insert(0, str(CHECKS))
import rules_check  # noqa: E402

GAMES = [
    ("kalah", {"empty_capture": "leave"}),
    ("omweso", {"declined": "sleep"}),
    ("kombe", {"declined": "sleep"}),
    ("mongola-driedger", {"race": "none", "declined": "sleep"}),
    ("coro", {"race": "none"}),
    ("pandi", {"claims": "chosen"}),
    ("pallam-kuzhi", {"claims": "chosen"}),
    ("mbothe", {"exemption": "handful"}),
]
SEEDS = (1, 2, 3)

# Positions where an option decides, and the move it decides: (variant, options, pits, move).
POSITIONS = [
    ("kalah", {"empty_capture": "leave"}, [1, 0, 4, 4, 4, 4, 4, 4, 4, 4, 0, 4], 0),
    ("kalah", {}, [1, 0, 4, 4, 4, 4, 4, 4, 4, 4, 0, 4], 0),
    ("omweso", {"race": "none"}, [2, 0, 0, 0, 0, 0, 0, 2, 0, 1] + [0] * 6 + [0, 2, 0, 0, 0, 2] + [0] * 8 + [3, 0], [7, "n"]),
    ("omweso", {"race": "none", "declined": "sleep"}, [2, 0, 0, 0, 0, 0, 0, 2, 0, 1] + [0] * 6 + [0, 2, 0, 0, 0, 2] + [0] * 8 + [3, 0], [7, "s"]),
    ("pandi", {"claims": "chosen"}, [0, 0, 0, 0, 0, 3, 0, 3, 0, 0, 1, 0, 0, 0], [5, "l"]),
    ("pallam-kuzhi", {"claims": "chosen"}, [0, 0, 0, 0, 0, 3, 0, 3, 0, 0, 1, 0, 0, 0], [5, "l"]),
    ("mbothe", {"exemption": "handful"}, None, 9),
]

POSITION_CODE = """
import json, mancala
out = []
for name, options, pits, move in json.loads(%r):
    g = mancala.Game(name, pits=pits, **options)
    move = tuple(move) if isinstance(move, list) else move
    legal = [list(m) if isinstance(m, tuple) else m for m in g.legal_moves()]
    steps = [[s.kind, s.pit, s.count, s.to] for s in g.play(move)]
    out.append([legal, steps, g.cells(), g.to_move, mancala.to_text(g)])
print(json.dumps(out))
"""


@pytest.fixture(scope="module")
def vm_games(micropython):
    code = ("import sys\nsys.path.append('/checks')\nimport json, rules_check\nout = []\n"
            "for name, options in %r:\n    for seed in %r:\n        try:\n"
            "            r = rules_check.check(name, seed, options=options)\n"
            "        except Exception as e:\n"
            "            r = {'name': name, 'error': '%%s: %%s' %% (type(e).__name__, e)}\n"
            "        out.append(r)\n"
            "print(json.dumps(out))\n") % (GAMES, SEEDS)
    text = micropython.run(code, mounts={"/checks": CHECKS}, timeout=600)
    return json.loads(text.strip().splitlines()[-1])


@pytest.mark.parametrize("i", range(len(GAMES)), ids=["%s-%s" % (n, ",".join("%s=%s" % kv for kv in o.items()))
                                                      for n, o in GAMES])
def test_an_option_plays_the_same_games_on_micropython(vm_games, i):
    name, options = GAMES[i]
    for j, seed in enumerate(SEEDS):
        on_vm = vm_games[i * len(SEEDS) + j]
        on_cpython = json.loads(json.dumps(rules_check.check(name, seed, options=options)))
        assert on_vm == on_cpython
        assert on_vm["plies"] > 0


def test_the_positions_each_option_decides_give_the_same_steps_on_micropython(micropython):
    script = POSITION_CODE % json.dumps(POSITIONS)
    got = json.loads(micropython.run(script, timeout=300).strip().splitlines()[-1])
    want = []
    for name, options, pits, move in POSITIONS:
        g = mancala.Game(name, pits=pits, **options)
        move = tuple(move) if isinstance(move, list) else move
        legal = [list(m) if isinstance(m, tuple) else m for m in g.legal_moves()]
        steps = [[s.kind, s.pit, s.count, s.to] for s in g.play(move)]
        want.append([legal, steps, g.cells(), g.to_move, mancala.to_text(g)])
    assert got == want
    # What each option changes, as the variant docs say.
    kalah_leave, kalah_take = got[0], got[1]
    assert kalah_leave[2][12] == 0 and kalah_take[2][12] == 1          # the lone seed left / taken
    assert ["relay", 9, 2, -1] in got[2][1] and got[3][1][-1] == ["drop", 9, 1, -1]   # sown on / slept
    assert ["take", 7, 4, 15] not in got[4][1] and got[4][2][7] == 4   # Pandi: B's calf left
    assert got[6][1][4][0] == "skip"                                   # Mbothe: the relay passes over twos
