"""`sowlight variants`: the catalogue of rule sets, with their sources."""
import json
import sys

import mancala
from mancala.catalog import entries
from mancala.registry import variant_class


def options_of(ident):
    """The options `-o name=value` a playable variant takes: name, default, allowed values."""
    return [{"name": name, "default": default, "allowed": list(allowed)}
            for name, default, allowed in variant_class(ident).options]


def option_text(o):
    """One option as `sowlight variants` prints it: name=default (the others allowed)."""
    allowed = o["allowed"]
    if allowed and all(type(v) is int for v in allowed) and allowed == list(range(allowed[0], allowed[-1] + 1)):
        others = "%d..%d" % (allowed[0], allowed[-1])
    else:
        others = "|".join(str(v) for v in allowed)
    return "%s=%s (%s)" % (o["name"], o["default"], others)


def run(args):
    rows = []
    for e in entries():
        info = mancala.variant_info(e[0])
        if args.playable and not info["playable"]:
            continue
        info["options"] = options_of(e[0]) if info["playable"] else []
        rows.append(info)
    if args.json:
        json.dump(rows, sys.stdout, indent=1, ensure_ascii=False)
        sys.stdout.write("\n")
        return 0
    for r in rows:
        board = "%dx%d%s" % (r["rows"], r["pits_per_row"], " + stores" if r["stores_sown"] else "")
        players = "/".join(str(p) for p in r["players"])
        state = "" if r["playable"] else ("  (no rules in the sources)" if r["id"] in ("choro", "gabatta") else "  (not playable yet)")
        aliases = (" - also " + ", ".join(r["aliases"])) if r["aliases"] else ""
        word = "player " if r["players"] == [1] else "players"
        print("%-18s %-34s %-12s %s %s  source %s%s%s" % (r["id"], r["title"], board, players, word, r["source"], state,
                                                          aliases))
        if r["options"]:
            print("%-18s options: %s" % ("", ", ".join(option_text(o) for o in r["options"])))
    return 0


def register(sub, board_sub):
    p = sub.add_parser("variants", help="list the rule sets and their sources")
    p.add_argument("--json", action="store_true", help="print JSON")
    p.add_argument("--playable", action="store_true", help="only the variants that can be played")
    p.set_defaults(func=run)
