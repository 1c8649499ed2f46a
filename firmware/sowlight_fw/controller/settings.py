"""The controller's settings: what each is for, its default and the values it may take.

A board's config may set them (its "settings" section, docs/config.md); the virtual board and
tests pass them to the App or the Controller.  RANGES and problem() are the one statement of
what a setting may be: the board's boot check, the laptop's config check and the Controller
all ask problem().
"""

class SettingsError(ValueError):
    """An unknown controller setting, or a value it cannot take."""


DEFAULTS = {
    "debounce_ms": 150,      # a cell's reading must hold this long to count
    "settle_ms": 800,        # the board must be still this long before a disagreement is flashed
    "noisy_changes": 6,      # a reading that changes this often ...
    "noisy_ms": 1500,        # ... without once holding still for debounce_ms in this long is noise
    "blink_ms": 250,         # half a blink, and one beat of a count
    "hint_ms": 1000,         # time budget of a hint search
    "hint_depth": 16,        # its deepest ply (bounds its memory: one frame and one undo entry a ply)
    "hint_nodes": 30000,     # and its node count
    "hints": False,          # hints shown from the start
    "brightness": 255,       # LED level 0-255, scaled by the config's brightness cap
    "lookahead": 400,        # steps looked ahead for what the hands did
    "variant": "oware",      # the menu starts here (a game the board cannot play: the first that fits)
}

# The whole numbers each numeric setting may take, inclusive.  The bounds are where the board
# stops working as a game board: a debounce under 10 ms lets a hand's shadow count as a seed,
# one over 2 s makes every drop feel lost; a hint deeper than 64 plies or longer than a minute
# keeps the board from following the game.  The others take one value of their default's kind.
RANGES = {
    "debounce_ms": (10, 2000),
    "settle_ms": (0, 10000),
    "noisy_changes": (2, 100),
    "noisy_ms": (100, 60000),
    "blink_ms": (50, 2000),
    "hint_ms": (10, 60000),
    "hint_depth": (1, 64),
    "hint_nodes": (1, 1000000),
    "brightness": (0, 255),
    "lookahead": (1, 10000),
}


def problem(name, value):
    """What is wrong with `value` for the setting `name`, as words that follow the setting's
    name ("must be ..."), or None when it may take it."""
    if name not in DEFAULTS:
        return "is an unknown controller setting; the settings are %s" % ", ".join(sorted(DEFAULTS))
    if name in RANGES:
        low, high = RANGES[name]
        # type() rather than isinstance(): JSON's true is a bool, which Python counts as an int.
        if type(value) is not int or value < low or value > high:
            return "must be a whole number from %d to %d, not %s" % (low, high, show(value))
        return None
    default = DEFAULTS[name]
    if type(value) is not type(default):
        return "must be %s, not %s" % ("true or false" if type(default) is bool else "a string", show(value))
    return None


def show(value):
    """A value as a config file writes it (true, not True), for messages."""
    if value is True:
        return "true"
    if value is False:
        return "false"
    if value is None:
        return "null"
    return repr(value)


def checked(settings):
    """DEFAULTS with `settings` (a dict, or None) over them; SettingsError for an unknown one or a
    value problem() refuses."""
    s = dict(DEFAULTS)
    for k in (settings or {}):
        why = problem(k, settings[k])
        if why is not None:
            raise SettingsError("setting %s %s" % (k, why))
        s[k] = settings[k]
    return s
