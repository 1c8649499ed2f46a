"""`sowlight firmware build`: the image a Pico is flashed with, and what the build says when it cannot run.

The image itself boots and plays in tests/test_emu_board.py (on an emulated RP2040).
"""
import os
import re
import shutil
import struct
import subprocess
import sys
from pathlib import Path

import pytest

from sowlight import cli
from sowlight.firmware import image as fw

UF2_MAGIC = (0x0A324655, 0x9E5D5157, 0x0AB16F30)
UF2_FLAG_FAMILY = 0x00002000


def _uf2_blocks(data):
    assert len(data) % 512 == 0
    for i in range(0, len(data), 512):
        block = data[i:i + 512]
        m0, m1, flags, addr, size, number, total, family = struct.unpack_from("<8I", block)
        assert (m0, m1) == UF2_MAGIC[:2] and struct.unpack_from("<I", block, 508)[0] == UF2_MAGIC[2]
        yield flags, addr, size, number, total, family, block[32:32 + size]


def test_the_image_holds_sowlight_frozen_and_the_uf2_matches_the_bin(firmware_image):
    uf2 = firmware_image
    assert uf2.name == "sowlight-%s-RPI_PICO-micropython-1.27.0.uf2" % fw.sowlight_version()
    binary = uf2.with_suffix(".bin").read_bytes()
    blocks = list(_uf2_blocks(uf2.read_bytes()))
    assert blocks[0][1] == fw.FLASH_BASE
    assert all(b[0] & UF2_FLAG_FAMILY and b[5] == fw.UF2_FAMILY_RP2040 for b in blocks)
    assert [b[3] for b in blocks] == list(range(len(blocks))) and blocks[0][4] == len(blocks)
    payload = b"".join(b[6] for b in blocks)
    assert payload[:len(binary)] == binary
    # The app's modules and the rules core are frozen in (their names are in the image), and it
    # still fits below the filesystem, which starts 640 KB into the flash.
    for name in (b"sowlight_fw/controller/__init__.py", b"sowlight_fw/follow/follower.py", b"mancala/game.py",
                 b"mancala/variants/omweso.py", b"main.py", b"neopixel.py"):
        assert name in binary, name
    assert b"sowlight_fw/virtual.py" not in binary                 # the virtual board never goes on one
    assert len(binary) < 0xA0000
    assert (uf2.parent / fw.BOOTROM).stat().st_size == 16384


def test_without_the_toolchain_the_build_names_what_to_install(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("PATH", str(tmp_path))        # no compiler, no cmake, no make
    code = cli.main(["firmware", "build", "--micropython", str(tmp_path), "--build-dir", str(tmp_path / "b")])
    err = capsys.readouterr().err
    assert code == 1
    assert "arm-none-eabi-gcc, cmake, make" in err
    assert "apt-get install gcc-arm-none-eabi libnewlib-arm-none-eabi libstdc++-arm-none-eabi-newlib" in err
    assert "Traceback" not in err


def _checkout(root, version=(1, 27, 0), submodules=True):
    (root / "py").mkdir(parents=True)
    (root / "py" / "mpconfig.h").write_text("".join("#define MICROPY_VERSION_%s (%d)\n" % (w, v)
                                                    for w, v in zip(("MAJOR", "MINOR", "MICRO"), version)))
    if submodules:
        for sub in ("lib/pico-sdk/src", "lib/tinyusb/src", "lib/micropython-lib/micropython"):
            (root / sub).mkdir(parents=True)
    return root


@pytest.mark.parametrize("make, said", [
    (None, "where are MicroPython's sources? Give --micropython DIR"),
    (lambda p: p / "empty", "is neither a MicroPython checkout nor a tarball of one"),
    (lambda p: _checkout(p / "mp", (1, 26, 1)), "holds MicroPython 1.26.1; Sowlight's image is built from v1.27"),
    (lambda p: _checkout(p / "mp", submodules=False), "run `make -C ports/rp2 BOARD=RPI_PICO submodules`"),
])
def test_sources_that_cannot_make_the_image_are_refused_with_what_to_do(tmp_path, monkeypatch, make, said):
    monkeypatch.delenv(fw.SOURCES_ENV, raising=False)
    monkeypatch.setattr(fw, "missing_tools", lambda: [])
    where = make(tmp_path) if make else None
    with pytest.raises(fw.BuildError) as e:
        fw.build(micropython=str(where) if where else None, build_dir=str(tmp_path / "b"),
                             out=str(tmp_path / "o"))
    assert said in str(e.value)


def test_an_unknown_board_is_refused(tmp_path, capsys):
    assert cli.main(["firmware", "build", "--board", "PYBV11", "--build-dir", str(tmp_path)]) == 1
    assert "no image is known for board 'PYBV11': the boards are RPI_PICO" in capsys.readouterr().err


def test_a_build_folder_that_froze_another_copy_of_the_app_freezes_this_one(firmware_image, tmp_path):
    """The build folder (one per user by default) is shared by every clone: the app frozen is the
    one whose `sowlight` runs, even where the other copy's compiled modules are newer."""
    repo = Path(__file__).resolve().parent.parent
    work = repo / "build" / "test-firmware" / "work"          # the folder the image above was built in
    copy = tmp_path / "clone"
    shutil.copytree(repo / "firmware", copy / "firmware")
    shutil.copytree(repo / "rules" / "mancala", copy / "rules" / "mancala")
    mark = "built from the other clone %d" % id(copy)
    with open(copy / "firmware" / "main.py", "a") as f:
        f.write("\n_CLONE = %r\n" % mark)
    # The sources of the first build are older than the compiled modules it left in the folder.
    old = (repo / "firmware" / "main.py").stat().st_mtime - 3600
    for p in (copy / "firmware").rglob("*.py"):
        os.utime(p, (old, old))

    def build(pythonpath, out):
        env = dict(os.environ, PYTHONPATH=os.pathsep.join(pythonpath))
        done = subprocess.run([sys.executable, "-m", "sowlight", "firmware", "build", "--build-dir", str(work),
                               "--out", str(out)], env=env, capture_output=True, text=True)
        assert done.returncode == 0, done.stderr
        return done.stderr, (out / firmware_image.name).with_suffix(".bin").read_bytes()

    said, binary = build([str(copy / "firmware"), str(copy / "rules")], tmp_path / "other")
    assert "the build folder last froze %s: freezing %s instead" % (repo / "firmware" / "manifest.py",
                                                                   copy / "firmware" / "manifest.py") in said
    assert mark.encode() in binary
    said, binary = build([], tmp_path / "this")                 # and back, for the next run
    assert mark.encode() not in binary and b"sowlight_fw/controller/__init__.py" in binary


def test_a_build_folder_moved_from_elsewhere_is_configured_afresh(firmware_image, tmp_path):
    """A build folder copied or moved (a user's data folder restored elsewhere) holds a cmake cache
    made from other sources, which cmake refuses: the build configures that folder afresh."""
    import fcntl
    # The moved folder is this test's own: the shared one is built in by the other test workers,
    # and a cache rewritten under a build that holds it would fail that build.
    shared = Path(__file__).resolve().parent.parent / "build" / "test-firmware" / "work"
    with open(shared / ".lock", "a") as held:
        fcntl.flock(held, fcntl.LOCK_EX)
        text = (shared / "build-RPI_PICO-1.27.0" / "CMakeCache.txt").read_text()
    home = re.search(r"^CMAKE_HOME_DIRECTORY:INTERNAL=(.*)$", text, re.M).group(1)
    elsewhere = "/elsewhere/src/micropython-1.27.0/ports/rp2"
    work = tmp_path / "work"
    cache = work / "build-RPI_PICO-1.27.0" / "CMakeCache.txt"
    cache.parent.mkdir(parents=True)
    cache.write_text(text.replace(home, elsewhere))
    sources = str(Path(home).parent.parent)                    # the checkout the shared folder used
    done = subprocess.run([sys.executable, "-m", "sowlight", "firmware", "build", "--micropython", sources,
                           "--build-dir", str(work), "--out", str(tmp_path / "out")], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert "the build folder was configured from %s: configuring it afresh for %s" % (elsewhere, home) in done.stderr
    assert "CMake Error" not in done.stderr
    binary = (tmp_path / "out" / firmware_image.name).with_suffix(".bin").read_bytes()
    assert b"sowlight_fw/controller/__init__.py" in binary
    assert home in cache.read_text()


def test_a_second_build_in_the_same_folder_waits_for_the_first(firmware_image, tmp_path):
    """Two builds in one folder (two terminals, two test workers) would unpack and compile over each
    other: the second says it waits, and goes on once the first lets the folder go."""
    import fcntl
    work = Path(__file__).resolve().parent.parent / "build" / "test-firmware" / "work"
    with open(work / ".lock", "a") as held:
        fcntl.flock(held, fcntl.LOCK_EX)            # as a first build does for its whole run
        second = subprocess.Popen([sys.executable, "-m", "sowlight", "firmware", "build", "--build-dir", str(work),
                                   "--out", str(tmp_path)], stderr=subprocess.PIPE, text=True)
        said = second.stderr.readline()
        assert "another build is using %s: waiting for it to finish" % work in said
        try:
            second.wait(timeout=3)
        except subprocess.TimeoutExpired:
            pass
        assert second.poll() is None                # nothing built while the folder is held
    rest = second.communicate(timeout=600)[1]
    assert second.returncode == 0, rest
    # The same image, but for the build date MicroPython's banner carries (a build either side of
    # midnight differs there only); a prebuilt image (SOWLIGHT_FIRMWARE_IMAGE) may be another
    # checkout's, so the second build is only checked to be an image then.
    def undated(uf2):
        return re.sub(rb" on \d{4}-\d{2}-\d{2}\x00", b" on DATE\x00", uf2.with_suffix(".bin").read_bytes())
    if os.environ.get("SOWLIGHT_FIRMWARE_IMAGE"):
        assert (tmp_path / firmware_image.name).read_bytes()[:4] == b"UF2\n"
    else:
        assert undated(tmp_path / firmware_image.name) == undated(firmware_image)
    assert not list(tmp_path.glob("*.tmp"))
