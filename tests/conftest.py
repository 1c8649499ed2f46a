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


@pytest.fixture(scope="session")
def micropython():
    """A mpvm.MicroPythonVM: runs code on the real MicroPython VM (fresh VM per call).

    Fails (does not skip) when node or the npm package is missing, so a CI
    without them cannot pass by accident. People without Node.js can set
    SOWLIGHT_ALLOW_NO_MICROPYTHON=1 to skip these tests instead.
    """
    problem = mpvm.find_problem()
    if problem:
        if os.environ.get("SOWLIGHT_ALLOW_NO_MICROPYTHON") == "1":
            pytest.skip("MicroPython VM unavailable (SOWLIGHT_ALLOW_NO_MICROPYTHON=1): " + problem)
        pytest.fail(
            "MicroPython VM unavailable: %s\nRun `bash tools/test.sh` to install what the tests need "
            "(or set SOWLIGHT_ALLOW_NO_MICROPYTHON=1 to skip the MicroPython tests)." % problem,
            pytrace=False,
        )
    vm = mpvm.MicroPythonVM()
    yield vm
    vm.close()


@pytest.fixture
def archive_in_tmp(tmp_path, monkeypatch):
    """The archive every game of the test goes into (SOWLIGHT_DB): never the user's. Its path."""
    path = str(tmp_path / "archive.sqlite3")
    monkeypatch.setenv("SOWLIGHT_DB", path)
    return path
