"""`sowlight board config check|drawings` and `sowlight board presets`.

    sowlight board config check FILE...          every problem with its line; exit 1 on errors
    sowlight board config drawings PRESET|FILE --out DIR
    sowlight board presets [--json]              the presets and the games each can play

Presets are the JSON files in hardware/boards/ of a Sowlight checkout; another
directory can be named with --boards DIR or the SOWLIGHT_BOARDS variable.
"""
import os
import sys

from sowlight.hardware import config as boardconfig
from sowlight.hardware import drawings
from sowlight.hardware.presets import PresetError, boards_dir, preset_names, resolve, summary as _summary
from sowlight.terminal import harmless
from sowlight.cli.errors import CliError
from sowlight.cli.arguments import add_boards



def register(sub, board_sub):
    config = board_sub.add_parser("config", help="check a board config, draw its wiring and drilling template")
    config_sub = config.add_subparsers(dest="config_command", metavar="CONFIG_COMMAND")
    config.set_defaults(func=lambda args: (config.print_help(), 2)[1])

    check = config_sub.add_parser("check", help="check config files; every problem is reported with its line")
    check.add_argument("files", nargs="+", metavar="FILE")
    check.add_argument("--strict", action="store_true", help="fail on warnings too")
    check.add_argument("--json", action="store_true", help="print the problems as JSON")
    check.set_defaults(func=_guard(cmd_check))

    draw = config_sub.add_parser("drawings", help="write the wiring diagram and 1:1 drilling templates (SVG)")
    draw.add_argument("config", metavar="PRESET|FILE", help="a preset name (see `sowlight board presets`) or a config file")
    draw.add_argument("--out", required=True, metavar="DIR", help="directory for the SVG files (created if missing)")
    add_boards(draw)
    draw.set_defaults(func=_guard(cmd_drawings))

    presets = board_sub.add_parser("presets", help="list the board presets and the games each can play")
    presets.add_argument("--json", action="store_true", help="machine-readable output")
    add_boards(presets)
    presets.set_defaults(func=_guard(cmd_presets))


def _guard(command):
    def run(args):
        try:
            return command(args)
        except (CliError, PresetError) as e:
            print("sowlight: %s" % harmless.text(e), file=sys.stderr)
            return getattr(e, "status", 1)
    return run


# -- check ---------------------------------------------------------------------

def cmd_check(args):
    failed = False
    results = []
    for path in args.files:
        report = boardconfig.check_file(path)
        bad = bool(report.errors) or (args.strict and bool(report.warnings))
        failed = failed or bad
        if args.json:
            results.append({"file": path, "ok": not bad, "problems": [
                {"level": p.level, "line": p.line, "column": p.col, "path": p.path, "message": p.message}
                for p in report.problems]})
            continue
        for line in report.lines():
            print(harmless.text(line))
        if report.problems:
            print(harmless.text("%s: %s" % (path, _count(report))))
        else:
            print(harmless.text("%s: OK (%s)" % (path, _summary(boardconfig.board_from_text(_read(path), path)))))
    if args.json:
        print(harmless.json_dumps(results, indent=2))
    return 1 if failed else 0


def _read(path):
    with open(path, encoding="utf-8") as f:
        return f.read()


def _count(report):
    parts = []
    for n, word in ((len(report.errors), "error"), (len(report.warnings), "warning")):
        if n:
            parts.append("%d %s%s" % (n, word, "" if n == 1 else "s"))
    return ", ".join(parts)


# -- drawings ------------------------------------------------------------------

def _load(path):
    try:
        return boardconfig.load_board(path)
    except boardconfig.BoardConfigError as e:
        for line in e.report.lines():
            print(harmless.text(line), file=sys.stderr)
        raise CliError("%s is not a valid board config (%s): fix it before drawing" % (path, _count(e.report)))


def cmd_drawings(args):
    path = resolve(args.config, args.boards)
    board = _load(path)
    stem = os.path.splitext(os.path.basename(path))[0]
    try:
        os.makedirs(args.out, exist_ok=True)
        written = []
        for suffix, svg in drawings.all_drawings(board).items():
            target = os.path.join(args.out, "%s-%s.svg" % (stem, suffix))
            with open(target, "w", encoding="utf-8", newline="\n") as f:
                f.write(svg)
            written.append(target)
    except OSError as e:
        raise CliError("cannot write the drawings to %s: %s" % (args.out, e.strerror or e))
    for target in written:
        print(harmless.text(target))
    print("Print the drill-*.svg files at 100 % (no 'fit to page') and check the 100 mm scale bar with a ruler.")
    return 0


# -- presets -------------------------------------------------------------------

def rules_variants():
    """[(id, title, rows, pits_per_row, stores)] from the rules core, or (None, why)."""
    try:
        import mancala
    except ImportError:
        mancala = None
    listing = getattr(mancala, "variants", None)
    info = getattr(mancala, "variant_info", None)
    if not (callable(listing) and callable(info)):
        return None, ("the rules core does not list its games (mancala.variants() and mancala.variant_info() "
                      "are missing), so only board shapes are shown; hardware/game-shapes.md has the table")
    games = []
    for item in listing():
        vid = item if isinstance(item, str) else item.get("id")
        try:
            meta = info(vid)
            rows, per_row = meta["rows"], meta["pits_per_row"]
        except (KeyError, TypeError, ValueError, LookupError):
            continue  # an entry with no board (a game whose rules were never recorded)
        if not rows or not per_row:
            continue
        games.append((vid, meta.get("title", vid), rows, per_row, meta.get("stores", meta.get("stores_sown", 0))))
    return games, None


def preset_fits(board, games):
    """[(variant id, how)] for the games that fit the board."""
    out = []
    for vid, _title, rows, per_row, stores in games:
        how = boardconfig.fits(board, rows, per_row, stores)
        if how:
            out.append((vid, how))
    return out


def _shapes_played(board):
    """What a board plays, in words, for when the rules core cannot list its games."""
    shape = "%dx%d" % (board.rows, board.pits_per_row)
    words = ["%s games%s" % (shape, " with or without sown stores" if board.stores else " without sown stores")]
    if boardconfig.fits(board, board.rows, board.pits_per_row + 1, 0) == "stores-as-pits":
        words.append("%dx%d games without sown stores, each store played as its player's last pit"
                     % (board.rows, board.pits_per_row + 1))
    return "; ".join(words)


def cmd_presets(args):
    directory = boards_dir(args.boards)
    games, why = rules_variants()
    rows = []
    for name in preset_names(directory):
        board = _load(os.path.join(directory, name + ".json"))
        entry = {
            "preset": name, "name": board.name, "rows": board.rows, "pits_per_row": board.pits_per_row,
            "stores": board.stores, "mcu": board.mcu, "sensors": board.sensor_kind, "leds": board.led_count,
            "brightness_cap": board.brightness_cap, "supply_ma": board.supply_ma, "worst_ma": int(board.worst_ma),
            "plays": _shapes_played(board),
        }
        if games is not None:
            entry["fits"] = [{"variant": vid, "how": how} for vid, how in preset_fits(board, games)]
        rows.append(entry)
    if args.json:
        print(harmless.json_dumps({"presets": rows, "note": why}, indent=2))
        return 0
    print("%-12s %-15s %-7s %-5s %-5s %-8s %s" % ("PRESET", "BOARD", "MCU", "LEDS", "CAP", "SUPPLY", "PLAYS"))
    for entry in rows:
        shape = "%dx%d" % (entry["rows"], entry["pits_per_row"]) + (" + %d stores" % entry["stores"] if entry["stores"] else "")
        if "fits" in entry:
            exact = [f["variant"] for f in entry["fits"] if f["how"] == "exact"]
            trick = [f["variant"] for f in entry["fits"] if f["how"] != "exact"]
            plays = ", ".join(exact) or "(no listed game)"
            if trick:
                plays += "; stores as pits: " + ", ".join(trick)
        else:
            plays = entry["plays"]
        print(harmless.text("%-12s %-15s %-7s %-5d %-5.2f %-8s %s" % (
            entry["preset"], shape, entry["mcu"], entry["leds"], entry["brightness_cap"], "%d mA" % entry["supply_ma"], plays)))
    if why:
        print("note: " + why)
    return 0
