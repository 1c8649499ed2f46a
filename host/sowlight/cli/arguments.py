"""Command-line arguments several commands share, each written once: where the board presets are
(`--boards`), and how a command reaches a board over its link (`--port`/`--url`, `--vid`/`--pid`,
`--wait`, with `usb_id` the type that reads a USB id)."""
import argparse

from sowlight.board import ports


def add_boards(p):
    """--boards DIR: the folder the presets are read from (hardware/presets.py looks there first)."""
    p.add_argument("--boards", metavar="DIR", help="where the presets are (default: hardware/boards of this checkout)")


def add_board_link(p, where=None):
    """--port or --url, then --vid, --pid and --wait: the board a command talks to, found by its USB ids when
    neither names it.  `where`: a mutually exclusive group of `p`'s to put --port and --url in, for a command
    with more ways to name its board (else one of their own)."""
    if where is None:
        where = p.add_mutually_exclusive_group()
    where.add_argument("--port", metavar="PORT", help="the board's serial port (/dev/ttyACM0, COM3, ...; "
                                                      "default: found by its USB ids)")
    where.add_argument("--url", metavar="URL", help="a pyserial URL: socket://HOST:PORT, rfc2217://HOST:PORT")
    p.add_argument("--vid", type=usb_id, metavar="HEX", help="find the board by this USB vendor id")
    p.add_argument("--pid", type=usb_id, metavar="HEX", help="... and this product id")
    p.add_argument("--wait", type=float, default=10.0, metavar="S",
                   help="how long to wait for the board to come back when the cable comes out (default 10)")


def usb_id(text):
    """argparse type of a USB vendor or product id ('2e8a', '0x2E8A')."""
    try:
        return ports.parse_usb_id(text)
    except ports.PortError as e:
        raise argparse.ArgumentTypeError(str(e)) from None
