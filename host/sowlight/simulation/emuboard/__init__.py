"""The emulated board: the real firmware image on an emulated RP2040, behind a pseudo-terminal.

    from sowlight.simulation.emuboard import EmuBoard
    board = EmuBoard(preset="2x6-stores", uf2="firmware.uf2", journal="flash.img")
    path = board.start()        # "/dev/pts/7": pyserial, `sowlight sync --port`, mpremote open it
    ...
    board.stop()                # the flash's filesystem saved to the journal file

The microcontroller is rp2040js (npm, the version package.json here pins) run by
Node.js through runner.mjs, which boots the image with the RP2040's B1 boot ROM,
and answers the pins the board config names: the multiplexers' ADC, the HX711s'
clock and data, the buttons, the LED strip's data pin.  This side owns the rest:
the pty, the seeds (sowlight_fw.virtual's model, the one the virtual board uses:
Seeds, the config's kind of Sensors, Sim), and the journal file (the flash's
littlefs filesystem, flashfs.py).

The image is the stock firmware plus Sowlight frozen in; it has no `sim`
request (a real board has real seeds).  So the launcher answers `sim` itself,
in the link's byte stream (LinkTap): a `sim` frame goes on to the board as a
`ping` with the same seq, and the board's `pong` to it comes back as the `sim`
reply, with the board's own seq -- each side's sequence numbers stay as the
protocol wants them.  The ping of an act that moves seeds is held for SETTLE_MS of
the board's time, so its reply comes after what the board made of the act
(robot hands, like a player, look before they act again).  Its hello gets
`virtual`, which robot hands look for.

The emulated time follows emulated cycles at 125 MHz.  `realtime` keeps it from
running ahead of the wall clock (the link's timeouts are wall time); the
emulator itself is some 3 times slower than a Pico while the core computes.
"""
import binascii
import hashlib
import json
import os
import select
import shutil
import subprocess
import tempfile
import threading
import time
from pathlib import Path

from sowlight_fw.link import codec
from sowlight_fw import config as fw_config
from sowlight_fw.controller import settings as fw_settings
from sowlight_fw import virtual as fw_virtual

from sowlight.simulation.virtual import LocalBoard
from sowlight.simulation.vmboard import board_uid     # machine.unique_id(): stable for a journal file, else new
from . import flashfs

HERE = Path(__file__).resolve().parent
RUNNER = HERE / "runner.mjs"
PACKAGE = "rp2040js"
PINNED = "1.4.1"                  # the version package.json pins
NODE_DIR_ENV = "SOWLIGHT_EMU_NODE_DIR"
IMAGE_ENV = "SOWLIGHT_FIRMWARE_IMAGE"
BOOTROM_ENV = "SOWLIGHT_BOOTROM"
BOOTROM_FILE = "rp2040-bootrom-b1.bin"
MAIN_PY = HERE.parents[3] / "firmware" / "main.py"
SLICE_US = 10000                  # emulated time between two looks at the pty (less when the board writes)
AMBIENT = 2000                    # what a TCRT5000 reads with its emitter off (room light)
PRESS_MS = 300                    # a button press, held: the firmware polls its buttons once a scan (debounced
                                  # 30 ms), and a scan of a 4x8 board in its set-up can take longer than 120 ms
PRESS_NS = PRESS_MS * 1000000
SETTLE_MS = 250                   # a `sim` act is answered after this much of the board's time: its
                                  # sensors debounce for 150 ms, then a scan or two show the result
START_TIMEOUT = 60.0
READY_QUIET_NS = 1500000000       # a board silent this long after its USB came up is at its REPL


class EmuBoardError(Exception):
    """The emulated board cannot start as asked; the message says what to do."""


# ----- what it needs -----------------------------------------------------------------------------

def find_node():
    node = shutil.which("node")
    if node is None:
        raise EmuBoardError("the emulated board runs under Node.js, and `node` is not on PATH: install Node.js 18 "
                            "or newer (Debian: apt-get install nodejs npm)")
    return node


def node_dir(environ=None):
    """Where rp2040js is installed: $SOWLIGHT_EMU_NODE_DIR, else a folder of the user's data named
    for the lockfile (a new pin installs beside the old one)."""
    environ = os.environ if environ is None else environ
    if environ.get(NODE_DIR_ENV):
        return Path(environ[NODE_DIR_ENV]).expanduser()
    from sowlight.paths import data_dir
    lock = (HERE / "package-lock.json").read_bytes()
    return Path(data_dir(environ=environ)) / ("emuboard-" + hashlib.sha256(lock).hexdigest()[:12])


def _installed(where):
    """rp2040js's ES module in `where` when the pinned version is installed there, else None."""
    module = where / "node_modules" / PACKAGE / "dist" / "esm" / "index.js"
    try:
        if module.is_file() and json.loads((where / "node_modules" / PACKAGE / "package.json").read_text()).get(
                "version") == PINNED:
            return module
    except (OSError, ValueError):
        pass
    return None


def ensure_rp2040js(environ=None, say=None):
    """The path of rp2040js's ES module, installed with `npm ci` on first use.

    It is installed in a folder of its own and then renamed into place, so that two boards
    started at once (two terminals, two test workers) never run `npm ci` over each other, and a
    cut install never looks finished."""
    where = node_dir(environ)
    module = _installed(where)
    if module is not None:
        return module
    npm = shutil.which("npm")
    if npm is None:
        raise EmuBoardError("the emulated board needs the npm package %s %s, and `npm` is not on PATH: install "
                            "Node.js with npm (Debian: apt-get install nodejs npm), or install it yourself with "
                            "`npm ci --prefix DIR` in %s and set %s=DIR" % (PACKAGE, PINNED, HERE, NODE_DIR_ENV))
    where.parent.mkdir(parents=True, exist_ok=True)
    fresh = Path(tempfile.mkdtemp(prefix=where.name + ".installing-", dir=str(where.parent)))
    try:
        for name in ("package.json", "package-lock.json"):
            shutil.copyfile(HERE / name, fresh / name)
        if say:
            say("installing %s %s into %s (npm ci, once)" % (PACKAGE, PINNED, where))
        done = subprocess.run([npm, "ci", "--no-audit", "--no-fund", "--loglevel=error"], cwd=str(fresh),
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        if done.returncode != 0 or _installed(fresh) is None:
            raise EmuBoardError("`npm ci` of %s %s in %s failed:\n%s" % (PACKAGE, PINNED, where,
                                                                         done.stdout.decode("utf-8", "replace")[-2000:]))
        if where.exists() and _installed(where) is None:
            shutil.rmtree(str(where), ignore_errors=True)     # an older or broken install of the same pin
        try:
            os.rename(str(fresh), str(where))
        except OSError:
            pass        # another install got there first: the check below takes its result
    finally:
        shutil.rmtree(str(fresh), ignore_errors=True)
    module = _installed(where)
    if module is None:
        raise EmuBoardError("rp2040js %s could not be put in %s: remove that folder and try again" % (PINNED, where))
    return module


def find_image(uf2=None, environ=None):
    environ = os.environ if environ is None else environ
    from sowlight.firmware import image as firmware_image
    path = Path(uf2 or environ.get(IMAGE_ENV) or firmware_image.default_image(environ)).expanduser()
    if not path.is_file():
        raise EmuBoardError("no firmware image at %s: `sowlight firmware build` makes one (docs/firmware.md), or "
                            "give --uf2 FILE (or set %s)" % (path, IMAGE_ENV))
    return path


def _whole_uf2(folder):
    """A .uf2 file in `folder` whose every block has landed (its size is the block count the first
    block gives, times 512), or None."""
    for name in sorted(os.listdir(folder)):
        if not name.lower().endswith(".uf2"):
            continue
        path = os.path.join(folder, name)
        try:
            with open(path, "rb") as f:
                head = f.read(32)
            size = os.path.getsize(path)
        except OSError:
            continue
        if len(head) == 32 and head[:8] == b"UF2\nWQ]\x9e" and size == 512 * int.from_bytes(head[24:28], "little"):
            return path
    return None


def find_bootrom(bootrom=None, image=None, environ=None):
    """The RP2040 B1 boot ROM: given, $SOWLIGHT_BOOTROM, or rp2040-bootrom-b1.bin beside the image."""
    environ = os.environ if environ is None else environ
    path = bootrom or environ.get(BOOTROM_ENV)
    if not path and image is not None and (Path(image).parent / BOOTROM_FILE).is_file():
        path = Path(image).parent / BOOTROM_FILE
    if not path:
        raise EmuBoardError("the emulated RP2040 needs its boot ROM (16 KB, not shipped with rp2040js): give "
                            "--bootrom FILE, set %s, or put %s beside the image. It is the B1 ROM of "
                            "raspberrypi/pico-bootrom (b1 release), also carried by rp2040js's demo/bootrom.ts "
                            "(docs/firmware.md)" % (BOOTROM_ENV, BOOTROM_FILE))
    path = Path(path).expanduser()
    if not path.is_file() or path.stat().st_size != 16384:
        raise EmuBoardError("%s is not a 16 KB RP2040 boot ROM" % path)
    return path


# ----- the link, with `sim` answered here --------------------------------------------------------------

class LinkTap:
    """The bytes between the pty and the board's USB port, with `sim` requests answered on the way.

    host_bytes(data) -> what goes on to the board; board_bytes(data) -> what goes on to the host.
    Lines that do not start with "@" (the REPL, a raw paste) go through at once."""

    def __init__(self, on_sim, settle_ns=0):
        self.on_sim = on_sim
        self.settle_ns = settle_ns
        self._held = bytearray()    # host bytes waiting for the board to see an act (see host_bytes)
        self._until = 0
        self._lines = {"host": bytearray(), "board": bytearray()}
        self._framing = {"host": False, "board": False}
        self._start = {"host": True, "board": True}
        self._answers = {}          # seq of a sim sent on as a ping -> its reply
        self._last = None           # (seq, reply) of the last sim carried out
        self._now = 0
        self.sims = 0

    def host_bytes(self, data, now_ns=0):
        """What goes on to the board now.  After a `sim` act that moves seeds, the ping standing
        for it (and whatever the host sends after it) waits `settle_ns` of the board's time: the
        reply then comes after the events the act caused, as a player looks before acting again."""
        self._now = now_ns
        out = self._split("host", data, self._host_line)
        if self._held:
            self._held += out
            return self.release(now_ns)
        return out

    def release(self, now_ns):
        """The held bytes, once the board has had its time to see the act."""
        if not self._held or now_ns < self._until:
            return b""
        out = bytes(self._held)
        self._held.clear()
        return out

    def board_bytes(self, data):
        return self._split("board", data, self._board_line)

    def _split(self, side, data, on_line):
        out = bytearray()
        line = self._lines[side]
        for i in range(len(data)):
            b = data[i]
            if self._start[side] and b == 0x40:
                self._framing[side] = True
            self._start[side] = b == 0x0A
            if not self._framing[side]:
                out.append(b)
                continue
            line.append(b)
            if b == 0x0A:
                out += on_line(bytes(line))
                line.clear()
                self._framing[side] = False
            elif len(line) > codec.MAX_FRAME:
                out += line             # too long for a frame: the board says so itself
                line.clear()
                self._framing[side] = False
        return bytes(out)

    def _host_line(self, line):
        msg = codec.parse_line(line.rstrip(b"\r\n"), "host")
        if not isinstance(msg, codec.Message) or msg.type != "sim":
            return line
        if self._last is not None and self._last[0] == msg.seq:
            if self._held:
                return b""              # sent again while it waits: it goes once
            reply = self._last[1]       # the same request again: not carried out twice
        else:
            reply = self.on_sim(msg.payload)
            self._last = (msg.seq, reply)
            self.sims += 1
            if self.settle_ns and msg.payload.get("act") != "seeds" and reply.get("type") == "ok":
                self._held += codec.encode(msg.seq, "ping", {})
                # (a button counts once let go: its press lasts PRESS_MS first)
                self._until = self._now + self.settle_ns + (PRESS_NS if msg.payload.get("act") == "press" else 0)
                self._answers[msg.seq] = reply
                return b""
        self._answers[msg.seq] = reply
        if len(self._answers) > 64:
            self._answers.pop(next(iter(self._answers)))
        return codec.encode(msg.seq, "ping", {})

    def _board_line(self, line):
        msg = codec.parse_line(line.rstrip(b"\r\n"), "board")
        if not isinstance(msg, codec.Message):
            return line
        if msg.type == "pong" and msg.payload.get("re") in self._answers:
            reply = dict(self._answers.pop(msg.payload["re"]))
            kind = reply.pop("type")
            reply["re"] = msg.payload["re"]
            return codec.encode(msg.seq, kind, reply)
        if msg.type == "hello":
            p = dict(msg.payload)
            p["virtual"] = True
            try:
                return codec.encode(msg.seq, "hello", p)
            except codec.FrameError:
                return line         # a hello the host refuses anyway: it says why
        return line


class _Buttons:
    """fw_virtual.Sim's buttons: a press drives the button's pin low for a while."""

    def __init__(self, emu):
        self.emu = emu

    def press(self, name):
        if name not in codec.BUTTONS:
            raise fw_virtual.SimError("bad_payload", "there is no button %r: the buttons are %s"
                                      % (name, ", ".join(codec.BUTTONS)))
        b = self.emu.board
        pin = b.buttons.get("confirm" if name == "menu" else name)
        if pin is None:
            raise fw_virtual.SimError("out_of_range", "this board has no %s button" % name)
        ms = b.long_press_ms + PRESS_MS if name == "menu" else PRESS_MS
        self.emu._command({"op": "press", "pin": pin, "ms": ms})


# ----- LED frames -----------------------------------------------------------------------------------

class FrameDecoder:
    """LED frame bytes, as they left the data pin, back to colour roles per LED.

    The firmware scales its palette by the brightness level and the config's cap
    (leds.scaled_palette); a frame is decoded at the one level that explains
    every LED of it (the last such level tried first)."""

    def __init__(self, board):
        from sowlight_fw.hw.leds import scaled_palette, _CHANNEL
        self.bpp = board.led_bpp
        self.count = board.led_count
        self.order = [_CHANNEL.get(ch) for ch in board.led_order]
        self._tables = []
        for level in range(256):
            table = {}
            for role, rgb in enumerate(scaled_palette(level, board.brightness_cap255)):
                table.setdefault(rgb, role)
            self._tables.append(table)
        self.level = 255

    def colours(self, data):
        out = []
        for i in range(self.count):
            rgb = [0, 0, 0]
            for k in range(self.bpp):
                ch = self.order[k]
                if ch is not None:
                    rgb[ch] = data[i * self.bpp + k]
            out.append(tuple(rgb))
        return out

    def roles(self, data):
        """(roles per LED, level), or (None, None) when no level explains the frame."""
        colours = self.colours(data)
        for level in [self.level] + list(range(255, -1, -1)):
            table = self._tables[level]
            roles = [table.get(c) for c in colours]
            if None not in roles:
                self.level = level
                return roles, level
        return None, None


BLINKS_NS = 3 * 10 ** 9      # a blinking or counting cell goes back and forth many times in this (250 ms beats)
# A blink's looks change at the beats of the board's clock, each drawn by the first scan after its
# beat: so one look lasts a beat give or take a scan's period and length (ticks.SCAN_MS, ~40 ms).
BEAT_NS = fw_settings.DEFAULTS["blink_ms"] * 10 ** 6
BEAT_SLACK_NS = 60 * 10 ** 6


def _looks_at(looks):
    """The looks a cell had at a change, from its looks before it (TOUCH left out, repeats of one
    look in a row made one, oldest first): the two it went back and forth between as it blinked
    or counted, or else the last one."""
    if not looks:
        return set()
    k = len(looks) - 1
    both = {looks[k]}
    while k > 0 and (looks[k - 1] in both or len(both) < 2):
        k -= 1
        both.add(looks[k])
    return both if len(looks) - k >= 3 else {looks[-1]}


def reactions(board, within_ns=2 * 10 ** 9):
    """What the strip of an emulated `board` showed after each change of its sensors' inputs:
    (emulated ns of the change, the changed cells, ns to the first frame that shows one of them
    otherwise, ns to the first that shows one with another role of the controller's -- its
    answer, not the strip's own TOUCH (hw/watch.py) -- and whether a changed cell showed TOUCH
    before that answer, or at the change).  A time is None when no such frame came within
    `within_ns`; changes older than the frames kept are left out.

    A cell that blinks or counts (controller/lights.py) shows two looks by turns (a role and
    another, or off): its other look coming after the change is not an answer.  A cell is taken
    to blink when, in the BLINKS_NS before the change, it went from one look to another and back,
    or when a change falls in a blink's first beats: the cell took its last look a beat before
    (BEAT_NS, give or take BEAT_SLACK_NS) the frame that shows its look before that again.  A cell
    that goes back and forth so between two roles of the controller's, say lit, dark and lit
    again, has an answer of the same look told from a blink only by that timing."""
    from sowlight_fw.colours import TOUCH
    frames = [(t, roles) for t, roles in board.frames if roles is not None]
    leds = board.board.cell_leds
    out = []
    for t, cells in board.changes:
        if not cells or not frames or t < frames[0][0]:
            continue
        before = None       # the last frame before the change
        looks = {c: [] for c in cells}      # each changed cell's looks before it, as _looks_at takes
        since = {}          # when each changed cell took its last look
        said = None         # each changed cell's looks of the controller's at the change
        first = answer = None
        touched = False
        for ft, roles in frames:
            shows = [roles[leds[c][0]] for c in cells]
            if ft <= t:
                before = shows
                for c, r in zip(cells, shows):
                    seen = looks[c]
                    if r != TOUCH and (not seen or seen[-1] != r):
                        if t - ft > BLINKS_NS:
                            del seen[:]     # (too old to tell a blink: only the last look counts)
                        seen.append(r)
                        since[c] = ft
                continue
            if ft - t > within_ns or before is None:
                break
            if said is None:
                said = {c: _looks_at(looks[c]) for c in cells}
            if first is None and shows != before:
                first = ft - t
            touched = touched or TOUCH in shows
            for c, r in zip(cells, shows):
                if r == TOUCH or r in said[c]:
                    continue
                if len(looks[c]) >= 2 and r == looks[c][-2] and abs(ft - since[c] - BEAT_NS) <= BEAT_SLACK_NS:
                    said[c].add(r)      # its look before, back a beat later: it blinks
                    continue
                answer = ft - t
                break
            if answer is not None:
                break
        if before is not None:
            out.append((t, cells, first, answer, touched or TOUCH in before))
    return out


def touch_spans(board, within_ns=10 ** 9):
    """For each change of the sensors' inputs whose cells the strip lit TOUCH within `within_ns`:
    the ns from the first frame with TOUCH on a changed cell to the first frame after it with
    TOUCH on none of them (the controller's answer, or TOUCH_MS with nothing new); changes whose
    touch still showed at the last frame are left out.  A touch that goes at a blink's beat is
    a short one here."""
    from sowlight_fw.colours import TOUCH
    frames = [(t, roles) for t, roles in board.frames if roles is not None]
    leds = board.board.cell_leds
    out = []
    for t, cells in board.changes:
        if not cells:
            continue
        start = None
        for ft, roles in frames:
            if ft <= t:
                continue
            shows = TOUCH in [roles[leds[c][0]] for c in cells]
            if start is None:
                if ft - t > within_ns:
                    break
                if shows:
                    start = ft
            elif not shows:
                out.append(ft - start)
                break
    return out


def conversion_waits(board):
    """On load cells: for each change reactions() reads, in its order, the ns from the change to the
    first HX711 reading ready with a changed cell's new load (None when none came, or the sensors
    are not HX711s).  That wait is the HX711's own (its conversion, 12.5 ms at 80 Hz, and what
    was left of the one under way): a firmware answers from the instant its pin tells it."""
    seen = reactions(board)
    if board.board.sensor_kind != "hx711":
        return [None] * len(seen)
    pins = board.board.cell_sensors
    out = []
    for t, cells, *_ in seen:
        mine = set(pins[c] for c in cells)
        out.append(next((ct - t for ct, fresh in board.conversions if ct >= t and mine.intersection(fresh)), None))
    return out


# ----- the board -------------------------------------------------------------------------------------

class EmuBoard(LocalBoard):
    """The firmware image on an emulated RP2040 behind a pty (see the module's docstring).

    preset / config  the board config (a preset name or a file); None with a journal: the one in its flash
    uf2              the firmware image (.uf2 or .bin); None: $SOWLIGHT_FIRMWARE_IMAGE
    journal          a file keeping the flash's filesystem between runs; None: a new one each run
    bootrom          the RP2040 B1 boot ROM; None: $SOWLIGHT_BOOTROM or beside the image
    realtime         keep emulated time from running ahead of the wall clock
    files            extra files for a new filesystem ({path: bytes}), e.g. .mpy files
    drop, corrupt, seed   faults on the wire (sowlight.simulation.virtual.Faults: lost and damaged bytes)
    seeds            the seeds on the board at power-up, a count per cell (default: none)
    drive            the folder that plays the RPI-RP2 drive after machine.bootloader() (default: a
                     folder of its own, named in `bootsel_drive` while it is there)
    act_jitter       a random.Random: each act on the seeds lands a random 0-20 ms of emulated time
                     later.  The hands act just after the board has answered, so their acts would
                     otherwise fall at the same phase of the firmware's scans and timers each time
                     (bench/bench_emu.py measures latencies with it)
    """

    def __init__(self, preset=None, config=None, uf2=None, journal=None, bootrom=None, boards=None,
                 realtime=True, files=None, uid=None, say=None, drop=0.0, corrupt=0.0, seed=None,
                 seeds=None, drive=None, act_jitter=None):
        self.preset = config or preset
        self.act_jitter = act_jitter
        self.drive = drive              # the folder that plays its BOOTSEL drive (default: one in its temp folder)
        self.bootsel_drive = None       # that folder while the board is in BOOTSEL mode
        self.flashed = 0                # images copied onto it
        self.uf2 = uf2
        self.journal_path = journal
        self.bootrom = bootrom
        self.boards = boards
        self.realtime = realtime
        self.files = dict(files or {})
        self.uid = uid or board_uid(journal)
        self.say = say
        self.faults = (drop, corrupt, seed)
        self.seeds = seeds
        self.path = None
        self.board = None           # the checked config the board runs (sowlight_fw.config.Board)
        self.board_id = None
        self.world = None           # the seeds (sowlight_fw.virtual.Seeds)
        self.sim = None
        self.tap = None
        self.leds = None            # the latest LED frame: roles per LED
        self.led_frames = 0
        self.frames = []            # (emulated ns, roles per LED or None) of every frame, oldest first
        self.overruns = []          # emulated ns of each write the LEDs lost (begun before the last latched)
        self.flash_ops = []         # (op, offset, bytes, emulated ns) of every flash erase and program
        self.changes = []           # (emulated ns, cells) when the sensors' pins took new readings
        self.conversions = []       # (emulated ns, data pins) when HX711s made a reading ready that was new
        self._raw = None
        self.console = bytearray()  # what the board wrote on USB (frames, its REPL, tracebacks), the last 128-256 KB
        self.first_output_ns = None
        self.now_ns = 0             # emulated time
        self.idle_ns = 0            # emulated time the core waited (WFI/WFE), in all
        self.connected = None       # emulated ns when its USB port was enumerated
        self.cut = False            # the power was cut (cut_after())
        self.resets = 0             # machine.reset()s: a new runner each
        self._base_ns = 0           # emulated ns of the resets before the runner's own clock
        self.error = None
        self._process = None
        self._tmp = None
        self._thread = None
        self._stopping = False
        self._dirty = True
        self._lock = threading.RLock()
        self._said = threading.Event()
        self._resetting = False
        self._queue = []            # commands for the runner, sent before the next slice
        self._master = self._slave = None
        self._log = None
        self._out = b""

    # ----- starting and stopping ----------------------------------------------------------------

    def start(self, timeout=START_TIMEOUT):
        if self._process is not None:
            raise EmuBoardError("this emulated board is started already (at %s)" % self.path)
        try:
            self._prepare()
        except BaseException:
            self._close()
            raise
        self._thread = threading.Thread(target=self._pump, name="sowlight-emu-board", daemon=True)
        self._thread.start()
        # Ready once the board said something on USB (the app's hello, a refused config's log
        # line), or its USB port has been up for READY_QUIET_NS without a word (no app: the REPL).
        if not self._said.wait(timeout) or self.error is not None:
            why = self.error or "nothing came on its USB port within %.0f s" % timeout
            log = self.log_tail()
            self.stop(save=False)
            raise EmuBoardError("the emulated board did not start: %s%s" % (why, "\n" + log if log else ""))
        return self.path

    def _prepare(self):
        from sowlight.simulation.virtual import Faults, PtyTransport, VirtualBoardError, _open_pty
        try:
            faults = Faults(*self.faults)
        except VirtualBoardError as e:
            raise EmuBoardError(str(e)) from None
        node = find_node()
        module = ensure_rp2040js(say=self.say)
        image = find_image(self.uf2)
        bootrom = find_bootrom(self.bootrom, image)
        fs_image = self._filesystem()
        b = self.board
        self.board_id = "%s-%s" % (b.id_prefix, binascii.hexlify(self.uid).decode())
        self.world = fw_virtual.Seeds(b.cells)
        if self.seeds is not None:
            try:
                self.world.lay_out(list(self.seeds))
            except fw_virtual.SimError as e:
                raise EmuBoardError("cannot lay the seeds out: %s" % e.msg) from None
        self.sensors = fw_virtual.Sensors(b, self.world)
        self.sim = fw_virtual.Sim(self.world, _Buttons(self))
        settle_ms = SETTLE_MS
        if b.sensor_kind == "hx711":
            # A load cell's weight is seen only at its next conversion (rate_hz), and the debounce
            # wants two of them: an act answered sooner lets the hands act again before the board
            # saw the last one, and two drops seen at once are a mistake.
            settle_ms += 2 * 1000 // b.hx711_rate
        self.tap = LinkTap(self._on_sim, settle_ms * 1000000)
        self.decoder = FrameDecoder(b)
        self._tmp = tempfile.mkdtemp(prefix="sowlight-emu-")
        fs_file = os.path.join(self._tmp, "fs.bin")
        with open(fs_file, "wb") as f:
            f.write(fs_image)
        cfg = {"rp2040js": str(module), "bootrom": str(bootrom), "image": str(image), "fs": fs_file,
               "fs_offset": flashfs.FS_OFFSET, "fs_size": flashfs.FS_SIZE, "uid": self.uid.hex(),
               "leds": {"pin": b.led_pin, "bytes": b.led_count * b.led_bpp},
               "inputs_high": sorted(b.buttons.values()) if b.buttons_active_low else []}
        if b.sensor_kind == "occupancy-mux":
            cfg["mux"] = {"select": list(b.mux_select), "emitter": b.emitter_pin, "ambient": AMBIENT,
                          "muxes": [{"adc": a, "enable": e} for a, e in b.mux_list]}
        elif b.sensor_kind == "hx711":
            cfg["hx711"] = {"sck": b.hx711_sck, "rate_hz": b.hx711_rate,
                            "dout": [p for p in b.cell_sensors if p is not None]}
        self._cfg_file = os.path.join(self._tmp, "config.json")
        with open(self._cfg_file, "w") as f:
            json.dump(cfg, f)
        self._fs_file = fs_file
        self._node = node
        self._master, self._slave, self.path = _open_pty()
        self.transport = PtyTransport(self._master, faults)
        self._log = tempfile.TemporaryFile()
        self._spawn()

    def _spawn(self):
        """Start the runner: the chip powered up on the image and the filesystem in fs.bin."""
        try:
            self._process = subprocess.Popen([self._node, str(RUNNER), self._cfg_file], stdin=subprocess.PIPE,
                                             stdout=subprocess.PIPE, stderr=self._log, start_new_session=True)
        except OSError as e:
            raise EmuBoardError("cannot start %s: %s" % (self._node, e)) from None
        self._out = b""
        if self._read_event(START_TIMEOUT).get("ev") != "ready":
            raise EmuBoardError("the emulator did not start:\n%s" % (self.log_tail() or "(no output)"))

    def _reset(self):
        """machine.reset(): a new chip on the same flash (the filesystem as it is now); the pty,
        the seeds and the time go on."""
        self._power_down()
        self._power_up()

    def _power_down(self):
        self._write({"op": "dump", "path": self._fs_file})
        if self._read_event(30.0).get("ev") != "dumped":
            raise EmuBoardError("the emulator did not write its flash:\n%s" % self.log_tail())
        old = self._process
        self._write({"op": "stop"})
        old.wait(5.0)
        old.stdin.close()
        old.stdout.close()

    def _power_up(self):
        base = self.now_ns
        self._spawn()
        self._base_ns = base
        self.resets += 1
        self._dirty = True

    def _bootsel(self):
        """machine.bootloader(): the chip restarts as a Pico's BOOTSEL drive (the `drive` folder, with
        the INFO_UF2.TXT a real one has) until a whole .uf2 is copied there; then it boots that image on
        the same flash filesystem, as a Pico does.  Meanwhile its USB serial port is gone: what the host
        writes to it is lost."""
        from sowlight.firmware import flash
        self._power_down()
        drive = self.drive or os.path.join(self._tmp, flash.BOARD_ID)
        os.makedirs(drive, exist_ok=True)
        info = os.path.join(drive, flash.INFO)
        with open(info, "w") as f:
            f.write("UF2 Bootloader v3.0\nModel: Raspberry Pi RP2\nBoard-ID: %s\n" % flash.BOARD_ID)
        self.bootsel_drive = drive
        if self.say:
            self.say("in BOOTSEL mode: copy a .uf2 to %s" % drive)
        image = None
        while image is None and not self._stopping:
            self.transport.read(4096)
            image = _whole_uf2(drive)
            if image is None:
                time.sleep(0.05)
        if image is None:
            return
        flashed = os.path.join(self._tmp, "flashed.uf2")
        shutil.copyfile(image, flashed)
        for name in os.listdir(drive):      # the drive goes when the Pico reboots
            if name == flash.INFO or name.lower().endswith(".uf2"):
                os.unlink(os.path.join(drive, name))
        with open(self._cfg_file) as f:
            cfg = json.load(f)
        cfg["image"] = flashed
        with open(self._cfg_file, "w") as f:
            json.dump(cfg, f)
        self.uf2 = flashed
        self.bootsel_drive = None
        self.flashed += 1
        self._power_up()

    def _filesystem(self):
        """The flash's filesystem at power-up: the journal file's, or a new one; board.json put in."""
        raw = None
        if self.preset is not None or self.journal_path is None or not os.path.exists(self.journal_path):
            raw = self._config_bytes(self.preset or "2x6-stores")
        put = dict(self.files)
        if raw is not None:
            put["board.json"] = raw
        try:
            if self.journal_path and os.path.exists(self.journal_path):
                with open(self.journal_path, "rb") as f:
                    image = f.read()
                files = flashfs.read(image)
                if "main.py" not in files:
                    put["main.py"] = MAIN_PY.read_bytes()
                image = flashfs.put(image, put) if put else image
                raw = raw or files.get("board.json")
            else:
                put.setdefault("main.py", MAIN_PY.read_bytes())
                image = flashfs.make(put)
        except flashfs.FlashFsError as e:
            raise EmuBoardError("%s: %s" % (self.journal_path, e))
        except OSError as e:
            raise EmuBoardError("cannot read the journal file %s: %s" % (self.journal_path, e.strerror or e))
        try:
            self.board = fw_config.check(json.loads(raw))
        except (ValueError, TypeError) as e:
            # The image shows a refused config itself (the error pattern): the pins here are a default
            # board's, so that its LEDs are still watched.
            self.config_error = str(e)
            self.board = fw_config.check(json.loads(self._config_bytes("2x6-stores")))
        else:
            self.config_error = None
        return image

    def _config_bytes(self, preset):
        from sowlight.hardware import presets
        try:
            path = presets.resolve(preset, self.boards)
        except presets.PresetError as e:
            raise EmuBoardError(str(e))
        try:
            with open(path, "rb") as f:
                return f.read()
        except OSError as e:
            raise EmuBoardError("cannot read the board config %s: %s" % (path, e.strerror or e))

    def stop(self, save=True):
        """Stop the emulator; the flash's filesystem is written to the journal file (unless `save` is False)."""
        self._stopping = True
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join(10.0)
        if save and self.journal_path and self._process is not None and self._process.poll() is None:
            self.save()
        self._close()

    def save(self, path=None):
        """Write the flash's filesystem, as it is now, to `path` (default: the journal file), atomically."""
        path = path or self.journal_path
        tmp = path + ".tmp"
        with self._lock:
            self._write({"op": "dump", "path": os.path.abspath(tmp)})
            if self._read_event(30.0).get("ev") != "dumped":
                raise EmuBoardError("the emulator did not write its flash:\n%s" % self.log_tail())
        os.replace(tmp, path)

    def flash_files(self):
        """The files of the board's filesystem as they are now ({path: bytes})."""
        fd, tmp = tempfile.mkstemp(prefix="sowlight-emu-flash-")
        os.close(fd)
        try:
            self.save(tmp)
            with open(tmp, "rb") as f:
                return flashfs.read(f.read())
        finally:
            if os.path.exists(tmp):
                os.unlink(tmp)

    def _close(self):
        process, self._process = self._process, None
        if process is not None:
            if process.poll() is None:
                try:
                    process.stdin.write(b'{"op": "stop"}\n')
                    process.stdin.flush()
                    process.wait(2.0)
                except (OSError, subprocess.TimeoutExpired):
                    process.kill()
                    process.wait()
            for f in (process.stdin, process.stdout):
                try:
                    f.close()
                except OSError:
                    pass
        self._close_fds("_master", "_slave")
        if self._tmp is not None:
            shutil.rmtree(self._tmp, ignore_errors=True)
            self._tmp = None

    @property
    def running(self):
        return self._thread is not None and self._thread.is_alive()

    def wait(self, timeout=None):
        if self._thread is not None:
            self._thread.join(timeout)
        return not self.running

    def describe(self):
        from sowlight.simulation.virtual import board_shape
        b = self.board
        shape = board_shape(b)
        where = ("flash kept in %s" % self.journal_path) if self.journal_path else "flash in memory (lost when it stops)"
        return ("emulated RP2040 Sowlight board %s (%s, %s sensors) on %s; %s; seeds move by `sim` requests; "
                "Ctrl-C stops it" % (self.board_id, shape, b.sensor_kind, self.path, where))

    # ----- the simulated world ---------------------------------------------------------------------

    def _on_sim(self, payload):
        with self._lock:
            reply = self.sim.handle(payload)
            self._dirty = True
        return reply

    def act(self, payload):
        """A `sim` act done directly (not through the link): the reply dict."""
        return self._on_sim(payload)

    def _sensor_commands(self):
        b = self.board
        raw = self.sensors.read_raw([0] * b.cells)
        last = self._raw or raw
        self.changes.append((self.now_ns, [c for c in range(b.cells) if raw[c] != last[c]]))
        self._raw = raw
        if b.sensor_kind == "occupancy-mux":
            values = [[AMBIENT] * 16 for _ in b.mux_list]
            for c in range(b.cells):
                s = b.cell_sensors[c]
                if s is not None:
                    values[s[0]][s[1]] = min(65535, AMBIENT + raw[c])
            return [{"op": "mux", "v": values}]
        if b.sensor_kind == "hx711":
            return [{"op": "hx", "v": {str(b.cell_sensors[c]): raw[c] & 0xFFFFFF
                                       for c in range(b.cells) if b.cell_sensors[c] is not None}}]
        return [{"op": "pin", "pin": b.cell_sensors[c], "v": raw[c]}
                for c in range(b.cells) if b.cell_sensors[c] is not None]

    def _keep_console(self, data):
        self.console += data
        if len(self.console) > 262144:
            del self.console[:-131072]

    def cut_after(self, n):
        """Cut the power at the n-th flash write or erase from now (half of a page's bytes land)."""
        self._command({"op": "cut", "n": n})

    # ----- the runner -------------------------------------------------------------------------------

    def _command(self, cmd):
        with self._lock:
            self._queue.append(cmd)

    def _write(self, cmd):
        self._process.stdin.write(json.dumps(cmd).encode() + b"\n")
        self._process.stdin.flush()

    def _read_event(self, timeout):
        out = self._process.stdout
        deadline = time.monotonic() + timeout
        while b"\n" not in self._out:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([out], [], [], left)[0]:
                return {}
            chunk = os.read(out.fileno(), 65536)
            if not chunk:
                return {}
            self._out += chunk
        line, self._out = self._out.split(b"\n", 1)
        try:
            return json.loads(line)
        except ValueError:
            return {}

    def _pump(self):
        try:
            self._loop()
        except BaseException as e:   # kept for whoever watches: the CLI says it
            if not self._stopping:
                self.error = e

    def _loop(self):
        started = time.monotonic()
        while not self._stopping and not self.cut:
            data = self.transport.read(4096)
            with self._lock:
                data = self.tap.host_bytes(data, self.now_ns) if data else self.tap.release(self.now_ns)
                if data:
                    self._write({"op": "usb", "d": data.hex()})
                if self._dirty:
                    self._dirty = False
                    if self.act_jitter is not None:
                        self._run_slice(self.act_jitter.randrange(1, 2 * SLICE_US))
                    for cmd in self._sensor_commands():
                        self._write(cmd)
                for cmd in self._queue:
                    self._write(cmd)
                self._queue = []
                self._run_slice(SLICE_US)
                if self._resetting:
                    bootsel = self._resetting == "bootsel"
                    self._resetting = False
                    if bootsel:
                        self._bootsel()
                    else:
                        self._reset()
            if self.realtime:
                ahead = self.now_ns / 1e9 - (time.monotonic() - started)
                if ahead > 0.001:
                    time.sleep(ahead)

    def _run_slice(self, us):
        """Run the emulator `us` of emulated time (less if the board writes), handling its events."""
        self._write({"op": "run", "us": us})
        while True:
            ev = self._read_event(60.0)
            kind = ev.get("ev")
            if kind == "ran":
                self.now_ns = self._base_ns + ev["t"]
                if self.connected and self.now_ns - self.connected > READY_QUIET_NS:
                    self._said.set()
                self.idle_ns = ev.get("idle", 0)
                return
            if kind is None:
                raise EmuBoardError("the emulator stopped:\n%s" % (self.log_tail() or "(no output)"))
            self._event(kind, ev)

    def _event(self, kind, ev):
        if kind == "usb":
            self._said.set()
            data = bytes.fromhex(ev["d"])
            if self.first_output_ns is None:
                self.first_output_ns = self._base_ns + ev.get("t", 0)
            self._keep_console(data)
            out = self.tap.board_bytes(data)
            if out:
                self.transport.write(out)
        elif kind == "leds":
            roles, _level = self.decoder.roles(bytes.fromhex(ev["d"]))
            self.frames.append((self._base_ns + ev["t"], roles))
            if len(self.frames) > 4096:
                del self.frames[:2048]
            self.leds = roles
            self.led_frames += 1
        elif kind == "overrun":
            self.overruns.append(self._base_ns + ev["t"])
        elif kind == "hx":
            self.conversions.append((self._base_ns + ev["t"], ev["pins"]))
            if len(self.conversions) > 4096:
                del self.conversions[:2048]
        elif kind == "flash":
            self.flash_ops.append((ev["op"], ev["off"], ev["n"], self._base_ns + ev["t"]))
        elif kind == "connected":
            self.connected = self._base_ns + ev["t"]
        elif kind == "cut":
            self.cut = True
        elif kind == "reset":
            self._resetting = "bootsel" if ev.get("usb_boot") else "reset"
