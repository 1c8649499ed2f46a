# What goes on a board: the one list, read by MicroPython's build when it freezes
# Sowlight into a firmware image (`sowlight firmware build`, docs/firmware.md) and
# by `sowlight deploy --mpy` when it copies .mpy files instead.
#
# Paths are relative to this file.  The board's config (board.json) is the only
# file the filesystem needs: main.py is frozen too (MicroPython looks for a frozen
# main.py before the filesystem's).  The port's manifest brings asyncio and the rest
# of a stock image.
include("$(PORT_DIR)/boards/manifest.py")
require("neopixel")                         # micropython-lib: the LED strip driver
# Every module a MicroPython board imports.  Never on one: virtual.py (the virtual
# board's simulated hardware), memstorage.py (storages in RAM: the virtual board,
# tests) and adafruitleds.py (CircuitPython boards and Blinka).
package("sowlight_fw", files=[
    "__init__.py",
    "app.py",
    "apprare.py",
    "badconfig.py",
    "buttons.py",
    "codec.py",
    "codecmore.py",
    "colours.py",
    "config.py",
    "configcheck.py",
    "controller.py",
    "crc.py",
    "crcpure.py",
    "ctlexplain.py",
    "ctlmismatch.py",
    "ctlplacing.py",
    "ctlrare.py",
    "ctlhint.py",
    "display.py",
    "errorcodes.py",
    "follow.py",
    "followwalk.py",
    "gpio.py",
    "hx711.py",
    "journal.py",
    "journalmend.py",
    "journalread.py",
    "leds.py",
    "link.py",
    "linkrare.py",
    "mux.py",
    "muxrp2.py",
    "observe.py",
    "sensors.py",
    "service.py",
    "startup.py",
    "storage.py",
    "unload.py",
], base_path=".")
package("mancala", base_path="../rules")
module("main.py", base_path=".")                # the board starts the app with no file of its own
