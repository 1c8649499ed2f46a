"""The board's config file, as the firmware reads it at boot.

The config (hardware/boards/*.json, copied to the board as /board.json) says
how many pits the board has, which LED and which sensor belongs to each pit and
store, which pins everything is on and how bright the LEDs may get.  load()
reads it and checks it with configcheck.py (the light check a board can
afford at boot, docs/config.md; load() and fit() are there, read through this
module), which it then unloads: what stays in a
board's heap is the checked Board and cell_map(), which the controller uses
to fit a game onto the board.

The check's names (power_budget, max_brightness, LED_MA, COLOUR_ORDERS, ...)
are read through this module as before: the laptop's full check
(host/sowlight/boardconfig.py) and calibration use them.

Cells are numbered in the canonical order of docs/config.md: pits first, then
the stores (cell pits + p is player p's store).
"""
from .unload import unload

DEFAULT_PATH = "board.json"


class ConfigError(ValueError):
    """The board config is missing, is not JSON, or does not describe a board
    this firmware can drive safely.  The message names the key at fault."""


class Board:
    """The checked config: plain attributes, tuples for the maps (configcheck.check() sets them).

    cell_leds[c]     LED indices lighting cell c (pits, then stores)
    cell_sensors[c]  (mux, channel) for occupancy-mux, a data pin for hx711 and
                     gpio, or None for a store without a sensor
    raw              the decoded JSON, for sections the check does not interpret
                     (app.start() lets go of it on a board; calibration reads the file again)
    """

    def __init__(self, raw):
        self.raw = raw


def check(raw):
    """Check a decoded config and return a Board, or raise ConfigError."""
    from . import configcheck
    try:
        return configcheck.check(raw)
    finally:
        unload("configcheck")


def __getattr__(name):
    # load() (a board's boot), fit() and the check's constants and power model (configcheck.py),
    # for whoever asks: the laptop's full check, calibration.  Loaded for the question (a function
    # keeps its module while it runs), then dropped again on a board.
    if not name.startswith("_"):
        from . import configcheck
        try:
            if name in configcheck.__dict__:
                return configcheck.__dict__[name]
        finally:
            unload("configcheck")
    from .unload import missing
    raise missing(__name__, name)


def cell_map(board, rows, pits_per_row, stores, stores_at_left=False):
    """Which board cell plays each cell of a game board, or None if it does not fit.

    The game's cells are its pits in canonical order, then its two stores if it
    sows into them (`stores` true).  A board's first end store is at player 0's
    right, as the counter-clockwise games have it; a game whose stores are at
    their owners' left (`stores_at_left`: Sunca) gets the two the other way
    round.  A game fits as built when the shape is the same (a board's stores
    may go unused).  A two-row game with one more pit per
    row and no sown stores fits a board with sensed stores by playing each store
    as its player's last pit (source 000, NOTES ON PLAYING; docs/config.md).
    """
    n = board.pits_per_row
    if rows != board.rows:
        return None
    if pits_per_row == n and (not stores or board.stores == 2):
        cells = list(range(board.pits))
        if stores:
            cells.append(board.pits + 1 if stores_at_left else board.pits)
            cells.append(board.pits if stores_at_left else board.pits + 1)
        return tuple(cells)
    if (rows == 2 and not stores and board.stores == 2 and pits_per_row == n + 1
            and board.cell_sensors[board.pits] is not None and board.cell_sensors[board.pits + 1] is not None):
        cells = list(range(n))
        cells.append(board.pits)          # player 0's last pit is its store
        cells.extend(range(n, 2 * n))
        cells.append(board.pits + 1)      # player 1's last pit is its store
        return tuple(cells)
    return None
