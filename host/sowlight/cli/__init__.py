"""The `sowlight` command: argument parsing and dispatch only.

Each command family lives in its own module of this package (or of `web`,
`broadcast`, `play`) and registers its sub-commands here (commands.py lists
them), so that this module stays a table of contents.
"""
import argparse
import sys

from sowlight.terminal import harmless


class _Parser(argparse.ArgumentParser):
    """argparse quotes what was typed in its errors, some of it raw: shown harmless here
    (sub-command parsers are of this class too)."""

    def error(self, message):
        argparse.ArgumentParser.error(self, harmless.text(message))


def build_parser():
    parser = _Parser(prog="sowlight", description="Sowlight: an instrumented mancala board and its companion.")
    parser.add_argument("--version", action="version", version="sowlight %s" % _version())
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    board = sub.add_parser("board", help="the board: configs, drawings, a virtual board")
    board_sub = board.add_subparsers(dest="board_command", metavar="BOARD_COMMAND")
    board.set_defaults(func=lambda args: (board.print_help(), 2)[1])
    _register_optional(sub, board_sub)
    _describe(parser)
    return parser


def _describe(parser):
    """Every sub-command's own --help says what it does: its one-line help where it has no longer text."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            helps = {a.dest: a.help for a in action._choices_actions}
            for name, sp in action.choices.items():
                if not sp.description and helps.get(name):
                    sp.description = helps[name][0].upper() + helps[name][1:] + "."
                _describe(sp)


def _version():
    """The installed package's version (pyproject.toml's), with the rules core's."""
    from importlib import metadata
    import mancala
    try:
        own = metadata.version("sowlight")
    except metadata.PackageNotFoundError:      # run from a checkout that is not installed
        own = "(not installed)"
    return "%s (rules core %s)" % (own, mancala.__version__)


def _register_optional(sub, board_sub):
    # Command families register themselves; a family that is not there yet is simply absent.
    from sowlight.cli import commands
    for register in commands.REGISTRARS:
        register(sub, board_sub)


def main(argv=None):
    parser = build_parser()
    args = parser.parse_args(argv)
    func = getattr(args, "func", None)
    if func is None:
        parser.print_help()
        return 2
    try:
        return func(args) or 0
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        # The reader went away (e.g. `sowlight variants | head`): nothing left to say.
        try:
            sys.stdout = None
        finally:
            return 0

