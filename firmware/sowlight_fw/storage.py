"""Where the journal's files live: a tiny interface the journal uses, nothing more.

    names()               the files there
    read(name)            a file's bytes
    append(name, data)    add bytes at its end (creating it)
    replace(name, data)   make a file hold exactly `data`, all or nothing
    remove(name)
    free()                bytes still free for files

FlashStorage is a directory of the board's filesystem (littlefs on the Pico and
ESP32 ports, any directory on CPython); MemoryStorage keeps files in RAM (the
virtual board, tests); FileStorage is a MemoryStorage saved whole to one file
after every change (the virtual board's `--journal FILE`).  Tests wrap any of
them to cut the power at a chosen byte.  The two in RAM are memstorage.py's
(a board keeps only this module loaded); they are read here as before.
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


def __getattr__(name):
    # The storages in RAM (memstorage.py: the virtual board, tests), for whoever asks for them.
    if name in ("MemoryStorage", "FileStorage", "StorageFileError"):
        from . import memstorage
        return getattr(memstorage, name)
    from .unload import missing
    raise missing(__name__, name)
