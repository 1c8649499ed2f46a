"""Shared pytest fixtures. Keep each fixture small and documented; add new ones below."""

import os
import sys
from pathlib import Path

import pytest

# mpvm.py sits next to this file; make it importable whatever pytest's import mode.
_TESTS_DIR = str(Path(__file__).resolve().parent)
if _TESTS_DIR not in sys.path:
    sys.path.insert(0, _TESTS_DIR)

import mpvm  # noqa: E402

# In CI, property tests draw the same examples every run: a red run must mean a
# change broke something, not that a new random seed was drawn.  Locally they
# explore new examples each run (and remember failures in .hypothesis/).
from hypothesis import settings as _hypothesis_settings  # noqa: E402

_hypothesis_settings.register_profile("ci", derandomize=True, database=None)
if os.environ.get("CI"):
    _hypothesis_settings.load_profile("ci")


def _need_micropython():
    """Fails (does not skip) when node or the npm package is missing, so a CI
    without them cannot pass by accident. People without Node.js can set
    SOWLIGHT_ALLOW_NO_MICROPYTHON=1 to skip these tests instead."""
    problem = mpvm.find_problem()
    if problem:
        if os.environ.get("SOWLIGHT_ALLOW_NO_MICROPYTHON") == "1":
            pytest.skip("MicroPython VM unavailable (SOWLIGHT_ALLOW_NO_MICROPYTHON=1): " + problem)
        pytest.fail(
            "MicroPython VM unavailable: %s\nRun `bash tools/test.sh` to install what the tests need "
            "(or set SOWLIGHT_ALLOW_NO_MICROPYTHON=1 to skip the MicroPython tests)." % problem,
            pytrace=False,
        )


@pytest.fixture(scope="session")
def micropython():
    """A mpvm.MicroPythonVM: runs code on the real MicroPython VM (fresh VM per call)."""
    _need_micropython()
    vm = mpvm.MicroPythonVM()
    yield vm
    vm.close()


@pytest.fixture
def needs_vm():
    """For tests that start a VM board (sowlight.simulation.vmboard): the MicroPython VM it runs on is there."""
    _need_micropython()


def _need(problem, install):
    """A missing prerequisite: a failure in CI (which must run everything), a skip elsewhere."""
    message = "%s: %s" % (problem, install)
    if os.environ.get("CI"):
        pytest.fail(message, pytrace=False)
    pytest.skip(message)


@pytest.fixture(scope="session")
def firmware_image(tmp_path_factory):
    """The firmware image's .uf2 (its .bin and the RP2040 boot ROM beside it), built as a user builds it.

    $SOWLIGHT_FIRMWARE_IMAGE names a prebuilt .uf2; otherwise `sowlight firmware build`
    runs from the MicroPython sources in $SOWLIGHT_MICROPYTHON, into build/test-firmware
    (kept between runs: a rebuild after an app change takes seconds).
    """
    from sowlight import cli
    from sowlight.firmware import image as fw
    prebuilt = os.environ.get("SOWLIGHT_FIRMWARE_IMAGE")
    if prebuilt:
        if not os.path.isfile(prebuilt):
            _need("SOWLIGHT_FIRMWARE_IMAGE=%s does not exist" % prebuilt, "unset it or build the image")
        return Path(prebuilt)
    if not os.environ.get(fw.SOURCES_ENV):
        _need("no MicroPython sources for the firmware image",
              "set %s to a MicroPython v1.27.0 checkout with the rp2 submodules, or a tarball of one "
              "(docs/development.md)" % fw.SOURCES_ENV)
    missing = fw.missing_tools()
    if missing:
        _need("the firmware build needs %s" % ", ".join(missing), "sudo " + fw.APT)
    root = Path(__file__).resolve().parent.parent / "build" / "test-firmware"
    out = root / "image"
    argv = ["firmware", "build", "--out", str(out), "--build-dir", str(root / "work")]
    if cli.main(argv) != 0:
        pytest.fail("`sowlight %s` failed (its log: %s)" % (" ".join(argv), root / "work" / "build.log"), pytrace=False)
    return out / fw.image_name("RPI_PICO", "1.27.0", "uf2")


@pytest.fixture
def archive_in_tmp(tmp_path, monkeypatch):
    """The archive every game of the test goes into (SOWLIGHT_DB): never the user's. Its path."""
    path = str(tmp_path / "archive.sqlite3")
    monkeypatch.setenv("SOWLIGHT_DB", path)
    return path


@pytest.fixture
def fake_mp(monkeypatch):
    """The fake machine and neopixel modules of tests/micropython/fakes, importable by name for
    the test's duration: the fake machine."""
    from fakeload import load_fake
    monkeypatch.delitem(sys.modules, "machine", raising=False)
    monkeypatch.delitem(sys.modules, "neopixel", raising=False)
    machine = load_fake("machine", register=True)
    load_fake("neopixel", register=True)
    machine.world.reset()
    yield machine
    sys.modules.pop("machine", None)
    sys.modules.pop("neopixel", None)
