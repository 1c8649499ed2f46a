"""Egyptian Mankalah, simple and advanced modes.  Rules: docs/variants/egyptian-simple.md,
egyptian-advanced.md (source 000, EGYPTIAN MANKALAH A and B).

Lane's game (variants/lane.py) with the setups of the two modes, the simple
mode's forced pit, and Lane's own ending: a single seed left goes to the owner
of its row, while two seeds in one row are fed like any others.
"""
from .lane import Lane


class EgyptianSimple(Lane):
    id = "egyptian-simple"
    title = "Egyptian Mankalah (simple mode)"
    forced_origin = True      # always the rightmost beyt, or the nearest non-empty one to it
    two_seed_rule = False
    options = (("setup", "ignorant", ("ignorant", "even")),)


class EgyptianAdvanced(Lane):
    id = "egyptian-advanced"
    title = "Egyptian Mankalah (advanced mode)"
    two_seed_rule = False
    options = (("setup", "wise", ("wise", "even")),)
    # The match is won by gains of sixty with 24 more than the other's (see the doc's Matches).
    match_options = (("target", 60, range(1, 10000)), ("lead", 24, range(0, 10000)))
