"""The step-wise move API: following a move as hands make it gives the same trace as play()."""
import random

import pytest

import mancala
from mancala import MoveInProgress, Step


@pytest.mark.parametrize("name", mancala.variants())
def test_following_forced_steps_gives_the_trace_of_play(name):
    g = mancala.Game(name)
    rnd = random.Random(5)
    for _ in range(40):
        if g.is_over():
            break
        m = rnd.choice(g.legal_moves())
        expected = list(g.copy().play(m))
        mv = MoveInProgress(g)
        for step in expected:
            assert step in mv.options()
            mv.advance(step)
        assert mv.can_stop()
        assert list(mv.finish()) == expected or mv.move() != m
        if g.moves_played()[-1] != m:  # two moves with the same physical steps: either is the move made
            g.undo()
            g.play(m)


def test_the_first_step_is_a_lift_of_a_legal_pit():
    g = mancala.Game("oware")
    mv = MoveInProgress(g)
    assert [(s.kind, s.pit, s.count) for s in mv.options()] == [("lift", p, 4) for p in range(6)]
    assert mv.forced() is None
    mv.advance(Step("lift", 2, 4, -1))
    assert mv.forced() == Step("drop", 3, 1, -1)


def test_a_wrong_step_is_refused_with_what_was_expected():
    g = mancala.Game("oware")
    mv = MoveInProgress(g)
    with pytest.raises(mancala.IllegalMoveError, match="expected lift 0 \\(4\\)"):
        mv.advance(Step("lift", 7, 4, -1))
    mv.advance(Step("lift", 0, 4, -1))
    with pytest.raises(mancala.IllegalMoveError, match="expected drop 1"):
        mv.advance(Step("drop", 2, 1, -1))
    assert mv.steps == [Step("lift", 0, 4, -1)]
    with pytest.raises(mancala.IllegalMoveError, match="not complete"):
        mv.finish()


def test_a_direction_choice_is_settled_by_the_first_drop():
    # Any variant whose player chooses the direction shows both neighbours as options.
    def directed(m):
        return isinstance(m, tuple) and len(m) == 2 and isinstance(m[0], int) and m[1] in (1, -1)

    chooser = [n for n in mancala.variants() if mancala.Game(n).direction == 0
               and any(directed(m) for m in mancala.Game(n).legal_moves())]
    assert chooser, "some variant lets the player choose the direction"
    for name in chooser:
        g = mancala.Game(name)
        moves = [m for m in g.legal_moves() if directed(m)]
        pit = moves[0][0]
        mv = MoveInProgress(g)
        lift = next(s for s in mv.options() if s.kind == "lift" and s.pit == pit)
        mv.advance(lift)
        if len([m for m in moves if m[0] == pit]) > 1:
            assert mv.forced() is None and len(mv.options()) >= 2


def test_over_game_cannot_start_a_move():
    g = mancala.Game("kalah", pits=[0, 0, 0, 0, 0, 1, 2, 0, 0, 0, 0, 0], stores=[20, 25])
    g.play(5)
    with pytest.raises(mancala.IllegalMoveError, match="over"):
        MoveInProgress(g)


@pytest.mark.parametrize("variant", ["oware", "kalah", "dakon", "hus", "enkeshui", "kombe"])
def test_forced_is_the_one_option_left_at_every_step(variant):
    # forced() answers without options()' list (a board asks it several times a step): the
    # same answer, at every step of every move, where moves part and where some have ended.
    from testgames import positions
    checked = parted = 0
    for g in positions(variant, games=2, plies=30, seed=4):
        if g.is_over():
            continue
        mv = MoveInProgress(g)
        rnd = random.Random(g.ply)
        while True:
            opts = mv.options()
            assert mv.forced() == (opts[0] if len(opts) == 1 else None), (variant, mv.steps)
            checked += 1
            parted += len(opts) > 1
            if not opts:
                break
            mv.advance(rnd.choice(opts))
    assert checked > 200 and parted > 0
