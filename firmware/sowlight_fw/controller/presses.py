"""The buttons' presses outside the confirm of a move under way (Controller.press has that one):
the menu, the set-up, play, placing, a game's end, the error pattern.
"""
from mancala.errors import RulesError

from ..follow import is_marker
from .states import MENU_STATE, SETUP, MOVE, PLACING, OVER, ERROR_STATE, PLAY_STATES, BUTTONS
from . import placement
from .jobs import STATE
from .games import abandon_move, new_game, undo_move
from .menu import menu_button, toggle_menu
from . import mismatch
from .games import CommandError


def press(ctl, button, now_ms):
    """A button press: confirm, undo, hint, or menu (a long press on confirm)."""
    if button not in BUTTONS:
        raise ValueError("unknown button %r: buttons are %s" % (button, ", ".join(BUTTONS)))
    ctl.now = now_ms
    ctl._finish_due()
    st = ctl.state
    before = summary(ctl)
    said = len(ctl.outbox)
    if button == "menu":
        toggle_menu(ctl)
    elif st == MENU_STATE:
        menu_button(ctl, button)
    elif st == SETUP:
        if button == "confirm":
            mismatch.overrule(ctl, mismatch.setup_wrong(ctl))
            mismatch.start_play(ctl)
        elif button == "hint":
            ctl.hints = not ctl.hints
    elif st in PLAY_STATES:
        play_button(ctl, button, now_ms)
    elif st == PLACING:
        placement.button(ctl, button)
    elif st == OVER:
        try:
            if button == "confirm":
                new_game(ctl, ctl.variant, ctl.options)
            elif button == "undo":
                undo_move(ctl)
        except (CommandError, RulesError) as e:
            ctl.log("info", str(e))
    elif st == ERROR_STATE:
        if button == "confirm":
            ctl.recover()
    ctl._finish_due()         # a move ended by confirm is played at once
    if summary(ctl) != before:
        # A button changed the game (a new game, a move taken back, a move ended by confirm
        # ...) or what the board is doing: the host hears it as from a link request.
        for m in ctl.outbox[said:]:
            if m["type"] == "state":
                break
        else:
            if ctl.jobs.find(STATE) is None:   # (one queued is made when its turn comes, from the state then)
                ctl._send(ctl.state_message())
    ctl._refresh()
    ctl.render(now_ms)


def summary(ctl):
    return (ctl.state, ctl.game_no, ctl.ply, ctl.hints, ctl.mismatch, ctl.follower.index)


def play_button(ctl, button, now):
    f = ctl.follower
    if button == "undo":
        if ctl.state == MOVE:
            abandon_move(ctl, "undo pressed")
        else:
            try:
                undo_move(ctl)
            except CommandError as e:
                ctl.log("info", e.msg)
        return
    if button == "hint":
        if ctl.state != MOVE and len(ctl.follower.unseen_lifts()) > 1:
            ctl.selected += 1
        elif ctl.state == MOVE and ctl._selecting():
            ctl.selected += 1
        else:
            ctl.hints = not ctl.hints
            ctl._update_hint()
        return
    # confirm
    if ctl.mismatch:
        mismatch.overrule(ctl, ctl.wrong)
        ctl.mismatch = False
        ctl.wrong = []
        ctl._follow(now)
        return
    if f.mv is None:
        return
    if ctl.state != MOVE:
        unseen = ctl.follower.unseen_lifts()
        if unseen:
            # A lift the sensors cannot see, confirmed by the player.
            ctl._advance([unseen[ctl.selected % len(unseen)]])
            ctl.selected = 0
            ctl._progress()
        elif not f.mv.building() and f.mv.can_stop():
            ctl._commit(None)     # the move without steps (Lane's chooser keeps the board)
        else:
            _confirm_still(ctl)
        return
    ctl._confirm()     # "I did what the lights show" (Controller._confirm)


def _confirm_still(ctl):
    """Confirm before any act: a move the hands do nothing for (Kiothi's pass of its
    redeployment) is the move made."""
    mv = ctl.follower.ready()
    for p in mv.paths():
        st = p[1]
        if st and all(is_marker(s) for s in st):
            ctl._advance(list(st))
            ctl._progress()
            return
