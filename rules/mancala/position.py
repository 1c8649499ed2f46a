"""The position text format: one line that rebuilds a game exactly.

    oware grand_slam=no-capture 4,4,4,4,4,4/4,4,4,4,4,4 0,0 0

Fields: variant id; options as name=value joined by commas (or -); the pits,
one block per player joined by /; the stores; the player to move; then any
key=value fields of the variant's own state (phase, owned pits...).
"""
from .errors import PositionError
from .registry import Game


def to_text(game):
    opts = ",".join("%s=%s" % (o[0], getattr(game, o[0])) for o in game.options) or "-"
    pits = game.pits
    k = len(pits) // game.players
    blocks = "/".join(",".join(str(c) for c in pits[p * k:p * k + k]) for p in range(game.players))
    fields = [game.id, opts, blocks, ",".join(str(c) for c in game.stores), str(game.to_move)]
    fields.extend(game._state_fields())
    return " ".join(fields)


def _value(text):
    if text.isdigit():
        return int(text)
    return text


def _counts(text, what):
    try:
        return [int(c) for c in text.split(",")]
    except ValueError:
        raise PositionError("the %s field %r must be whole numbers separated by commas" % (what, text))


def from_text(text):
    fields = text.split()
    if len(fields) < 5:
        raise PositionError("a position needs at least 5 fields (variant, options, pits, stores, to move), got %d: %r" % (len(fields), text))
    ident, opts, blocks, stores, to_move = fields[:5]
    options = {}
    if opts != "-":
        for item in opts.split(","):
            name, eq, value = item.partition("=")
            if not eq or not name:
                raise PositionError("the options field %r must be name=value pairs separated by commas, or -" % opts)
            options[name] = _value(value)
    pits = []
    for block in blocks.split("/"):
        pits.extend(_counts(block, "pits"))
    if not to_move.isdigit():
        raise PositionError("the player to move must be a number, not %r" % to_move)
    extra = {}
    for item in fields[5:]:
        name, eq, value = item.partition("=")
        if not eq:
            raise PositionError("a state field must be name=value, not %r" % item)
        extra[name] = value
    game = Game(ident, pits=pits, stores=_counts(stores, "stores"), to_move=int(to_move), **options)
    if extra:
        game._load_state_fields(extra)
    return game
