"""The list of command families the CLI registers.

Each entry is a function register(subparsers, board_subparsers) that adds its
sub-commands and sets `func` on them; `func(args)` returns the exit code.
"""
from . import games_cmd, hardware_cli, play, variants_cmd
from . import link_cli
from . import deploy_cli, vmboard_cli
from . import virtual_cli
from . import emuboard_cli
from . import demo
from . import firmware_cli
from . import analyse_cmd
from .web import serve_cmd
from .broadcast import broadcast_cli

REGISTRARS = [
    play.register,
    variants_cmd.register,
    hardware_cli.register,      # sowlight board config / presets
    games_cmd.register,         # sowlight games / replay / hint
    link_cli.register,          # sowlight sync, board info, board ports
    deploy_cli.register,        # sowlight deploy
    vmboard_cli.register,       # sowlight board vm
    virtual_cli.register,       # sowlight board virtual
    emuboard_cli.register,      # sowlight board emu
    demo.register,              # sowlight demo
    firmware_cli.register,      # sowlight firmware build
    analyse_cmd.register,       # sowlight analyse
    serve_cmd.register,         # sowlight serve
    broadcast_cli.register,     # sowlight broadcast
]
