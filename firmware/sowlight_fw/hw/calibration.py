"""A pit sensor's calibration as the board's config gives it (docs/config.md, `calibration`):
one value per cell, and what an uncalibrated sensor starts from.  service.py measures new ones.
"""
try:
    from micropython import const
except ImportError:  # CPython
    def const(x):
        return x

DEFAULT_EMPTY = const(3000)      # an uncalibrated occupancy sensor: guesses for a TCRT5000 with differencing
DEFAULT_COVERED = const(30000)
DEFAULT_COUNTS_PER_SEED = const(400)


def calibration(board, key, default):
    """The config's calibration list `key`, one value per cell, `default` where it has none."""
    cal = board.calibration or {}
    values = cal.get(key)
    out = []
    for c in range(board.cells):
        v = values[c] if isinstance(values, list) and c < len(values) else None
        out.append(default if v is None else v)
    return out
