# What goes on a board: the one list, read by MicroPython's build when it freezes
# Sowlight into a firmware image (`sowlight firmware build`, docs/firmware.md) and
# by `sowlight deploy --mpy` when it copies .mpy files instead.
#
# Paths are relative to this file.  The board's config (board.json) is the only
# file the filesystem needs: main.py is frozen too (MicroPython looks for a frozen
# main.py before the filesystem's).  Of the port's own manifest, what a board uses: its
# rp2 module (for the REPL: nothing of Sowlight imports it) and asyncio (self-test and
# calibration); the boot script is Sowlight's (_boot.py says why).
freeze("$(PORT_DIR)/modules", "rp2.py")
freeze(".", "_boot.py")
include("$(MPY_DIR)/extmod/asyncio")
require("neopixel")                         # micropython-lib: the LED strip driver
# Every module a MicroPython board imports: all of sowlight_fw but virtual.py (the virtual
# board's simulated hardware, for CPython).
package("sowlight_fw", files=[
    "__init__.py",
    "app.py",
    "badconfig.py",
    "cellmap.py",
    "colours.py",
    "config.py",
    "configschema.py",
    "controller/__init__.py",
    "controller/commands.py",
    "controller/games.py",
    "controller/hint.py",
    "controller/jobs.py",
    "controller/lights.py",
    "controller/menu.py",
    "controller/mismatch.py",
    "controller/placement.py",
    "controller/presses.py",
    "controller/settings.py",
    "controller/states.py",
    "crc.py",
    "follow/__init__.py",
    "follow/follower.py",
    "follow/moves.py",
    "follow/observe.py",
    "follow/walk.py",
    "hw/__init__.py",
    "hw/buttons.py",
    "hw/calibration.py",
    "hw/gpio.py",
    "hw/guarded.py",
    "hw/hx711.py",
    "hw/hx711rp2.py",
    "hw/leds.py",
    "hw/mux.py",
    "hw/muxrp2.py",
    "hw/sensors.py",
    "hw/watch.py",
    "journal/__init__.py",
    "journal/games.py",
    "journal/mend.py",
    "journal/records.py",
    "journal/requests.py",
    "link/__init__.py",
    "link/codec.py",
    "link/session.py",
    "link/usb.py",
    "service.py",
    "storage.py",
    "ticks.py",
], base_path=".")
package("mancala", base_path="../rules")
module("main.py", base_path=".")                # the board starts the app with no file of its own
