"""The board's filesystem as the rp2 port keeps it in flash: made and read with littlefs-python.

    image = make({"board.json": b"...", "main.py": b"..."})     # bytes, FS_SIZE long
    files = read(image)                                         # {"journal/g0001.j": b"...", ...}
    image = put(image, {"board.json": b"..."})                  # the same filesystem, files replaced

MicroPython 1.27's rp2 port on a Raspberry Pi Pico (2 MB flash) keeps a littlefs v2
filesystem in the flash from offset 0xA0000 to the end: 1408 KB, 4 KB blocks, mounted
by its _boot.py with `VfsLfs2(bdev, progsize=256)` (read size and lookahead 32).
"""
FS_OFFSET = 0xA0000
FS_SIZE = 1408 * 1024
BLOCK = 4096


class FlashFsError(ValueError):
    """The file is no filesystem of a Pico's flash; the message says what to do."""


def _littlefs():
    try:
        import littlefs
    except ImportError:
        raise FlashFsError("the emulated board's flash is made and read with littlefs-python: "
                           "pip install littlefs-python") from None
    return littlefs


def _fs(buffer=None):
    lfs = _littlefs()
    ctx = lfs.UserContext(FS_SIZE)
    if buffer is not None:
        ctx.buffer[:] = buffer
    return lfs.LittleFS(context=ctx, block_size=BLOCK, block_count=FS_SIZE // BLOCK, read_size=32,
                        prog_size=256, lookahead_size=32, mount=buffer is not None), ctx


def _write(fs, files):
    for name, data in files.items():
        parent = name.rpartition("/")[0]
        if parent:
            fs.makedirs(parent, exist_ok=True)
        with fs.open(name, "wb") as f:
            f.write(data)


def make(files):
    """A fresh filesystem holding `files` ({path: bytes}), as the flash region's bytes."""
    fs, ctx = _fs()
    fs.format()
    fs.mount()
    _write(fs, files)
    fs.unmount()
    return bytes(ctx.buffer)


def _mounted(image):
    if len(image) != FS_SIZE:
        raise FlashFsError("a Pico's filesystem image is %d bytes (1408 KB), this one is %d: give a file the "
                           "emulated board wrote (--journal), or a new name to start one" % (FS_SIZE, len(image)))
    lfs = _littlefs()
    try:
        return _fs(image)
    except lfs.LittleFSError as e:
        raise FlashFsError("no littlefs filesystem in it (%s): give a file the emulated board wrote "
                           "(--journal), or a new name to start one" % e) from None


def read(image):
    """Every file of the filesystem image: {path: bytes}."""
    fs, _ = _mounted(image)
    out = {}
    for root, _dirs, names in fs.walk("/"):
        for name in names:
            path = (root.rstrip("/") + "/" + name).lstrip("/")
            with fs.open(path, "rb") as f:
                out[path] = f.read()
    fs.unmount()
    return out


def put(image, files):
    """The image with `files` written into it (others kept)."""
    fs, ctx = _mounted(image)
    _write(fs, files)
    fs.unmount()
    return bytes(ctx.buffer)
