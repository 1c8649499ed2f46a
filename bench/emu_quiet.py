"""Put on the emulated board beside bench/emu_probe.py and bench/emu_profile.py (their boot.py):
when their lines may go out on the serial port.

The host takes a text line that comes while one of its requests waits for a reply for that
reply, damaged, and sends the request again: work and heap the board would not otherwise spend,
in the very scans the bench measures.  So the probes speak only once the host has been quiet
for a while (after the game, when the bench has let go of the port).
"""
from time import ticks_diff

QUIET_MS = 1000


def quiet(app, now):
    """Whether the host has said nothing for QUIET_MS (or there is no link)."""
    link = app.link
    return link is None or link.heard is None or ticks_diff(now, link.heard) >= QUIET_MS
