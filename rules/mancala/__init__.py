"""Sowlight's rules core: every mancala rule set in the sources, one engine.

    >>> import mancala
    >>> g = mancala.Game("Wari")
    >>> trace = g.play(2)

Runs unchanged on CPython 3.11+ and MicroPython.  No I/O here.
"""
# The variants' subpackage is imported first, so that the function
# mancala.variants() bound below is what the name means from then on (importing
# a variant module later does not bind the package's name again).
from . import variants as _variant_modules  # noqa: F401
from .errors import RulesError, UnknownVariantError, NoRulesError, PositionError, IllegalMoveError, NotationError
from .trace import Trace, Step, HAND, OFF
from .game import Mancala, Outcome
from .registry import Game, variants, variant_info
from .position import to_text, from_text
from .stepwise import MoveInProgress
from .match import Match

__version__ = "0.1.0"
