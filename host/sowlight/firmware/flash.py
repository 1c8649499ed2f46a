"""Writing a firmware image to a Pico: the drive it shows in BOOTSEL mode, or picotool.

    drives = find_drives()                  # mounted RPI-RP2 drives
    how = flash("sowlight-....uf2", drive)  # "copied to /media/me/RPI-RP2" or "picotool load"

A Pico held in BOOTSEL mode (the BOOTSEL button held while it is plugged in, or
a running MicroPython told `machine.bootloader()`) shows a USB drive named
RPI-RP2 whose INFO_UF2.TXT names the board; a .uf2 copied onto it is written
to flash and the Pico restarts into it.  picotool does the same over USB
without a drive, where it is installed.
"""
import os
import shutil
import subprocess
import sys
import time

INFO = "INFO_UF2.TXT"
BOARD_ID = "RPI-RP2"


class FlashError(Exception):
    """The image could not be written; the message says what to do."""


def is_drive(path):
    """Whether `path` is a Pico's BOOTSEL drive (its INFO_UF2.TXT names the RPI-RP2 bootloader)."""
    try:
        with open(os.path.join(path, INFO), encoding="ascii", errors="replace") as f:
            return ("Board-ID: %s" % BOARD_ID) in f.read(4096)
    except OSError:
        return False


def _mount_points(mounts="/proc/mounts"):
    try:
        with open(mounts) as f:
            lines = f.read().splitlines()
    except OSError:
        return []
    # /proc/mounts writes a space in a path as \040 (and a tab, newline, backslash likewise).
    return [line.split()[1].encode().decode("unicode_escape") for line in lines if len(line.split()) > 1]


def candidates(platform=None, mounts="/proc/mounts"):
    """Where a BOOTSEL drive may be mounted on this platform."""
    platform = sys.platform if platform is None else platform
    if platform.startswith("win"):
        return ["%s:\\" % letter for letter in "DEFGHIJKLMNOPQRSTUVWXYZ"]
    if platform == "darwin":
        try:
            return [os.path.join("/Volumes", name) for name in sorted(os.listdir("/Volumes"))]
        except OSError:
            return []
    return _mount_points(mounts)


def find_drives(platform=None, mounts="/proc/mounts"):
    return [path for path in candidates(platform, mounts) if is_drive(path)]


def wait_for_drive(seconds, platform=None, mounts="/proc/mounts", poll=0.25, path=None):
    """The first BOOTSEL drive to appear within `seconds` (None if none does); with `path`, that
    folder once it is one (where a desktop mounts the drive)."""
    deadline = time.monotonic() + seconds
    while True:
        found = ([path] if is_drive(path) else []) if path is not None else find_drives(platform, mounts)
        if found:
            return found[0]
        if time.monotonic() >= deadline:
            return None
        time.sleep(poll)


def picotool():
    return shutil.which("picotool")


def flash(uf2, drive=None):
    """Write the image; says how it was done. drive=None uses picotool (a Pico in BOOTSEL on USB)."""
    if not os.path.isfile(uf2):
        raise FlashError("no image at %s: build one with `sowlight firmware build`" % uf2)
    if drive is not None:
        if not is_drive(drive):
            raise FlashError("%s is not a Pico in BOOTSEL mode (no %s naming %s there)" % (drive, INFO, BOARD_ID))
        target = os.path.join(drive, os.path.basename(uf2))
        try:
            with open(uf2, "rb") as src, open(target, "wb") as dst:
                shutil.copyfileobj(src, dst, 64 * 1024)
                dst.flush()
                os.fsync(dst.fileno())
        except OSError as e:
            # The Pico restarts as soon as the last block lands: a late error on close is not a failure.
            if not os.path.exists(target) and getattr(e, "errno", None) != 5:
                raise FlashError("copying the image to %s failed: %s" % (drive, e)) from None
        return "copied to %s" % drive
    tool = picotool()
    if tool is None:
        raise FlashError("no Pico in BOOTSEL mode was found: hold its BOOTSEL button while plugging it in (a drive "
                         "named %s appears), then run this again, or give the drive with --drive DIR" % BOARD_ID)
    result = subprocess.run([tool, "load", "-x", uf2], capture_output=True, text=True, timeout=120)
    if result.returncode != 0:
        raise FlashError("`picotool load -x %s` failed: %s" % (uf2, (result.stdout + result.stderr).strip()[-800:]))
    return "written with picotool"
