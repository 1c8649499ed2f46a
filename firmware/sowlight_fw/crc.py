"""CRC-32 (IEEE 802.3, the one zlib and binascii compute) for the link frames and the journal.

`crc32(data, crc=0)` has the signature and results of `binascii.crc32`.  It is
binascii's C routine where the port has it (CPython always; MicroPython when
built with MICROPY_PY_BINASCII_CRC32, on by default for rp2 and esp32), and
crc32_pure(), the same in Python, otherwise.

crc32_pure keeps the 32-bit register as two 16-bit halves: on a 32-bit
MicroPython port a small int holds only 31 bits, so a CRC value above 2**30
would be a heap-allocated big int at every byte; two halves never are.
"""
try:
    from micropython import const
except ImportError:  # CPython
    def const(x):
        return x

try:
    from binascii import crc32 as _c_crc32
except ImportError:  # pragma: no cover - a port without binascii
    _c_crc32 = None

_POLY_HI = const(0xEDB8)  # the reflected polynomial 0xEDB88320, high half
_POLY_LO = const(0x8320)  # ... and low half

_table_hi = None  # built on first use of the pure routine: 2 x 256 16-bit values
_table_lo = None


def _build_tables():
    global _table_hi, _table_lo
    try:
        from array import array
        hi = array("H", bytes(512))
        lo = array("H", bytes(512))
    except ImportError:  # a port without the array module
        hi = [0] * 256
        lo = [0] * 256
    for i in range(256):
        h = 0
        l = i
        for _ in range(8):
            if l & 1:
                l = ((l >> 1) | ((h & 1) << 15)) ^ _POLY_LO
                h = (h >> 1) ^ _POLY_HI
            else:
                l = (l >> 1) | ((h & 1) << 15)
                h >>= 1
        hi[i] = h
        lo[i] = l
    _table_hi = hi
    _table_lo = lo


def crc32_pure(data, crc=0):
    """CRC-32 of `data` (bytes-like), continuing from `crc`; no C helper needed."""
    if _table_hi is None:
        _build_tables()
    th = _table_hi
    tl = _table_lo
    h = (crc >> 16) ^ 0xFFFF
    l = (crc & 0xFFFF) ^ 0xFFFF
    for b in data:
        i = (l ^ b) & 0xFF
        l = tl[i] ^ (((h & 0xFF) << 8) | (l >> 8))
        h = th[i] ^ (h >> 8)
    return ((h ^ 0xFFFF) << 16) | (l ^ 0xFFFF)


if _c_crc32 is None:
    crc32 = crc32_pure
    NATIVE = False
else:
    def crc32(data, crc=0):
        """CRC-32 of `data` (bytes-like), continuing from `crc`."""
        # CPython returns an unsigned value; some old MicroPython builds a
        # signed one.  The mask makes both unsigned.
        return _c_crc32(data, crc) & 0xFFFFFFFF
    NATIVE = True
