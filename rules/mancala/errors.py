"""The rules core's exceptions: small ValueError subclasses, each saying what and why."""


class RulesError(ValueError):
    """Base of every error the rules core raises on bad input."""


class UnknownVariantError(RulesError):
    """No variant has that name (the message lists close matches)."""


class NoRulesError(RulesError):
    """The game is known, but the sources record no rules for it."""


class PositionError(RulesError):
    """A position (pits, stores, player to move) the variant cannot have."""


class IllegalMoveError(RulesError):
    """A move that is not legal in the current position."""


class NotationError(IllegalMoveError):
    """Text that is not a move in the variant's notation."""


class UndoLimitError(IllegalMoveError):
    """Undo further back than the moves a game keeps records for (Mancala.limit_undo)."""
