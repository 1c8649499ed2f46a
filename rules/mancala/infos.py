"""What the catalog says of the variants, and why a name is no variant: read now and then.

A board asks for the variants that fit it once, at boot, and a name is refused
rarely, so this code is loaded for the call and forgotten again on MicroPython
(registry._once, the package's __getattr__): it is not kept with the engine.
"""
from .errors import NoRulesError, UnknownVariantError
from .registry import _catalog, _names, entry, normalize


def variant_info(name):
    """What the catalog says of a variant: a dict of id, title, aliases, board and source."""
    return _info(entry(name))


def variant_infos(names=None):
    """variant_info() of each name (default: every playable variant), in order, from one
    read of the catalog (a board asks for all of them at boot: one read instead of one
    a name).  An unknown name raises UnknownVariantError, as variant_info does."""
    entries = _catalog().entries()
    if names is None:
        return [_info(e) for e in entries if e[1] is not None]
    rows = {}
    for n, e in _names(entries):
        rows[n] = e
    out = []
    for name in names:
        e = rows.get(normalize(name)) if isinstance(name, str) else None
        out.append(_info(e) if e is not None else variant_info(name))   # variant_info says why not
    return out


def _info(e):
    return {
        "id": e[0], "title": e[3], "aliases": list(e[4]), "rows": e[5], "pits_per_row": e[6],
        "stores_sown": bool(e[7]), "players": list(e[8]), "source": e[9], "playable": e[1] is not None,
    }


def unknown(name, key, names):
    """The UnknownVariantError for `name` (normalized: `key`), with the close matches among
    `names` ((normalized name, row) pairs)."""
    near = close_matches(key, names)
    hint = ("; did you mean %s?" % ", ".join(near)) if near else ""
    return UnknownVariantError("no variant is called %r%s (sowlight variants lists them all)" % (name, hint))


def no_rules(e, no_rules):
    """The NoRulesError for the catalog row `e` of a game that is not playable."""
    ident = e[0]
    if ident in no_rules:
        return NoRulesError("%s: the sources record no rules for this game, only its name and board (see docs/variants/%s.md)" % (e[3], ident))
    return NoRulesError("%s is described in the sources but is not playable yet (see docs/variants/%s.md)" % (e[3], ident))


def close_matches(key, names, most=3):
    """The ids of up to `most` rows whose names are near `key`; names: (normalized name, row) pairs."""
    scored = []
    for n, e in names:
        d = _distance(key, n)
        if d <= max(2, len(key) // 3) or (len(key) >= 3 and (n.startswith(key) or key in n)):
            scored.append((d, e[0]))
    scored.sort()
    out = []
    for _, ident in scored:
        if ident not in out:
            out.append(ident)
    return out[:most]


def _distance(a, b):
    """Levenshtein distance (small strings only)."""
    prev = list(range(len(b) + 1))
    for i in range(len(a)):
        cur = [i + 1]
        for j in range(len(b)):
            cur.append(min(prev[j + 1] + 1, cur[j] + 1, prev[j] + (a[i] != b[j])))
        prev = cur
    return prev[-1]
