"""Flashing the image: the Pico's BOOTSEL drive found and written, and `sowlight deploy`'s image plan.

A whole image deploy to a running board is in tests/test_emu_board.py.
"""
import json
import subprocess
import sys

import pytest

from sowlight.firmware import flash

INFO_TEXT = "UF2 Bootloader v3.0\r\nModel: Raspberry Pi RP2\r\nBoard-ID: RPI-RP2\r\n"


def bootsel_drive(path):
    path.mkdir(parents=True)
    (path / "INFO_UF2.TXT").write_text(INFO_TEXT)
    (path / "INDEX.HTM").write_text("<html></html>")
    return path


def test_a_mounted_bootsel_drive_is_found_among_the_mounts(tmp_path):
    drive = bootsel_drive(tmp_path / "media" / "me" / "RPI RP2")     # a space: \040 in /proc/mounts
    other = tmp_path / "usbstick"
    other.mkdir()
    (other / "INFO_UF2.TXT").write_text("UF2 Bootloader\nBoard-ID: SAMD21\n")    # another UF2 board
    mounts = tmp_path / "mounts"
    mounts.write_text("proc /proc proc rw 0 0\n/dev/sdb1 %s vfat rw 0 0\n/dev/sdc1 %s vfat rw 0 0\n" % (
        str(drive).replace(" ", "\\040"), other))
    assert flash.find_drives("linux", str(mounts)) == [str(drive)]
    assert flash.wait_for_drive(0, "linux", str(mounts)) == str(drive)
    mounts.write_text("")
    assert flash.wait_for_drive(0.3, "linux", str(mounts), poll=0.1) is None


def test_the_image_is_copied_whole_onto_the_drive(tmp_path):
    drive = bootsel_drive(tmp_path / "RPI-RP2")
    uf2 = tmp_path / "sowlight.uf2"
    uf2.write_bytes(bytes(range(256)) * 2048)
    assert flash.flash(str(uf2), str(drive)) == "copied to %s" % drive
    assert (drive / "sowlight.uf2").read_bytes() == uf2.read_bytes()


def test_what_is_not_a_bootsel_drive_and_a_missing_image_are_refused(tmp_path, monkeypatch):
    uf2 = tmp_path / "x.uf2"
    uf2.write_bytes(b"\0" * 512)
    with pytest.raises(flash.FlashError, match="is not a Pico in BOOTSEL mode"):
        flash.flash(str(uf2), str(tmp_path))
    with pytest.raises(flash.FlashError, match="build one with `sowlight firmware build`"):
        flash.flash(str(tmp_path / "none.uf2"), str(tmp_path))
    monkeypatch.setattr(flash, "picotool", lambda: None)
    with pytest.raises(flash.FlashError, match="hold its BOOTSEL button while plugging it in"):
        flash.flash(str(uf2), None)


def sowlight(*args):
    return subprocess.run([sys.executable, "-m", "sowlight"] + list(args), capture_output=True, text=True, timeout=60)


def test_deploy_dry_run_shows_the_image_plan(tmp_path):
    uf2 = tmp_path / "img.uf2"
    uf2.write_bytes(b"\0" * 4096)
    r = sowlight("deploy", "--preset", "2x6-stores", "--uf2", str(uf2), "--drive", "/media/me/RPI-RP2", "--dry-run")
    assert r.returncode == 0, r.stderr
    assert "image      %s (4 KB)" % uf2 in r.stdout
    assert "copy it to the BOOTSEL drive /media/me/RPI-RP2" in r.stdout
    assert "hardware/boards/2x6-stores.json -> /board.json" in r.stdout
    r = sowlight("deploy", "--preset", "2x6-stores", "--uf2", str(uf2), "--dry-run", "--json")
    assert json.loads(r.stdout)["image"] == str(uf2)


def test_deploy_without_an_image_says_how_to_build_one(tmp_path):
    r = sowlight("deploy", "--port", "/dev/null", "--preset", "2x6-stores", "--uf2", str(tmp_path / "none.uf2"))
    assert r.returncode == 1
    assert "no firmware image at" in r.stderr and "sowlight firmware build" in r.stderr
    assert "Traceback" not in r.stderr
