"""Starts Sowlight when the board powers up (this file is the board's /main.py).

Deploy with mpremote (docs/firmware.md): the sowlight_fw package, the rules
core (lib/mancala), micropython-lib's neopixel and a board config as /board.json.
A bad config is shown with the error pattern and explained on the serial port;
the app failing leaves the board at its REPL; neither restarts in a loop.
"""
from sowlight_fw import app

app.main()
