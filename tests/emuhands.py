"""Helpers of the emulated board's tests (tests/test_emu_board.py): what it needs, and games on it.

    need = prerequisites(image)         # or pytest.fail/skip saying what to install
    moves, game = play(path, "kalah", {"seeds": 1})     # robot hands on the board at `path`

The hands are the companion's robot (host/sowlight/simulation/robot.py, what `sowlight demo`
plays with): one `sim` act per physical step.  On the emulated board they see the
LEDs as a player does: `follow_strip()` makes the view's lit cells the ones the
strip the emulated data pin drove shows (see StripView).
"""
import os
import random
import shutil
import time

import pytest

import mancala
from sowlight.board import view as boardview
from sowlight.simulation.emuboard import reactions
from sowlight.simulation.robot import Robot
from sowlight_fw.colours import OFF, ROLE_NAMES, ERROR, DROP, RELAY, TAKE, DEST, NEED, TOUCH


def prerequisites(image):
    """(image, bootrom, rp2040js module) or a failure (CI=true) / skip saying what to install."""
    from sowlight.simulation import emuboard
    problems = []
    if shutil.which("node") is None or shutil.which("npm") is None:
        problems.append("Node.js 18+ with npm (apt-get install nodejs npm)")
    module = None
    if not problems:
        try:
            module = emuboard.ensure_rp2040js()
        except emuboard.EmuBoardError as e:
            problems.append(str(e))
    bootrom = None
    if image is None:
        problems.append("a firmware image: `sowlight firmware build` (the ARM toolchain: apt-get install "
                        "gcc-arm-none-eabi libnewlib-arm-none-eabi libstdc++-arm-none-eabi-newlib cmake), "
                        "or SOWLIGHT_FIRMWARE_IMAGE=/path/firmware.uf2")
    else:
        try:
            bootrom = emuboard.find_bootrom(None, image)
        except emuboard.EmuBoardError as e:
            problems.append(str(e))
    if problems:
        text = "the emulated board's tests need: " + "; ".join(problems)
        if os.environ.get("CI") == "true":
            pytest.fail(text)
        pytest.skip(text)
    return image, bootrom, module


# A link message goes out in its scan before that scan's frame leaves the strip: the strip is
# read once the scan that sent a `leds` message is over (a scan is 20 ms).
_SCAN_NS = 40 * 10 ** 6
_CHOICE_ROLES = (DROP, RELAY, TAKE, DEST, NEED)
_ROLES = {}             # a role's name -> the roles with that name (a lift is one of the player's colours)
for _r, _name in enumerate(ROLE_NAMES):
    _ROLES.setdefault(_name, set()).add(_r)


class StripView(boardview.BoardView):
    """A board's view in which what is lit is what the emulated strip shows.

    The view keeps the link's `leds` message (`said`); `lit` is read off the frames the strip's
    data pin carried since that message: every cell the strip lit in them, with its role as the
    message names it when the strip showed that role (a blinking choice, an error, a trail that
    alternates with its next step), else the strip's own.  A cell the message names but the strip
    never lights is left out, so hands that follow these LEDs stall, and the game fails, if the
    strip and the link disagree.  The number of flashes a cell counts is the message's (on the
    strip a count takes up to 20 beats to read)."""

    @property
    def lit(self):
        said = self.__dict__.get("said")
        if said is None:
            return None
        return self._shown(said)

    @lit.setter
    def lit(self, value):
        d = self.__dict__
        if value != d.get("said"):
            d["said_at"] = self.strip_board.now_ns
            d["seen"] = None
        d["said"] = value

    def _shown(self, said, wait_ns=10 ** 9, wall=60.0):
        board = self.strip_board
        seen = self.__dict__.get("seen")
        if seen is not None and seen[0] == board.led_frames:
            return seen[1]
        # The strip is given `wait_ns` of the board's own (emulated) time to show what was said,
        # however slowly the emulator runs on a loaded machine; `wall` only guards a stopped one.
        end = time.monotonic() + wall
        after = self.__dict__["said_at"] + _SCAN_NS
        out = {}
        while True:
            frames_n = board.led_frames
            now = board.now_ns
            if now >= after:
                out = self._decode(said, after)
                if all(c in out for c in said):
                    break
            if now > after + wait_ns or time.monotonic() > end:
                break           # (what the strip showed by then: the hands wait on the rest)
            time.sleep(0.005)
        self.__dict__["seen"] = (frames_n, out)
        return out

    def _decode(self, said, after):
        frames = self.strip_board.frames
        first = 0
        for i in range(len(frames) - 1, -1, -1):
            if frames[i][0] <= after:
                first = i
                break
        shown = {}
        for _t, roles in frames[first:]:
            if roles is None:
                continue
            for c, leds in enumerate(self.strip_board.board.cell_leds):
                r = roles[leds[0]]
                if r != OFF and r != TOUCH:      # (a touch is the strip's own: hw/watch.py)
                    shown.setdefault(c, set()).add(r)
        out = {}
        for c, roles in shown.items():
            name, count = said.get(c, (None, 1))
            if name == "choice":
                fits = any(r in _CHOICE_ROLES for r in roles)
            elif name == "error":
                fits = ERROR in roles
            else:
                fits = bool(_ROLES.get(name, set()) & roles)
            if fits:
                out[c] = (name, count)
            else:
                out[c] = (ROLE_NAMES[min(roles)], 1)
        return out


def follow_strip(view, board):
    """Make `view` (a BoardView on the emulated `board`) a StripView: its lit cells from then on
    are those the strip shows."""
    said = view.__dict__.pop("lit", None)
    view.__class__ = StripView
    view.strip_board = board
    view.lit = said
    return view


def unacknowledged(board, within_ns=10 ** 9):
    """The sensor changes on `board` (emulated ns, cells) whose cells the strip did not light TOUCH
    (hw/watch.py) before it showed the controller's answer on them, or within `within_ns` when no
    answer came: a board whose timer does not watch its sensors gives every change."""
    return [(t, cells) for t, cells, _first, answer, touched in reactions(board, within_ns)
            if not touched and (answer is not None or board.now_ns - t > within_ns)]


def told(board, changes, around_ns=400 * 10 ** 6):
    """What the strip showed on the cells of each change (unacknowledged()'s), frame by frame
    from `around_ns` before it to as long after: the text of an assertion that names them, so a
    failure says what the LEDs did."""
    leds = board.board.cell_leds
    lines = []
    for t, cells in changes:
        lines.append("change of cells %s at %.3f s (emulated):" % (cells, t / 1e9))
        for ft, roles in board.frames:
            if roles is not None and abs(ft - t) <= around_ns:
                looks = ", ".join("%d %s" % (c, ROLE_NAMES[roles[leds[c][0]]]) for c in cells)
                lines.append("  %+8.1f ms  %s" % ((ft - t) / 1e6, looks))
        lines.append("  flash erases within 100 ms: %d" % sum(
            1 for op, _off, _n, ot in board.flash_ops if op == "erase" and abs(ot - t) <= 10 ** 8))
    return "\n".join(lines)


def play(conn, variant, options=None, moves=None, seed=1, pos=None, script=None):
    """Robot hands set a new game out and play it (to its end, or `moves` moves) on a connected board.

    With `pos` the game is set to that position once it is laid out (as `sowlight play --game`
    goes on with an archived game) and the hands lay the seeds out as it has them; with `script`
    (moves of the rules core) the hands make those moves, each from the pit the strip offers.

    Returns (the board's `move` events, the board's game number, the final state)."""
    view = conn.view
    reply = conn.link.request("new_game", {"variant": variant, "options": dict(options or {})})
    robot = Robot(view, rng=random.Random(seed), patience=10.0)
    robot.set_up()
    if pos is not None:
        conn.link.request("set_pos", {"pos": pos})
        robot.put_right()
    made = []
    script = list(script or ())
    while moves is None or len(made) < moves:
        state = view.refresh()
        if state["phase"] == "over":
            break
        made.append(robot.play_move(script.pop(0) if script else None))
    return made, reply["game"], view.refresh()


def ending(variant, moves, seed=7):
    """The last `moves` moves of a game random players played on the rules core to its end:
    (the position before them, the moves, the final cells).  A game set to that position ends
    after those moves too (seeds are tried until one does: a game that ended on a repetition
    needs its history, which a position does not carry)."""
    while True:
        rng = random.Random(seed)
        game = mancala.Game(variant)
        seen = []
        while not game.is_over():
            move = rng.choice(list(game.legal_moves()))
            seen.append(({"pits": list(game.pits), "stores": list(game.stores), "to_move": game.to_move}, move))
            game.play(move)
        pos, script = seen[-moves][0], [m for _p, m in seen[-moves:]]
        again = mancala.Game(variant, **pos)
        for m in script:
            again.play(m)
        if again.is_over() and again.cells() == game.cells():
            return pos, script, game.cells()
        seed += 1


def open_view(path, wait=10.0):
    return boardview.open_board(port=path, virtual="never", wait=wait)


def play_until_cut(conn, board, seed=2):
    """Robot hands play moves until the power is cut (board.cut_after()); the board's game is under
    way and its LEDs show what they showed at power-up (hands that come in the middle of a move
    would take the drops it still shows for their own).

    Returns the `move` events of the moves the board reported whole."""
    import threading
    view = conn.view
    robot = Robot(view, rng=random.Random(seed), patience=10.0)
    made = []
    failed = []

    def hands():
        try:
            while not board.cut:
                made.append(robot.play_move())
        except Exception as e:     # the link going down under the hands, once the power is cut
            failed.append(e)
    t = threading.Thread(target=hands, daemon=True)
    t.start()
    while not board.cut and t.is_alive():
        t.join(0.1)
    conn.close()
    t.join(30)
    if not board.cut:
        raise AssertionError("the hands stopped before the power was cut: %r" % failed)
    return made
