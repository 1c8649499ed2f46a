"""The controller's settings: what each is for and its default (a board's config may set them).
"""

class SettingsError(ValueError):
    """An unknown controller setting, or a value of the wrong kind."""


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
    "variant": "oware",      # the menu starts here
}


def checked(settings):
    """DEFAULTS with `settings` (a dict, or None) over them; SettingsError for an unknown one or a
    value of another kind than its default."""
    s = dict(DEFAULTS)
    for k in (settings or {}):
        if k not in DEFAULTS:
            raise SettingsError("unknown controller setting %r; the settings are %s" % (k, ", ".join(sorted(DEFAULTS))))
        if type(settings[k]) is not type(DEFAULTS[k]):
            raise SettingsError("setting %s must be like %r, not %r" % (k, DEFAULTS[k], settings[k]))
        s[k] = settings[k]
    return s
