"""The menu: a variant (or self-test, calibration) chosen with the buttons.
"""
from mancala.errors import RulesError

from ..follow import placing
from .states import MENU_STATE, SELF_TEST, CALIBRATING, SERVICE_ITEMS
from .games import countable_options, new_game, uncountable
from .games import CommandError


def toggle_menu(ctl):
    if ctl.state == MENU_STATE:
        if ctl._back is not None and ctl.game is not None:
            ctl.state = ctl._back
            ctl._back = None
    elif ctl.state not in (SELF_TEST, CALIBRATING):
        ctl._back = ctl.state
        ctl.state = MENU_STATE
        if ctl.variant in ctl.variants:
            ctl.menu_index = ctl.variants.index(ctl.variant)


def menu_button(ctl, button):
    n = len(ctl.menu_items)
    if button == "hint":
        ctl.menu_index = (ctl.menu_index + 1) % n
    elif button == "undo":
        ctl.menu_index = (ctl.menu_index - 1) % n
    elif button == "confirm":
        item = ctl.menu_items[ctl.menu_index]
        if item in SERVICE_ITEMS:
            ctl.service_request = item
            return
        ctl._back = None
        try:
            new_game(ctl, item, menu_options(ctl, item))
        except (CommandError, RulesError) as e:
            ctl.log("error", str(e))
    ctl.log("info", "menu: %s" % ctl.menu_items[ctl.menu_index])


def menu_options(ctl, variant):
    """The options a game chosen from the menu starts with: its defaults, unless these start
    with a placing stage this board cannot count (then options that do not, said in the log)."""
    if ctl.counting:
        return {}
    game = ctl.factory(variant)
    if not placing(game):
        return {}
    alt = countable_options(ctl, game)
    if alt is None:
        return {}           # new_game refuses it, saying why
    ctl.log("info", uncountable(ctl, game))
    return alt
