"""Where the journal's files live: a tiny interface the journal uses, nothing more.

    names()               the files there
    read(name, start=0, n=None)   a file's bytes (from offset `start` on, at most `n`)
    size(name)            a file's length
    ends(name, head, tail)   its first `head` bytes and its last `tail` (one opening)
    append(name, data)    add bytes at its end (creating it)
    replace(name, data)   make a file hold exactly `data`, all or nothing
    remove(name)
    free()                bytes still free for files (FlashStorage: cheap, see there)

FlashStorage is a directory of the board's filesystem (littlefs on the Pico and
ESP32 ports, any directory on CPython); MemoryStorage keeps files in RAM (the
virtual board, tests); FileStorage is a MemoryStorage saved whole to one file
after every change (the virtual board's `--journal FILE`).  Tests wrap any of
them to cut the power at a chosen byte.
"""
import os

from .crc import crc32

_TMP = ".tmp"
_MAGIC = b"sowlight-journal 1\n"    # FileStorage's first line


def _blocks(n, block):
    """The whole blocks `n` bytes take (littlefs gives every file whole blocks)."""
    return (n + block - 1) // block


class FlashStorage:
    """A directory of the board's filesystem.

    free() is asked before every record the journal writes, and littlefs's statvfs walks every
    block in use to answer it (33 ms on an emulated Pico with 120 games on the flash, bench/
    bench_flash_free.py).  So the filesystem is asked once, and then again only when the room
    left looks less than `exact_below`: in between, free() is the last answer less the blocks
    the files appended to have grown by.  That can be a few blocks too high (a directory that
    split, a block's pointers), never more, so a caller that decides at the journal's reserve
    (16 KB) decides as it would on the filesystem's own figure."""

    def __init__(self, root="/journal", exact_below=32768):
        self.root = root
        self.exact_below = exact_below
        self._free = None        # bytes free when the filesystem was last asked, less blocks taken since
        self._block = 4096       # the filesystem's block (statvfs says)
        try:
            os.mkdir(root)
        except OSError:
            pass  # it exists (or the filesystem will say why on the first write)

    def _path(self, name):
        return self.root + "/" + name

    def names(self):
        return [n for n in os.listdir(self.root)]

    def read(self, name, start=0, n=None):
        """The file's bytes from offset `start` on (at most `n` of them)."""
        with open(self._path(name), "rb") as f:
            if start:
                f.seek(start)
            return f.read() if n is None else f.read(n)

    def size(self, name):
        return os.stat(self._path(name))[6]

    def ends(self, name, head, tail):
        """(the file's first `head` bytes, its last `tail`), the file opened once: littlefs finds
        a file by walking its directory, some ms a look-up on a flash with many games."""
        with open(self._path(name), "rb") as f:
            first = f.read(head)
            if len(first) < head:
                return first, first[-tail:]
            end = f.seek(0, 2)
            f.seek(max(0, end - tail))
            return first, f.read(tail)

    def append(self, name, data):
        # One open/write/close per record: littlefs commits the file at close,
        # so a power cut leaves the file as it was or with the whole write.
        with open(self._path(name), "ab") as f:
            f.write(data)
            size = f.tell()
        if self._free is not None:
            b = self._block
            self._free -= (_blocks(size, b) - _blocks(size - len(data), b)) * b

    def replace(self, name, data):
        self._free = None
        tmp = self._path(name + _TMP)
        with open(tmp, "wb") as f:
            f.write(data)
        try:
            os.rename(tmp, self._path(name))
        except OSError:
            # Ports whose rename will not replace: remove first (a cut here
            # leaves the .tmp, which holds the new content).
            os.remove(self._path(name))
            os.rename(tmp, self._path(name))

    def remove(self, name):
        self._free = None
        os.remove(self._path(name))

    def free(self):
        if self._free is None or self._free < self.exact_below:
            st = os.statvfs(self.root)
            self._block = st[0]
            self._free = st[0] * st[4]      # block size x blocks available
        return self._free


class MemoryStorage:
    """Files in RAM; `capacity` bytes in blocks of `block` (littlefs gives each file whole blocks)."""

    def __init__(self, capacity=1 << 20, block=4096):
        self.files = {}
        self.capacity = capacity
        self.block = block

    def names(self):
        return list(self.files)

    def read(self, name, start=0, n=None):
        if name not in self.files:
            raise OSError(2, "no such file: " + name)
        data = self.files[name]
        return bytes(data[start:] if n is None else data[start:start + n])

    def size(self, name):
        return len(self.files[name])

    def ends(self, name, head, tail):
        return self.read(name, 0, head), self.read(name, max(0, self.size(name) - tail))

    def used(self):
        total = 0
        for data in self.files.values():
            total += _blocks(len(data), self.block)
        return total * self.block

    def free(self):
        return self.capacity - self.used()

    def _room(self, name, extra):
        have = len(self.files.get(name, b""))
        need = (_blocks(have + extra, self.block) - _blocks(have, self.block)) * self.block
        if need > self.free():
            raise OSError(28, "no space left on the journal's storage")

    def append(self, name, data):
        self._room(name, len(data))
        if name not in self.files:
            self.files[name] = bytearray()
        self.files[name] += data

    def replace(self, name, data):
        self._room(name + _TMP, len(data))
        self.files[name + _TMP] = bytearray(data)
        self.files[name] = self.files.pop(name + _TMP)

    def remove(self, name):
        if name not in self.files:
            raise OSError(2, "no such file: " + name)
        del self.files[name]


class StorageFileError(ValueError):
    """A FileStorage file that is not one, or is damaged: it is left as it is."""


class FileStorage(MemoryStorage):
    """The journal's files in RAM, saved to one file at `path` after every change.

    The file is written beside (`path`.tmp) and renamed over the old one, so a
    process killed at any moment leaves the old content or the new, never a
    mix: every record whose append() returned is in the file.  Unlike
    FlashStorage on a directory, it keeps a board's capacity (`capacity`
    bytes in blocks), so the journal frees and fills space as on a board.

    The file: a header line, then per journal file a line "<name> <size>
    <crc32>" and its bytes and a newline, then "end <count>".
    """

    def __init__(self, path, capacity=1 << 20, block=4096):
        MemoryStorage.__init__(self, capacity, block)
        self.path = path
        self.saves = 0
        try:
            with open(path, "rb") as f:
                data = f.read()
        except OSError:
            return          # a new journal: the file is made on the first write
        self.files = _unpack(data, path)

    # Each change is made in RAM, then saved; if the save fails the change is
    # undone, so RAM never holds what the file does not (the journal may retry).

    def append(self, name, data):
        self._change(name, MemoryStorage.append, data)

    def replace(self, name, data):
        self._change(name, MemoryStorage.replace, data)

    def remove(self, name):
        self._change(name, MemoryStorage.remove)

    def _change(self, name, how, *data):
        old = self.files.get(name)
        if old is not None:
            old = bytearray(old)
        how(self, name, *data)
        try:
            self.save()
        except OSError:
            if old is None:
                self.files.pop(name, None)
            else:
                self.files[name] = old
            raise

    def save(self):
        """Write every file to `path` (all or nothing)."""
        tmp = self.path + _TMP
        with open(tmp, "wb") as f:
            if hasattr(os, "fchmod"):
                os.fchmod(f.fileno(), 0o600)    # a laptop's file: the games in it are its user's alone
            f.write(_MAGIC)
            names = sorted(self.files)
            for name in names:
                data = self.files[name]
                f.write(("%s %d %08x\n" % (name, len(data), crc32(data))).encode())
                f.write(data)
                f.write(b"\n")
            f.write(("end %d\n" % len(names)).encode())
            f.flush()
            if hasattr(os, "fsync"):
                os.fsync(f.fileno())     # on disk before it replaces the old file (a power cut of the laptop)
        rename = getattr(os, "replace", os.rename)   # os.rename will not replace a file on Windows
        rename(tmp, self.path)
        self.saves += 1


def _unpack(data, path):
    """The files held in a FileStorage file; StorageFileError when it is not one or is damaged."""
    def bad(why):
        return StorageFileError("%s is not a Sowlight journal file (%s): give another file, or move this one "
                                "aside; it was not changed" % (path, why))
    if not data.startswith(_MAGIC):
        raise bad("it does not start with the journal's header")
    files = {}
    i = len(_MAGIC)
    while True:
        j = data.find(b"\n", i)
        if j < 0:
            raise bad("it ends before its last line")
        try:
            head = data[i:j].decode().split(" ")
        except ValueError:        # UnicodeError: not text
            raise bad("a damaged line at byte %d" % i)
        if head[0] == "end" and len(head) == 2:
            if head[1] != str(len(files)) or j + 1 != len(data):
                raise bad("its end does not match its content")
            return files
        try:
            name, size, crc = head[0], int(head[1]), int(head[2], 16)
        except (IndexError, ValueError):
            raise bad("a damaged line at byte %d" % i)
        body = data[j + 1:j + 1 + size]
        if len(body) != size or crc32(body) != crc or data[j + 1 + size:j + 2 + size] != b"\n":
            raise bad("the content of %s is damaged" % name)
        files[name] = bytearray(body)
        i = j + 2 + size
