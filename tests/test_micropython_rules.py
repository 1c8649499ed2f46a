"""The rules core on a real MicroPython VM: every variant plays the same games as on CPython."""
import json
import sys
from pathlib import Path

import pytest

import mancala

HERE = Path(__file__).resolve().parent
CHECKS = HERE / "micropython" / "checks"
sys.path.insert(0, str(CHECKS))
import rules_check  # noqa: E402

SEEDS = (1, 2)


@pytest.fixture(scope="module")
def vm_results(micropython):
    """Run every variant's self-check in one VM request (a VM per variant would be slow)."""
    code = "import sys\nsys.path.append('/checks')\nimport json, rules_check\nout = []\n"
    # A variant that fails is reported with its MicroPython error, the others still run.
    code += ("for name in %r:\n    for seed in %r:\n        try:\n"
             "            r = rules_check.check(name, seed)\n"
             "        except Exception as e:\n"
             "            r = {'name': name, 'error': '%%s: %%s' %% (type(e).__name__, e)}\n"
             "        r['seed'] = seed\n        out.append(r)\n") % (mancala.variants(), SEEDS)
    code += "print(json.dumps(out))\n"
    text = micropython.run(code, mounts={"/checks": CHECKS}, timeout=600)
    return {(r["name"], r.pop("seed")): r for r in json.loads(text.strip().splitlines()[-1])}


@pytest.mark.parametrize("name", mancala.variants())
def test_variant_plays_identically_on_micropython(vm_results, name):
    for seed in SEEDS:
        on_vm = vm_results[(name, seed)]
        on_cpython = json.loads(json.dumps(rules_check.check(name, seed)))
        assert on_vm == on_cpython


def test_errors_are_clear_on_micropython(micropython):
    out = micropython.run(
        "import mancala\n"
        "for bad in (lambda: mancala.Game('owarre'), lambda: mancala.Game('oware').play(9),\n"
        "            lambda: mancala.Game('oware', pits=[1]), lambda: mancala.Game('Choro')):\n"
        "    try:\n        bad()\n    except mancala.RulesError as e:\n        print(type(e).__name__, e)\n")
    lines = out.strip().splitlines()
    assert lines[0].startswith("UnknownVariantError") and "oware" in lines[0]
    assert lines[1].startswith("IllegalMoveError") and "belongs to player 1" in lines[1]
    assert lines[2].startswith("PositionError") and "12 pits" in lines[2]
    assert lines[3].startswith("NoRulesError")


def test_search_and_position_text_on_micropython(micropython):
    out = micropython.run(
        "import mancala\nfrom mancala.search import best_move\n"
        "g = mancala.Game('kalah')\nr = best_move(g, depth=3)\nprint(r.best, r.depth)\n"
        "t = mancala.to_text(g)\nprint(mancala.to_text(mancala.from_text(t)) == t)\n")
    import mancala.search as search
    best, depth = out.split()[:2]
    expect = search.best_move(mancala.Game("kalah"), depth=3)
    assert (int(best), int(depth)) == (expect.best, expect.depth)
    assert out.split()[2] == "True"


def test_a_game_takes_the_heap_of_its_own_variant_only(micropython):
    # Only the chosen variant's rules are loaded: a Kalah game fits a board's 64 KB (loading
    # every variant's takes well over a megabyte here, compiled from source).
    out = micropython.run("import gc, mancala\ngc.collect()\nbefore = gc.mem_alloc()\n"
                          "g = mancala.Game('kalah')\ngc.collect()\nprint(gc.mem_alloc() - before)\n")
    assert int(out.strip()) < 64 * 1024


@pytest.mark.parametrize("name, most", [("kombe", 2400), ("oware", None), ("kalah", None), ("dakon", None)])
def test_the_tracks_a_game_caches_are_small_on_micropython(micropython, name, most):
    """Every track of a variant, as a game caches them while it is played (Mancala.track): the
    same cells as on CPython, and where a track is a stretch of the cells its player sows into,
    a view of it (16 bytes of heap, not 48): Kombe's 64 tracks took 3.9 KB as bytes of their
    own, 2.1 KB so (the cache's dict is 1 KB of it)."""
    g = mancala.Game(name)
    origins = [(p, d, o) for p in range(g.players) for d in (1, -1) for o in g.side(p)]
    want = [list(g.track(p, d, o)) for p, d, o in origins]
    code = ("out = []\nfor p, d, o in %r:\n    out.append(list(g.track(p, d, o)))\nprint(json.dumps(out))\n"
            "out = None\n" % (origins,))
    use = micropython.heap_used(code, setup="import json, mancala\ng = mancala.Game(%r)\n" % name)
    assert json.loads(use.output.strip().splitlines()[-1]) == want
    if most is not None:
        assert use.retained < most, "%d tracks of %s keep %d bytes" % (len(origins), name, use.retained)
