"""Helpers of the emulated board's tests (tests/test_emu_board.py): what it needs, and games on it.

    need = prerequisites(image)         # or pytest.fail/skip saying what to install
    moves, game = play(path, "kalah", {"seeds": 1})     # robot hands on the board at `path`

The hands are the companion's robot (host/sowlight/simulation/robot.py, what `sowlight demo`
plays with): one `sim` act per physical step, chosen from the LEDs the board
reports.  `strip_agrees()` checks that the strip the emulated pins drove showed
those same LEDs.
"""
import os
import random
import shutil

import pytest

from sowlight.board import view as boardview
from sowlight.simulation.robot import Robot
from sowlight_fw.colours import OFF, ROLE_NAMES


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


def play(conn, variant, options=None, moves=None, seed=1):
    """Robot hands set a new game out and play it (to its end, or `moves` moves) on a connected board.

    Returns (the board's `move` events, the board's game number, the final state)."""
    view = conn.view
    reply = conn.link.request("new_game", {"variant": variant, "options": dict(options or {})})
    robot = Robot(view, rng=random.Random(seed), patience=10.0)
    robot.set_up()
    made = []
    while moves is None or len(made) < moves:
        state = view.refresh()
        if state["phase"] == "over":
            break
        made.append(robot.play_move())
    return made, reply["game"], view.refresh()


def lit_roles(view):
    """{cell: role name} of what the board's latest `leds` event says is lit."""
    return {c: role for c, (role, _count) in (view.lit or {}).items()}


def strip_shows(board, since_ns):
    """{cell: set of role names} the strip showed (decoded from the data pin) since `since_ns`."""
    out = {}
    for t, roles in board.frames:
        if t < since_ns or roles is None:
            continue
        for c, leds in enumerate(board.board.cell_leds):
            r = roles[leds[0]]
            if r != OFF:
                out.setdefault(c, set()).add(ROLE_NAMES[r])
    return out


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
