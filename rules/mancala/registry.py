"""Names to variants: Game(name) and the list of variants.

Only the chosen variant's module is imported (the board has little memory),
and the catalog is read only while a name is looked up: its rows (some 10 KB
on MicroPython) are not kept between look-ups, and a name that is an id as
written is found from its own row alone (catalog.by_id).
"""
import sys

from .errors import UnknownVariantError

_DROP = " -_'’./()"


def normalize(name):
    """A name as it is looked up: lower case, no spaces, hyphens, underscores or apostrophes."""
    out = []
    for ch in name.lower():
        if ch not in _DROP:
            out.append(ch)
    return "".join(out)


def _once(name):
    """The module mancala.<name>, imported for one call and then forgotten (by
    sys.modules and by the package), so that it is garbage once the caller is
    done with it.  Code that imports it itself keeps what it took from it."""
    module = __import__("mancala." + name, None, None, ("_",))
    sys.modules.pop("mancala." + name, None)
    pkg = sys.modules.get("mancala")
    if pkg is not None and name in pkg.__dict__:
        try:
            delattr(pkg, name)
        except AttributeError:
            pass        # another thread's look-up forgot it first
    return module


def _catalog():
    """The catalog's rows, read for one look-up (some 10 KB on MicroPython)."""
    return _once("catalog")


def _names(entries):
    """Every name and alias, normalized, with its row."""
    for e in entries:
        for n in (e[0], e[3]) + e[4]:
            yield normalize(n), e


def entry(name):
    """The catalog row for a name or alias; UnknownVariantError lists close matches."""
    if not isinstance(name, str):
        raise UnknownVariantError("a variant is named by a string, not %r" % (name,))
    catalog = _catalog()
    e = catalog.by_id(name)
    if e is not None:
        return e
    key = normalize(name)
    entries = catalog.entries()
    for n, e in _names(entries):
        if n == key:
            return e
    raise _once("infos").unknown(name, key, _names(entries))


def variant_class(name):
    """The class of a variant (imports its module only)."""
    cls = _classes.get(name)
    if cls is not None:
        return cls
    e = entry(name)
    module = e[1]
    if module is None:
        raise _once("infos").no_rules(e, _catalog().NO_RULES)
    mod = __import__("mancala.variants." + module, None, None, (e[2],))
    cls = _classes[name] = getattr(mod, e[2])
    return cls


_classes = {}  # name as asked -> class, so a new game costs no look-up


def Game(name, pits=None, stores=None, to_move=0, **options):
    """A new game of the variant called `name` (an id or any alias), or a given position of it."""
    return variant_class(name)(pits=pits, stores=stores, to_move=to_move, **options)


def variants(include_unplayable=False):
    """The ids of the playable variants (with include_unplayable, every id in the catalog)."""
    return [e[0] for e in _catalog().entries() if include_unplayable or e[1] is not None]
