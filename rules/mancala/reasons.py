"""Input from outside the rules - moves and positions given as text or as
counts - read, and refused with the reason when it is wrong.

The engine's code that runs only then lives here and is imported on first
use, so that a board playing a game keeps only the rules in memory (some
5 KB less on MicroPython).  The methods of Mancala and Staged that call these
functions keep their names and meaning; variants override those methods.
"""
from .errors import IllegalMoveError, NotationError, PositionError
from .trace import HAND, OFF

# Setup-phase move words (mancala.staged): moves are 1- or 2-tuples starting with one of them.
STAGE_WORDS = ("pass", "race", "done", "lift", "place", "remove")


def show_allowed(allowed):
    """The values an option allows, for a message."""
    if isinstance(allowed, range):
        return "%d to %d" % (allowed[0], allowed[-1])
    return ", ".join(repr(a) for a in allowed)


def bad_option(g, name, value, allowed):
    return PositionError("%s: option %s=%r is not allowed; choose one of %s" % (
        g.title, name, value, show_allowed(allowed)))


def unknown_options(g, options):
    names = ", ".join(o[0] for o in g.options) or "none"
    return PositionError("%s has no option %s (its options: %s)" % (
        g.title, ", ".join(sorted(options)), names))


def stores_without_pits():
    return PositionError("stores were given without pits: give pits too, or neither")


def bad_to_move(g, to_move):
    return PositionError("to_move must be a player index from 0 to %d, not %r" % (g.players - 1, to_move))


def no_state_fields(g, fields):
    """Mancala._load_state_fields of a variant with no state of its own."""
    return PositionError("%s has no state fields, but %s were given" % (g.title, ", ".join(sorted(fields))))


def load_counts(g, b, pits, stores):
    """Fill the cells `b` from the counts given for a position (Mancala._load)."""
    n = g.n_pits
    pits = list(pits)
    if len(pits) != n:
        raise PositionError("%s has %d pits (%d rows of %d), but %d counts were given" % (
            g.title, n, g.rows, g.pits_per_row, len(pits)))
    if stores is None:
        stores = [0] * g.players
    stores = list(stores)
    if len(stores) != g.players:
        raise PositionError("%s has %d players, so stores needs %d numbers, not %d" % (
            g.title, g.players, g.players, len(stores)))
    for i, c in enumerate(pits + stores):
        if not isinstance(c, int) or c < 0:
            where = ("pit %d" % i) if i < n else ("store %d" % (i - n))
            raise PositionError("%s holds %r: counts must be whole numbers of 0 or more" % (where, c))
        b[i] = c
    total = sum(b)
    if total > g.total_seeds():
        raise PositionError("%s is played with %d seeds, but this position has %d: it cannot arise" % (
            g.title, g.total_seeds(), total))


# ----- moves ----------------------------------------------------------------


def why_illegal(g, move):
    """Why `move` is not legal in g (Mancala._why_illegal)."""
    if g._over is not None:
        return "the game is over (%s)" % g._over.reason
    try:
        pit, d = g._unpack(move)
    except (TypeError, IndexError):
        return "%r is not a move of %s" % (move, g.title)
    if not isinstance(pit, int) or not 0 <= pit < g.n_pits:
        return "%r is not a pit of %s (pits are 0 to %d)" % (pit, g.title, g.n_pits - 1)
    name = g.pit_name(pit)
    if g.owner(pit) != g.to_move:
        return "pit %s belongs to player %d, and player %d is to move" % (name, g.owner(pit), g.to_move)
    if g._b[pit] < g.min_seeds:
        if g.min_seeds == 1:
            return "pit %s is empty" % name
        return "pit %s holds %d seeds; %s needs at least %d to start a move" % (name, g._b[pit], g.title, g.min_seeds)
    if g.direction == 0 and not isinstance(move, tuple):
        return "%s needs a direction: play (%d, 1) counter-clockwise or (%d, -1) clockwise" % (g.title, pit, pit)
    if g.direction != 0 and isinstance(move, tuple):
        return "%s is sown in one direction only: play the pit number %d alone" % (g.title, pit)
    return g._why_rule(move)


def parse_pit(g, text):
    """The pit g names `text` (Mancala._parse_pit)."""
    for i in range(g.n_pits):
        if g.pit_name(i) == text:
            return i
    raise NotationError("%r is not a pit of %s: pits are %s" % (
        text, g.title, " ".join(g.pit_name(i) for i in range(g.n_pits))))


def parse_move(g, text):
    """A move in the default notation (Mancala.parse_move)."""
    text = text.strip()
    if not text:
        raise NotationError("an empty move: name a pit (%s)" % " ".join(g.pit_name(i) for i in range(g.n_pits)))
    if g.direction == 0:
        if text[-1] not in "+-":
            raise NotationError("%s needs a direction: add + (counter-clockwise) or - (clockwise), e.g. %s+" % (g.title, text))
        return (g._parse_pit(text[:-1]), 1 if text[-1] == "+" else -1)
    return g._parse_pit(text)


# ----- games with a setup phase (mancala.staged) ------------------------------


def parse_staged_move(g, text):
    """A setup move ('race', 'lift:C') or, failing that, a move of play (Staged.parse_move)."""
    text = text.strip()
    word, colon, pit = text.partition(":")
    if word in STAGE_WORDS:
        if colon:
            return (word, g._parse_pit(pit))
        return (word,)
    return g._parse_play_move(text)


def staged_why_illegal(g, move):
    """Staged._why_illegal."""
    if g._over is not None:
        return "the game is over (%s)" % g._over.reason
    if g.phase != "play":
        word, player = g._stage()
        legal = g.legal_moves()
        names = " ".join(g.move_name(m) for m in legal[:8]) + (" ..." if len(legal) > 8 else "")
        # A pit is said by its name (C), never by its number.
        said = g.pit_name(move) if isinstance(move, int) and 0 <= move < g.n_pits else repr(move)
        return "%s is not a move now: %s is in its setup (%s, player %d), where the moves are %s" % (
            said, g.title, g._stage_words.get(word, word), player, names)
    if isinstance(move, tuple) and move and isinstance(move[0], str):
        return "%s is a setup move, and the setup is over" % (move[0],)
    return g._why_play(move)


def why_play(g, move):
    """Staged._why_play: a move of play that is not legal."""
    pit = move[0] if isinstance(move, tuple) and move else move
    if not isinstance(pit, int) or isinstance(pit, bool) or not 0 <= pit < g.n_pits:
        return "%r is not a move of %s: name one of your pits (0 to %d), as in %s" % (
            move, g.title, g.n_pits - 1, " ".join(g.move_name(m) for m in g.legal_moves()))
    name = g.pit_name(pit)
    if g.owner(pit) != g.to_move:
        return "pit %s belongs to player %d, and player %d is to move" % (name, g.owner(pit), g.to_move)
    if not g._b[pit]:
        return "pit %s is empty" % name
    return g._why_rule(move)


def pits_mask(g, text, what):
    """The bit mask of the pits named in `text` (staged.pits_text's form); `what` names the field in errors."""
    mask = 0
    if text:
        for name in text.split(","):
            try:
                mask |= 1 << g._parse_pit(name)
            except NotationError:
                raise PositionError("%s=%s: %r is not a pit of %s" % (what, text, name, g.title))
    return mask


def load_staged_fields(g, fields):
    """Staged._load_state_fields: the setup stage, hands and marked pits from the position text."""
    fields = dict(fields)
    try:
        if "setup" in fields:
            si, _, sub = fields.pop("setup").partition(".")
            g._si = int(si)
            g._sub = int(sub)
            if not 0 <= g._si < len(g._stages()):
                raise ValueError
            g.phase = "setup"
            g._first = int(fields.pop("first", g.to_move))
            h = fields.pop("hand", "0,0").split(",")
            g._hand = (int(h[0]), int(h[1]))
            if min(g._hand) < 0 or g._first not in (0, 1):
                raise ValueError
    except (ValueError, IndexError):
        raise PositionError("%s: the setup fields (setup=stage.progress first=player hand=h0,h1) are malformed" % g.title)
    if g.phase != "play" and g._stage()[1] != g.to_move:
        raise PositionError("%s: in setup stage %d (%s) player %d is to move, not player %d" % (
            g.title, g._si, g._stage()[0], g._stage()[1], g.to_move))
    if g.mark_key:
        g._m0 = pits_mask(g, fields.pop(g.mark_key + "0", ""), g.mark_key + "0")
        g._m1 = pits_mask(g, fields.pop(g.mark_key + "1", ""), g.mark_key + "1")
        if g._m0 & g._m1:
            raise PositionError("%s: a pit cannot belong to both players" % g.title)
    g._load_more_fields(fields)
    if fields:
        raise PositionError("%s has no state field %s" % (g.title, ", ".join(sorted(fields))))
    if sum(g._b) + g.outside() > g.total_seeds():
        raise PositionError("%s is played with %d seeds, but this position has %d" % (
            g.title, g.total_seeds(), sum(g._b) + g.outside()))
    # The engine looked at the position before this state was known: look again.
    g._over = None
    g._legal = None
    g._seen = {}
    g._key = g._position_key()
    g._seen[g._key] = 1
    g._after(None)


# ----- steps (trace.format_step, stepwise's refusals) -------------------------------------

def format_step(s):
    """A short readable form of a step: 'lift 5 (6)', 'drop 7', 'take 3 (2) -> 12' (trace.format_step)."""
    k = s.kind
    if k == "drop" or k == "skip":
        return "%s %d" % (k, s.pit)
    if k == "take":
        return "take %d (%d) -> %s" % (s.pit, s.count, "hand" if s.to == HAND else "off" if s.to == OFF else str(s.to))
    if k in ("lift", "relay", "place"):
        return "%s %d (%d)" % (k, s.pit, s.count)
    if k == "choice":
        return "choice %d" % s.pit
    return k


def step_refused(mv, step):
    """The IllegalMoveError of a step no legal move makes here (MoveInProgress.advance)."""
    allowed = ", ".join(format_step(s) for s in mv.options()) or "nothing (the move is complete)"
    return IllegalMoveError("%s is not a step of any legal move here; expected %s" % (format_step(step), allowed))


def move_incomplete(mv):
    """The IllegalMoveError of MoveInProgress.move() before the steps make a whole move."""
    return IllegalMoveError("the move is not complete: next could be %s" % (
        ", ".join(format_step(s) for s in mv.options())))
