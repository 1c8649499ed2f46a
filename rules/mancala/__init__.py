"""Sowlight's rules core: every mancala rule set in the sources, one engine.

    >>> import mancala
    >>> g = mancala.Game("Wari")
    >>> trace = g.play(2)

Runs unchanged on CPython 3.11+ and MicroPython.  No I/O here.
"""
import sys as _sys

# The variants' subpackage is imported first, so that the function
# mancala.variants() bound below is what the name means from then on (importing
# a variant module later does not bind the package's name again).
from . import variants as _variant_modules  # noqa: F401
from .errors import RulesError, UnknownVariantError, NoRulesError, PositionError, IllegalMoveError, NotationError
from .trace import Trace, Step, HAND, OFF
from .game import Mancala, Outcome
from .registry import Game, variants

__version__ = "0.1.0"

# Loaded on first use, so that a board playing one game keeps only the engine
# and its variant in memory (module __getattr__ works on MicroPython too).
# The catalog's descriptions (infos) a board asks for once, at boot: on
# MicroPython that module is loaded for each call and forgotten after.
_LAZY = {
    "to_text": "position", "from_text": "position",
    "MoveInProgress": "stepwise",
    "Match": "match",
    "best_move": "search",
    "UndoLimitError": "errors",
    "variant_info": "infos", "variant_infos": "infos",
}
_ONCE = _sys.implementation.name == "micropython"


def __getattr__(name):
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError("module 'mancala' has no attribute %r" % name)
    if module == "infos" and _ONCE:
        from .registry import _once
        return getattr(_once(module), name)
    value = getattr(__import__("mancala." + module, None, None, (name,)), name)
    globals()[name] = value
    return value
