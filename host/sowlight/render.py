"""Text pictures of a game: the board with pit names and counts, and a move told step by step."""
import mancala


# What each LED role of the board's `leds` message is drawn as, and says (docs/firmware.md has the colours).
MARKS = {
    "lift": ("^", "a pit the player to move may lift"),
    "hint": ("H", "the hint: the suggested pit"),
    "drop": ("v", "drop one seed here next"),
    "trail": ("t", "a seed to drop here that the sensors cannot see (the LED stays lit until the next lift)"),
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

    `leds` ({game cell: (role, count)}) draws what the board's LEDs show under
    each pit; `counts` (seeds per game cell) replaces the position's, for the
    seeds really on a board in the middle of a move."""
    if game.players == 2 and game.rows == 2:
        return _two_rows(game, leds, counts)
    return _blocks(game, leds, counts)


def _two_rows(game, leds=None, counts=None):
    n = game.n_pits // 2
    b = game.cells() if counts is None else counts
    top = list(range(2 * n - 1, n - 1, -1))   # player 1's pits, seen from player 0's side
    bottom = list(range(n))
    width = max(2, max(len(str(c)) for c in b))
    cell = "[%" + str(width) + "d]"
    name = " %" + str(width) + "s "
    pad = " " * (width + 3)
    s0, s1 = game.store(0), game.store(1)
    mark_of = lambda i: "" if leds is None or i not in leds else mark(*leds[i])
    marks = lambda pits: pad + "".join(mark_of(i).center(width + 2) for i in pits)
    turn = lambda p: " <- to move" if game.to_move == p and not game.is_over() else ""
    store = ("(%" + str(width) + "d)")
    left = store % b[s1] + mark_of(s1)
    right = mark_of(s0) + store % b[s0]
    middle = max(1, (width + 2) * n + 1 - (len(left) - (width + 2)) - (len(right) - (width + 2)))
    lines = [
        pad + "".join(name % _pit_label(game, i) for i in top) + "   player 1" + turn(1),
        pad + "".join(cell % b[i] for i in top),
        "store 1 " + left + " " * middle + right + " store 0",
        pad + "".join(cell % b[i] for i in bottom),
        pad + "".join(name % _pit_label(game, i) for i in bottom) + "   player 0" + turn(0),
    ]
    if leds is not None:
        lines.insert(4, marks(bottom).rstrip())
        lines.insert(2, marks(top).rstrip())
    return [("        " + l).rstrip() if not l.startswith("store 1 ") else l for l in lines]


def _pit_label(game, pit):
    return game._pit_name(pit)


def _blocks(game, leds=None, counts=None):
    """Any other board: one line per player's block of pits, in canonical order."""
    b = game.cells() if counts is None else counts
    mark_of = lambda i: "" if leds is None or i not in leds else "[%s]" % mark(*leds[i])
    lines = []
    for p in range(game.players):
        pits = game.side(p)
        row = " ".join("%s:%d%s" % (_pit_label(game, i), b[i], mark_of(i)) for i in pits)
        tail = " <- to move" if game.to_move == p and not game.is_over() else ""
        lines.append("player %d  %s  | store %d%s%s" % (p, row, b[game.store(p)], mark_of(game.store(p)), tail))
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
