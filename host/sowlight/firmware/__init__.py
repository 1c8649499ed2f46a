"""Putting the firmware on a board: the MicroPython image with Sowlight frozen in (`image`),
copying an image to a board's BOOTSEL drive (`flash`), and deploying the firmware, the rules
and a config over the REPL (`deploy`)."""
