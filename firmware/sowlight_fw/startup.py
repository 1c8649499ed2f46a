"""What main() does before the app's loop: app.start() runs start() here, once, then unloads it.

The REPL flag that `reboot {"to": "repl"}` leaves, the config (read, checked,
its refusal shown: badconfig.py), the App on the board's hardware, confirm held
at power-up (the app is not started: the REPL), and the link on the USB port.
"""
from . import config
from .app import App, REPL_FLAG


def repl_requested():
    """The flag `reboot {"to": "repl"}` leaves (used once), so the board stays at its REPL."""
    import os
    try:
        os.remove(REPL_FLAG)
        return True
    except OSError:
        return False


def start(config_path=config.DEFAULT_PATH, machine=None, cycles=None, transport=None):
    """What main() does before the loop: the config read and checked, the App made on its hardware,
    its link on `transport` (None: the USB port, when it can be polled).  None when the app is not
    to run: the REPL was asked for, confirm is held, or the config is refused (shown with the error
    pattern, `cycles` blinks; None: forever)."""
    if machine is None:
        import machine
    if repl_requested():
        print("sowlight: stopped at the REPL as asked; reset to start the app")
        return None
    try:
        board = config.load(config_path)
    except config.ConfigError as e:
        from . import badconfig
        badconfig.show(str(e), config_path, machine, cycles)
        return None
    # The decoded JSON was for the check: the app reads the Board's attributes, and calibration
    # reads the file again to save into it.
    board.raw = None
    app = App(board, machine, config_path=config_path)
    if app.buttons.held("confirm"):
        print("sowlight: confirm held at power-up: the app is not started (REPL)")
        return None
    from .link import BoardLink, UsbTransport
    if transport is None:
        try:
            transport = UsbTransport()      # Ctrl-C is data from here on, until close()
        except (ImportError, OSError, AttributeError, TypeError, ValueError):
            transport = None                # a port without a pollable stdin: play without a laptop
    app.link = BoardLink(transport) if transport is not None else None
    return app
