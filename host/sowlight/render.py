"""Text pictures of a game: the board with pit names and counts, and a move told step by step."""
import mancala


def board(game):
    """The board as lines of text, player 0 at the bottom (as seen by player 0)."""
    if game.players == 2 and game.rows == 2:
        return _two_rows(game)
    return _blocks(game)


def _two_rows(game):
    n = game.n_pits // 2
    b = game.cells()
    top = list(range(2 * n - 1, n - 1, -1))   # player 1's pits, seen from player 0's side
    bottom = list(range(n))
    width = max(2, max(len(str(c)) for c in b))
    cell = "[%" + str(width) + "d]"
    name = " %" + str(width) + "s "
    pad = " " * (width + 3)
    s0, s1 = game.store(0), game.store(1)
    mark = lambda p: " <- to move" if game.to_move == p and not game.is_over() else ""
    lines = [
        pad + "".join(name % _pit_label(game, i) for i in top) + "   player 1" + mark(1),
        pad + "".join(cell % b[i] for i in top),
        ("(%" + str(width) + "d)") % b[s1] + " " * ((width + 2) * n + 1) + ("(%" + str(width) + "d)") % b[s0],
        pad + "".join(cell % b[i] for i in bottom),
        pad + "".join(name % _pit_label(game, i) for i in bottom) + "   player 0" + mark(0),
    ]
    lines[2] = "store 1 " + lines[2] + " store 0"
    lines = [("        " + l) if i != 2 else l for i, l in enumerate(lines)]
    return lines


def _pit_label(game, pit):
    return game._pit_name(pit)


def _blocks(game):
    """Any other board: one line per player's block of pits, in canonical order."""
    b = game.cells()
    lines = []
    for p in range(game.players):
        pits = game.side(p)
        row = " ".join("%s:%d" % (_pit_label(game, i), b[i]) for i in pits)
        tail = " <- to move" if game.to_move == p and not game.is_over() else ""
        lines.append("player %d  %s  | store %d%s" % (p, row, b[game.store(p)], tail))
    return lines


def cell_name(game, cell):
    if cell == mancala.HAND:
        return "the hand"
    if cell == mancala.OFF:
        return "out of play"
    if cell >= game.n_pits:
        return "store %d" % (cell - game.n_pits)
    return _pit_label(game, cell)


def describe(game, trace):
    """A move told in words, one line per phase: lift and sow, each relay, captures, the end."""
    lines = []
    drops = []

    def flush():
        if drops:
            lines[-1] += ": sow " + " ".join(drops)
            del drops[:]

    for s in trace:
        k = s.kind
        if k == "drop":
            drops.append(cell_name(game, s.pit))
            continue
        if k == "skip":
            drops.append("(skip %s)" % cell_name(game, s.pit))
            continue
        flush()
        if k == "lift":
            lines.append("lift %s (%d)" % (cell_name(game, s.pit), s.count))
        elif k == "relay":
            lines.append("lift %s again (%d)" % (cell_name(game, s.pit), s.count))
        elif k == "take":
            lines.append("take %d from %s to %s" % (s.count, cell_name(game, s.pit), cell_name(game, s.to)))
        elif k == "place":
            lines.append("place %d in %s" % (s.count, cell_name(game, s.pit)))
        elif k == "extra_turn":
            lines.append("another move for the same player")
        elif k == "pass":
            lines.append("pass")
        elif k == "choice":
            lines.append("choose %s" % cell_name(game, s.pit))
        elif k == "end":
            lines.append("game over")
    flush()
    return lines


def outcome(game):
    o = game.outcome()
    scores = ", ".join("player %d: %d" % (p, s) for p, s in enumerate(o.scores))
    if o.winner is None:
        return "Draw (%s) - %s" % (o.reason, scores)
    return "Player %d wins (%s) - %s" % (o.winner, o.reason, scores)
