"""Text pictures of a game: the board with pit names and counts, and a move told step by step."""
import mancala


# What each LED role of the board's `leds` message is drawn as, and says (docs/firmware.md has the colours).
MARKS = {
    "lift": ("^", "a pit the player to move may lift"),
    "hint": ("H", "the hint: the suggested pit"),
    "drop": ("v", "drop one seed here next"),
    "drop_after": ("v", "drop a seed here once the seeds marked t on the way are in (sowing order): "
                        "the next drop the sensors see"),
    "trail": ("t", "a seed to drop here that the sensors cannot see (the LED stays lit until the next lift)"),
    "lift_trail": ("^t", "a pit the player to move may lift, once its seed marked t is in"),
    "relay": ("R", "lift these seeds again and sow on"),
    "take": ("T", "take these seeds (a capture)"),
    "dest": ("<", "... and put them here"),
    "choice": ("?", "one of the ways the move can go: do one of them"),
    "error": ("!", "not as it should be: put it right (or undo)"),
    "need": ("+", "put seeds here"),
    "remove": ("-", "take seeds out of here"),
    "ready": ("ok", "set-up: this pit is right"),
    "fault": ("~", "its sensor is not trusted"),
    "menu": ("m", "the board shows its menu"),
    "won": ("*", "the winner's pits (the game is over)"),
}


def mark(role, count=1):
    """The short text a lit role is drawn as under its pit: 'v', 't3', '+4'."""
    text = MARKS.get(role, ("*", ""))[0]
    return text + (str(count) if count > 1 else "")


def legend(roles):
    """One line per role shown, saying what it asks for."""
    out = []
    for role in sorted(set(roles), key=lambda r: list(MARKS).index(r) if r in MARKS else 99):
        out.append("%-3s %s" % (MARKS.get(role, ("*", ""))[0], MARKS.get(role, ("", role))[1] or role))
    return out


def board(game, leds=None, counts=None):
    """The board as lines of text, player 0 at the bottom (as seen by player 0).

    Every shape is drawn as it stands: two rows, or four (each player's outer
    and inner row, the inner rows facing across the middle), the pits of a
    row in columns so that facing pits line up, and where players share a row
    (Kpo with three or four) a bar between their pits and their names over
    them.  `leds` ({game cell: (role, count)}) draws what the board's LEDs
    show under each pit; `counts` (seeds per game cell) replaces the
    position's, for the seeds really on a board in the middle of a move."""
    b = game.cells() if counts is None else counts
    width = max([2] + [len(str(c)) for c in b] + [len(_pit_label(game, i)) for i in range(game.n_pits)])
    step = width + 2
    top, bottom = _rows(game)
    n = game.pits_per_row
    owners = [[game.owner(i) for i in cells] for cells, _ in top + bottom]
    bars = [c for c in range(1, n) if any(o[c - 1] != o[c] for o in owners)]
    x0 = 8 + width + 3                       # where the first pit's box starts (after the left store)
    xs = [x0 + c * step + sum(1 for k in bars if k <= c) for c in range(n)]
    right = xs[-1] + step                    # just past the last box
    mark_of = lambda i: "" if leds is None or i not in leds else mark(*leds[i])
    playing = not game.is_over()

    def line(pieces):
        out = ""
        for x, text in pieces:
            out = out.ljust(x) + text
        return out.rstrip()

    def names(cells, label):
        return line([(xs[c], (" %" + str(width) + "s ") % _pit_label(game, i)) for c, i in enumerate(cells)]
                    + ([(right + 3, label)] if label else []))

    def boxes(cells):
        return line([(xs[c] - (1 if c in bars else 0), ("|" if c in bars else "") + ("[%" + str(width) + "d]") % b[i])
                     for c, i in enumerate(cells)])

    def marks(cells):
        return line([(xs[c], mark_of(i).center(step)) for c, i in enumerate(cells)])

    arrowed = set()

    def label(cells, outer):
        who = set(game.owner(i) for i in cells)
        if len(who) != 1:
            return ""
        p = who.pop()
        text = "player %d" % p
        if game.rows == 4:
            text += ", %s row" % ("outer" if outer else "inner")
        if outer and playing and game.to_move == p and p not in arrowed:
            arrowed.add(p)
            text += " <- to move"
        return text

    def groups(cells):
        """The players sharing a row, named over their pits."""
        out, c = [], 0
        while c < n:
            e = c + 1
            while e < n and e not in bars:
                e += 1
            p = game.owner(cells[c])
            text = "player %d" % p if (e - c) * step >= 8 else "p%d" % p
            out.append((xs[c], text.center((e - c) * step)))
            c = e
        return line(out)

    # Labelled from the bottom up, so that the arrow goes on a player's row nearest player 0's edge.
    bottom_lines = []
    for k in range(len(bottom) - 1, -1, -1):
        cells = bottom[k][0]
        rows = [boxes(cells)] + ([marks(cells)] if leds is not None else [])
        bottom_lines[:0] = rows + [names(cells, label(cells, k == len(bottom) - 1))]
    top_lines = []
    for k in range(len(top) - 1, -1, -1):
        cells = top[k][0]
        top_lines[:0] = [names(cells, label(cells, k == 0)), boxes(cells)] + ([marks(cells)] if leds is not None else [])
    shared = bool(bars)
    lines = ([groups(top[0][0])] if shared else []) + top_lines
    lines.extend(_store_lines(game, b, width, right, mark_of))
    lines.extend(bottom_lines)
    if shared:
        lines.append(groups(bottom[-1][0]))
        if playing:
            lines.append(" " * 8 + "player %d to move" % game.to_move)
    return lines


def _rows(game):
    """(top rows, bottom rows) as seen from player 0's side: each a (game cells by column, owner) list.

    Two rows: pit i faces 2n-1-i.  Four rows (game.py): a player's outer row
    runs from the owner's left, the inner row back the other way, and inner
    pit i faces 5n-1-i."""
    n = game.pits_per_row
    if game.rows == 4:
        top = [([3 * n - 1 - c for c in range(n)], 1), ([3 * n + c for c in range(n)], 1)]
        bottom = [([2 * n - 1 - c for c in range(n)], 0), (list(range(n)), 0)]
        return top, bottom
    return [([2 * n - 1 - c for c in range(n)], None)], [(list(range(n)), None)]


def _store_lines(game, b, width, right, mark_of):
    """The middle line: with two players (or one) the stores at the ends, where each player's sowing
    reaches them; with more, every store in a row."""
    box = "(%" + str(width) + "d)"
    if game.players > 2:
        return [" " * 8 + "  ".join("store %d %s%s" % (p, box % b[game.store(p)], mark_of(game.store(p)))
                                     for p in range(game.players))]
    top_cells = set(_rows(game)[0][0][0])
    left = right_ = None
    for p in range(game.players):
        if game.rows == 2 and game.side(p)[-1] not in top_cells:
            right_ = p
        elif game.rows == 4 and p == 0:
            right_ = p
        else:
            left = p
    out = ""
    if left is not None:
        s = game.store(left)
        out = "store %d " % left + box % b[s] + mark_of(s)
    if right_ is not None:
        s = game.store(right_)
        text = mark_of(s) + box % b[s]
        out = out.ljust(right - len(mark_of(s))) + text + " store %d" % right_
    return [out]


def _pit_label(game, pit):
    return game.pit_name(pit)


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
