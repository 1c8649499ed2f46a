"""Where `sowlight play` draws and asks: a live screen in a terminal, plain lines anywhere else.

    screen = open_screen()           # live when stdin and stdout are a terminal
    with screen:
        screen.show(render.board(game))    # the picture: redrawn in place (live), or printed (plain)
        screen.say("player 0 plays C")     # a message: scrolls above the picture
        line = screen.read("player 0> ")  # a line typed, with editing and history (live)

The live screen uses prompt_toolkit: the board is part of the prompt, so it
stays at the bottom of the terminal, right above the line being typed, and
is redrawn there whenever it changes -- from any thread, while a line is
being typed (the board's events come in a thread of their own) -- while the
messages scroll above it.  prompt_toolkit gives line editing, history (kept
in the user data directory) and Ctrl-C/Ctrl-D as KeyboardInterrupt/EOFError,
as input() does, and it runs the same on Linux, macOS and Windows consoles;
curses would take the whole screen (no scrollback of the moves told) and has
no Windows build, readline no way to redraw above the line being typed.

When stdin or stdout is not a terminal (a pipe, a script, the tests) the
plain screen prints every picture and reads with input(), line by line.
"""
import os
import sys
import threading

from sowlight import paths

HISTORY_FILE = "play-history"


class PlainScreen:
    """Lines printed one after the other: every picture in full, input() for reading."""

    live = False

    def __init__(self, read=input, out=None):
        self._read = read
        self.out = out if out is not None else sys.stdout
        self._last = None          # the picture printed last, and nothing said since
        self._closed = False
        self._pending = b""        # bytes of stdin read, not yet a whole line

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self._closed = True        # a read waiting in another thread ends (EOFError)
        return False

    def say(self, text=""):
        self._last = None
        self.out.write(text + "\n")
        self.out.flush()

    def show(self, lines, final=False):
        """Print the picture; `final` (the game is over) prints it unless it was the last thing printed."""
        lines = list(lines)
        if final and lines == self._last:
            return
        for line in lines:
            self.say(line)
        self._last = lines

    def read(self, prompt=""):
        """A line typed (input() writes the prompt)."""
        if self._read is input and os.name == "posix" and not _is_terminal(sys.stdin) and _fd(sys.stdin) is not None:
            return self._read_pipe(prompt)
        return self._read(prompt)

    def _read_pipe(self, prompt):
        """input() from a pipe or a file, in a way another thread can end: the board's input
        thread must not be left holding stdin when the program exits (Python then aborts)."""
        import select
        if prompt:
            self.out.write(prompt)
            self.out.flush()
        fd = sys.stdin.fileno()
        while b"\n" not in self._pending:
            if self._closed:
                raise EOFError
            if not select.select([fd], [], [], 0.1)[0]:
                continue
            data = os.read(fd, 4096)
            if not data:
                if self._pending:
                    break
                raise EOFError
            self._pending += data
        line, _, self._pending = self._pending.partition(b"\n")
        return line.decode(sys.stdin.encoding or "utf-8", errors="replace").rstrip("\r")

    def prompt(self, text):
        """A prompt for a read that is waiting already (the board's input thread): written out."""
        self.out.write(text)
        self.out.flush()


class LiveScreen:
    """The picture redrawn in place above the prompt (see the module's docstring)."""

    live = True

    def __init__(self, history=None):
        from prompt_toolkit import PromptSession
        from prompt_toolkit.history import FileHistory, InMemoryHistory
        if history is None:
            history = os.path.join(paths.data_dir(), HISTORY_FILE)
        try:
            os.makedirs(os.path.dirname(history), exist_ok=True)
            with open(history, "a"):
                pass
            hist = FileHistory(history)
        except OSError:
            hist = InMemoryHistory()           # the history is a comfort: never a reason to stop
        # The picture and the prompt are erased when a line is taken, and the line is said instead:
        # the scrollback keeps what was typed and told, the board stays only at the bottom.
        self.session = PromptSession(history=hist, erase_when_done=True)
        self.picture = []
        self.prompt_text = "> "
        self.lock = threading.Lock()
        self._patch = None
        self._closed = False       # the game is over: no more lines are asked for
        self._reading = False      # a line is being asked for (in some thread)

    def __enter__(self):
        from prompt_toolkit.patch_stdout import patch_stdout
        # Whatever is printed while a line is being typed (messages, other threads) goes above it.
        self._patch = patch_stdout(raw=False)
        self._patch.__enter__()
        return self

    def __exit__(self, *exc):
        self._stop_reading()
        if self._patch is not None:
            self._patch.__exit__(*exc)
            self._patch = None
        return False

    def _stop_reading(self, timeout=2.0):
        """A line still being asked for in another thread (the board's input) ends as at Ctrl-D:
        the terminal is given back as it was."""
        import time
        self._closed = True
        app = self.session.app
        end = time.monotonic() + timeout
        while self._reading and time.monotonic() < end:
            loop = getattr(app, "loop", None)
            if app.is_running and loop is not None:
                def stop():
                    if app.is_running and not app.future.done():
                        app.exit(exception=EOFError())
                try:
                    loop.call_soon_threadsafe(stop)
                except RuntimeError:
                    pass
            time.sleep(0.02)

    def _message(self):
        from prompt_toolkit.formatted_text import ANSI
        with self.lock:
            text = "\n".join(self.picture + [self.prompt_text])
        return ANSI(text.replace("\x1b", "?"))

    def _redraw(self):
        app = self.session.app
        if app.is_running:
            app.invalidate()

    def say(self, text=""):
        sys.stdout.write(text + "\n")
        sys.stdout.flush()

    def show(self, lines, final=False):
        """The new picture, redrawn in place; `final` prints it too (the game is over: no prompt
        will show it again)."""
        with self.lock:
            self.picture = list(lines)
        if final:
            for line in lines:
                self.say(line)
        self._redraw()

    def read(self, prompt=""):
        if prompt:
            self.prompt(prompt)
        with self.lock:
            if self._closed:
                raise EOFError
            self._reading = True
        try:
            line = self.session.prompt(self._message)
        finally:
            self._reading = False
        with self.lock:
            asked = self.prompt_text
        self.say(asked + line)
        return line

    def prompt(self, text):
        with self.lock:
            self.prompt_text = text
        self._redraw()


def open_screen(read=input, out=None, stdin=None, stdout=None):
    """The live screen when stdin and stdout are a terminal (and prompt_toolkit is there), else the
    plain one.  A `read` or `out` given (a script, a test) means plain."""
    stdin = sys.stdin if stdin is None else stdin
    stdout = sys.stdout if stdout is None else stdout
    if read is input and out is None and _is_terminal(stdin) and _is_terminal(stdout) \
            and os.environ.get("TERM") != "dumb":
        try:
            return LiveScreen()
        except Exception:       # no prompt_toolkit, or a console it cannot drive: plain lines still work
            pass
    return PlainScreen(read, out)


def _fd(f):
    try:
        return f.fileno()
    except (AttributeError, ValueError, OSError):     # io.UnsupportedOperation is both
        return None


def _is_terminal(f):
    try:
        return f.isatty()
    except (AttributeError, ValueError):
        return False
