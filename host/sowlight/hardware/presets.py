"""The board presets: the JSON configs in hardware/boards/ of a Sowlight checkout (or the
directory --boards or $SOWLIGHT_BOARDS names), found by name, and a board's one-line summary.

Every command and simulated board that takes `--preset NAME | --config FILE` resolves it here.
"""
import os

# host/sowlight/hardware/presets.py -> the checkout's root
_ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
CHECKOUT_BOARDS = os.path.join(_ROOT, "hardware", "boards")
CHECKOUT_EXAMPLES = os.path.join(_ROOT, "hardware", "examples")


class PresetError(ValueError):
    """A preset or config that cannot be found; the message says what to pass instead."""


def boards_dir(option=None):
    """The presets directory: --boards, then $SOWLIGHT_BOARDS, then the checkout's hardware/boards."""
    for candidate, origin in ((option, "--boards"), (os.environ.get("SOWLIGHT_BOARDS"), "SOWLIGHT_BOARDS")):
        if candidate:
            if not os.path.isdir(candidate):
                raise PresetError("%s names %s, which is not a directory" % (origin, candidate))
            return candidate
    if os.path.isdir(CHECKOUT_BOARDS):
        return CHECKOUT_BOARDS
    raise PresetError("cannot find the presets (hardware/boards of a Sowlight checkout): pass --boards DIR or set "
                      "SOWLIGHT_BOARDS")


def preset_names(directory):
    """Preset names, smallest board first: 2x6-stores before 2x10."""
    def key(name):
        digits = "".join(c if c.isdigit() else " " for c in name).split()
        return [int(d) for d in digits], name
    return sorted((name[:-5] for name in os.listdir(directory) if name.endswith(".json")), key=key)


def resolve(name_or_file, boards_option=None):
    """A config file path for a preset name or a path."""
    if os.path.isfile(name_or_file):
        return name_or_file
    if name_or_file.endswith(".json") or os.sep in name_or_file:
        raise PresetError("no such config file: %s" % name_or_file)
    directory = boards_dir(boards_option)
    path = os.path.join(directory, name_or_file + ".json")
    if not os.path.isfile(path):
        raise PresetError("unknown preset %r; the presets are: %s" % (name_or_file, ", ".join(preset_names(directory))))
    return path


def shape(board):
    """'2x6 + 2 stores'."""
    text = "%dx%d" % (board.rows, board.pits_per_row)
    return text + (" + %d stores" % board.stores if board.stores else "")


def summary(board):
    """A checked board in one line: shape, microcontroller, LEDs, sensing, power."""
    sensing = board.sensor_kind
    if sensing == "occupancy-mux":
        sensing += " (%d multiplexer%s)" % (len(board.mux_list), "" if len(board.mux_list) == 1 else "s")
    return "%s, %s, %d LEDs, %s, worst case %d mA of %d mA" % (
        shape(board), board.mcu, board.led_count, sensing, board.worst_ma, board.supply_ma)
