"""`os` on the VM board: the port's own, raising OSError with MicroPython's errno numbers.

Emscripten's C library numbers its errors its own way (44 for "no such
file", 20 for "exists", 2 for "permission denied"), so a missing file would
say `OSError: 44` where a board says `OSError: [Errno 2] ENOENT`, and tools
that read the name (mpremote's `fs cp`, `mkdir`) would misread it.  Every
call that touches the filesystem, and `open`, translate the number.
"""
from uos import *  # noqa: F401,F403 -- the rest of the port's os module
import uos as _os

import _vmboard

__name__ = "os"

# Emscripten errno -> MicroPython errno (py/mperrno.h numbers, Linux's).
ERRNO = {
    63: 1,    # EPERM
    44: 2,    # ENOENT
    29: 5,    # EIO
    60: 6,    # ENXIO
    8: 9,     # EBADF
    6: 11,    # EAGAIN
    48: 12,   # ENOMEM
    2: 13,    # EACCES
    10: 16,   # EBUSY
    20: 17,   # EEXIST
    75: 18,   # EXDEV
    43: 19,   # ENODEV
    54: 20,   # ENOTDIR
    31: 21,   # EISDIR
    28: 22,   # EINVAL
    41: 23,   # ENFILE
    33: 24,   # EMFILE
    22: 27,   # EFBIG
    51: 28,   # ENOSPC
    70: 29,   # ESPIPE
    69: 30,   # EROFS
    37: 36,   # ENAMETOOLONG
    55: 39,   # ENOTEMPTY
    52: 38,   # ENOSYS
}


def board_error(e):
    """The OSError a board would raise for the port's OSError `e`."""
    number = e.args[0] if e.args else None
    mapped = ERRNO.get(number) if isinstance(number, int) else None
    return OSError(mapped) if mapped is not None else e


def _translated(call):
    def run(*args):
        try:
            return call(*args)
        except OSError as e:
            raise board_error(e)
    return run


chdir = _translated(_os.chdir)
getcwd = _translated(_os.getcwd)
listdir = _translated(_os.listdir)
mkdir = _translated(_os.mkdir)
remove = _translated(_os.remove)
rename = _translated(_os.rename)
rmdir = _translated(_os.rmdir)
stat = _translated(_os.stat)
statvfs = _translated(_os.statvfs)


def ilistdir(path="."):
    """(name, type, inode, size) per entry, as littlefs gives them (the port gives no size)."""
    try:
        entries = list(_os.ilistdir(path))
    except OSError as e:
        raise board_error(e)
    return iter([e if len(e) >= 4 else _sized(path, e) for e in entries])


def _sized(path, entry):
    name, kind, inode = entry[0], entry[1], entry[2]
    size = 0
    if kind != 0x4000:
        try:
            size = _os.stat(path.rstrip("/") + "/" + name if path not in ("", ".") else name)[6]
        except OSError:
            pass
    return (name, kind, inode, size)


def sync():
    """Write the filesystem to the VM board's flash directory now (if it has one)."""
    _vmboard.sync()


def urandom(n):
    return bytes(_vmboard.urandom(n))


def uname():
    v = _vmboard.version()
    return ("webassembly", "webassembly", v, "v%s (Sowlight VM board)" % v, "Sowlight VM board with MicroPython (WebAssembly)")


def open_translated(builtin_open):
    """`open` that raises the board's errno numbers (installed as builtins.open)."""
    def open(*args, **kwargs):
        try:
            return builtin_open(*args, **kwargs)
        except OSError as e:
            raise board_error(e)
    return open
