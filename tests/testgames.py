"""What several tests (and bench/bench_firmware.py) build the same way: random game positions,
a random source that makes the same choices on CPython and MicroPython, and the 4x8 board
with a load cell under every pit."""
import json
import random
from pathlib import Path

import mancala

ROOT = Path(__file__).resolve().parent.parent

# A random source that gives the same choices on both interpreters (their `random` modules
# differ): MicroPython source, exec'd on CPython too.
LCG = """
class Lcg:
    def __init__(self, seed):
        self.x = seed
    def choice(self, seq):
        self.x = (self.x * 1103515245 + 12345) % 2147483648
        return seq[(self.x >> 8) % len(seq)]
"""


def positions(variant, games=3, plies=40, seed=7):
    """Positions of random games of `variant` (every ply, the start included), as games."""
    rnd = random.Random("%s/%d" % (variant, seed))
    for _ in range(games):
        g = mancala.Game(variant)
        for _ in range(plies):
            if g.is_over():
                break
            yield g
            g = g.copy()
            g.play(rnd.choice(g.legal_moves()))


def counting_4x8_raw():
    """The 4x8 preset's config with a load cell under every pit (the presets of four rows have
    occupancy sensors), as the JSON a board would load."""
    raw = json.loads((ROOT / "hardware" / "boards" / "4x8.json").read_text())
    used = {raw["leds"]["pin"], raw["buttons"]["confirm"], raw["buttons"]["undo"], raw["buttons"]["hint"], 2}
    pins = [p for p in range(64) if p not in used]
    raw["sensors"] = {"kind": "hx711", "sck": 2, "pits": pins[:32]}
    raw["power"] = {"supply_ma": 4000}
    return raw


def counting_4x8():
    """counting_4x8_raw(), checked: the Board."""
    from sowlight_fw import config
    return config.check(counting_4x8_raw())


def board_4x8(kind):
    """The 4x8 board with load cells ("load-cells") or its preset's occupancy sensors."""
    if kind == "load-cells":
        return counting_4x8()
    from sowlight_fw import config
    return config.check(json.loads((ROOT / "hardware" / "boards" / "4x8.json").read_text()))


def replayed(variant, records):
    """The game a controller's journal records make, played again by the rules core alone."""
    g = mancala.Game(variant)
    for r in records:
        if r["kind"] == "move":
            g.play(r["move"] if isinstance(r["move"], int) else tuple(r["move"]))
    return g
