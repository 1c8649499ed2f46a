"""The board's firmware image: MicroPython's rp2 port with Sowlight frozen into it.

    uf2 = build(board="RPI_PICO", micropython="/src/micropython", progress=print)

The image is MicroPython v1.27 built from its own sources with
`firmware/manifest.py` as the frozen manifest, so the app's bytecode lives in
flash and only its data takes heap (docs/firmware.md, "The firmware image").

Sources: a MicroPython v1.27 checkout with the rp2 port's submodules
(`git clone --branch v1.27.0 https://github.com/micropython/micropython`, then
`make -C ports/rp2 BOARD=RPI_PICO submodules`), given by path, or a tarball of
one (`.tar.xz`, `.tar.gz`), unpacked once into the build folder.  The toolchain
is Debian's (or any) `arm-none-eabi-gcc` with newlib and its libstdc++, `cmake`
and `make`.  picotool is not needed: the UF2 is written by MicroPython's own
`tools/uf2conv.py`.

Everything is built in a build folder (default: the user cache,
`~/.cache/sowlight/firmware`) that a rebuild reuses: after a change to an app
file only the frozen modules and the link step run again.  A folder that last
froze another copy of the app (another clone) freezes this one's afresh.  One
build at a time works in a folder (a second waits for the first), and the image
files appear whole, so an emulator reading the image meanwhile never reads half of one.
"""
import os
import re
import shutil
import subprocess
import sys
import tarfile
from contextlib import contextmanager

import sowlight_fw
from sowlight_fw import app as _fw_app

MICROPYTHON_VERSION = (1, 27)       # the series the app and the notes are checked against
BOARDS = ("RPI_PICO",)               # boards whose image the project knows how to build and run
FLASH_BASE = 0x10000000              # where the RP2040 maps flash; a UF2's blocks are addressed from it
UF2_FAMILY_RP2040 = 0xE48BFF56
BOOTROM = "rp2040-bootrom-b1.bin"    # the RP2040's boot ROM, which emulators need (not part of the image)
SOURCES_ENV = "SOWLIGHT_MICROPYTHON"

FIRMWARE_DIR = os.path.dirname(os.path.dirname(os.path.abspath(sowlight_fw.__file__)))   # firmware/
MANIFEST = os.path.join(FIRMWARE_DIR, "manifest.py")

# What each missing tool is, and how a Debian or Ubuntu machine gets it.
APT = "apt-get install gcc-arm-none-eabi libnewlib-arm-none-eabi libstdc++-arm-none-eabi-newlib cmake make"


class BuildError(Exception):
    """The image cannot be built; the message says what to do."""


def cache_dir(environ=None):
    """Where builds are kept between runs: $XDG_CACHE_HOME/sowlight/firmware (~/.cache/... by default)."""
    environ = os.environ if environ is None else environ
    if sys.platform == "darwin":
        base = os.path.expanduser("~/Library/Caches")
    elif sys.platform.startswith("win"):
        base = environ.get("LOCALAPPDATA") or os.path.expanduser("~\\AppData\\Local")
    else:
        base = environ.get("XDG_CACHE_HOME")
        if not base or not os.path.isabs(base):
            base = os.path.expanduser("~/.cache")
    return os.path.join(base, "sowlight", "firmware")


def images_dir(environ=None):
    """Where `sowlight firmware build` writes images by default (and `sowlight deploy` looks)."""
    return os.path.join(cache_dir(environ), "images")


def default_image(environ=None):
    """The image `sowlight firmware build` writes by default for this Sowlight (deploy and emu use it)."""
    return os.path.join(images_dir(environ), image_name("RPI_PICO", "1.27.0", "uf2"))


def sowlight_version():
    return _fw_app.VERSION


def image_name(board, mp_version, ext):
    """sowlight-0.1.0-RPI_PICO-micropython-1.27.0.uf2: what is in it, in its name."""
    return "sowlight-%s-%s-micropython-%s.%s" % (sowlight_version(), board, mp_version, ext)


# -- the sources --------------------------------------------------------------------

def micropython_version(root):
    """'1.27.0' read from a checkout's py/mpconfig.h."""
    try:
        with open(os.path.join(root, "py", "mpconfig.h")) as f:
            text = f.read()
    except OSError:
        raise BuildError("%s is not a MicroPython checkout (no py/mpconfig.h): give the folder of a clone of "
                         "https://github.com/micropython/micropython at v1.27.0" % root)
    parts = []
    for what in ("MAJOR", "MINOR", "MICRO"):
        m = re.search(r"#define MICROPY_VERSION_%s \(?(\d+)" % what, text)
        if not m:
            raise BuildError("cannot read MicroPython's version from %s/py/mpconfig.h" % root)
        parts.append(m.group(1))
    return ".".join(parts)


def _check_checkout(root):
    version = micropython_version(root)
    if tuple(int(x) for x in version.split(".")[:2]) != MICROPYTHON_VERSION:
        raise BuildError("%s holds MicroPython %s; Sowlight's image is built from v%d.%d "
                         "(git checkout v1.27.0 there)" % ((root, version) + MICROPYTHON_VERSION))
    for sub, what in (("lib/pico-sdk/src", "pico-sdk"), ("lib/tinyusb/src", "tinyusb"),
                      ("lib/micropython-lib/micropython", "micropython-lib")):
        if not os.path.isdir(os.path.join(root, sub)):
            raise BuildError("%s has no %s (%s is empty): run `make -C ports/rp2 BOARD=RPI_PICO submodules` "
                             "in the checkout" % (root, what, sub))
    return version


def _unpack(tarball, into, say):
    """The checkout inside a tarball, unpacked once into `into` (again when the tarball changes)."""
    st = os.stat(tarball)
    stamp_text = "%s %d %d" % (os.path.abspath(tarball), st.st_size, int(st.st_mtime))
    stamp = os.path.join(into, ".unpacked")
    dest = os.path.join(into, "src")
    if not (os.path.exists(stamp) and open(stamp).read() == stamp_text):
        say("unpacking %s" % tarball)
        shutil.rmtree(dest, ignore_errors=True)
        os.makedirs(dest)
        try:
            with tarfile.open(tarball) as tf:
                tf.extractall(dest, filter="data")
        except (tarfile.TarError, OSError) as e:
            raise BuildError("cannot unpack %s: %s" % (tarball, e))
        with open(stamp, "w") as f:
            f.write(stamp_text)
    for name in sorted(os.listdir(dest)):
        if os.path.isfile(os.path.join(dest, name, "py", "mpconfig.h")):
            return os.path.join(dest, name), dest
    raise BuildError("%s holds no MicroPython checkout (no */py/mpconfig.h)" % tarball)


def find_sources(micropython, work, say):
    """(checkout folder, folder to look for the boot ROM in) from a path or $SOWLIGHT_MICROPYTHON."""
    given = micropython or os.environ.get(SOURCES_ENV)
    if not given:
        raise BuildError("where are MicroPython's sources? Give --micropython DIR (a v1.27.0 checkout with the "
                         "rp2 submodules, or a tarball of one) or set %s. To get one: git clone --branch v1.27.0 "
                         "https://github.com/micropython/micropython && make -C micropython/ports/rp2 "
                         "BOARD=RPI_PICO submodules" % SOURCES_ENV)
    given = os.path.abspath(os.path.expanduser(given))
    if os.path.isdir(given):
        return given, os.path.dirname(given)
    if os.path.isfile(given) and re.search(r"\.tar(\.xz|\.gz|\.bz2)?$|\.tgz$", given):
        return _unpack(given, work, say)
    raise BuildError("%s is neither a MicroPython checkout nor a tarball of one" % given)


# -- the toolchain ------------------------------------------------------------------

def missing_tools():
    """What the build needs and this machine lacks, as short names."""
    missing = [t for t in ("arm-none-eabi-gcc", "cmake", "make") if shutil.which(t) is None]
    gcc = shutil.which("arm-none-eabi-gcc")
    if gcc:
        # A compiler without its C library (newlib) or C++ library answers with the bare name.
        for lib, package in (("libc.a", "libnewlib-arm-none-eabi"), ("libstdc++.a", "libstdc++-arm-none-eabi-newlib")):
            out = subprocess.run([gcc, "-print-file-name=%s" % lib], capture_output=True, text=True).stdout.strip()
            if not os.path.isabs(out):
                missing.append(package)
    return missing


def check_toolchain():
    missing = missing_tools()
    if missing:
        raise BuildError("the firmware build needs %s, not found here. On Debian or Ubuntu: sudo %s "
                         "(docs/firmware.md, \"The firmware image\")" % (", ".join(missing), APT))


# -- the build ----------------------------------------------------------------------

_PERCENT = re.compile(rb"^\[\s*(\d+)%\]")


def _run(cmd, cwd, log, progress=None, label=""):
    """Run a build step, its output to the log; progress(percent, label) from make's [ NN%] lines."""
    log.write(("\n$ %s\n" % " ".join(cmd)).encode())
    log.flush()
    proc = subprocess.Popen(cmd, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    for line in proc.stdout:
        log.write(line)
        m = _PERCENT.match(line)
        if m and progress:
            progress(int(m.group(1)), label)
    if proc.wait() != 0:
        log.flush()
        raise BuildError("%s failed (exit %d); the last lines of %s:\n%s" % (
            label or cmd[0], proc.returncode, log.name, _tail(log.name)))


def _tail(path, n=15):
    with open(path, "rb") as f:
        lines = f.read().decode("utf-8", "replace").splitlines()
    return "\n".join("  " + line for line in lines[-n:])


def _configured(cmake_dir, name):
    """A setting of a configured build folder (its CMakeCache.txt; None when it is not configured)."""
    try:
        with open(os.path.join(cmake_dir, "CMakeCache.txt")) as f:
            for line in f:
                if line.startswith(name + ":"):
                    return line.split("=", 1)[1].strip()
    except OSError:
        pass
    return None


def build(board="RPI_PICO", micropython=None, out=None, build_dir=None, jobs=None, say=None, progress=None):
    """Build the image; the path of its .uf2 (a .bin of the same name beside it).

    say(text) is told each stage, progress(percent, stage) how far make is.
    """
    say = say or (lambda text: None)
    if board not in BOARDS:
        raise BuildError("no image is known for board %r: the boards are %s" % (board, ", ".join(BOARDS)))
    work = os.path.abspath(build_dir or cache_dir())
    os.makedirs(work, exist_ok=True)
    check_toolchain()
    out = os.path.abspath(out or images_dir())
    os.makedirs(out, exist_ok=True)
    with _one_build_in(work, say):
        root, around = find_sources(micropython, work, say)
        mp_version = _check_checkout(root)
        bin_path = os.path.join(out, image_name(board, mp_version, "bin"))
        uf2_path = os.path.join(out, image_name(board, mp_version, "uf2"))
        with open(os.path.join(work, "build.log"), "wb") as log:
            cmake_dir = _make(board, root, mp_version, work, str(jobs or os.cpu_count() or 2), log, say, progress)
            _put(os.path.join(cmake_dir, "firmware.bin"), bin_path)
            tmp = uf2_path + ".tmp"
            _run([sys.executable, os.path.join(root, "tools", "uf2conv.py"), "-c", "-b", hex(FLASH_BASE),
                  "-f", hex(UF2_FAMILY_RP2040), "-o", tmp, bin_path], out, log, None, "uf2conv")
            os.replace(tmp, uf2_path)
        for folder in (around, os.path.dirname(root), root):
            rom = os.path.join(folder, BOOTROM)
            if os.path.isfile(rom):
                _put(rom, os.path.join(out, BOOTROM))
                break
    return uf2_path


def _make(board, root, mp_version, work, jobs, log, say, progress):
    """Configure (when needed) and make the port in `work`; the cmake folder, with firmware.bin in it."""
    if not os.path.exists(os.path.join(root, "mpy-cross", "build", "mpy-cross")):
        say("building mpy-cross (compiles the frozen modules)")
        _run(["make", "-C", os.path.join(root, "mpy-cross"), "-j", jobs], root, log, progress, "mpy-cross")
    port = os.path.join(root, "ports", "rp2")
    cmake_dir = os.path.join(work, "build-%s-%s" % (board, mp_version))
    home = _configured(cmake_dir, "CMAKE_HOME_DIRECTORY")
    if home is not None and os.path.realpath(home) != os.path.realpath(port):
        # A build folder copied or moved from elsewhere: cmake refuses a folder configured from
        # other sources, so it is configured and built afresh.
        say("the build folder was configured from %s: configuring it afresh for %s" % (home, port))
        shutil.rmtree(cmake_dir)
    configured = _configured(cmake_dir, "MICROPY_FROZEN_MANIFEST")
    if configured not in (None, MANIFEST):
        # The folder (one per user by default) froze another copy of the app last: its compiled
        # modules can be newer than this copy's sources, and MicroPython's freezer would keep them.
        say("the build folder last froze %s: freezing %s instead" % (configured, MANIFEST))
        shutil.rmtree(os.path.join(cmake_dir, "frozen_mpy"), ignore_errors=True)
    if configured != MANIFEST or not os.path.exists(os.path.join(cmake_dir, "Makefile")):
        say("configuring MicroPython %s for %s" % (mp_version, board))
        # picotool would be fetched from the network by pico-sdk; the UF2 is made below instead.
        _run(["cmake", "-S", port, "-B", cmake_dir, "-DPICO_BUILD_DOCS=0", "-DPICO_NO_PICOTOOL=1",
              "-DMICROPY_BOARD=%s" % board, "-DMICROPY_BOARD_DIR=%s" % os.path.join(port, "boards", board),
              "-DMICROPY_FROZEN_MANIFEST=%s" % MANIFEST], port, log, progress, "cmake")
    say("building the firmware (MicroPython %s, Sowlight %s frozen in)" % (mp_version, sowlight_version()))
    _run(["make", "-C", cmake_dir, "-j", jobs], port, log, progress, "firmware")
    return cmake_dir


def _put(src, dst):
    """Copy a file so that `dst` is the old file or the whole new one, never a part."""
    tmp = dst + ".tmp"
    shutil.copyfile(src, tmp)
    os.replace(tmp, dst)


@contextmanager
def _one_build_in(work, say):
    """Hold the build folder: two builds in one folder (the user's cache, by default) would unpack,
    configure and compile over each other, so the second waits for the first."""
    try:
        import fcntl
    except ImportError:         # Windows: no advisory locks here; one build at a time is up to the user
        yield
        return
    with open(os.path.join(work, ".lock"), "a") as f:
        try:
            fcntl.flock(f, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            say("another build is using %s: waiting for it to finish" % work)
            fcntl.flock(f, fcntl.LOCK_EX)
        yield


def manifest_parts():
    """What the manifest freezes and requires: {"packages": [...], "modules": [...], "require": [...]}.

    Read by evaluating firmware/manifest.py with MicroPython's manifest functions
    standing for themselves, so the image and the `.mpy` deploy take one list.
    """
    parts = {"packages": [], "modules": [], "require": []}

    def package(name, files=None, base_path=".", opt=None):
        base = os.path.normpath(os.path.join(FIRMWARE_DIR, base_path))
        parts["packages"].append((name, base, list(files) if files is not None else None))

    def module(name, base_path=".", opt=None):
        parts["modules"].append((name, os.path.normpath(os.path.join(FIRMWARE_DIR, base_path))))

    def require(name, **kw):
        parts["require"].append(name)

    def include(path, **kw):
        pass        # the port's own manifest: MicroPython's business, not the deploy's

    with open(MANIFEST) as f:
        code = compile(f.read(), MANIFEST, "exec")
    exec(code, {"package": package, "module": module, "require": require, "include": include,
                "freeze": lambda *a, **k: None, "metadata": lambda *a, **k: None, "options": _Options()})
    return parts


class _Options:
    def __getattr__(self, name):
        return None
