"""The list of command families the CLI registers.

Each entry is a function register(subparsers, board_subparsers) that adds its
sub-commands and sets `func` on them; `func(args)` returns the exit code.
"""
from sowlight import play
from sowlight.broadcast import broadcast_cli
from sowlight.cli import analyse, deploy, emu, firmware, games, hardware, link, variants, virtual
from sowlight.play import demo
from sowlight.web import serve_cmd

REGISTRARS = [
    play.register,
    variants.register,
    hardware.register,          # sowlight board config / presets
    games.register,             # sowlight games / replay / hint
    link.register,              # sowlight sync, board info, board ports
    deploy.register,            # sowlight deploy
    virtual.register,           # sowlight board virtual
    emu.register,               # sowlight board emu
    demo.register,              # sowlight demo
    firmware.register,          # sowlight firmware build
    analyse.register,           # sowlight analyse
    serve_cmd.register,         # sowlight serve
    broadcast_cli.register,     # sowlight broadcast
]
