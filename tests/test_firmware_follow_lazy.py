"""Following an Omweso-family turn a piece at a time (firmware/sowlight_fw/follow/walk.py, WalkingMove's
open traces, and Omweso.walk in the rules core): one pit's moves are never all traced at
once (in Kombe a pit can have a dozen moves, each up to hundreds of steps: some 150 ms on an
RP2040, where a controller step should take 10 ms); a trace is walked as far as the hands
and the lights need, and idle scans walk on ahead of them a piece at a time.  What the board
does must not change: the same lights, the same steps taken, the same move journalled.
"""
import contextlib
import io
import json
import random

import pytest
from fakeload import load_fake
from testgames import board_4x8, positions, replayed

import mancala
from mancala.trace import Trace
from mancala.variants.omweso import Omweso
from sowlight_fw.follow import Follower, lifts, pit_of, new_move
from sowlight_fw.follow.walk import AHEAD, CHUNK

hands = load_fake("hands")

FAMILY = ["omweso", "coro", "kombe", "mongale", "aweet", "mongola-driedger"]


def walk_every_way(g, pit, rnd):
    """Every move from `pit` and its trace, by walk() alone (random budgets), in the order the
    walk offers the letters (default first, depth first: the order of legal_moves()).  Each
    piece keeps to its budget, the game's end included: a handful is cut where the budget
    ends, and only the steps that end a handful (a capture's takes, three at most, or a
    relay's lift) may follow."""
    out = []
    todo = [("", False, [], [])]
    while todo:
        letters, odd, w, steps = todo.pop()
        while True:
            tr = Trace()
            budget = rnd.randrange(1, 40)
            r = g.walk(pit, letters, w, tr, budget)
            assert len(tr) <= budget + 3, (pit, letters, budget, list(tr))
            steps = steps + list(tr)
            if r is None:
                out.append(((pit, letters) if odd else pit, steps))
                break
            if r:
                for i in range(len(r) - 1, -1, -1):
                    todo.append((letters + r[i], odd or i > 0, w[:], steps))
                break
    return out


@pytest.mark.parametrize("variant", FAMILY)
def test_walking_a_turn_gives_the_moves_and_traces_of_play_and_leaves_the_game_alone(variant):
    rnd = random.Random(variant)
    checked = 0
    for g in positions(variant, plies=50, seed=11):
        if g.phase != "play":
            continue
        before = (mancala.to_text(g), g.ply, list(g.cells()), g.is_over())
        for p in g.side(g.to_move):
            if not g.is_legal(p):
                continue
            want = [(m, list(g.copy().play(m))) for m in g.legal_moves() if pit_of(m) == p]
            assert walk_every_way(g, p, rnd) == want, (variant, mancala.to_text(g), p)
            assert (mancala.to_text(g), g.ply, list(g.cells()), g.is_over()) == before
            checked += 1
    assert checked > 100


def test_a_walk_ends_with_what_play_adds_after_the_turn_the_games_end():
    # A position where some move ends the game: its trace ends with the end step, walked too.
    ends = 0
    for variant in ("omweso", "kombe"):
        for g in positions(variant, games=6, plies=400, seed=3):
            if g.phase != "play":
                continue
            ends += walk_the_ending_moves(g, random.Random(1))
    assert ends > 0


def walk_the_ending_moves(g, rnd):
    """Every move of g's player to move that ends the game, walked every way (walk_every_way):
    it gives the trace play() gives, and leaves the game as it was.  Returns how many."""
    n = 0
    for m in g.legal_moves():
        if pit_of(m) is None:
            continue
        steps = list(g.copy().play(m))
        if steps[-1].kind != "end":
            continue
        before = game_state(g)
        got = [t for mm, t in walk_every_way(g, pit_of(m), rnd) if mm == m]
        assert got == [steps]
        assert game_state(g) == before and list(g.copy().play(m)) == steps
        n += 1
    return n


def game_state(g):
    """What walk() must leave as it found it, as the rules API shows it.  (It works out a game's
    end without play() and undo(): the callers play the walked move again, the repetition
    rule's counts included.)"""
    return (mancala.to_text(g), g.ply, list(g.cells()), g.is_over(), g.to_move, g.outcome(), g.moves_played())


def test_a_walk_ends_the_game_as_play_does_in_a_position_set_up_with_no_move_played():
    # A position loaded from text has no move to take back: walk() pushes a record for the
    # game's end then (play() has one when it looks for a repetition), and takes it back.
    ends = 0
    for g in positions("kombe", games=6, plies=400, seed=3):
        if g.phase != "play" or g.is_over():
            continue
        g = mancala.from_text(mancala.to_text(g))
        assert g.ply == 0
        ends += walk_the_ending_moves(g, random.Random(4))
        assert g.ply == 0
    assert ends > 0


@pytest.mark.parametrize("variant", FAMILY)
def test_the_family_collects_the_leftovers_as_mancala_does(variant):
    # At the game's end every pit's seeds go to its owner's store, a take step each, pit by
    # pit in order (the engine's rule; the family's code works a player's pits at a time): with
    # a trace (play) and without (push), to the same counts.
    checked = 0
    for g in positions(variant, games=6, plies=400, seed=5):
        if g.phase != "play" or g.is_over():
            continue
        for m in g.legal_moves():
            after = g.copy()
            steps = list(after.play(m))
            if steps[-1].kind != "end":
                continue
            pushed = g.copy()
            pushed.push(m)
            assert pushed.cells() == after.cells() and pushed.outcome() == after.outcome()
            assert sum(after.pits) == 0 and sum(after.stores) == sum(g.cells())
            taken = [s for s in steps if s.kind == "take" and s.to >= g.n_pits]
            assert [s.pit for s in taken] == sorted(set(s.pit for s in taken))
            assert all(s.count > 0 and s.to == g.store(g.owner(s.pit)) for s in taken)
            checked += 1
    assert checked > 5


@pytest.mark.parametrize("variant", ["omweso", "kombe"])
def test_a_walk_ends_the_game_when_its_turn_repeats_a_position(variant):
    # walk() answers "the game goes on" without playing the turn when the next player can
    # move and the position is new; a position seen before ends the game, as play() does.
    # Each player's pit of two, a seed after it, goes round the circuit a pit a turn: after
    # sixteen turns each the board is as it was.  (A position loaded from text has seen only
    # itself, which no turn gives back with the same player to move: walks there, the game's
    # other ends, are test_a_walk_ends_the_game_as_play_does_in_a_position_set_up_with_no_move_played.)
    row = ",".join(["2", "1"] + ["0"] * 14)
    g = mancala.from_text("%s - %s/%s 0,0 0" % (variant, row, row))
    for ply in range(32):
        m = next(m for m in g.legal_moves() if pit_of(m) is not None)
        after = g.copy()
        want = list(after.play(m))
        assert (after.is_over() and after.outcome().reason == "repetition") == (ply == 31), ply
        before = game_state(g)
        got = [t for mm, t in walk_every_way(g, pit_of(m), random.Random(ply)) if mm == m]
        assert got == [want], ply
        assert game_state(g) == before and list(g.copy().play(m)) == want
        g.play(m)
    assert g.outcome().reason == "repetition"


@pytest.mark.parametrize("variant", ["kombe", "omweso", "mongola-driedger"])
def test_making_a_walked_move_takes_the_counts_the_walk_ended_with(variant):
    # push() after walks takes the counts a walk ended with for the move (a long turn played
    # again would take longer than a controller step may): the same game as a move made with
    # no walk before it, and never the counts of walks made in another position.
    checked = 0
    for g in positions(variant, games=2, plies=40, seed=9):
        if g.phase != "play":
            continue
        unwalked = mancala.Game(variant)       # the same moves, never walked
        for m in g.moves_played():
            unwalked.play(m)
        for p in g.side(g.to_move):
            if not g.is_legal(p):
                continue
            moves = [m for m, _ in walk_every_way(g, p, random.Random(p))]
            for m in moves:
                walk_every_way(g, p, random.Random(p))      # (the walks' counts, kept)
                g.push(m)
                unwalked.push(m)
                assert (g.cells(), g.to_move, g.is_over(), g.outcome()) == (
                    unwalked.cells(), unwalked.to_move, unwalked.is_over(), unwalked.outcome())
                g.undo()
                unwalked.undo()
                checked += 1
            # Walks, then a move and the opponent's reply (play(), which leaves the walks' counts
            # alone): back to this player in another position, whose turns are played.
            walk_every_way(g, p, random.Random(p))
            replies = 0
            for m in (p, "any reply"):
                if g.is_over():
                    break
                m = m if m == p else g.legal_moves()[0]
                g.play(m)
                unwalked.play(m)
                replies += 1
            if not g.is_over():
                for q in g.side(g.to_move):
                    if g.is_legal(q):
                        g.push(q)
                        unwalked.push(q)
                        assert (g.cells(), g.to_move, g.outcome()) == (unwalked.cells(), unwalked.to_move, unwalked.outcome())
                        g.undo()
                        unwalked.undo()
            for _ in range(replies):
                g.undo()
                unwalked.undo()
    assert checked > 50


# ----- the follower's work, counted ------------------------------------------------


class Counted:
    """Counts the rules core's work for a follower: walk() calls and the steps each added;
    play(), listing moves and moves_from() must not happen at all."""

    def __init__(self, monkeypatch, cls):
        self.walks = []
        self.forbidden = []
        real_walk = cls.walk
        me = self

        def walk(game, pit, letters, w, tr, budget):
            n = len(tr)
            r = real_walk(game, pit, letters, w, tr, budget)
            me.walks.append((pit, len(tr) - n))
            return r

        monkeypatch.setattr(cls, "walk", walk)
        for name in ("play", "legal_moves", "moves_from"):
            monkeypatch.setattr(cls, name, self.forbid(name, getattr(cls, name)))

    def forbid(self, name, real):
        def f(game, *args):
            self.forbidden.append(name)
            return real(game, *args)
        return f

    def take(self):
        w = self.walks
        self.walks = []
        return w


def identity_follower(g, counting):
    n = g.n_pits + g.players
    f = Follower(n, counting)
    for c in range(n):
        f.care[c] = 1
    f.start(g, tuple(range(n)))
    return f


def a_turn_with_choices(variant, seed):
    """A position of `variant` and a move there that meets two choice points or more."""
    rnd = random.Random("%s/%d" % (variant, seed))
    while True:
        g = mancala.Game(variant, race="none")
        for _ in range(rnd.randrange(2, 40)):
            if g.is_over():
                break
            g.play(rnd.choice(g.legal_moves()))
        if g.is_over():
            continue
        rich = [m for m in g.legal_moves() if type(m) is tuple and len(m) == 2 and len(m[1]) >= 2]
        if rich:
            return mancala.from_text(mancala.to_text(g)), rnd.choice(rich)    # (the list not built)


# The most an idle scan's walk() call adds: CHUNK steps (the walk cuts a handful where
# they run out, and hands out the game's end in pieces too), and what may follow the
# handful's last seed before the walk can stop: a capture's takes (three at most) or a
# relay's lift.
MOST_A_PIECE = CHUNK + 3
# A look's walk asks for the steps up to the one the sensors saw: a few dozen at most here.
MOST_A_WALK = CHUNK + 3 + 32


@pytest.mark.parametrize("variant,seed", [("kombe", 1), ("kombe", 2), ("omweso", 3), ("omweso", 4),
                                          ("mongale", 5), ("coro", 6)])
@pytest.mark.parametrize("counting", [True, False])
def test_a_follower_walks_one_piece_per_idle_call_and_only_what_a_step_needs(variant, seed, counting,
                                                                           monkeypatch):
    g, move = a_turn_with_choices(variant, seed)
    trace = list(g.copy().play(move))
    liftable = [p for p in g.side(g.to_move) if g.is_legal(p)]
    counted = Counted(monkeypatch, type(g))
    f = identity_follower(g, counting)
    # The turn's lights: the liftable pits, nothing walked.
    assert [s.pit for s in f.first_steps()] == liftable
    assert counted.take() == []
    obs = list(f.counts)
    i = 0
    looks = 0
    while i < len(trace):
        # The hands make the next step the sensors can see (and the unseen ones before it).
        while True:
            s = trace[i]
            f.apply(obs, s)
            i += 1
            if i == len(trace) or f.bad(obs, f.counts) or s.kind in ("extra_turn", "pass", "end", "choice"):
                break
        depth, steps, ambiguous = f.lookahead(obs, 400)
        walked = counted.take()
        looks += 1
        # A look walks only the traces still possible, each about as far as the step seen.
        assert all(p == move[0] for p, _ in walked)
        assert all(n <= MOST_A_WALK for _, n in walked)
        assert len(walked) <= 2 + 2 * len(f.mv.paths()), walked
        if depth:
            while steps is not None and depth:
                f.advance_run(steps)
                f.skip_markers()
                depth, steps, ambiguous = f.lookahead(obs, 400) if f.bad(obs, f.counts) else (0, None, False)
        counted.take()
        # Idle scans between two steps of the hands: one walk each, of one piece (none once
        # the open traces reach AHEAD steps past the hands).
        for _ in range(3):
            mv = f.mv
            if not (mv.prebuild and mv.building()):
                break
            walked = mv.build_one()
            one = counted.take()
            assert len(one) <= (1 if walked else 0) and all(n <= MOST_A_PIECE for _, n in one), one
        f.forced_run(400)
    rest = trace[f.index:]
    if rest:
        # The end of the move the sensors cannot see (occupancy): confirm takes it as made.
        run, seen, ends = f.forced_run(400)
        assert run == rest and not seen
        f.advance_run(rest)
    f.skip_markers()
    assert f.index == len(trace) and f.mv.can_stop() and f.mv.move() == move
    assert counted.forbidden == []
    assert looks > 2


@pytest.mark.parametrize("variant", ["kombe", "omweso"])
def test_the_traces_a_follower_walks_are_those_of_the_moves(variant):
    for g in positions(variant, games=2, plies=40, seed=5):
        if g.phase != "play":
            continue
        pits, _ = lifts(g)
        for p in pits:
            mv = new_move(g, pits, None)
            mv.build_pit(p)
            mv.forget_rest()                # (the hands lifted p)
            assert mv.prebuild
            while mv.building():
                assert mv.build_one(None)
            assert not mv.build_one(None) and not mv.prebuild
            assert mv.paths() == [(m, list(g.copy().play(m))) for m in g.legal_moves() if pit_of(m) == p]


@pytest.mark.parametrize("variant,seed", [("kombe", 1), ("kombe", 2), ("omweso", 3)])
def test_idle_calls_walk_the_open_traces_only_so_far_past_the_hands(variant, seed):
    """Every way through a long turn walked to its end would not fit a board's heap (a Kombe
    pit's dozen ways, each of hundreds of steps), nor ten open ways each walked far on: idle
    calls walk the open traces until each reaches AHEAD steps past the hands' shared among
    them (CHUNK at least) and stop; the hands' steps let them walk on."""
    rnd = random.Random(seed)
    while True:
        g, move = a_turn_with_choices(variant, rnd.randrange(1000))
        trace = list(g.copy().play(move))
        if len(trace) > 2 * (AHEAD + MOST_A_PIECE):
            break
    pits = [p for p in g.side(g.to_move) if g.is_legal(p)]
    mv = new_move(g, pits, None)
    mv.build_pit(move[0])
    mv.forget_rest()                    # (the hands lifted the move's pit)
    made = 0
    for upto in (0, 1, AHEAD + MOST_A_PIECE):
        for step in trace[made:upto]:
            mv.advance(step)
        made = upto
        while mv.build_one():
            pass
        paths = mv.paths()
        open_ways = [len(steps) for m, steps in paths if m is None]
        assert open_ways and min(open_ways) >= made + max(CHUNK, AHEAD // len(open_ways))
        if len(open_ways) > 1:
            assert min(open_ways) < made + AHEAD        # (shared among them, not AHEAD each)
        assert max(len(steps) for _, steps in paths) <= made + AHEAD + MOST_A_PIECE
        assert mv.building()            # (the rest waits for the hands)
    while mv.building():
        assert mv.build_one(None)
    assert (move, trace) in mv.paths()


# ----- the board's behaviour: the same as with every trace built at once ------------


def played(board, variant, seed):
    frames = []
    h = hands.start(board, variant, seed=seed)
    real = h.c.render

    def render(now, out=None):
        r = real(now, out)
        frames.append(bytes(h.c.roles) + bytes(h.c.alt) + bytes(h.c.cnt))
        return r
    h.c.render = render
    h.play(40000)
    return h, frames


def changes(frames):
    """The lights one after the other: each frame that differs from the one before."""
    return [x for k, x in enumerate(frames) if k == 0 or x != frames[k - 1]]


@pytest.mark.parametrize("variant,seed", [("kombe", 2), ("omweso", 2), ("mongale", 3), ("coro", 4)])
@pytest.mark.parametrize("kind", ["load-cells", "occupancy"])
def test_a_whole_game_is_the_same_walked_as_with_every_trace_built_at_once(variant, seed, kind, monkeypatch):
    board = board_4x8(kind)
    h, frames = played(board, variant, seed)
    c = h.c
    assert c.state == "over" and c.game.is_over()
    assert h.seeds.counts == hands.expected_counts(c)
    g = replayed(variant, c.records)
    assert g.cells() == c.game.cells() and g.outcome() == c.game.outcome()
    # The same game with a pit's traces all built when it is lifted (as before walking): the
    # same lights one after the other, the same records and link messages.  Walked, a lift's
    # lights come a scan later (the scan after it walks the lifted turn: walk_lifted), and
    # the hands, who do what the lights show, a scan later too.
    monkeypatch.setattr(Omweso, "walk", None)
    h2, frames2 = played(board, variant, seed)
    assert h2.c.records == c.records
    assert h2.c.outbox == c.outbox
    assert changes(frames2) == changes(frames)
    lifted = sum(1 for r in c.records if r["kind"] == "move")
    assert len(frames2) <= len(frames) <= len(frames2) + lifted


def _fewest_steps(f, traces, made, obs):
    """What lookahead() must find, by brute force: the traces that go the way the hands went,
    looked along from the steps made for the first step after which the board shows `obs`; the
    fewest such steps, and the beginning those traces share."""
    i = len(made)
    best = None
    winners = []
    for steps in traces:
        if steps[:i] != made:
            continue
        sc = list(f.counts)
        for j in range(i, len(steps)):
            f.apply(sc, steps[j])
            if f.bad(obs, sc) == 0:
                d = j - i + 1
                if best is None or d < best:
                    best, winners = d, [steps]
                elif d == best:
                    winners.append(steps)
                break
    if best is None:
        return None, None, False
    n = 0
    while n < best and all(w[i + n] == winners[0][i + n] for w in winners):
        n += 1
    return best, winners[0][i:i + n], n < best


@pytest.mark.parametrize("variant", ["kombe", "omweso", "oware"])
@pytest.mark.parametrize("counting", [False, True])
def test_hands_some_steps_ahead_are_found_where_the_fewest_steps_explain_the_board(variant, counting):
    # The hands may make several steps between two looks (a quick sowing; steps the sensors
    # cannot see).  Whatever the follower walks or skips, it finds the fewest next steps after
    # which the board is as seen, and goes no further than the traces that do so agree.
    rnd = random.Random("%s/%s" % (variant, counting))
    looks = ahead = 0
    for g in positions(variant, games=2, plies=30, seed=3):
        if g.is_over() or rnd.random() < 0.6:
            continue
        g = mancala.from_text(mancala.to_text(g))        # (the list not built)
        n = g.n_pits + g.players
        traces = [list(g.copy().play(m)) for m in g.legal_moves()]
        f = Follower(n, counting)
        for c in range(n):
            f.care[c] = 1 if counting or rnd.random() < 0.8 else 0
        f.start(g, tuple(range(n)))
        steps = rnd.choice(traces)
        board = list(f.counts)
        made = []
        k = 0
        while k < len(steps):
            chunk = steps[k:k + rnd.choice((1, 2, 3, 5, 8))]
            for s in chunk:
                f.apply(board, s)
            k += len(chunk)
            obs = [(x if counting else int(x > 0)) if f.care[c] else -1 for c, x in enumerate(board)]
            want = _fewest_steps(f, traces, made, obs)
            depth, got, amb = f.lookahead(obs, 400)
            looks += 1
            if want[0] is None:
                assert depth is None
                break
            if f.bad(obs, f.counts) == 0:
                assert depth == 0           # (steps the sensors cannot see: nothing to find yet)
                continue
            assert (depth, list(got), amb) == want
            ahead += depth > 1
            f.advance_run(got)
            made += got
            assert f.index == len(made)
            if amb:
                break
            assert f.bad(obs, f.counts) == 0                     # the board is as the follower expects
    assert looks > 30 and ahead > 5, (looks, ahead)


# ----- on MicroPython ----------------------------------------------------------------

# A turn followed step by step (every cell counted) after `moves` from the start or from `pits`:
# what the follower finds at each step, how many traces are still possible, the move it ends on.
VM_TURN = """
import json, mancala
from sowlight_fw.follow import Follower
variant, options, pits, moves, move = json.loads(%r)
g = mancala.Game(variant, pits=pits, race="none", **options)
for m in moves:
    g.play(m if isinstance(m, int) else tuple(m))
move = move if isinstance(move, int) else tuple(move)
trace = list(g.copy().play(move))
g = mancala.from_text(mancala.to_text(g))     # (the list not built)
cls = type(g)
whole = cls.legal_moves
listed = []
cls.legal_moves = lambda self: listed.append(1) or whole(self)
n = g.n_pits + g.players
f = Follower(n, True)
for c in range(n):
    f.care[c] = 1
f.start(g, tuple(range(n)))
obs = list(f.counts)
out = []
for s in trace:
    if s.kind in ("end", "extra_turn", "pass", "choice"):
        continue
    f.apply(obs, s)
    depth, steps, amb = f.lookahead(obs, 400)
    out.append([depth, [list(x) for x in steps or []], len(f.mv.paths())])
    f.advance_run(steps)
    f.skip_markers()
    while f.mv.prebuild and f.mv.building() and f.mv.build_one():
        break
f.skip_markers()
m = f.mv.move()
cls.legal_moves = whole         # (the script runs on CPython too, in the tests' process)
print(json.dumps([out, list(m) if isinstance(m, tuple) else m, f.mv.can_stop(), listed == []]))
"""


def followed_on_both(micropython, variant, options, pits, moves, move):
    """VM_TURN's answer on the MicroPython VM, checked against the same script on CPython."""
    script = VM_TURN % json.dumps([variant, options, pits, moves, list(move) if isinstance(move, tuple) else move])
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(script, {})      # the same script on CPython
    want = json.loads(out.getvalue().strip().splitlines()[-1])
    got = json.loads(micropython.run(script, timeout=300).strip().splitlines()[-1])
    assert got == want
    return got


def test_a_kombe_turn_is_followed_the_same_on_micropython(micropython):
    rnd = random.Random(8)
    while True:
        g = mancala.Game("kombe", race="none")
        moves = []
        for _ in range(rnd.randrange(4, 30)):
            m = rnd.choice(g.legal_moves())
            g.play(m)
            moves.append(list(m) if isinstance(m, tuple) else m)
        rich = [m for m in g.legal_moves() if type(m) is tuple and len(m) == 2 and len(m[1]) >= 2]
        if rich and not g.is_over():
            break
    move = rnd.choice(rich)
    got = followed_on_both(micropython, "kombe", {}, None, moves, move)
    assert got[1] == list(move) and got[2] is True and got[3] is True
    assert len(got[0]) > 3 and any(n > 1 for _, _, n in got[0])     # (it met a choice point)


# A Kombe game some moves in, the first pit the player may lift, and a walk of it done once (the
# game's own scratch for walks is made then).
PAUSED_WALK = """
import mancala
from mancala.trace import Trace
g = mancala.Game("kombe", race="none")
for i in range(12):
    ms = g.legal_moves()
    g.play(ms[(i * 7) % len(ms)])
pit = [p for p in g.side(g.to_move) if g.is_legal(p)][0]
g.walk(pit, '', [], Trace(), 2)
"""


def test_a_paused_walk_keeps_the_counts_as_bytes_on_micropython(micropython):
    # A follower keeps a paused walk for every way of a turn still open (late in a Kombe game,
    # ten and more at a time): the counts where it stopped are kept as bytes, 64 bytes of a
    # board's heap where a list of 34 counts takes 160.  (Measured: 192 bytes kept; 288 with
    # the counts in a list.)
    setup = PAUSED_WALK
    code = "w = []\nr = g.walk(pit, '', w, Trace(), 2)\nassert r == '' and len(w) == 10\n"
    assert micropython.heap_used(code, setup=setup).retained < 240


def test_a_piece_of_a_walk_leaves_little_garbage_on_micropython(micropython):
    # A look during a Kombe turn walks every way still open a piece further, and idle scans walk
    # on: each piece's garbage adds to the scan's.  The counts a walk starts from are kept in
    # the game's own list, and the piece goes into a trace emptied for it.  (Measured with the
    # harness's own 128 bytes: 560 bytes; 720 when each piece copied the counts.)
    setup = PAUSED_WALK + "w = []\ntr = Trace()\ng.walk(pit, '', w, tr, 2)\n"
    code = "tr.clear()\nr = g.walk(pit, '', w, tr, 6)\nassert r == '' and len(tr) >= 6\n"
    assert micropython.heap_used(code, setup=setup).allocated < 640
