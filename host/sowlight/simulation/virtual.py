"""A virtual board: the real firmware app on CPython, behind a pseudo-terminal, with seeds in software.

    vb = VirtualBoard(preset="2x6-stores", variant="oware", journal=None)
    path = vb.start()          # "/dev/pts/7": pyserial, `sowlight sync --port`, Link open it like a board
    ...
    vb.stop()

The app (sowlight_fw.app.App: controller, journal, BoardLink) runs in a
thread of its own, scanning every SCAN_MS of real time as on a board.  What
a board's hands and parts would do comes from sowlight_fw.virtual: the seeds
(moved by `sim` requests), sensors of the config's kind looking at them, an
LED strip that keeps its last frame, buttons pressed by `sim`, and a
`machine` whose reset restarts the app (the journal and the seeds stay, as
on a board that is reset).

`variant` starts a game at power-up and sets it out: the seeds of the
starting position are put in by the same `sim` acts a host would send (add,
remove), then confirm is pressed once the board shows every pit right (load
cells start by themselves).  A journal that holds a game in progress wins:
that game is resumed instead, and its seeds are laid out directly where its
position has them (they were on the board when the power went; the seeds
themselves are not kept in the journal).

`journal` names a file that keeps the journal between runs
(sowlight_fw.storage.FileStorage: saved whole, atomically, after every
record, so a killed process loses nothing written), and the board's unique
id with it, so the archive knows the board again.  Without it the journal
lives in memory and the id is new each run.

`drop` and `corrupt` (0..1) lose or damage that share of the bytes in both
directions (seeded by `seed`), to watch the protocol recover.
"""
import asyncio
import binascii
import errno
import json
import os
import random
import select
import shutil
import tempfile
import threading
import time

from sowlight_fw import app as fw_app
from sowlight_fw import config as fw_config
from sowlight_fw import virtual as fw_virtual
from sowlight_fw.link import BoardLink
from sowlight_fw.storage import FileStorage, MemoryStorage, StorageFileError

IDENTITY = "virtual.id"     # the storage file holding the board's unique id (the journal ignores it)
START_TIMEOUT = 15.0        # seconds for the app to boot and a game to be set out
_STALL_S = 0.25             # a write waits this long for room before the board drops its output


class VirtualBoardError(Exception):
    """The virtual board cannot start as asked: the message says what to change."""


# ----- the wire: a pty master, with optional faults -----------------------------------------------

class Faults:
    """Lose or damage bytes at random: `drop` and `corrupt` are the chances per byte (0..1)."""

    def __init__(self, drop=0.0, corrupt=0.0, seed=None):
        for name, rate in (("drop", drop), ("corrupt", corrupt)):
            if not 0.0 <= rate <= 1.0:
                raise VirtualBoardError("%s must be a fraction from 0 to 1 (0.01 is one byte in a hundred), not %r"
                                        % (name, rate))
        self.drop = drop
        self.corrupt = corrupt
        self.rng = random.Random(seed)
        self.dropped = 0
        self.corrupted = 0

    def __bool__(self):
        return bool(self.drop or self.corrupt)

    def apply(self, data):
        if not self or not data:
            return data
        out = bytearray()
        rng = self.rng
        for b in data:
            if rng.random() < self.drop:
                self.dropped += 1
                continue
            if rng.random() < self.corrupt:
                self.corrupted += 1
                b ^= 1 << rng.randrange(8)      # one bit flipped, as line noise does
            out.append(b)
        return bytes(out)


class PtyTransport:
    """The board's end of the link: the pty's master fd, non-blocking (the link's transport interface).

    read(n) returns what waits (b"" when nothing does, never blocks).  write()
    writes everything while someone reads the other end; when the pty's buffer
    stays full for _STALL_S (nobody has the port open and reading), the rest
    is dropped, as a board's USB port drops output with no host, and later
    writes are dropped at once until there is room again."""

    def __init__(self, fd, faults=None):
        self.fd = fd
        self.faults = faults
        self.stalled = False
        self.lost = 0             # bytes dropped for want of a reader
        self.written = 0
        self.read_bytes = 0

    def read(self, n):
        try:
            data = os.read(self.fd, n)
        except (BlockingIOError, InterruptedError):
            return b""
        except OSError as e:
            if e.errno == errno.EIO:  # no slave side at all (it is kept open, so only while closing)
                return b""
            raise
        self.read_bytes += len(data)
        if self.faults:
            data = self.faults.apply(data)
        return data

    def write(self, data):
        if self.faults:
            data = self.faults.apply(data)
        view = memoryview(data)
        while len(view):
            try:
                n = os.write(self.fd, view)
            except (BlockingIOError, InterruptedError):
                if self.stalled or not select.select([], [self.fd], [], _STALL_S)[1]:
                    self.stalled = True
                    self.lost += len(view)
                    return
                continue
            self.written += n
            view = view[n:]
        self.stalled = False


def _open_pty():
    """(master fd, slave fd, slave path): the slave raw at 115200 baud, the master non-blocking."""
    try:
        import pty
        import termios
        import tty
    except ImportError:
        raise VirtualBoardError("a virtual board needs pseudo-terminals (Linux, macOS, BSD): this system has none")
    master, slave = pty.openpty()
    tty.setraw(slave)
    attrs = termios.tcgetattr(slave)
    attrs[4] = attrs[5] = termios.B115200
    termios.tcsetattr(slave, termios.TCSANOW, attrs)
    os.set_blocking(master, False)
    return master, slave, os.ttyname(slave)


def board_shape(b):
    """A board config's shape for people: "2x6 + 2 stores"."""
    return "%dx%d%s" % (b.rows, b.pits_per_row, " + %d stores" % b.stores if b.stores else "")


# ----- the app on the virtual parts ---------------------------------------------------------------

class _VirtualApp(fw_app.App):
    """The firmware's App; only what has no meaning without real hardware is refused."""

    def request(self, t, p, now):
        if t == "reboot" and p.get("to") == "repl":
            return {"type": "error", "code": "unsupported",
                    "msg": "a virtual board has no REPL: reboot to app restarts it"}
        return fw_app.App.request(self, t, p, now)


class LocalBoard:
    """What the boards this computer runs share (the virtual board here, the MicroPython VM board,
    the emulated RP2040): `with board:` starts and stops it, and log_tail() is what its helper
    process wrote on stderr (none here)."""

    _log = None         # a binary file the helper process writes its stderr to

    def __enter__(self):
        self.start()
        return self

    def __exit__(self, *exc):
        self.stop()
        return False

    def _close_fds(self, *names):
        """Close the file descriptors held in these attributes, each set to None first (so
        closed once, whichever thread stops the board)."""
        for name in names:
            fd = getattr(self, name)
            if fd is not None:
                setattr(self, name, None)
                try:
                    os.close(fd)
                except OSError:
                    pass

    def log_tail(self, limit=4000):
        """The last `limit` characters of what the helper process wrote on stderr (its failures)."""
        if self._log is None:
            return ""
        self._log.seek(0)
        return self._log.read().decode("utf-8", "replace")[-limit:]


class VirtualBoard(LocalBoard):
    """The firmware app on CPython behind a pseudo-terminal (see the module's docstring).

    preset    a preset name of hardware/boards (`sowlight board presets`) or a config file
    variant   a game to start at power-up, set out and ready to play (None: the menu)
    options   the variant's options, e.g. {"seeds": 3}
    journal   a file that keeps the journal (and the board's id) between runs; None: memory
    drop, corrupt, seed   faults on the wire (see Faults)
    boards    where the presets are (default: hardware/boards of this checkout, $SOWLIGHT_BOARDS)
    settings  controller settings (sowlight_fw.controller.settings.DEFAULTS), as a board's would be
    """

    def __init__(self, preset="2x6-stores", variant=None, journal=None, options=None, drop=0.0, corrupt=0.0,
                 seed=None, boards=None, settings=None):
        self.preset = preset
        self.variant = variant
        self.options = dict(options or {})
        self.journal_path = journal
        self.faults = Faults(drop, corrupt, seed)
        self.boards = boards
        self.settings = settings
        self.path = None           # the pty's slave path, once started
        self.board = None          # the checked config (sowlight_fw.config.Board)
        self.board_id = None
        self.world = None          # the seeds (sowlight_fw.virtual.Seeds)
        self.app = None            # the app running now (a new one after each reset)
        self.storage = None
        self.resets = 0            # restarts of the app (reboot requests, reset())
        self.resumed = None        # the game resumed from the journal at start, if any
        self.error = None          # what stopped the app's thread, if it failed
        self._master = self._slave = None
        self._tmp = None
        self._thread = None
        self._loop = None
        self._task = None
        self._stopping = False
        self._ready = threading.Event()
        self._done = threading.Event()
        self._start_error = None
        self._lock = None          # the journal file's lock (a file descriptor)

    # ----- starting and stopping -----------------------------------------------------------

    def start(self, timeout=START_TIMEOUT):
        """Boot the app behind a new pty; return the pty's path once the board is ready to play."""
        if self._thread is not None:
            raise VirtualBoardError("this virtual board is started already (at %s)" % self.path)
        try:
            self._prepare()
        except BaseException:
            self.stop()
            raise
        self._thread = threading.Thread(target=self._run, name="sowlight-virtual-board", daemon=True)
        self._thread.start()
        if not self._ready.wait(timeout) or self._start_error is not None or self.error is not None:
            why = self._start_error or self.error or "it was not ready after %.0f s" % timeout
            self.stop()
            if isinstance(why, VirtualBoardError):
                raise why
            raise VirtualBoardError("the virtual board did not start: %s" % (why,))
        return self.path

    def _prepare(self):
        self.board, raw = self._load_config()
        self.storage = self._open_storage()
        uid = self._identity()
        b = self.board
        self.board_id = "%s-%s" % (b.id_prefix, binascii.hexlify(uid).decode())
        self.world = fw_virtual.Seeds(b.cells)
        self.buttons = fw_virtual.Buttons()
        self.sim = fw_virtual.Sim(self.world, self.buttons)
        self.machine = fw_virtual.Machine(uid)
        self.strip = fw_virtual.Strip(b)
        self.sensors = fw_virtual.Sensors(b, self.world)
        # A calibration saves the config: into a copy of its own, never the preset.
        self._tmp = tempfile.mkdtemp(prefix="sowlight-virtual-")
        self.config_path = os.path.join(self._tmp, "board.json")
        with open(self.config_path, "w") as f:
            json.dump(raw, f)
        self._master, self._slave, self.path = _open_pty()
        self.transport = PtyTransport(self._master, self.faults)

    def stop(self, timeout=5.0):
        """Stop the app and close the pty (the journal file holds every record already)."""
        self._stopping = True
        self._interrupt()
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join(timeout)
        self._close_fds("_master", "_slave")
        self._unlock()
        if self._tmp is not None:
            shutil.rmtree(self._tmp, ignore_errors=True)
            self._tmp = None

    def reset(self):
        """Press the reset button: the app restarts (a new hello); the journal and the seeds stay."""
        if not self._ready.is_set() or not self.running:
            raise VirtualBoardError("the virtual board is not running")
        self._interrupt()

    def _interrupt(self):
        """Cancel the app's loop, from any thread (its runner then restarts it, or ends when stopping)."""
        loop = self._loop
        if loop is None:
            return       # not started yet: the runner sees _stopping before it starts anything

        def cancel():
            if self._task is not None:
                self._task.cancel()
        try:
            loop.call_soon_threadsafe(cancel)
        except RuntimeError:  # the loop has ended already
            pass

    @property
    def running(self):
        return self._thread is not None and not self._done.is_set()

    def wait(self, timeout=None):
        """Block until the app's thread ends (stop(), or a failure in `error`); True if it did."""
        return self._done.wait(timeout)

    def describe(self):
        """One line saying what this board is, for people."""
        b = self.board
        shape = board_shape(b)
        c = self.app.controller if self.app is not None else None
        if c is not None and c.game is not None:
            what = "game %d (%s) %s" % (c.game_no, c.variant, "resumed from the journal" if self.resumed else
                                        "set out, ready to play" if c.state == "await_lift" else c.state)
        else:
            what = "no game yet (start one from the menu or the link)"
        where = ("journal in %s" % self.journal_path) if self.journal_path else "journal in memory (lost when it stops)"
        return ("virtual Sowlight board %s (%s, %s sensors) on %s: %s; %s; seeds move by `sim` requests; "
                "Ctrl-C stops it" % (self.board_id, shape, b.sensor_kind, self.path, what, where))

    # ----- set-up --------------------------------------------------------------------------------

    def _load_config(self):
        from sowlight.hardware import presets
        try:
            path = presets.resolve(self.preset, self.boards)
        except presets.PresetError as e:
            raise VirtualBoardError(str(e))
        try:
            with open(path) as f:
                raw = json.load(f)
        except (OSError, ValueError) as e:
            raise VirtualBoardError("cannot read the board config %s: %s" % (path, e))
        try:
            return fw_config.check(raw), raw
        except fw_config.ConfigError as e:
            raise VirtualBoardError("%s is refused by the firmware: %s (`sowlight board config check %s` shows "
                                    "every problem)" % (path, e, path))

    def _open_storage(self):
        if not self.journal_path:
            return MemoryStorage()
        self._lock_journal()
        try:
            st = FileStorage(self.journal_path)
        except StorageFileError as e:
            raise VirtualBoardError(str(e))
        except OSError as e:
            raise VirtualBoardError("cannot read the journal file %s: %s" % (self.journal_path, e.strerror or e))
        try:
            st.save()       # it can be written: better said now than at the first move
        except OSError as e:
            raise VirtualBoardError("cannot write the journal file %s: %s" % (self.journal_path, e.strerror or e))
        return st

    def _lock_journal(self):
        """One virtual board per journal file: two would each save their own records over the other's."""
        import fcntl
        path = self.journal_path + ".lock"
        try:
            fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
        except OSError as e:
            raise VirtualBoardError("cannot write the journal file %s: %s" % (self.journal_path, e.strerror or e))
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            holder = os.read(fd, 32).decode(errors="replace").strip() or "?"
            os.close(fd)
            raise VirtualBoardError("the journal file %s is in use by another virtual board (process %s): stop it "
                                    "first, or give another --journal" % (self.journal_path, holder))
        os.ftruncate(fd, 0)
        os.write(fd, b"%d\n" % os.getpid())
        self._lock = fd

    def _unlock(self):
        fd = self._lock
        if fd is not None:
            self._lock = None
            try:
                os.unlink(self.journal_path + ".lock")
            except OSError:
                pass
            os.close(fd)

    def _identity(self):
        """The board's unique id: kept with the journal, so the archive knows the board again."""
        st = self.storage
        if IDENTITY in st.names():
            try:
                uid = binascii.unhexlify(bytes(st.read(IDENTITY)).strip())
                if len(uid) == 8:
                    return uid
            except (ValueError, binascii.Error):
                pass
        uid = os.urandom(8)
        try:
            st.replace(IDENTITY, binascii.hexlify(uid) + b"\n")
        except OSError as e:
            raise VirtualBoardError("cannot write the journal file %s: %s" % (self.journal_path, e.strerror or e))
        return uid

    def _new_app(self):
        link = BoardLink(self.transport)
        a = _VirtualApp(self.board, self.machine, storage=self.storage, link=link, strip=self.strip,
                        sensors=self.sensors, buttons=self.buttons, settings=self.settings,
                        config_path=self.config_path, virtual=True)
        a.handlers["sim"] = self.sim.handle
        return a

    # ----- the app's thread ----------------------------------------------------------------------

    def _run(self):
        try:
            asyncio.run(self._serve())
        except asyncio.CancelledError:
            pass
        except BaseException as e:  # a bug in the app: kept for whoever watches (the CLI says it)
            self.error = e
            self._ready.set()
        finally:
            self._done.set()

    async def _serve(self):
        self._loop = asyncio.get_running_loop()
        first = True
        while not self._stopping:
            a = self._new_app()
            a.boot()
            self.app = a
            if first:
                first = False
                try:
                    await self._power_up(a)
                except VirtualBoardError as e:
                    self._start_error = e
                    self._ready.set()
                    return
                self._ready.set()
            if self._stopping:
                return
            self._task = asyncio.ensure_future(a.run())
            try:
                await self._task
            except fw_virtual.Reset:
                self.resets += 1          # a `reboot` request: machine.reset()
            except asyncio.CancelledError:
                if self._stopping:
                    return
                self.resets += 1          # reset() from outside
            self._task = None

    async def _power_up(self, a):
        """The board as it is found at power-up: a game resumed or started, its seeds out."""
        c = a.controller
        if c.game is not None:
            self.resumed = c.game_no
            if c.state != "setup":
                self.world.lay_out(fw_virtual.game_counts(c))
                return
        elif self.variant:
            reply = c.command({"type": "new_game", "variant": self.variant, "options": self.options})
            if reply["type"] == "error":
                raise VirtualBoardError("cannot start %s: %s" % (self.variant, reply["msg"]))
        else:
            return
        await self._set_out(a)

    async def _set_out(self, a, timeout=5.0):
        """Put the starting position out by `sim` acts, then confirm it as a player would."""
        c = a.controller
        fw_virtual.set_out(self.sim, c)
        end = time.monotonic() + timeout
        pressed = False
        while c.state == "setup" and not self._stopping:
            if time.monotonic() > end:
                raise VirtualBoardError("the set-up of %s did not complete (the board shows %s)" % (c.variant, c.state))
            if not pressed and fw_virtual.ready_to_confirm(c):
                self.buttons.press("confirm")
                pressed = True
            a.step(fw_app.ticks_ms())
            await asyncio.sleep(fw_app.SCAN_MS / 1000)
