"""Choro (S.E. Sudan): the source records no rules, so the game is documented, not playable.

See docs/variants/choro.md (source 000 · THE GAME OF CHORO).
"""
import pytest

import mancala


@pytest.mark.parametrize("name", ["Choro", "choro", "CHORO"])
def test_choro_has_no_rules(name):
    with pytest.raises(mancala.NoRulesError) as info:
        mancala.Game(name)
    message = str(info.value).lower()
    assert "choro" in message
    assert "no rules" in message
    assert "source" in message


def test_no_rules_error_is_a_rules_error():
    with pytest.raises(mancala.RulesError):
        mancala.Game("choro")


def test_choro_is_not_listed_as_playable():
    assert "choro" not in mancala.variants()
