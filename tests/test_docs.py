"""The docs stay true: every catalogued game has its page, the catalogue page is current,
and each variant page names its source file and has a decisions section."""
import subprocess
import sys
from pathlib import Path

import pytest

from mancala.catalog import entries

ENTRIES = entries()

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs" / "variants"


def test_catalogue_page_is_current():
    r = subprocess.run([sys.executable, str(ROOT / "tools" / "catalogue.py"), "--check"], capture_output=True, text=True)
    assert r.returncode == 0, r.stdout


@pytest.mark.parametrize("entry", ENTRIES, ids=[e[0] for e in ENTRIES])
def test_every_game_has_a_page_citing_its_source(entry):
    page = DOCS / (entry[0] + ".md")
    assert page.exists(), "docs/variants/%s.md is missing" % entry[0]
    text = page.read_text()
    source_file = {"000": "000_d822d94075606bae.txt", "001": "001_144ffc807d99755c.txt",
                   "002": "002_9a5577f49ac15a42.txt", "003": "003_87eff7fda690f72d.txt",
                   "004": "004_d9e25f0ea8480683.txt"}[entry[9][:3]]
    assert source_file in text, "%s does not name its source file %s" % (page.name, source_file)
    if entry[1] is not None:
        assert "Decision" in text, "%s has no decisions section" % page.name


def test_readme_links_exist():
    text = (ROOT / "README.md").read_text()
    import re
    for link in re.findall(r"\]\(([^)#]+)\)", text):
        if "://" not in link:
            assert (ROOT / link).exists(), "README links to missing %s" % link
