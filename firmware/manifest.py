# Freezing Sowlight into a MicroPython firmware image, for a board that should
# boot with everything in flash (optional: `mpremote cp` deploys need none of it):
#
#   make -C ports/rp2 BOARD=RPI_PICO FROZEN_MANIFEST=/path/to/sowlight/firmware/manifest.py
#
# Paths are relative to this file.  main.py and board.json still go on the
# filesystem (docs/firmware.md).
include("$(PORT_DIR)/boards/manifest.py")
require("neopixel")                         # micropython-lib: the LED strip driver
# Every module but virtual.py (the virtual board's simulated hardware, never on a board).
package("sowlight_fw", files=[
    "__init__.py",
    "adafruitleds.py",
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
    "memstorage.py",
    "mux.py",
    "observe.py",
    "sensors.py",
    "service.py",
    "startup.py",
    "storage.py",
    "unload.py",
], base_path=".")
package("mancala", base_path="../rules")
