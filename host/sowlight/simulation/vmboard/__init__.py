"""The VM board: real MicroPython behind a pseudo-terminal, answering as a Pico does on USB.

    from sowlight.simulation.vmboard import VmBoard
    board = VmBoard(flash_dir=None)     # or a directory that keeps its files between runs
    path = board.start()                # "/dev/pts/5": pyserial, mpremote, sowlight open it
    ...
    board.stop()

The board is MicroPython's WebAssembly port (npm package
@micropython/micropython-webassembly-pyscript, the version the tests pin), run
by Node.js through bridge.mjs next to this file.  It has a REPL with raw and
raw-paste modes, a filesystem (empty at first, or the flash directory's
files), soft and hard resets that run main.py, `machine` and `neopixel` with
nothing wired to the pins, and a sys.stdin that reads the host's bytes -- so
`mpremote` and `sowlight deploy` put the firmware on it, and the firmware
runs there as on a board.  docs/firmware.md ("The VM board") says what is
not like a board.

Where the npm package is looked for: $SOWLIGHT_MPVM_DIR (a directory npm
installed it into with --prefix, or the package's own directory), else
tests/micropython/node_modules of a source checkout.
"""
import atexit
import hashlib
import json
import os
import select
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from sowlight.simulation.virtual import LocalBoard

PACKAGE = "@micropython/micropython-webassembly-pyscript"
PINNED = "1.27.0"           # the version tests/micropython/package.json pins
ENV = "SOWLIGHT_MPVM_DIR"

HERE = Path(__file__).resolve().parent
BRIDGE = HERE / "bridge.mjs"
DEVICE = HERE / "device"
_CHECKOUT_MODULES = HERE.parents[3] / "tests" / "micropython" / "node_modules"

_START_TIMEOUT = 30.0
_STOP_TIMEOUT = 5.0


class VmBoardError(Exception):
    """The VM board cannot start or stopped; the message says what to do."""


def install_hint(directory="DIR"):
    return ("npm install --prefix %s %s@%s, then set %s=%s"
            % (directory, PACKAGE, PINNED, ENV, directory))


def find_package(environ=None):
    """The directory of the npm package (the one holding micropython.mjs); VmBoardError if missing."""
    environ = os.environ if environ is None else environ
    override = environ.get(ENV)
    if override:
        base = Path(override).expanduser()
        candidates = [base / "node_modules" / PACKAGE, base]
        where = "%s=%s" % (ENV, override)
    else:
        candidates = [_CHECKOUT_MODULES / PACKAGE]
        where = "this Sowlight's source checkout (tests/micropython/node_modules)"
    for candidate in candidates:
        manifest = candidate / "package.json"
        if (candidate / "micropython.mjs").is_file() and manifest.is_file():
            try:
                info = json.loads(manifest.read_text(encoding="utf-8"))
            except (OSError, ValueError):
                continue
            if info.get("name") != PACKAGE:
                continue
            if info.get("version") != PINNED:
                raise VmBoardError(
                    "%s in %s is version %s, but the VM board is built for %s: %s"
                    % (PACKAGE, candidate, info.get("version"), PINNED, install_hint()))
            return candidate
    raise VmBoardError(
        "the VM board needs MicroPython's WebAssembly port (npm package %s %s), which is not in %s: %s"
        % (PACKAGE, PINNED, where, install_hint()))


def find_node():
    node = shutil.which("node")
    if node is None:
        raise VmBoardError("the VM board runs under Node.js, and `node` is not on PATH: install Node.js 18 or newer")
    return node


def board_uid(flash_dir=None):
    """The 8-byte id machine.unique_id() gives: stable for a flash directory, else new each time."""
    if flash_dir is None:
        return os.urandom(8)
    return hashlib.sha256(os.path.realpath(flash_dir).encode("utf-8")).digest()[:8]


class VmBoard(LocalBoard):
    """One VM board behind one pty.  start() returns the pty's path; stop() ends it."""

    def __init__(self, flash_dir=None, uid=None, node=None, package_dir=None):
        self.flash_dir = None if flash_dir is None else os.path.abspath(os.path.expanduser(str(flash_dir)))
        if uid is not None and (not isinstance(uid, bytes) or len(uid) != 8):
            raise ValueError("uid must be 8 bytes, as machine.unique_id() gives on a Pico")
        self.uid = uid if uid is not None else board_uid(self.flash_dir)
        self._node = node
        self._package_dir = package_dir
        self.path = None
        self.micropython = None     # the port's version, once started
        self._process = None
        self._slave = None
        self._control = None
        self._log = None
        self._lines = b""           # what the bridge printed, not yet read

    @property
    def running(self):
        return self._process is not None and self._process.poll() is None

    def start(self, timeout=_START_TIMEOUT):
        if self._process is not None:
            raise VmBoardError("this VM board is already started (on %s)" % self.path)
        if not hasattr(os, "openpty"):
            raise VmBoardError("the VM board needs a pseudo-terminal: it runs on Linux and macOS, not on %s" % sys.platform)
        import pty
        import tty
        node = self._node or find_node()
        package = Path(self._package_dir) if self._package_dir else find_package()
        if self.flash_dir is not None and os.path.exists(self.flash_dir) and not os.path.isdir(self.flash_dir):
            raise VmBoardError("the flash directory %s is a file: give a directory (it is created if missing)" % self.flash_dir)
        master, slave = pty.openpty()
        control_read, control_write = os.pipe()
        try:
            # The slave stays open here for good: without it, reads of the
            # master fail (EIO) whenever no program has the port open.
            tty.setraw(slave)
            os.set_blocking(master, False)
            os.set_blocking(control_read, False)
            config = {"package": str(package / "micropython.mjs"), "pty": master, "control": control_read,
                      "device": str(DEVICE), "flash": self.flash_dir, "uid": self.uid.hex()}
            self._log = tempfile.TemporaryFile()
            self._process = subprocess.Popen(
                [node, str(BRIDGE), json.dumps(config)],
                stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=self._log,
                pass_fds=(master, control_read),
                start_new_session=True)   # a terminal's Ctrl-C is for our caller, who stops us cleanly
        except OSError as e:
            for fd in (master, slave, control_read, control_write):
                os.close(fd)
            self._close_log()
            self._process = None
            raise VmBoardError("cannot start %s: %s" % (node, e)) from None
        os.close(master)
        os.close(control_read)
        self._slave = slave
        self._control = control_write
        self.path = os.ttyname(slave)
        ready = self._read_ready(timeout)
        if ready is None:
            problem = self.log_tail()
            self._kill()
            raise VmBoardError("the VM board did not start:\n" + (problem or "(no output)"))
        self.micropython = ready.get("micropython")
        atexit.register(self._kill)
        return self.path

    def sync(self, timeout=10.0):
        """Write the board's flash to flash_dir now (it is written every few seconds anyway)."""
        if not self.running:
            raise VmBoardError("the VM board is not running")
        os.write(self._control, b"sync\n")
        if self._read_event(timeout) != "synced":
            raise VmBoardError("the VM board did not write its flash within %.0f s" % timeout)

    def _read_event(self, timeout):
        message = self._read_line(timeout)
        return None if message is None else message.get("event")

    def _read_ready(self, timeout):
        message = self._read_line(timeout)
        return message if message is not None and message.get("event") == "ready" else None

    def _read_line(self, timeout):
        """The next JSON line the bridge prints, or None after `timeout` s (or if it ended)."""
        out = self._process.stdout
        deadline = time.monotonic() + timeout
        while b"\n" not in self._lines:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([out], [], [], left)[0]:
                return None
            chunk = os.read(out.fileno(), 4096)
            if not chunk:
                return None
            self._lines += chunk
        line, self._lines = self._lines.split(b"\n", 1)
        try:
            return json.loads(line.decode("utf-8"))
        except ValueError:
            return None

    def wait(self, timeout=None):
        """Wait for the bridge to end (it ends by itself only on a failure); its exit status."""
        return self._process.wait(timeout)

    def stop(self, timeout=_STOP_TIMEOUT):
        """Stop the board, its flash written to flash_dir first; safe to call twice."""
        process = self._process
        if process is None:
            return
        if process.poll() is None:
            try:
                os.write(self._control, b"stop\n")
                process.wait(timeout)
            except (OSError, subprocess.TimeoutExpired):
                pass    # stuck in a loop that never gives the bridge a turn
        self._kill()

    def _kill(self):
        process, self._process = self._process, None
        if process is not None:
            if process.poll() is None:
                process.kill()
                process.wait()
            process.stdout.close()
        self._close_fds("_slave", "_control")
        self._close_log()

    def _close_log(self):
        if self._log is not None:
            self._log.close()
            self._log = None

