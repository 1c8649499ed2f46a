"""Matches on a real MicroPython VM: the same rounds, results and match text as on CPython.

The check below runs unchanged on both interpreters: it plays a whole match with
a small deterministic generator (not `random`, whose sequences differ), saves and
restores it through the match text at the start of every round, and returns a
summary of every round; the test compares the two summaries.
"""
import json

import pytest

from mancala.match import MATCH_VARIANTS

CHECK = r'''
import mancala

def match_check(name, seed, options=None, rounds=6, plies=3000):
    m = mancala.Match(name, **(options or {}))
    x = seed * 2654435761 % 4294967296
    out = []
    for _ in range(rounds):
        text = m.to_text()
        m = mancala.Match.from_text(text)
        if m.to_text() != text:
            raise AssertionError("%s: the match text does not round-trip" % name)
        g = m.game
        moves = []
        n = 0
        while not g.is_over() and n < plies:
            legal = g.legal_moves()
            x = (x * 1103515245 + 12345) % 2147483648
            mv = legal[(x >> 8) % len(legal)]
            moves.append(g.move_name(mv))
            g.play(mv)
            n += 1
        if not g.is_over():
            out.append(["unfinished", m.round])
            break
        r = m.history[-1]
        out.append([m.round, r.winner, r.scores, r.points, r.next_first, r.over, r.reason,
                    " ".join(moves), m.to_text()])
        if m.is_over():
            o = m.outcome()
            out.append([o.winner, o.scores, o.reason])
            break
        m.next_round()
    return out


def choices_check():
    # The choices a player makes between rounds, on crafted ends of rounds.
    out = []
    m = mancala.Match.from_text("match adi round=1 first=0 points=6,6 off=0\n"
                                "adi - 0,0,0,0,0,0/0,0,0,0,0,0 32,16 0")
    g = m.next_round(houses="a,f")
    out.append([m.to_text(), g.legal_moves(), [g.owner(i) for i in range(12)]])
    m = mancala.Match.from_text("match giuthi round=1 first=0 points=36,36 off=0\n"
                                "giuthi pits_per_row=6,seeds=6 0,0,0,0,0,0/0,0,0,0,0,0 45,27 0")
    g = m.next_round(arrangement=[1, 7, 1, 0, 0, 0])
    out.append([m.to_text(), g.legal_moves(), list(g.closed)])
    m = mancala.Match.from_text("match giuthi-driedger double=yes keep=no round=1 first=0 points=48,48 off=0\n"
                                "giuthi-driedger pits_per_row=8,seeds=6 0,0,0,0,0,0,0,0/0,0,0,0,0,0,0,0 76,20 0")
    g = m.next_round(shorten=True, arrangement="0,4,4,4,4,4,0,0")
    moves = []
    while not g.is_over() and len(moves) < 200:
        mv = g.legal_moves()[0]
        moves.append(g.move_name(mv))
        g.play(mv)
    out.append([m.to_text(), " ".join(moves)])
    m = mancala.Match.from_text("match enkeshui series=carry games=5 round=1 first=0 points=24,24 off=0\n"
                                "enkeshui pits_per_row=8,zeros=right,race=first-to-sleep,advance=no "
                                "0,0,0,0,0,0,0,0/0,0,0,0,0,0,0,0 37,11 0")
    g = m.next_round()
    g.play(("race",))
    out.append([m.to_text(), m.off])
    return out
'''

# Matches with options other than the defaults.
OPTIONED = (("enkeshui", {"zeros": "right", "race": "none"}), ("enkeshui", {"series": "count", "games": 3}),
            ("giuthi-driedger", {"double": "yes", "keep": "yes"}), ("egyptian-advanced", {"setup": "even"}),
            ("giuthi", {"pits_per_row": 4, "seeds": 4}), ("pandi", {"pits_per_row": 5, "seeds": 3}))


def cpython(call):
    space = {}
    exec(CHECK, space)
    return json.loads(json.dumps(eval(call, space)))


@pytest.fixture(scope="module")
def vm_results(micropython):
    """Every match variant's check in one VM request (a VM per variant would be slow)."""
    code = CHECK + (
        "import json\nout = {}\n"
        "for name in %r:\n"
        "    try:\n"
        "        out[name] = match_check(name, 3)\n"
        "    except Exception as e:\n"
        "        out[name] = 'error: %%s: %%s' %% (type(e).__name__, e)\n"
        "for i, (name, options) in enumerate(%r):\n"
        "    out['optioned %%d' %% i] = match_check(name, 5, options)\n"
        "out['choices'] = choices_check()\n"
        "print(json.dumps(out))\n") % (list(MATCH_VARIANTS), list(OPTIONED))
    text = micropython.run(code, timeout=600)
    return json.loads(text.strip().splitlines()[-1])


@pytest.mark.parametrize("name", MATCH_VARIANTS)
def test_match_plays_identically_on_micropython(vm_results, name):
    on_vm = vm_results[name]
    assert not isinstance(on_vm, str), on_vm
    expected = cpython("match_check(%r, 3)" % name)
    assert len(expected) >= 2, "the check played fewer than two rounds"
    assert on_vm == expected


@pytest.mark.parametrize("i", range(len(OPTIONED)))
def test_match_with_options_plays_identically_on_micropython(vm_results, i):
    name, options = OPTIONED[i]
    expected = cpython("match_check(%r, 5, %r)" % (name, options))
    assert len(expected) >= 2
    assert vm_results["optioned %d" % i] == expected


def test_round_choices_are_the_same_on_micropython(vm_results):
    expected = cpython("choices_check()")
    assert vm_results["choices"] == expected
    assert "bought0=a,f" in expected[0][0] and expected[2][1]


def test_match_errors_are_clear_on_micropython(micropython):
    out = micropython.run(
        "import mancala\n"
        "for bad in (lambda: mancala.Match('oware'), lambda: mancala.Match('dakon').next_round(),\n"
        "            lambda: mancala.Match.from_text('match dakon round=1\\ndakon - 0 0 0'),\n"
        "            lambda: mancala.from_text('dakon - 1,0,7,7,7,7,7/7,7,7,7,7,7,7 2,10 0 closed=A')):\n"
        "    try:\n        bad()\n    except mancala.RulesError as e:\n        print(type(e).__name__, e)\n")
    lines = out.strip().splitlines()
    assert lines[0].startswith("NoRulesError") and "single games" in lines[0]
    assert lines[1].startswith("IllegalMoveError") and "not over" in lines[1]
    assert lines[2].startswith("PositionError")
    assert lines[3].startswith("PositionError") and "closed" in lines[3]
