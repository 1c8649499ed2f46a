"""The project as pip builds it: a wheel holds every package of the three roots, not only the ones
named by hand (a wheel without sowlight_fw.link could not even open a board's link)."""
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ROOTS = ("rules", "host", "firmware")


def packages_on_disk():
    found = set()
    for top in ROOTS:
        for init in (ROOT / top).rglob("__init__.py"):
            found.add(init.parent.relative_to(ROOT / top).as_posix())
    return found


def test_the_wheel_holds_every_package_and_module_of_the_checkout(tmp_path):
    # Built from a copy: setuptools would take the checkout's build/lib, left by an earlier build, into it.
    src = tmp_path / "src"
    for top in ROOTS:
        shutil.copytree(ROOT / top, src / top, ignore=shutil.ignore_patterns("__pycache__", "node_modules"))
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(ROOT / name, src / name)
    done = subprocess.run([sys.executable, "-m", "pip", "wheel", str(src), "--no-deps", "--no-build-isolation",
                           "-q", "-w", str(tmp_path / "dist")], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    (wheel,) = (tmp_path / "dist").glob("sowlight-*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    packages = packages_on_disk()
    assert {"mancala", "mancala/variants", "sowlight", "sowlight_fw", "sowlight_fw/link"} <= packages
    for package in packages:
        assert package + "/__init__.py" in names, package
    for top in ROOTS:
        for module in (ROOT / top).rglob("*.py"):
            rel = module.relative_to(ROOT / top).as_posix()
            if "/" in rel:      # firmware/main.py and manifest.py are the build's, not a package's
                assert rel in names, rel
    for data in ("sowlight/web/static/index.html", "sowlight/simulation/emuboard/runner.mjs",
                 "sowlight/simulation/vmboard/bridge.mjs"):
        assert data in names
