"""The list of command families the CLI registers.

Each entry is a function register(subparsers, board_subparsers) that adds its
sub-commands and sets `func` on them; `func(args)` returns the exit code.
"""
from . import games_cmd, hardware_cli, play, variants_cmd
from . import link_cli

REGISTRARS = [
    play.register,
    variants_cmd.register,
    hardware_cli.register,      # sowlight board config / presets
    games_cmd.register,         # sowlight games / replay / hint
    link_cli.register,          # sowlight sync, board info, board ports
]
