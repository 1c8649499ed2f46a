"""Names to variants: Game(name) and the list of variants.

Only the chosen variant's module is imported (the board has little memory),
and the catalog is read only while a name is looked up: its rows (some 10 KB
on MicroPython) are not kept between look-ups.
"""
import sys

from .errors import NoRulesError, UnknownVariantError

_DROP = " -_'’./()"


def normalize(name):
    """A name as it is looked up: lower case, no spaces, hyphens, underscores or apostrophes."""
    out = []
    for ch in name.lower():
        if ch not in _DROP:
            out.append(ch)
    return "".join(out)


def _catalog():
    """The catalog module, imported for one look-up and then forgotten (by
    sys.modules and by the package), so that its rows are garbage once the
    caller is done with them.  Code that imports mancala.catalog itself keeps
    what it took from it."""
    catalog = __import__("mancala.catalog", None, None, ("ENTRIES",))
    sys.modules.pop("mancala.catalog", None)
    pkg = sys.modules.get("mancala")
    if pkg is not None and "catalog" in pkg.__dict__:
        try:
            delattr(pkg, "catalog")
        except AttributeError:
            pass        # another thread's look-up forgot it first
    return catalog


def _names(entries):
    """Every name and alias, normalized, with its row."""
    for e in entries:
        for n in (e[0], e[3]) + e[4]:
            yield normalize(n), e


def entry(name):
    """The catalog row for a name or alias; UnknownVariantError lists close matches."""
    if not isinstance(name, str):
        raise UnknownVariantError("a variant is named by a string, not %r" % (name,))
    key = normalize(name)
    entries = _catalog().ENTRIES
    for n, e in _names(entries):
        if n == key:
            return e
    near = close_matches(key, _names(entries))
    hint = ("; did you mean %s?" % ", ".join(near)) if near else ""
    raise UnknownVariantError("no variant is called %r%s (sowlight variants lists them all)" % (name, hint))


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


def variant_class(name):
    """The class of a variant (imports its module only)."""
    cls = _classes.get(name)
    if cls is not None:
        return cls
    e = entry(name)
    ident, module = e[0], e[1]
    if module is None:
        if ident in _catalog().NO_RULES:
            raise NoRulesError("%s: the sources record no rules for this game, only its name and board (see docs/variants/%s.md)" % (e[3], ident))
        raise NoRulesError("%s is described in the sources but is not playable yet (see docs/variants/%s.md)" % (e[3], ident))
    mod = __import__("mancala.variants." + module, None, None, (e[2],))
    cls = _classes[name] = getattr(mod, e[2])
    return cls


_classes = {}  # name as asked -> class, so a new game costs no look-up


def Game(name, pits=None, stores=None, to_move=0, **options):
    """A new game of the variant called `name` (an id or any alias), or a given position of it."""
    return variant_class(name)(pits=pits, stores=stores, to_move=to_move, **options)


def variants(include_unplayable=False):
    """The ids of the playable variants (with include_unplayable, every id in the catalog)."""
    return [e[0] for e in _catalog().ENTRIES if include_unplayable or e[1] is not None]


def variant_info(name):
    """What the catalog says of a variant: a dict of id, title, aliases, board and source."""
    return _info(entry(name))


def variant_infos(names=None):
    """variant_info() of each name (default: every playable variant), in order, from one
    read of the catalog (a board asks for all of them at boot: one read instead of one
    a name).  An unknown name raises UnknownVariantError, as variant_info does."""
    entries = _catalog().ENTRIES
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
