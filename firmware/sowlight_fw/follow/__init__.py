"""Following the hands on the board: what the sensors steadily see, and the move it shows.

observe.py   debouncing: each cell's stable reading, noisy sensors, "the board is still"
follower.py  the Follower: what each cell should hold after every step, the steps the
             sensors' view says the hands made; agrees(), whether a reading fits a count
moves.py     the traces still possible for the move being made (the rules core's)
walk.py      the Omweso family's turns, traced a piece at a time
"""
from .follower import Follower, agrees, new_move
from .moves import KNOWN, is_marker, placing, lifts, pit_of
