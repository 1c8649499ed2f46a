"""Undo records as the board keeps them.

On MicroPython the rules core keeps the counts before each move as bytes (a
third of the heap of a list copy), or none where the record's repetition key
is those counts and the player, and puts them back through a list on undo
(MicroPython assigns a slice from a list or tuple only).  CPython keeps a
tuple.  Both paths must restore every position exactly:

- on CPython, with the board's code paths switched on (the module's
  _CPYTHON and _TUPLE_HASH flags off), for every variant;
- on the MicroPython VM itself, with the heap a move's record costs.
"""
import random

import pytest

from testgames import LCG

import mancala
from mancala import game as game_module

VARIANTS = mancala.variants()


@pytest.fixture
def board_code_paths(monkeypatch):
    """Run the rules core as MicroPython runs it: bytes undo records and byte-string repetition keys."""
    monkeypatch.setattr(game_module, "_CPYTHON", False)
    monkeypatch.setattr(game_module, "_TUPLE_HASH", False)


def _position(g):
    return (g.cells(), g.to_move, g.phase, g.is_over(), mancala.to_text(g))


@pytest.mark.parametrize("name", VARIANTS)
def test_undo_restores_every_position_on_the_boards_code_paths(name, board_code_paths):
    for seed in (1, 2):
        g = mancala.Game(name)
        rnd = random.Random(seed)
        seen = []
        for ply in range(150):
            if g.is_over():
                break
            seen.append(_position(g))
            move = rnd.choice(g.legal_moves())
            if ply % 2:
                g.play(move)
            else:
                g.push(move)       # push is what the board's hint search uses
        end = _position(g)
        while seen:
            g.undo()
            assert _position(g) == seen.pop()
        # The same moves again give the same game: the repetition keys were taken back too.
        rnd = random.Random(seed)
        for _ in range(150):
            if g.is_over():
                break
            g.play(rnd.choice(g.legal_moves()))
        assert _position(g) == end


@pytest.mark.parametrize("name", ["oware", "kalah", "dakon", "omweso", "lane"])
def test_the_boards_code_paths_play_the_same_game(name, monkeypatch):
    """The board's undo records and keys change nothing in the game: the same moves, the same end."""
    def play(flags_off):
        if flags_off:
            monkeypatch.setattr(game_module, "_CPYTHON", False)
            monkeypatch.setattr(game_module, "_TUPLE_HASH", False)
        g = mancala.Game(name)
        rnd = random.Random(5)
        moves = []
        while not g.is_over() and len(moves) < 400:
            moves.append(rnd.choice(g.legal_moves()))
            g.push(moves[-1])
        monkeypatch.undo()
        return moves, g.cells(), g.outcome()

    assert play(False) == play(True)


def test_a_count_over_255_is_kept_in_a_list():
    # No variant has 256 seeds, so a count never reaches it in play; the record
    # would still be exact if one did.
    assert game_module._counts_before([1, 255, 0]) == b"\x01\xff\x00"
    record = game_module._counts_before([1, 300, 0])
    assert record == [1, 300, 0] and type(record) is list


def test_undo_on_micropython_restores_every_position(micropython):
    names = ["oware", "kalah", "dakon", "omweso", "kombe", "lane", "enkeshui", "pandi"]
    code = LCG + (
        "import mancala\n"
        "for name in %r:\n"
        "    g = mancala.Game(name)\n"
        "    r = Lcg(11)\n"
        "    seen = []\n"
        "    while len(seen) < 80 and not g.is_over():\n"
        "        seen.append(mancala.to_text(g))\n"
        "        g.push(r.choice(g.legal_moves()))\n"
        "    n = len(seen)\n"
        "    while seen:\n"
        "        g.undo()\n"
        "        assert mancala.to_text(g) == seen.pop(), (name, len(seen))\n"
        "    print(name, n)\n") % (names,)
    out = micropython.run(code, timeout=300).split()
    assert out[0::2] == names
    assert all(int(n) > 10 for n in out[1::2])


def test_a_moves_undo_record_is_small_on_micropython(micropython):
    """The heap 100 moves of Oware keep on MicroPython (undo records, repetition keys): ~84 B a move.

    (It was 163 B when the counts were kept as a list copy, 115 B as bytes beside the repetition
    key, which holds them too: the record keeps the key only.)"""
    setup = LCG + "import mancala\ng = mancala.Game('oware')\nr = Lcg(3)\ng.push(r.choice(g.legal_moves()))\n"
    code = "n = 0\nwhile n < 100 and not g.is_over():\n    g.push(r.choice(g.legal_moves()))\n    n += 1\nprint(n)\n"
    use = micropython.heap_used(code, setup=setup)
    moves = int(use.output.split()[-1])
    assert moves == 100
    assert use.retained / moves < 95, "%d bytes kept a move" % (use.retained / moves)


# ----- a bounded history (limit_undo): what a board keeps -----------------------------------------

def _random_line(g, seed, plies=150, undo_every=0, relimit=None):
    """Random moves (play and push in turn), and with undo_every a move taken back and made again
    now and then (as a board's follower traces one, and as hands take one back); with relimit,
    limit_undo(relimit) after each move, as a board calls it."""
    rnd = random.Random(seed)
    for ply in range(plies):
        if g.is_over():
            break
        move = rnd.choice(g.legal_moves())
        if ply % 2:
            g.play(move)
        else:
            g.push(move)
        if undo_every and ply % undo_every == 0:
            g.undo()
            g.play(move)
        if relimit:
            g.limit_undo(relimit)
    return g


def _summary(g):
    return (g.moves_played(), g.ply, g.cells(), g.to_move, g.outcome(), mancala.to_text(g),
            [h[0] for h in g._hist], [h[2] for h in g._hist], g._hist[-1][2] if g.ply else None)


@pytest.mark.parametrize("name", VARIANTS)
def test_a_bounded_history_plays_the_same_game(name):
    for seed in (1, 2):
        for most in (1, 3):
            whole = _random_line(mancala.Game(name), seed, undo_every=7)
            g = mancala.Game(name)
            g.limit_undo(most)
            _random_line(g, seed, undo_every=7)
            assert _summary(g) == _summary(whole), (name, seed, most)
            assert len(g._hist.recs) <= most + 1


@pytest.mark.parametrize("name", ["oware", "ayoayo", "kpo", "dakon", "omweso", "lane", "enkeshui", "kiothi"])
def test_a_bounded_history_plays_the_same_game_on_the_boards_code_paths(name, board_code_paths):
    whole = _random_line(mancala.Game(name), 4, undo_every=5)
    g = mancala.Game(name)
    g.limit_undo(2)
    _random_line(g, 4, undo_every=5)
    assert _summary(g) == _summary(whole)


@pytest.mark.parametrize("board_paths", [False, True])
def test_limit_undo_again_lets_go_of_the_spare_record_so_a_move_tried_and_taken_back_costs_nothing(board_paths, monkeypatch):
    if board_paths:
        monkeypatch.setattr(game_module, "_CPYTHON", False)
        monkeypatch.setattr(game_module, "_TUPLE_HASH", False)
    for seed, whole in _repetition_game():
        g = mancala.Game("oware")
        g.limit_undo(3)
        _random_line(g, seed, plies=1000, undo_every=5, relimit=3)
        # The same game to its end, repetition rule included, with `most` records kept.
        assert g.outcome() == whole.outcome() and g.moves_played() == whole.moves_played()
        assert len(g._hist.recs) == 3
        break
    # A game after limit_undo again: every move tried and taken back (a board's follower tracing the
    # next move) leaves the records and the repetition table untouched, even after a capture.
    g = mancala.Game("oware")
    g.limit_undo(2)
    rnd = random.Random(7)
    tried = captures = 0
    while not g.is_over() and g.ply < 300:
        before = sum(g.pits)
        g.play(rnd.choice(g.legal_moves()))
        captures += sum(g.pits) < before
        g.limit_undo(2)
        recs, seen, kept = g._hist.recs, g._seen, list(g._hist.recs)
        for m in g.legal_moves():
            g.play(m)
            g.undo()
            tried += 1
            assert g._seen is seen and g._hist.recs == kept and recs is g._hist.recs
    assert captures > 5 and tried > 100
    # Still two moves can be taken back, and no more.
    g.undo()
    g.undo()
    with pytest.raises(mancala.UndoLimitError):
        g.undo()


def test_undo_past_the_bound_is_refused_saying_why():
    g = mancala.Game("oware")
    g.limit_undo(4)
    _random_line(g, 3, plies=30)
    assert g.ply == 30
    # Moves played and taken back at once (a board's follower tracing them) leave the bound as it was.
    for m in g.legal_moves():
        g.play(m)
        g.undo()
    for _ in range(4):
        g.undo()
    while True:
        before = (g.cells(), g.to_move, g.ply, g.moves_played())
        try:
            g.undo()
        except mancala.UndoLimitError as e:
            assert isinstance(e, mancala.IllegalMoveError) and isinstance(e, ValueError)
            assert str(e) == "only the last 4 moves can be taken back"
            break
    assert (g.cells(), g.to_move, g.ply, g.moves_played()) == before    # refused: nothing changed
    assert 25 <= g.ply <= 26
    # Play goes on from there, and what was taken back can be taken back again.
    g.play(g.legal_moves()[0])
    g.undo()
    with pytest.raises(ValueError, match="a number of moves"):
        g.limit_undo(0)


def test_a_copy_keeps_the_bound_and_the_moves():
    g = mancala.Game("oware")
    g.limit_undo(2)
    _random_line(g, 5, plies=20)
    c = g.copy()
    assert c.moves_played() == g.moves_played() and c.ply == 20
    c.undo()
    c.undo()
    c.undo()
    with pytest.raises(mancala.UndoLimitError):
        c.undo()
    assert g.ply == 20                                 # the copy's undo took nothing from the game
    assert g.playout(random.Random(1)) == _random_line(mancala.Game("oware"), 5, plies=20).playout(random.Random(1))


def _repetition_game(seed_from=0):
    """Seeds of random Oware games that end by repetition well after their last capture began."""
    for seed in range(seed_from, seed_from + 200):
        g = _random_line(mancala.Game("oware"), seed, plies=1000)
        if g.outcome().reason == "repetition":
            yield seed, g


@pytest.mark.parametrize("board_paths", [False, True])
def test_the_repetition_rule_is_exact_with_a_bounded_history(board_paths, monkeypatch):
    if board_paths:
        monkeypatch.setattr(game_module, "_CPYTHON", False)
        monkeypatch.setattr(game_module, "_TUPLE_HASH", False)
    found = 0
    for seed, whole in _repetition_game():
        for most in (1, 16):
            g = mancala.Game("oware")
            g.limit_undo(most)
            _random_line(g, seed, plies=1000)
            assert g.outcome() == whole.outcome() and g.moves_played() == whole.moves_played()
            # Oware's pits only lose seeds (pits_drain): the keys of positions before the last
            # capture undo can reach are gone; the rule needs no more.
            assert len(g._seen) <= len(whole._seen)
        found += 1
        if found == 5:
            break
    assert found == 5


@pytest.mark.parametrize("name", [n for n in VARIANTS if type(mancala.Game(n)).pits_drain])
def test_a_variant_whose_pits_drain_never_puts_seeds_back_in_them(name):
    # What pits_drain promises the bounded history: the pits' total never rises in a game.
    for seed in range(20):
        g = mancala.Game(name)
        rnd = random.Random(seed)
        before = sum(g.pits)
        while not g.is_over():
            g.push(rnd.choice(g.legal_moves()))
            now = sum(g.pits)
            assert now <= before, (name, seed, g.ply)
            before = now


def test_a_bounded_history_on_micropython(micropython):
    """The board's game (limit_undo 16): the same game as a whole history, a few KB for all of it."""
    setup = LCG + "import mancala\n"
    code = (
        "def line(most):\n"
        "    g = mancala.Game('oware')\n"
        "    if most:\n"
        "        g.limit_undo(most)\n"
        "    r = Lcg(3)\n"
        "    while not g.is_over():\n"
        "        g.play(r.choice(g.legal_moves()))\n"
        "    return g\n"
        "a = line(None)\n"
        "b = line(2)\n"
        "print(a.moves_played() == b.moves_played(), a.outcome() == b.outcome(), a.outcome().reason, b.ply,"
        " len(b._seen) < len(a._seen))\n"
        "try:\n"
        "    for _ in range(4):\n"
        "        b.undo()\n"
        "except mancala.UndoLimitError as e:\n"
        "    print(e)\n")
    out = micropython.run(setup + code, timeout=120).splitlines()
    assert out[0].split()[:2] == ["True", "True"] and out[0].split()[-1] == "True"
    assert out[1] == "only the last 2 moves can be taken back"
    moves = int(out[0].split()[-2])
    assert moves > 60
    # As test_a_moves_undo_record_is_small_on_micropython measures it: 84 B a move without the bound.
    setup += "g = mancala.Game('oware')\ng.limit_undo(16)\nr = Lcg(3)\ng.push(r.choice(g.legal_moves()))\n"
    play = "n = 0\nwhile n < 100 and not g.is_over():\n    g.push(r.choice(g.legal_moves()))\n    n += 1\nprint(n)\n"
    use = micropython.heap_used(play, setup=setup)
    assert use.output.split()[-1] == "100"
    assert use.retained < 3 * 1024, "a bounded history of 100 moves keeps %d bytes" % use.retained
