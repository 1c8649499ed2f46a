"""Gabatta (Abyssinia): the source records no rules, so the game is documented, not playable.

See docs/variants/gabatta.md (source 001 · The Abyssinian Game of Gabatta).
"""
import pytest

import mancala


@pytest.mark.parametrize("name", ["Gabatta", "gabatta", "Abyssinian Gabatta"])
def test_gabatta_has_no_rules(name):
    with pytest.raises(mancala.NoRulesError) as info:
        mancala.Game(name)
    message = str(info.value).lower()
    assert "gabatta" in message and "no rules" in message


def test_catalog_knows_the_board():
    info = mancala.variant_info("gabatta")
    assert info["playable"] is False
    assert (info["rows"], info["pits_per_row"]) == (3, 6)
    assert "gabatta" not in mancala.variants()
