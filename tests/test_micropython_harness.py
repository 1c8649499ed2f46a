"""The MicroPython test harness itself (tests/mpvm.py + tests/micropython/runner.mjs).

Every other test that runs device code on MicroPython trusts these behaviours:
output comes back exactly, failures carry the MicroPython traceback, runs are
isolated, the project's packages are where a board would have them, heap
figures mean what docs/development.md says, and a hung run cannot hang pytest.
"""

import os

import pytest

import mpvm


def test_output_comes_back_exactly(micropython):
    assert micropython.run("print(6 * 7)\nprint('a', 'b', sep='-')") == "42\na-b\n"


def test_output_without_final_newline_is_kept(micropython):
    assert micropython.run("print('no newline', end='')") == "no newline"


def test_exception_carries_the_micropython_traceback(micropython):
    code = "def explode():\n    raise ValueError('boom')\n\nprint('before')\nexplode()\n"
    with pytest.raises(mpvm.MicroPythonError) as caught:
        micropython.run(code)
    error = caught.value
    assert error.exc_type == "ValueError"
    assert error.traceback.startswith("Traceback (most recent call last):")
    assert 'line 2, in explode' in error.traceback
    assert error.traceback.rstrip().endswith("ValueError: boom")
    assert error.output == "before\n"
    # What pytest shows for the failure contains all of it.
    assert "line 2, in explode" in str(error) and "before" in str(error)


def test_syntax_error_is_reported(micropython):
    with pytest.raises(mpvm.MicroPythonError) as caught:
        micropython.run("def broken(:\n    pass\n")
    assert caught.value.exc_type == "SyntaxError"


def test_it_really_is_micropython(micropython):
    out = micropython.run("import sys\nprint(sys.implementation.name)\nprint(sys.implementation.version[:2])")
    assert out == "micropython\n(1, 27)\n"


def test_micropython_const(micropython):
    code = (
        "from micropython import const\n"
        "_PITS = const(6)\n"
        "print(_PITS * 2, type(_PITS).__name__)\n"
    )
    assert micropython.run(code) == "12 int\n"


def test_project_packages_are_laid_out_as_on_a_board(micropython):
    code = (
        "import os\n"
        "print(sorted(n for n in os.listdir('/lib/mancala') if n.endswith('.py')))\n"
        "print(sorted(n for n in os.listdir('/sowlight_fw') if n.endswith('.py')))\n"
    )
    rules = sorted(p.name for p in (mpvm.REPO_ROOT / "rules" / "mancala").glob("*.py"))
    firmware = sorted(p.name for p in (mpvm.REPO_ROOT / "firmware" / "sowlight_fw").glob("*.py"))
    assert micropython.run(code) == "%r\n%r\n" % (rules, firmware)


def test_project_packages_import(micropython):
    out = micropython.run("import mancala, sowlight_fw\nprint(mancala.__file__)\nprint(sowlight_fw.__file__)")
    # sowlight_fw is found through sys.path's '' (the root), as on a board.
    assert out == "/lib/mancala/__init__.py\nsowlight_fw/__init__.py\n"


def test_extra_mount_makes_a_module_importable(micropython, tmp_path):
    package = tmp_path / "harness_probe"
    package.mkdir()
    (package / "__init__.py").write_text("from harness_probe.values import ANSWER\n")
    (package / "values.py").write_text("ANSWER = 41 + 1\n")
    (package / "__pycache__").mkdir()
    (package / "__pycache__" / "junk.pyc").write_bytes(b"not for the VM")
    code = (
        "import harness_probe, os\n"
        "print(harness_probe.ANSWER, harness_probe.__file__)\n"
        "print(sorted(os.listdir('/lib/harness_probe')))\n"
    )
    out = micropython.run(code, mounts={"/lib": tmp_path})
    assert out == "42 /lib/harness_probe/__init__.py\n['__init__.py', 'values.py']\n"


def test_module_is_not_there_without_its_mount(micropython):
    with pytest.raises(mpvm.MicroPythonError) as caught:
        micropython.run("import harness_probe")
    assert caught.value.exc_type == "ImportError"


def test_runs_are_isolated(micropython):
    micropython.run("import sys\nleak = 1\nsys.path.append('/leak')\nopen('/tmp/leak.txt', 'w').write('x')")
    out = micropython.run(
        "import sys, os\n"
        "print('leak' in globals(), '/leak' in sys.path, 'leak.txt' in os.listdir('/tmp'))"
    )
    assert out == "False False False\n"


def test_wasm_only_modules_are_hidden_like_on_a_board(micropython):
    with pytest.raises(mpvm.MicroPythonError) as caught:
        micropython.run("import functools")
    assert caught.value.exc_type == "ImportError"
    assert "stock Pico/ESP32 firmware" in caught.value.traceback
    # Modules a stock board does have stay importable.
    assert micropython.run("import asyncio, json, binascii, struct, select\nprint('ok')") == "ok\n"
    # Test-only code may opt out.
    assert micropython.run("import functools\nprint('ok')", stock_modules=False) == "ok\n"


def test_builtin_modules_lack_the_wasm_extras_like_on_a_board(micropython):
    code = (
        "import time, os, collections, binascii\n"
        "print(hasattr(time, 'ticks_ms'), hasattr(os, 'listdir'), hasattr(collections, 'deque'))\n"
        "print(hasattr(time, 'strftime'), hasattr(os, 'path'), hasattr(collections, 'defaultdict'))\n"
        "print(binascii.crc32(b'123456789') == 0xCBF43926)\n"
    )
    assert micropython.run(code) == "True True True\nFalse False False\nTrue\n"
    assert micropython.run("import os\nprint(hasattr(os, 'path'))", stock_modules=False) == "True\n"


def test_console_input_is_empty_not_the_runner_protocol(micropython):
    # Emscripten would otherwise read the runner's own stdin (its request stream).
    assert micropython.run("import sys\nprint(repr(sys.stdin.read(1)))") == "''\n"


def test_top_level_await_drives_asyncio(micropython):
    code = (
        "import asyncio\n"
        "async def tick(n):\n"
        "    await asyncio.sleep_ms(5)\n"
        "    return n * 2\n"
        "print(await asyncio.gather(tick(1), tick(2)))\n"
    )
    assert micropython.run(code) == "[2, 4]\n"


def test_run_file_names_the_file_in_tracebacks(micropython, tmp_path):
    script = tmp_path / "script.py"
    script.write_text("print('running', __name__)\nraise KeyError('missing')\n")
    with pytest.raises(mpvm.MicroPythonError) as caught:
        micropython.run_file(script)
    assert caught.value.output == "running __main__\n"
    assert 'File "%s", line 2' % script in caught.value.traceback


def test_gc_figures_are_available(micropython):
    out = micropython.run("import gc\nprint(type(gc.mem_alloc()).__name__, gc.mem_alloc() > 0, gc.mem_free() > 0)")
    assert out == "int True True\n"


def test_in_snippet_collection_needs_a_yield_to_javascript(micropython):
    # gc.collect() only schedules a collection in this port; it runs when
    # control returns to JavaScript, which an await gives it.
    code = (
        "import gc, asyncio\n"
        "gc.collect()\n"
        "await asyncio.sleep_ms(0)\n"
        "base = gc.mem_alloc()\n"
        "for i in range(100):\n"
        "    scratch = [i] * 100\n"
        "gc.collect()\n"
        "print(gc.mem_alloc() - base > 100 * 100 * 4)\n"
        "await asyncio.sleep_ms(0)\n"
        "print(gc.mem_alloc() - base < 2000)\n"
    )
    assert micropython.run(code) == "True\nTrue\n"


def test_heap_used_counts_what_an_import_keeps(micropython):
    use = micropython.heap_used("import mancala")
    assert isinstance(use.retained, int) and isinstance(use.allocated, int)
    assert use.retained > 0
    assert use.allocated >= use.retained


def test_heap_used_retained_and_allocated_mean_what_they_say(micropython):
    kept = micropython.heap_used("buffer = bytearray(10000)")
    assert 10000 <= kept.retained < 10000 + 512
    assert kept.allocated >= kept.retained

    churn = micropython.heap_used("for i in range(200):\n    scratch = [i] * 16\n")
    assert churn.allocated >= 200 * 16 * 4  # every list allocated, none collected mid-run
    assert churn.retained < 512  # only the last list (and `i`) stays alive

    # What setup does is not counted.
    after_setup = micropython.heap_used("x = 1", setup="big = bytearray(50000)")
    assert after_setup.retained < 512


def test_heap_figures_are_deterministic(micropython):
    # Benchmarks compare figures across runs; they must not wobble.
    code = "table = [i * i for i in range(300)]"
    assert micropython.heap_used(code) == micropython.heap_used(code)


def test_heap_used_reports_errors_like_run(micropython):
    with pytest.raises(mpvm.MicroPythonError) as caught:
        micropython.heap_used("raise OSError(5)")
    assert caught.value.exc_type == "OSError"


def test_a_hung_run_times_out_and_the_vm_recovers(micropython):
    with pytest.raises(mpvm.MicroPythonTimeout) as caught:
        micropython.run("print('started')\nwhile True:\n    pass\n", timeout=1.0)
    assert caught.value.output == "started\n"
    assert isinstance(caught.value, mpvm.MicroPythonError)
    assert micropython.run("print('alive')") == "alive\n"


def test_bad_arguments_are_refused_before_running(micropython, tmp_path):
    with pytest.raises(ValueError, match="not a directory"):
        micropython.run("pass", mounts={"/lib": tmp_path / "missing"})
    with pytest.raises(ValueError, match="absolute VM path"):
        micropython.run("pass", mounts={"lib": tmp_path})
    with pytest.raises(ValueError, match="heap_kb"):
        micropython.run("pass", heap_kb=1)


def test_heap_kb_sets_the_initial_heap(micropython):
    # The port grows its heap on demand, so a small initial heap still runs big code.
    out = micropython.run("import gc\nb = bytearray(200 * 1024)\nprint(len(b))", heap_kb=64)
    assert out == "204800\n"


def test_missing_node_is_explained(monkeypatch):
    monkeypatch.setenv("PATH", os.devnull)
    problem = mpvm.find_problem()
    assert problem is not None and "node" in problem and "tools/test.sh" in problem
