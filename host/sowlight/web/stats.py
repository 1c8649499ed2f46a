"""Statistics of the archive, and their plots as SVG drawn here (no chart library).

    s = statistics(summaries)      # from Archive.games() (each with `first`, the player who moved first)
    s["plots"]["results"]          # an <svg> string

Results per player (a name's wins, draws and losses over every game it
played), results per variant, the first player's advantage (per variant: the
share of finished games the player who moved first won) and game lengths
(moves per game, in bands of ten).
"""
from xml.sax.saxutils import escape

# Win / draw / loss, unfinished: colours that read on white and in print.
WIN, DRAW, LOSS, OPEN = "#2e7d32", "#9e9e9e", "#c62828", "#e0e0e0"


def _points(result, players):
    """Each player's part of a finished game ('1', '0', '1/2' ...) as floats; None when not finished."""
    if result in (None, "*"):
        return None
    parts = result.split("-")
    if len(parts) != players:
        return None
    out = []
    for p in parts:
        if "/" in p:
            a, _, b = p.partition("/")
            out.append(int(a) / int(b))
        else:
            out.append(float(p))
    return out


def statistics(games):
    """The tables and plots of the statistics page (see the module's docstring)."""
    by_player = {}
    by_variant = {}
    lengths = []
    for g in games:
        players = len(g["players"])
        pts = _points(g["result"], players)
        v = by_variant.setdefault(g["variant"], {"variant": g["variant"], "games": 0, "finished": 0,
                                                 "first_won": 0, "first_lost": 0, "draws": 0, "moves": []})
        v["games"] += 1
        v["moves"].append(g["moves"])
        lengths.append(g["moves"])
        for p, name in enumerate(g["players"]):
            if name == "?":
                continue        # a player nobody named (PGN's "?"): not one person
            r = by_player.setdefault(name, {"player": name, "games": 0, "wins": 0, "draws": 0, "losses": 0, "open": 0})
            r["games"] += 1
            if pts is None:
                r["open"] += 1
            elif pts[p] == 1:
                r["wins"] += 1
            elif pts[p] > 0:
                r["draws"] += 1
            else:
                r["losses"] += 1
        if pts is not None and players > 1:
            v["finished"] += 1
            first = g.get("first", 0)
            if max(pts) < 1:
                v["draws"] += 1
            elif pts[first] == 1:
                v["first_won"] += 1
            else:
                v["first_lost"] += 1
    players = sorted(by_player.values(), key=lambda r: (-r["games"], r["player"]))
    variants = sorted(by_variant.values(), key=lambda r: (-r["games"], r["variant"]))
    for v in variants:
        moves = sorted(v.pop("moves"))
        v["median_moves"] = moves[len(moves) // 2] if moves else None
        v["first_share"] = (v["first_won"] / v["finished"]) if v["finished"] else None
    bands = {}
    for n in lengths:
        bands[n // 10] = bands.get(n // 10, 0) + 1
    length_rows = [{"band": "%d-%d" % (10 * b, 10 * b + 9), "games": bands.get(b, 0)}
                   for b in range(min(bands), max(bands) + 1)] if bands else []
    plots = {
        "results": stacked_bars("Results per player", [r["player"] for r in players],
                                [("won", WIN, [r["wins"] for r in players]), ("drawn", DRAW, [r["draws"] for r in players]),
                                 ("lost", LOSS, [r["losses"] for r in players]), ("unfinished", OPEN, [r["open"] for r in players])]),
        "first": stacked_bars("First player's results per variant", [v["variant"] for v in variants],
                              [("first player won", WIN, [v["first_won"] for v in variants]),
                               ("drawn", DRAW, [v["draws"] for v in variants]),
                               ("second (or another) won", LOSS, [v["first_lost"] for v in variants])]),
        "lengths": stacked_bars("Game lengths (moves)", [r["band"] for r in length_rows],
                                [("games", "#1565c0", [r["games"] for r in length_rows])]),
    }
    return {"games": len(games), "players": players, "variants": variants, "lengths": length_rows, "plots": plots}


def stacked_bars(title, labels, series, width=640, bar=26, gap=10):
    """A horizontal stacked bar chart as an SVG string: one bar per label, one colour per series,
    a legend, and each bar's total at its end."""
    left = 150
    top = 40
    height = top + max(1, len(labels)) * (bar + gap) + 30
    totals = [sum(s[2][i] for s in series) for i in range(len(labels))]
    most = max(totals) if totals and max(totals) > 0 else 1
    span = width - left - 50
    out = ['<svg xmlns="http://www.w3.org/2000/svg" class="plot" viewBox="0 0 %d %d" width="%d" height="%d" '
           'role="img" aria-label="%s">' % (width, height, width, height, escape(title, {'"': "&quot;"})),
           '<text x="%d" y="20" class="plot-title" font-size="15" font-weight="bold">%s</text>' % (left, escape(title))]
    if not labels:
        out.append('<text x="%d" y="%d" font-size="13">no games yet</text>' % (left, top + 16))
    for i, label in enumerate(labels):
        y = top + i * (bar + gap)
        shown = label if len(label) <= 20 else label[:19] + "\u2026"
        out.append('<text x="%d" y="%d" text-anchor="end" font-size="12">%s</text>' % (left - 8, y + bar * 0.68, escape(shown)))
        x = left
        for name, colour, values in series:
            v = values[i]
            if v:
                w = span * v / most
                out.append('<rect x="%.1f" y="%d" width="%.1f" height="%d" fill="%s"><title>%s: %s %d</title></rect>' % (
                    x, y, w, bar, colour, escape(label), escape(name), v))
                x += w
        out.append('<text x="%.1f" y="%d" font-size="12">%d</text>' % (x + 5, y + bar * 0.68, totals[i]))
    ly = height - 12
    lx = left
    for name, colour, _ in series:
        out.append('<rect x="%d" y="%d" width="12" height="12" fill="%s"/>' % (lx, ly - 10, colour))
        out.append('<text x="%d" y="%d" font-size="12">%s</text>' % (lx + 16, ly, escape(name)))
        lx += 24 + 7 * len(name)
    out.append("</svg>")
    return "".join(out)
