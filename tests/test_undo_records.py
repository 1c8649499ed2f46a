"""Undo records as the board keeps them.

On MicroPython the rules core keeps the counts before each move as bytes (a
third of the heap of a list copy), or none where the record's repetition key
is those counts and the player, and puts them back through a list on undo
(MicroPython assigns a slice from a list or tuple only).  CPython keeps a
tuple.  Both paths must restore every position exactly: on CPython here, and
on the MicroPython VM itself (the board's paths), with the heap a move's record
costs.
"""
import json
import random

import pytest

from testgames import LCG

import mancala

VARIANTS = mancala.variants()


def _position(g):
    return (g.cells(), g.to_move, g.phase, g.is_over(), mancala.to_text(g))


@pytest.mark.parametrize("name", VARIANTS)
def test_undo_restores_every_position(name):
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


def test_undo_on_micropython_restores_every_position_of_every_variant(micropython):
    # As test_undo_restores_every_position, on the board's code paths (bytes undo records,
    # byte-string repetition keys).
    code = LCG + (
        "import mancala\n"
        "def pos(g):\n"
        "    return (g.cells(), g.to_move, g.phase, g.is_over(), mancala.to_text(g))\n"
        "for name in %r:\n"
        "    for seed in (1, 2):\n"
        "        g = mancala.Game(name)\n"
        "        r = Lcg(seed)\n"
        "        seen = []\n"
        "        for ply in range(150):\n"
        "            if g.is_over():\n"
        "                break\n"
        "            seen.append(pos(g))\n"
        "            m = r.choice(g.legal_moves())\n"
        "            if ply %% 2:\n"
        "                g.play(m)\n"
        "            else:\n"
        "                g.push(m)\n"
        "        end = pos(g)\n"
        "        n = len(seen)\n"
        "        while seen:\n"
        "            g.undo()\n"
        "            assert pos(g) == seen.pop(), (name, seed, len(seen))\n"
        "        r = Lcg(seed)\n"
        "        for _ in range(150):\n"
        "            if g.is_over():\n"
        "                break\n"
        "            g.play(r.choice(g.legal_moves()))\n"
        "        assert pos(g) == end, (name, seed)\n"
        "    print(name, n)\n") % (VARIANTS,)
    out = micropython.run(code, timeout=600).split()
    assert out[0::2] == VARIANTS
    assert all(int(n) > 10 for n in out[1::2])


def lcg():
    """The VM scripts' Lcg (testgames.LCG) on CPython: the same choices from the same seed."""
    space = {}
    exec(LCG, space)
    return space["Lcg"]


@pytest.mark.parametrize("name", ["oware", "kalah", "dakon", "omweso", "lane"])
def test_the_boards_code_paths_play_the_same_game(name, micropython):
    """The board's undo records and keys change nothing in the game: the same moves, the same end."""
    line = ("g = mancala.Game(%r)\nr = Lcg(5)\nmoves = []\n"
            "while not g.is_over() and len(moves) < 400:\n"
            "    moves.append(r.choice(g.legal_moves()))\n"
            "    g.push(moves[-1])\n" % name)
    here = {"mancala": mancala, "Lcg": lcg()}
    exec(line, here)
    g = here["g"]
    out = micropython.run(LCG + "import json, mancala\n" + line +
                          "o = g.outcome()\nprint(json.dumps([moves, g.cells(), None if o is None else "
                          "[o.winner, o.scores, o.reason]]))\n", timeout=300)
    o = g.outcome()
    want = json.loads(json.dumps([here["moves"], g.cells(), None if o is None else [o.winner, o.scores, o.reason]]))
    assert json.loads(out.strip().splitlines()[-1]) == want


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


# Every track of the game's variant made (Mancala.track): a cache of the variant's, which the
# first moves through each pit fill.
TRACKS = "for p in range(g.players):\n    for o in g.side(p):\n        g.track(p, 1, o)\n        g.track(p, -1, o)\n"


def test_a_kombe_moves_undo_record_keeps_no_counts_on_micropython(micropython):
    """Kombe's key is the engine's (the counts and the player, as bytes) wherever no pit is marked
    and nobody has passed: the record keeps no counts of its own then, neither from play() of a
    move with choices (Omweso.play) nor from one without; and the records of the play phase share
    one tuple of the variant's state (_undo_state).  About 126 B a move with the key (190 B with a
    state tuple a record, 252 B with the counts kept beside the key as well)."""
    setup = LCG + "import mancala\ng = mancala.Game('kombe')\nr = Lcg(3)\nfor _ in range(20):\n    g.play(r.choice(g.legal_moves()))\n"
    setup += TRACKS      # (the variant's track cache, which moves fill as they go, is not a record)
    code = ("n = c = 0\nwhile n < 30 and not g.is_over():\n    m = r.choice(g.legal_moves())\n"
            "    c += type(m) is tuple\n    g.play(m)\n    n += 1\nprint(n, c)\n")
    use = micropython.heap_used(code, setup=setup, timeout=300)
    moves, choices = (int(x) for x in use.output.split()[-2:])
    assert moves == 30 and choices > 3
    assert use.retained / moves < 150, "%d bytes kept a move" % (use.retained / moves)


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
    return (g.moves_played(), g.ply, g.cells(), g.to_move, g.outcome(), mancala.to_text(g))


def _same_undoing(g, whole, most):
    """g (limit_undo(most)) and `whole` (every record) are the same game, and stay so as the
    last `most` moves are taken back one by one; g takes back at most one more (the spare
    record a move played since the last limit_undo may keep), then refuses."""
    assert _summary(g) == _summary(whole)
    for _ in range(min(most, g.ply)):
        assert g.undo() == whole.undo()
        assert _summary(g) == _summary(whole)
    spare = 0
    while g.ply:
        try:
            move = g.undo()
        except mancala.UndoLimitError:
            break
        assert move == whole.undo() and _summary(g) == _summary(whole)
        spare += 1
    assert spare <= 1


@pytest.mark.parametrize("name", VARIANTS)
def test_a_bounded_history_plays_the_same_game(name):
    for seed in (1, 2):
        for most in (1, 3):
            whole = _random_line(mancala.Game(name), seed, undo_every=7)
            g = mancala.Game(name)
            g.limit_undo(most)
            _random_line(g, seed, undo_every=7)
            _same_undoing(g, whole, most)


BOUNDED_ON_MICROPYTHON = LCG + """
import json, mancala

def line(name, most):
    # _random_line's moves (Lcg's choices), on the board's code paths.
    g = mancala.Game(name)
    if most:
        g.limit_undo(most)
    r = Lcg(4)
    for ply in range(150):
        if g.is_over():
            break
        m = r.choice(g.legal_moves())
        if ply % 2:
            g.play(m)
        else:
            g.push(m)
        if ply % 5 == 0:
            g.undo()
            g.play(m)
    return g

def summary(g):
    o = g.outcome()
    return [g.moves_played(), g.ply, g.cells(), g.to_move, None if o is None else [o.winner, o.scores, o.reason],
            mancala.to_text(g)]

out = []
for name in NAMES:
    g, whole = line(name, 2), line(name, None)
    same = [summary(g) == summary(whole)]
    for _ in range(min(2, g.ply)):
        same.append(g.undo() == whole.undo() and summary(g) == summary(whole))
    spare = 0
    try:
        while g.ply:
            m = g.undo()
            same.append(m == whole.undo() and summary(g) == summary(whole))
            spare += 1
    except mancala.UndoLimitError:
        pass
    out.append([name, all(same) and len(same) >= 3, spare <= 1])
print(json.dumps(out))
"""


def test_a_bounded_history_plays_the_same_game_on_micropython(micropython):
    names = ["oware", "ayoayo", "kpo", "dakon", "omweso", "kombe", "lane", "enkeshui", "kiothi", "pandi"]
    out = micropython.run(BOUNDED_ON_MICROPYTHON.replace("NAMES", repr(names)), timeout=300)
    assert json.loads(out.strip().splitlines()[-1]) == [[n, True, True] for n in names]


@pytest.mark.parametrize("rare, text, array", [(0x4000, 0x8000, True), (3, 8, True), (0x4000, 0x8000, False)])
def test_the_moves_let_go_are_the_moves_played(rare, text, array, monkeypatch):
    # A bounded history packs the moves it lets go (mancala/recent.py): pits, pits with their
    # choices, and the rest (passes, staged moves) come back as they were played, also once the
    # packing's numbers run out (here after a few: the moves become a list) or without `array`.
    import mancala.recent
    monkeypatch.setattr(mancala.recent, "_RARE", rare)
    monkeypatch.setattr(mancala.recent, "_TEXT", text)
    if not array:
        monkeypatch.setattr(mancala.recent, "array", None)
    for name in ("kombe", "omweso", "enkeshui", "lane"):
        whole = _random_line(mancala.Game(name), 3, plies=200)
        g = mancala.Game(name)
        g.limit_undo(2)
        _random_line(g, 3, plies=200)
        moves = whole.moves_played()
        assert g.moves_played() == moves and list(g.copy().moves_played()) == moves
        assert any(type(m) is tuple and len(m) == 2 and type(m[1]) is str for m in moves) or name != "kombe"


def test_limit_undo_again_keeps_the_last_moves_and_the_repetition_rule():
    for seed, whole in _repetition_game():
        g = mancala.Game("oware")
        g.limit_undo(3)
        _random_line(g, seed, plies=1000, undo_every=5, relimit=3)
        # The same game to its end, repetition rule included, with `most` records kept.
        assert g.outcome() == whole.outcome() and g.moves_played() == whole.moves_played()
        break
    # A game after limit_undo again: every move tried and taken back (a board's follower tracing the
    # next move) changes nothing, even after a capture: the same game as one never tried.
    g = mancala.Game("oware")
    plain = mancala.Game("oware")
    g.limit_undo(2)
    rnd = random.Random(7)
    tried = captures = 0
    while not g.is_over() and g.ply < 300:
        before = sum(g.pits)
        move = rnd.choice(g.legal_moves())
        g.play(move)
        plain.play(move)
        captures += sum(g.pits) < before
        g.limit_undo(2)
        for m in g.legal_moves():
            g.play(m)
            g.undo()
            tried += 1
        assert _summary(g) == _summary(plain)
    assert captures > 5 and tried > 100
    # Still two moves can be taken back, and no more.
    _same_undoing(g, plain, 2)


def test_a_move_tried_and_taken_back_after_limit_undo_costs_no_heap_on_micropython(micropython):
    # limit_undo again lets go of the spare record: a board's follower tracing the next move
    # (played and taken back) keeps nothing, not even after a capture.
    setup = LCG + (
        "import mancala\ng = mancala.Game('oware')\ng.limit_undo(2)\nr = Lcg(7)\n"
        "captures = 0\n"
        "while captures < 3 and not g.is_over():\n"
        "    before = sum(g.pits)\n"
        "    g.play(r.choice(g.legal_moves()))\n"
        "    captures += sum(g.pits) < before\n"
        "g.limit_undo(2)\n"
        "moves = g.legal_moves()\n")
    code = "for m in moves:\n    g.play(m)\n    g.undo()\nprint(len(moves), captures)\n"
    use = micropython.heap_used(code, setup=setup)
    tried, captures = use.output.split()[-2:]
    assert int(tried) > 1 and captures == "3"
    assert use.retained == 0, "%d bytes kept" % use.retained


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


def test_the_repetition_rule_is_exact_with_a_bounded_history():
    found = 0
    for seed, whole in _repetition_game():
        for most in (1, 16):
            g = mancala.Game("oware")
            g.limit_undo(most)
            _random_line(g, seed, plies=1000)
            assert g.outcome() == whole.outcome() and g.moves_played() == whole.moves_played()
        found += 1
        if found == 5:
            break
    assert found == 5


def _first_seen(name, moves):
    """The ply at which the position the moves end in was first reached (the game played
    without the repetition rule, which would end it and clear the pits on that position)."""
    g = mancala.Game(name)
    g.end_on_repetition = False
    seen = [(g.cells(), g.to_move)]
    for m in moves:
        g.play(m)
        seen.append((g.cells(), g.to_move))
    return seen.index(seen[-1])


@pytest.mark.parametrize("name", ["pandi", "pallam-kuzhi", "egyptian-simple", "syrian", "mbothe"])
def test_a_position_from_beyond_the_bound_still_repeats_where_pits_gain_seeds(name):
    # Where seeds come back to the pits, every position can come round again: the keys of
    # those undo no longer reaches are kept as digests (mancala/recent.py), and a position
    # reached again from long before ends the game as it does with every record kept.
    for seed in range(200):
        whole = _random_line(mancala.Game(name), seed, plies=600)
        if whole.outcome() is None or whole.outcome().reason != "repetition":
            continue
        moves = whole.moves_played()
        if len(moves) - _first_seen(name, moves) < 6:
            continue
        for most in (1, 2):
            g = mancala.Game(name)
            g.limit_undo(most)
            _random_line(g, seed, plies=600, undo_every=5, relimit=most)
            assert g.outcome() == whole.outcome() and g.moves_played() == moves
        # A copy made half way keeps what its game has seen, and the game what it has.
        g = mancala.Game(name)
        g.limit_undo(1)
        for m in moves[:len(moves) // 2]:
            g.play(m)
        c = g.copy()
        for m in moves[len(moves) // 2:]:
            c.play(m)
        assert c.outcome() == whole.outcome() and c.ply == len(moves)
        for m in moves[len(moves) // 2:]:
            g.play(m)
        assert g.outcome() == whole.outcome()
        return
    pytest.fail("no random game of %s ended on a position from 6 or more moves before" % name)


def test_a_position_from_beyond_the_bound_still_repeats_on_micropython(micropython):
    # The board's keys are bytes, kept as digests once undo no longer reaches them: a game that
    # comes back to a position from long before ends there as on CPython, with binascii's CRC-32
    # in the digest and without it (a port built without binascii).
    for seed in range(200):
        whole = _random_line(mancala.Game("pandi"), seed, plies=600)
        moves = whole.moves_played()
        if whole.outcome().reason == "repetition" and len(moves) - _first_seen("pandi", moves) >= 6:
            break
    code = ("import json, mancala, mancala.recent\n"
            "out = []\n"
            "for crc in (mancala.recent.crc32, None):\n"
            "    mancala.recent.crc32 = crc\n"
            "    g = mancala.Game('pandi')\n"
            "    g.limit_undo(1)\n"
            "    for m in %r:\n"
            "        g.play(m)\n"
            "        g.limit_undo(1)\n"
            "    o = g.outcome()\n"
            "    out.append([crc is not None, g.ply, o.winner, o.scores, o.reason])\n"
            "print(json.dumps(out))\n" % (moves,))
    out = json.loads(micropython.run(code, timeout=120).strip().splitlines()[-1])
    o = whole.outcome()
    assert out == [[True, len(moves), o.winner, list(o.scores), "repetition"],
                   [False, len(moves), o.winner, list(o.scores), "repetition"]]


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
        "print(a.moves_played() == b.moves_played(), a.outcome() == b.outcome(), a.outcome().reason, b.ply)\n"
        "try:\n"
        "    for _ in range(4):\n"
        "        b.undo()\n"
        "except mancala.UndoLimitError as e:\n"
        "    print(e)\n")
    out = micropython.run(setup + code, timeout=120).splitlines()
    assert out[0].split()[:3] == ["True", "True", "repetition"]     # the rule exact with 2 records kept
    assert out[1] == "only the last 2 moves can be taken back"
    moves = int(out[0].split()[-1])
    assert moves > 60
    # As test_a_moves_undo_record_is_small_on_micropython measures it: 84 B a move without the bound.
    setup += "g = mancala.Game('oware')\ng.limit_undo(16)\nr = Lcg(3)\ng.push(r.choice(g.legal_moves()))\n"
    play = "n = 0\nwhile n < 100 and not g.is_over():\n    g.push(r.choice(g.legal_moves()))\n    n += 1\nprint(n)\n"
    use = micropython.heap_used(play, setup=setup)
    assert use.output.split()[-1] == "100"
    assert use.retained < 3 * 1024, "a bounded history of 100 moves keeps %d bytes" % use.retained


def test_a_bounded_history_where_pits_gain_seeds_on_micropython(micropython):
    """Kombe's seeds never leave the board, so any position may come back and the repetition rule
    needs every one: a key a position, beyond the undo records as a digest of two small ints
    (mancala/recent.py), with the move itself in two bytes (and a choice's letters in a few
    more): about 17 bytes a move.  Before, 180 moves kept 6.5 KB: a position with marked pits
    (bulls) kept its key whole in a tuple, and a move with choices was a tuple of its own."""
    setup = (LCG + "import mancala\ng = mancala.Game('kombe')\ng.limit_undo(16)\nr = Lcg(3)\n"
             "for _ in range(20):\n    g.push(r.choice(g.legal_moves()))\n")
    play = ("n = c = 0\nwhile n < 180 and not g.is_over():\n    m = r.choice(g.legal_moves())\n"
            "    c += type(m) is tuple\n    g.push(m)\n    n += 1\nprint(n, c)\n")
    use = micropython.heap_used(play, setup=setup, timeout=300)
    moves, choices = (int(x) for x in use.output.split()[-2:])
    assert moves == 180 and choices > 50
    assert use.retained < 4 * 1024, "180 moves of Kombe keep %d bytes" % use.retained
