"""Kalah with empty_capture="leave" against OpenSpiel's `mancala`, move for move.

Runs when open_spiel is importable (the `bench` extra: pip install -e '.[bench]'); skipped
with that message otherwise.  OpenSpiel's board is one list of 14 cells: 0 player 1's store,
1-6 player 0's pits, 7 player 0's store, 8-13 player 1's pits; its actions are those cells.
Its game ends as soon as either row is empty, with the seeds left where they are; ours ends
when the player to move has an empty row, each row's seeds going to its owner (Kalah's
decision 5): where both have ended, the stores with the rows swept in agree, and so does the
winner.  docs/variants/kalah.md, "Options".
"""
import random

import pytest

import mancala

pyspiel = pytest.importorskip("pyspiel", reason="open_spiel is not installed (pip install -e '.[bench]')")


def spiel_cells(state):
    return [int(x) for x in state.observation_tensor(0)[:14]]


def swept(b):
    """OpenSpiel's cells -> the two stores with each row's seeds added to its owner's."""
    return [b[7] + sum(b[1:7]), b[0] + sum(b[8:14])]


def test_kalah_leave_plays_move_for_move_as_openspiel_mancala():
    spiel = pyspiel.load_game("mancala")
    both_ended = 0
    for seed in range(200):
        rng = random.Random(seed)
        s = spiel.new_initial_state()
        g = mancala.Game("kalah", empty_capture="leave")
        while not s.is_terminal():
            assert not g.is_over(), seed
            assert s.current_player() == g.to_move
            assert [a - 1 if a < 7 else a - 2 for a in s.legal_actions()] == g.legal_moves()
            m = rng.choice(g.legal_moves())
            g.play(m)
            s.apply_action(m + 1 if m < 6 else m + 2)
            b = spiel_cells(s)
            c = g.cells()
            if g.is_over():
                assert s.is_terminal() and swept(b) == c[12:14], (seed, b, c)
            else:
                assert [c[13]] + c[0:6] + [c[12]] + c[6:12] == b, (seed, b, c)
        both_ended += g.is_over()
        scores = swept(b)
        r = s.returns()
        assert (r[0] > r[1]) == (scores[0] > scores[1]) and (r[0] == r[1]) == (scores[0] == scores[1])
    assert both_ended     # some games end on both sides at the same move


def test_kalah_take_parts_from_openspiel():
    # The source's reading (the default) takes the lone seed: some random game tells them apart.
    spiel = pyspiel.load_game("mancala")
    for seed in range(50):
        rng = random.Random(seed)
        s = spiel.new_initial_state()
        g = mancala.Game("kalah")
        while not s.is_terminal() and not g.is_over():
            m = rng.choice(g.legal_moves())
            g.play(m)
            s.apply_action(m + 1 if m < 6 else m + 2)
            c = g.cells()
            if not g.is_over() and [c[13]] + c[0:6] + [c[12]] + c[6:12] != spiel_cells(s):
                return
    pytest.fail("the default Kalah agreed with OpenSpiel in 50 games")
