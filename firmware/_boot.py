# The board's boot script, frozen in place of the rp2 port's own (ports/rp2/modules/_boot.py):
# it mounts the flash's littlefs at / as that one does, formatting the flash if it holds no
# filesystem yet, with the same geometry (programming size 256 bytes: the flash's page).  It
# takes the flash from the C module _rp2 where the port's imports rp2 for it: rp2 is the C
# module and a PIO assembler written in Python, whose classes and functions would stay in the
# heap for good (1.3 KB of a board's), and nothing on a Sowlight board assembles PIO code.
import vfs
import _rp2

bdev = _rp2.Flash()
try:
    fs = vfs.VfsLfs2(bdev, progsize=256)
except OSError:     # (no filesystem on the flash yet)
    vfs.VfsLfs2.mkfs(bdev, progsize=256)
    fs = vfs.VfsLfs2(bdev, progsize=256)
vfs.mount(fs, "/")

del vfs, _rp2, bdev, fs
