"""What each LED colour means: the roles the controller lights cells with.

The controller's LED frame holds one role per board cell (a small int: its
colour is RGB's triple of that index); the LED adapters turn it into colour
bytes, scaled by the brightness level and the config's brightness cap.
docs/firmware.md shows the table to players.

A role can be steady, blink (its cell alternates with another role, or with
dark) or count (n short flashes, then a pause: n seeds).  The controller
decides; render() in controller.py applies it for a given time.
"""
try:
    from micropython import const
except ImportError:  # CPython
    def const(x):
        return x

OFF = const(0)
PLAYER = const(1)     # PLAYER + p: the pits player p may lift (player 0 amber, 1 blue, 2 violet, 3 teal)
HINT = const(5)       # the suggested pit
DROP = const(6)       # drop one seed here next
TRAIL = const(7)      # drops the sensors cannot see: sow one seed into each (a count if more)
RELAY = const(8)      # lift the seeds of this pit again and go on sowing
TAKE = const(9)       # take the seeds of this pit (a capture)
DEST = const(10)      # ... and put them here
ERROR = const(11)     # something is wrong here (flashes with NEED or REMOVE)
NEED = const(12)      # put seeds here (set-up, or a pit that should hold seeds)
REMOVE = const(13)    # take seeds out of here
READY = const(14)     # set-up: this pit looks right
MENU = const(15)      # MENU + page: the menu entry shown
FAULT = const(18)     # this cell's sensor is not trusted (noisy, or its reading was overruled)
TOUCH = const(19)     # the sensors saw this cell change a moment ago (the strip's own, not the controller's)
N_ROLES = const(20)

STEADY = const(255)   # "no alternate role": the cell does not blink

# Full-scale colours, (r, g, b) a role, in one bytes object (a tuple of tuples would be 20
# objects in a Pico's heap: 0.6 KB more).  Chosen to be told apart at a glance under a wooden
# pit: players warm/cold, actions white/cyan/magenta/yellow, problems red.  rgb() gives one as
# an (r, g, b) tuple, for the laptop and the tests.
RGB = bytes((
    0, 0, 0,          # OFF
    255, 110, 0,      # player 0: amber
    0, 70, 255,       # player 1: blue
    170, 0, 255,      # player 2: violet
    0, 200, 140,      # player 3: teal
    0, 255, 30,       # HINT: green
    255, 255, 255,    # DROP: white
    70, 70, 70,       # TRAIL: dim white
    0, 230, 255,      # RELAY: cyan
    255, 0, 150,      # TAKE: magenta
    255, 200, 0,      # DEST: yellow
    255, 0, 0,        # ERROR: red
    255, 50, 0,       # NEED: orange
    90, 0, 255,       # REMOVE: blue-violet
    0, 50, 0,         # READY: dim green
    255, 255, 255,    # MENU page 1: white
    0, 230, 255,      # MENU page 2: cyan
    255, 200, 0,      # MENU page 3: yellow
    60, 0, 0,         # FAULT: dim red
    255, 150, 200,    # TOUCH: pale pink
))

# Names for the `leds` link message (docs/protocol.md): cells lit with a role.
ROLE_NAMES = ("off", "lift", "lift", "lift", "lift", "hint", "drop", "trail", "relay", "take", "dest",
              "error", "need", "remove", "ready", "menu", "menu", "menu", "fault", "touch")

def rgb(role):
    """A role's colour, (r, g, b) at full brightness (the web view draws with it; a board reads
    RGB: tuples made for every role at import would take some 700 bytes of its heap)."""
    return tuple(RGB[3 * role:3 * role + 3])
