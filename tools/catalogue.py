"""Write docs/variants/README.md, the catalogue of rule sets, from rules/mancala/catalog.py.

    python tools/catalogue.py          # write it
    python tools/catalogue.py --check  # exit 1 if it is out of date (the tests run this)
"""
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "rules"))

from mancala.catalog import entries, NO_RULES  # noqa: E402

OUT = ROOT / "docs" / "variants" / "README.md"

HEAD = """# The rule sets

Every rule set the source texts describe, one row each, generated from
`rules/mancala/catalog.py` by `python tools/catalogue.py`. Each variant's page gives
its source (file and section), the rules in our own words, its options, every
decision taken where the source is silent, and the records the tests replay.
Any name in the Names column works in `mancala.Game(name)` and `sowlight play -v name`
(case, spaces, hyphens and apostrophes are ignored).

The sources: `000` "Count and Capture" (1955); `001` P. A. Wagner (1916); `002`
Egyptian mancala after Lane (1830s); `003` "The Mancala family" web page; `004`
W. Driedger (1972/2001). Boards whose names appear in the sources with no rules at
all are listed in [culin-boards.md](culin-boards.md).

| game | id | names | board | players | source | status |
|---|---|---|---|---|---|---|
"""


def render():
    rows = []
    for ident, module, cls, title, aliases, nrows, per_row, stores, players, source in entries():
        board = "%d×%d%s" % (nrows, per_row, " + stores" if stores else "")
        if ident in NO_RULES:
            status = "no rules in the sources"
        elif module is None:
            status = "not playable yet"
        else:
            status = "playable"
        names = ", ".join(aliases) or "—"
        rows.append("| [%s](%s.md) | `%s` | %s | %s | %s | %s | %s |" % (
            title, ident, ident, names, board, "/".join(str(p) for p in players), source, status))
    return HEAD + "\n".join(rows) + "\n"


def main(argv):
    text = render()
    if "--check" in argv:
        if not OUT.exists() or OUT.read_text() != text:
            print("docs/variants/README.md is out of date: run python tools/catalogue.py")
            return 1
        return 0
    OUT.write_text(text)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
