"""Random playouts for Monte-Carlo hints: game.playout() (see docs/rules.md, "Speed").

A module of its own, loaded only when a playout is asked for, so that a board
that never plays one keeps none of this code in memory.  Every variant is
played by the engine's own steps, so a playout is the push() loop's game.
"""


def playout(game, rng=None, max_plies=None, moves=None):
    """Play uniformly random legal moves on a copy of `game` to the end; return the Outcome.

    The moves are the ones `g.push(rng.choice(g.legal_moves()))` makes on a
    copy; `game` is not changed.  By the same engine steps as push() (the
    variant's _move and _after), so the game and its result are the same,
    skipping what only undo needs: the counts before each move, the repetition key and the variant's
    saved state (the move stack keeps each move and who made it, which some
    rules read).

    rng: anything with choice(seq), e.g. random.Random(seed) (default: the
    random module).  max_plies: stop after that many moves; the result is then
    None unless the game ended.  moves: a list each move played is appended to
    (statistics over a playout's moves, replaying it).
    """
    if rng is None:
        import random as rng
    choice = getattr(rng, "choice", None)
    if choice is None:
        raise TypeError("rng must have a choice(seq) method, like random.Random(seed); got %r" % (rng,))
    if max_plies is not None and max_plies < 0:
        raise ValueError("max_plies must be 0 or more (or None for no limit), not %r" % (max_plies,))
    g = game.copy()
    hist = g._hist
    left = -1 if max_plies is None else max_plies
    while g._over is None and left:
        legal = g._legal
        if legal is None:   # variants that list their moves only when asked
            legal = g._legal = g._moves()
        m = choice(legal)
        if moves is not None:
            moves.append(m)
        hist.append((m, None, g.to_move, None, None))
        g._legal = None
        g._move(m, None)
        g._after(None)
        left -= 1
    return g._over
