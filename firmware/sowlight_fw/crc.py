"""CRC-32 (IEEE 802.3, the one zlib and binascii compute) for the link frames.

`crc32(data, crc=0)` has the signature and results of `binascii.crc32`.  It is
binascii's C routine where the port has it (CPython always; MicroPython when
built with MICROPY_PY_BINASCII_CRC32, on by default for rp2 and esp32), and the
pure-Python routine of crcpure.py otherwise (`crc.crc32_pure` is that one, for
tests; a board with the C routine never loads it).
"""
try:
    from binascii import crc32 as _c_crc32
except ImportError:  # pragma: no cover - a port without binascii
    _c_crc32 = None

if _c_crc32 is None:
    from .crcpure import crc32_pure as crc32
    NATIVE = False
else:
    def crc32(data, crc=0):
        """CRC-32 of `data` (bytes-like), continuing from `crc`."""
        # CPython returns an unsigned value; some old MicroPython builds a
        # signed one.  The mask makes both unsigned.
        return _c_crc32(data, crc) & 0xFFFFFFFF
    NATIVE = True


def __getattr__(name):
    if name == "crc32_pure":
        from .crcpure import crc32_pure
        return crc32_pure
    from .unload import missing
    raise missing(__name__, name)
