"""`sowlight play`: a game on the board (board.py here), or in the terminal alone (--no-board).

In the terminal two people share the keyboard, or one plays the computer;
each move is told step by step.  Every input is checked; a bad one is
explained and asked again, never a crash.
"""
import sys

import mancala
from mancala.search import best_move

from sowlight.games import archive
from sowlight.terminal import harmless
from sowlight import paths
from sowlight.terminal import render
from sowlight.terminal.screen import open_screen

HELP = """Type a pit name to move (the names are under the pits), or:
  moves   list the legal moves        hint   ask the computer for a move
  undo    take back a move            board  draw the board again
  help    this text                   quit   stop the game"""


def parse_options(items):
    """['grand_slam=illegal', 'seeds=5'] -> {'grand_slam': 'illegal', 'seeds': 5}."""
    out = {}
    for item in items or ():
        name, eq, value = item.partition("=")
        if not eq or not name:
            raise ValueError("an option is NAME=VALUE, like seeds=5, not %r" % item)
        digits = value.lstrip("-")
        out[name.replace("-", "_")] = int(value) if digits.isascii() and digits.isdigit() and len(digits) < 19 else value
    return out


def variant_name(text):
    """The argparse type of every --variant: a name, never empty (an empty one is not 'the default')."""
    import argparse
    if not text.strip():
        raise argparse.ArgumentTypeError("give a variant's name, e.g. oware (`sowlight variants` lists them)")
    return text


def open_archive(db):
    """The archive `sowlight play` records its game in (the default one, or --db), or None once
    it has said why it cannot be opened and how to play without it."""
    try:
        return archive.Archive(paths.archive_path(db))
    except archive.ArchiveError as e:
        print("sowlight play: %s\n(or play without recording the game: sowlight play --no-archive)" % harmless.text(e),
              file=sys.stderr)
        return None


def computer_move(game, depth):
    """The move the computer makes: the search's (`sowlight hint`), but a handful in a free placing
    stage (Lane, the Egyptian games).  No placement changes the score, so the search would put
    one seed at a time into the first pit; the computer spreads the seeds instead: a handful
    of the even share into the pit that holds the fewest."""
    moves = game.legal_moves()
    if moves and all(isinstance(m, tuple) and len(m) == 3 and m[0] == "place" for m in moves):
        most = {}
        for _, pit, count in moves:
            most[pit] = max(most.get(pit, 0), count)
        pit = min(most, key=lambda p: (game.pits[p], p))
        share = max(1, game.outside() // len(most))
        return ("place", pit, min(share, most[pit]))
    return best_move(game, depth=depth).best


class TerminalGame:
    """The game loop, with its input and output given (so it can be scripted)."""

    def __init__(self, game, computer=(), depth=6, read=input, out=None, log=None, screen=None):
        self.game = game
        self.computer = set(computer)
        self.depth = depth
        self.screen = screen if screen is not None else open_screen(read, out)
        self.log = log  # an archive.Recorder, or None

    def say(self, text=""):
        self.screen.say(harmless.text(text, lines=True))

    def show(self, final=False):
        self.screen.show(render.board(self.game), final=final)

    def run(self):
        with self.screen:
            return self._run()

    def _run(self):
        g = self.game
        self.say("%s - %s" % (g.title, "type help for commands"))
        self.show()
        while not g.is_over():
            if g.to_move in self.computer:
                self.computer_move()
                continue
            try:
                text = self.screen.read("player %d> " % g.to_move)
            except EOFError:
                self.say("")
                self.say("input ended: game stopped (%d moves played)" % g.ply)
                return 1
            except KeyboardInterrupt:
                self.say("")
                self.say("interrupted: game stopped (%d moves played)" % g.ply)
                return 130
            if not self.command(text.strip()):
                return 1
        self.show(final=True)
        self.say(render.outcome(g))
        return 0

    def command(self, text):
        """Handle one line of input; False means stop."""
        g = self.game
        word = text.lower()
        if not text:
            return True
        if word in ("quit", "exit", "q"):
            self.say("game stopped (%d moves played)" % g.ply)
            return False
        if word == "help":
            self.say(HELP)
        elif word == "board":
            self.show()
        elif word == "moves":
            self.say("legal moves: " + " ".join(g.move_name(m) for m in g.legal_moves()))
        elif word == "hint":
            r = best_move(g, depth=self.depth)
            self.say("hint: %s (looked %d moves ahead)" % (g.move_name(r.best), r.depth))
        elif word == "undo":
            self.undo()
        else:
            self.human_move(text)
        return True

    def undo(self):
        g = self.game
        if not g.ply:
            self.say("nothing to take back")
            return
        g.undo()
        # Against the computer, take back to the human's last move.
        while g.ply and g.to_move in self.computer:
            g.undo()
        if self.log:
            self.log.undone()
        self.say("taken back")
        self.show()

    def human_move(self, text):
        g = self.game
        player = g.to_move
        try:
            move = g.parse_move(text)
            name = g.move_name(move)
            trace = g.play(move)
        except mancala.IllegalMoveError as e:
            self.say("not played: %s. Legal moves: %s" % (e, " ".join(g.move_name(m) for m in g.legal_moves())))
            return
        self.report(player, name, trace, who="player %d" % player)

    def computer_move(self):
        g = self.game
        player = g.to_move
        move = computer_move(g, self.depth)
        name = g.move_name(move)
        trace = g.play(move)
        self.report(player, name, trace, who="computer (player %d)" % player)

    def report(self, player, name, trace, who):
        g = self.game
        if self.log:
            self.log.moved(player, trace)
        self.say("")
        self.say("%s plays %s" % (who, name))
        for line in render.describe(g, trace):
            self.say("  " + line)
        self.show()


def computer_players(args, players=2):
    """The players the computer plays: --computer, else --vs and --play-as."""
    if args.computer:
        return sorted(set(args.computer))
    if args.vs == "computer":
        return [p for p in range(players) if p != args.play_as]
    if args.vs == "self":
        return list(range(players))
    return []


class ResumeError(ValueError):
    """An archived game that cannot be played on; the message says why and what to do."""


def archived_game(args):
    """`--game N`: (the archived game's record, the game at its last move).  The record's variant
    and options are the game's; --variant and -o may only repeat them."""
    try:
        arc = archive.Archive(paths.archive_path(args.db))
    except archive.ArchiveError as e:
        raise ResumeError(str(e))
    try:
        d = arc.game(args.game)
    except archive.ArchiveError as e:
        raise ResumeError("%s (`sowlight games list` shows the games)" % e)
    finally:
        arc.close()
    if d["result"] != "*":
        raise ResumeError("game %d is over (%s): there is nothing to play on (`sowlight replay %d` shows it)"
                          % (d["number"], d["result"], d["number"]))
    from sowlight.games import record as gamerecord
    game = gamerecord.position_game(d["start"])
    for e in d["moves"]:
        if e.get("kind", "move") != "move":
            raise ResumeError("game %d holds a %s, which cannot be played on from here" % (d["number"], e["kind"]))
        game.play(gamerecord.move_from_json(e["move"]))
    if args.variant and mancala.Game(args.variant).id != game.id:
        raise ResumeError("game %d is %s, not %s: leave out --variant" % (d["number"], game.title, args.variant))
    if args.option:
        raise ResumeError("game %d keeps its own options (%s): leave out -o"
                          % (d["number"], ", ".join("%s=%s" % kv for kv in sorted(d["options"].items())) or "none"))
    return d, game


def run(args):
    if args.depth < 1:
        print("sowlight play: --depth must be 1 or more", file=sys.stderr)
        return 2
    if getattr(args, "broker", None):               # --remote: one seat of a remote game
        from sowlight.broadcast import remote_cli
        return remote_cli.run(args)
    resumed = None
    if args.game is not None:
        if args.no_archive:
            print("sowlight play: --game plays on a game of the archive, and --no-archive leaves it out", file=sys.stderr)
            return 2
        try:
            resumed = archived_game(args)
        except (ResumeError, mancala.RulesError) as e:
            print("sowlight play: %s" % e, file=sys.stderr)
            return 1
        args.variant = resumed[1].id
        args.option = ["%s=%s" % kv for kv in sorted(resumed[0]["options"].items())]
    if not args.no_board:
        try:
            options = parse_options(args.option)
            if args.variant:
                mancala.Game(args.variant, **options)     # a bad name or option said before any board
        except (ValueError, mancala.RulesError) as e:
            print("sowlight play: %s" % harmless.text(e), file=sys.stderr)
            return 2
        players = mancala.Game(args.variant, **options).players if args.variant else 2
        if args.names and len(args.names) > players:
            print("sowlight play: --names gives %d names, and the game has %d players" % (len(args.names), players),
                  file=sys.stderr)
            return 2
        if args.computer and any(p not in (0, 1) for p in args.computer):
            print("sowlight play: --computer names a player, 0 or 1", file=sys.stderr)
            return 2
        from sowlight.play import board as boardplay
        return boardplay.run(args, options, computer_players(args), resume=resumed and resumed[1])
    return run_terminal(args, resumed)


def run_terminal(args, resumed=None):
    try:
        options = parse_options(args.option)
        game = mancala.Game(args.variant or "oware", **options) if resumed is None else resumed[1]
    except (ValueError, mancala.RulesError) as e:
        print("sowlight play: %s" % harmless.text(e), file=sys.stderr)
        return 2
    computer = computer_players(args, game.players)
    if args.names and len(args.names) > game.players:
        print("sowlight play: --names gives %d names, and the game has %d players" % (len(args.names), game.players),
              file=sys.stderr)
        return 2
    if not 0 <= args.play_as < game.players:
        print("sowlight play: --play-as must be a player from 0 to %d" % (game.players - 1), file=sys.stderr)
        return 2
    log = None
    if not args.no_archive:
        arc = open_archive(args.db)
        if arc is None:
            return 1
        players = [args.names[p] if p < len(args.names or ()) and args.names[p] else
                   "computer (depth %d)" % args.depth if p in computer else "human" for p in range(game.players)]
        log = archive.Recorder(arc, game, players, warn=lambda text: print("sowlight play: " + harmless.text(text), file=sys.stderr))
        if resumed is not None:
            # The moves from here on go into the archived game itself.
            d = resumed[0]
            log.number, log.start, log.started = d["number"], d["start"], d["started"]
            if args.names:
                arc.set_players(d["number"], players)
            print("playing on game %d (%s, %d moves played)" % (d["number"], harmless.text("; ".join(d["players"])),
                                                                 game.ply),
                  file=sys.stderr)
    try:
        status = TerminalGame(game, computer=computer, depth=args.depth, log=log).run()
    finally:
        if log:
            log.archive.close()
    if log and log.number is not None and not log.failed:
        print("saved as game %d in %s (sowlight games show %d)" % (log.number, log.archive.path, log.number), file=sys.stderr)
    return status


def register(sub, board_sub):
    p = sub.add_parser("play", help="play a game on the board (a virtual one when none is attached), or in the terminal",
                       description="Play on the board: the terminal shows it live (seeds, what each LED asks for, "
                                   "whose turn, the hint); type a pit name to move (on a virtual board robot hands "
                                   "carry it out), or move the seeds yourself. With no board attached a virtual "
                                   "board is started. --no-board plays in the terminal alone.")
    p.add_argument("--variant", "-v", type=variant_name, help="variant id or name (see `sowlight variants`); default oware, or on a "
                                           "board the game in progress")
    p.add_argument("--vs", choices=("human", "computer", "self"), default="computer",
                   help="the opponent: another person, the computer (default), or the computer against itself")
    p.add_argument("--play-as", type=int, default=0, help="which player you are against the computer (0 moves first)")
    p.add_argument("--computer", type=int, action="append", metavar="P",
                   help="the computer plays player P (repeat for both); instead of --vs/--play-as")
    p.add_argument("--depth", type=int, default=6, help="how many moves ahead the computer looks (default 6)")
    p.add_argument("--option", "-o", action="append", metavar="NAME=VALUE", help="a variant option, e.g. -o grand_slam=illegal")
    p.add_argument("--names", type=_names, metavar='"A; B"',
                   help="the players' names, player 0 first, separated by ';' (kept in the archive)")
    p.add_argument("--game", metavar="N", help="play on an unfinished game of the archive (its number or id); "
                                                "on a board, the board is set to its position first")
    p.add_argument("--db", metavar="PATH", help="the archive the game is saved in (default: $SOWLIGHT_DB, else the user data directory)")
    p.add_argument("--no-archive", action="store_true", help="do not save the game in the archive")
    b = p.add_argument_group("the board")
    b.add_argument("--no-board", action="store_true", help="play in the terminal alone, without a board")
    from sowlight.cli.arguments import add_board_link
    where = b.add_mutually_exclusive_group()
    add_board_link(b, where)
    where.add_argument("--virtual", action="store_true", help="play on a virtual board even when a board is attached")
    b.add_argument("--preset", metavar="P", help="the virtual board's preset (default: the smallest that plays the game)")
    b.add_argument("--seed", type=int, metavar="S", help="seed of the virtual board's robot hands' choices")
    from sowlight.broadcast import remote_cli
    remote_cli.add_arguments(p)                     # --remote, --seat, --robot and the broker's login
    p.set_defaults(func=run)


def _names(text):
    import argparse
    names = [n.strip() for n in text.split(";")]
    if not any(names) or len(names) > 4:
        raise argparse.ArgumentTypeError('the names of the players, player 0 first, separated by ";", like '
                                         '"Ama; Kofi", not %r' % text)
    for n in names:
        if any(ord(c) < 32 or ord(c) == 127 for c in n) or len(n) > 60:
            raise argparse.ArgumentTypeError("a player's name is a line of text of up to 60 characters, not %r" % n)
    return names
