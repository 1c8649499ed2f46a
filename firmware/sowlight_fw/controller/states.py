"""The controller's states, the buttons and the limits every part of it shares.

docs/firmware.md describes what the board shows in each state.
"""
try:
    from micropython import const
except ImportError:  # CPython
    def const(x):
        return x

MENU_STATE = "menu"
SETUP = "setup"
AWAIT = "await_lift"
MOVE = "sowing"
TURN_OVER = "turn_over"
PLACING = "placing"
OVER = "over"
ERROR_STATE = "error"
SELF_TEST = "self_test"
CALIBRATING = "calibrating"
PLAY_STATES = (AWAIT, MOVE, TURN_OVER)

BUTTONS = ("confirm", "undo", "hint", "menu")
SERVICE_ITEMS = ("self_test", "calibrate")

# Moves a game on the board can always take back: the rules core keeps undo records for these
# only (limit_undo), so the game's history does not grow the heap move after move (the whole game
# is in the journal).
UNDO_MOVES = const(16)
