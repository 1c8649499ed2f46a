"""Where the journal's files live: a tiny interface the journal uses, nothing more.

    names()               the files there
    read(name)            a file's bytes
    append(name, data)    add bytes at its end (creating it)
    replace(name, data)   make a file hold exactly `data`, all or nothing
    remove(name)
    free()                bytes still free for files

FlashStorage is a directory of the board's filesystem (littlefs on the Pico and
ESP32 ports, any directory on CPython); MemoryStorage keeps files in RAM (the
virtual board, tests).  Tests wrap either to cut the power at a chosen byte.
"""
import os

_TMP = ".tmp"


class FlashStorage:
    def __init__(self, root="/journal"):
        self.root = root
        try:
            os.mkdir(root)
        except OSError:
            pass  # it exists (or the filesystem will say why on the first write)

    def _path(self, name):
        return self.root + "/" + name

    def names(self):
        return [n for n in os.listdir(self.root)]

    def read(self, name):
        with open(self._path(name), "rb") as f:
            return f.read()

    def size(self, name):
        return os.stat(self._path(name))[6]

    def append(self, name, data):
        # One open/write/close per record: littlefs commits the file at close,
        # so a power cut leaves the file as it was or with the whole write.
        with open(self._path(name), "ab") as f:
            f.write(data)

    def replace(self, name, data):
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
        os.remove(self._path(name))

    def free(self):
        st = os.statvfs(self.root)
        return st[0] * st[4]      # block size x blocks available


class MemoryStorage:
    """Files in RAM; `capacity` bytes in blocks of `block` (littlefs gives each file whole blocks)."""

    def __init__(self, capacity=1 << 20, block=4096):
        self.files = {}
        self.capacity = capacity
        self.block = block

    def names(self):
        return list(self.files)

    def read(self, name):
        if name not in self.files:
            raise OSError(2, "no such file: " + name)
        return bytes(self.files[name])

    def size(self, name):
        return len(self.files[name])

    def _blocks(self, n):
        return (n + self.block - 1) // self.block

    def used(self):
        total = 0
        for data in self.files.values():
            total += self._blocks(len(data))
        return total * self.block

    def free(self):
        return self.capacity - self.used()

    def _room(self, name, extra):
        have = len(self.files.get(name, b""))
        need = (self._blocks(have + extra) - self._blocks(have)) * self.block
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
