"""Building a board: board configs checked against the electronics, with line numbers, pins
and power (`config`), and the wiring diagram and drilling templates made from them
(`drawings`), and the presets found by name (`presets`)."""
