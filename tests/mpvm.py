"""Run code on a real MicroPython VM from the tests.

The VM is MicroPython 1.27's WebAssembly port (npm package
``@micropython/micropython-webassembly-pyscript``, installed by
``bash tools/test.sh`` into ``tests/micropython/node_modules``), served by
``tests/micropython/runner.mjs`` in one long-lived ``node`` process. Every
request gets a fresh VM whose in-memory filesystem holds a copy of the project's
device code, laid out as on a board:

- ``rules/``    contents -> ``/lib``  (``import mancala``)
- ``firmware/`` contents -> ``/``     (``import sowlight_fw``, ``/main.py``)

plus any extra host directories the caller mounts. Nothing carries over from
one request to the next. See docs/development.md for the whole story.

    vm = MicroPythonVM()
    vm.run("import mancala; print(1 + 1)")           # -> "2\\n"
    vm.heap_used("import mancala").retained          # bytes kept alive
"""

import atexit
import json
import os
import select
import shutil
import subprocess
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent
HARNESS_DIR = REPO_ROOT / "tests" / "micropython"
RUNNER = HARNESS_DIR / "runner.mjs"
PACKAGE = "@micropython/micropython-webassembly-pyscript"

# Host directory -> VM directory, copied into every fresh VM.
PROJECT_MOUNTS = {
    "/lib": REPO_ROOT / "rules",
    "/": REPO_ROOT / "firmware",
}

# The WebAssembly port freezes in micropython-lib modules that stock Raspberry
# Pi Pico and ESP32 firmware do not have. Unless a run asks for
# stock_modules=False, the VM is made to look like a stock board:
# - importing one of these fails, as it would on the board;
WASM_ONLY_MODULES = (
    "abc",
    "base64",
    "copy",
    "datetime",
    "fnmatch",
    "functools",
    "gzip",
    "hmac",
    "html",
    "inspect",
    "itertools",
    "locale",
    "logging",
    "operator",
    "pathlib",
    "stat",
    "string",
    "tarfile",
    "types",
    "unittest",
    "uu",
    "zlib",
)
# - these are micropython-lib packages here that extend the board's built-in C
#   module (os.path, time.strftime, collections.defaultdict, io.SEEK_SET, ...);
#   the VM gives the plain C module instead, as the board does.
WASM_EXTENDED_MODULES = ("binascii", "collections", "io", "os", "time")

DEFAULT_TIMEOUT = 30.0

# VM code (it needs `import js`; run with top-level await): `await each_call(f)` calls f(0), f(1),
# ... each from JavaScript's event loop, until one returns False.  This VM collects its heap only
# when a call from JavaScript returns, never inside Python: a long run split into such calls gives
# the collector its chance between them, as a board's loop does.
EACH_CALL = """
each_call = js.eval("(f) => new Promise((done) => { let k = 0; const next = () => { if (f(k)) { k++; setImmediate(next); }"
                    " else { done(k); } }; setImmediate(next); })")
"""
_START_TIMEOUT = 30.0


class MicroPythonError(Exception):
    """Code run in the VM raised (or the VM itself failed).

    ``exc_type`` is the MicroPython exception's class name (e.g. "ValueError"),
    ``traceback`` the full MicroPython traceback text, ``output`` whatever the
    run printed before it failed.
    """

    def __init__(self, exc_type, traceback, output):
        self.exc_type = exc_type
        self.traceback = traceback
        self.output = output
        message = "MicroPython raised %s\n%s" % (exc_type, traceback.rstrip("\n"))
        if output:
            message += "\n--- output before the error ---\n" + output.rstrip("\n")
        super().__init__(message)


class MicroPythonTimeout(MicroPythonError):
    """The run did not finish in time; the VM process was killed and will be restarted."""

    def __init__(self, seconds, output):
        super().__init__(
            "Timeout",
            "run did not finish within %.1f s (the VM was killed)" % seconds,
            output,
        )
        self.seconds = seconds


class MicroPythonUnavailable(RuntimeError):
    """node or the MicroPython npm package is missing, or the runner would not start."""


@dataclass(frozen=True)
class HeapUse:
    """Heap figures, in bytes, for one piece of code (see MicroPythonVM.heap_used)."""

    retained: int  # still alive after a full collection: modules, globals, caches
    allocated: int  # allocated while running (garbage included): allocation churn
    output: str  # what the code printed


def find_problem():
    """Why the VM cannot run here, as advice for a human; None when it can."""
    if shutil.which("node") is None:
        return (
            "node (Node.js 18 or newer) is not on PATH; the MicroPython tests run the real "
            "MicroPython WebAssembly port under it. Install Node.js, then run `bash tools/test.sh`."
        )
    installed = HARNESS_DIR / "node_modules" / PACKAGE / "package.json"
    wanted = json.loads((HARNESS_DIR / "package.json").read_text())["dependencies"][PACKAGE]
    if not installed.is_file():
        return (
            "the npm package %s is not installed in %s; run `bash tools/test.sh` "
            "(it runs `npm ci --prefix tests/micropython`)." % (PACKAGE, HARNESS_DIR)
        )
    have = json.loads(installed.read_text())["version"]
    if have != wanted:
        return "%s %s is installed but %s is pinned; run `bash tools/test.sh`." % (PACKAGE, have, wanted)
    return None


def _as_mounts(mounts):
    """Validate caller mounts: {vm_dir: host_dir} -> [[vm_dir, abs host_dir], ...]."""
    result = []
    for vm_dir, host_dir in (mounts or {}).items():
        if not isinstance(vm_dir, str) or not vm_dir.startswith("/"):
            raise ValueError("mount point %r must be an absolute VM path such as '/lib'" % (vm_dir,))
        host = Path(host_dir).resolve()
        if not host.is_dir():
            raise ValueError("cannot mount %s at %s: not a directory" % (host, vm_dir))
        result.append([vm_dir, str(host)])
    return result


class MicroPythonVM:
    """A client of one long-lived runner process; each call runs in a fresh VM.

    Calls are serialised (one at a time); the runner is started on first use and
    restarted after a timeout or crash.
    """

    def __init__(self, *, default_timeout=DEFAULT_TIMEOUT, node="node"):
        self.default_timeout = default_timeout
        self._node = node
        self._process = None
        self._replies = None  # read end of the reply pipe
        self._buffer = b""
        self._log = None  # runner's own stdout/stderr, for post-mortems
        self._next_id = 0
        self._lock = threading.Lock()
        self._atexit_registered = False
        self.micropython_version = None

    # --- public API ---------------------------------------------------------

    def run(self, code, *, mounts=None, heap_kb=None, timeout=None, stock_modules=True):
        """Run ``code`` in a fresh VM; return everything it printed.

        ``mounts`` maps VM directories to host directories copied in after the
        project's (e.g. ``{"/lib": tmp_path}``). ``heap_kb`` is the initial GC
        heap: this port grows its heap on demand, so it is not a memory limit.
        Top-level ``await`` is allowed. ``stock_modules=False`` also allows the
        modules and extras only the WebAssembly port has (WASM_ONLY_MODULES,
        WASM_EXTENDED_MODULES).
        Raises MicroPythonError (with the MicroPython traceback) or
        MicroPythonTimeout.
        """
        reply, output = self._request(
            {"op": "run", "code": code},
            mounts=mounts,
            heap_kb=heap_kb,
            timeout=timeout,
            stock_modules=stock_modules,
        )
        return output

    def run_file(self, path, *, mounts=None, heap_kb=None, timeout=None, stock_modules=True):
        """Run a host file as the VM's ``__main__``; tracebacks name the file."""
        path = Path(path).resolve()
        try:
            label = str(path.relative_to(REPO_ROOT))
        except ValueError:
            label = str(path)
        reply, output = self._request(
            {"op": "run", "code": path.read_text(encoding="utf-8"), "filename": label},
            mounts=mounts,
            heap_kb=heap_kb,
            timeout=timeout,
            stock_modules=stock_modules,
        )
        return output

    def heap_used(self, code, *, setup="", mounts=None, heap_kb=None, timeout=None, stock_modules=True):
        """Measure the MicroPython heap cost of ``code`` (run after ``setup``).

        Returns HeapUse(retained, allocated, output), in bytes of GC heap:
        ``retained`` is what stays alive after a full collection (an import's
        modules, objects bound to globals); ``allocated`` is everything the
        code allocated while running, garbage included, as nothing is collected
        mid-run in this port. Whatever ``setup`` does is not counted.
        """
        reply, output = self._request(
            {"op": "heap", "code": code, "setup": setup},
            mounts=mounts,
            heap_kb=heap_kb,
            timeout=timeout,
            stock_modules=stock_modules,
        )
        return HeapUse(retained=reply["retained"], allocated=reply["allocated"], output=output)

    def close(self):
        """Stop the runner process (a later call starts a new one)."""
        with self._lock:
            self._stop()

    def __enter__(self):
        return self

    def __exit__(self, *exc_info):
        self.close()

    # --- plumbing -----------------------------------------------------------

    def _request(self, request, *, mounts, heap_kb, timeout, stock_modules):
        if heap_kb is not None and (not isinstance(heap_kb, int) or heap_kb < 16):
            raise ValueError("heap_kb must be a whole number of KiB, at least 16 (got %r)" % (heap_kb,))
        all_mounts = _as_mounts(PROJECT_MOUNTS) + _as_mounts(mounts)
        timeout = self.default_timeout if timeout is None else timeout
        with self._lock:
            self._ensure_started()
            self._next_id += 1
            request = dict(
                request,
                id=self._next_id,
                mounts=all_mounts,
                heap_kb=heap_kb,
                hide=list(WASM_ONLY_MODULES) if stock_modules else [],
                builtin_only=list(WASM_EXTENDED_MODULES) if stock_modules else [],
            )
            self._send(request)
            return self._await_result(request["id"], timeout)

    def _ensure_started(self):
        if self._process is not None and self._process.poll() is None:
            return
        self._stop()
        problem = find_problem()
        if problem:
            raise MicroPythonUnavailable(problem)
        read_end, write_end = os.pipe()
        self._log = tempfile.TemporaryFile()
        self._replies = read_end
        try:
            self._process = subprocess.Popen(
                [self._node, str(RUNNER), str(write_end)],
                cwd=HARNESS_DIR,
                stdin=subprocess.PIPE,
                stdout=self._log,
                stderr=subprocess.STDOUT,
                pass_fds=(write_end,),
            )
        except OSError as error:
            self._stop()
            raise MicroPythonUnavailable("cannot start %s: %s" % (self._node, error)) from None
        finally:
            os.close(write_end)
        self._buffer = b""
        ready = self._read_message(time.monotonic() + _START_TIMEOUT)
        if ready is None or ready.get("event") != "ready":
            log = self._log_tail()
            self._stop()
            raise MicroPythonUnavailable("the MicroPython runner did not start:\n" + log)
        self.micropython_version = ready["micropython"]
        if not self._atexit_registered:
            # A runner stuck in a hung VM never notices its input closing.
            atexit.register(self._kill_at_exit)
            self._atexit_registered = True

    def _kill_at_exit(self):
        if self._process is not None and self._process.poll() is None:
            self._process.kill()

    def _send(self, request):
        try:
            self._process.stdin.write(json.dumps(request).encode("utf-8") + b"\n")
            self._process.stdin.flush()
        except BrokenPipeError:
            log = self._log_tail()
            self._stop()
            raise MicroPythonUnavailable("the MicroPython runner exited:\n" + log) from None

    def _await_result(self, request_id, timeout):
        deadline = time.monotonic() + timeout
        output = []
        while True:
            message = self._read_message(deadline)
            if message is None:
                text = "".join(output)
                if time.monotonic() >= deadline:
                    self._stop(kill=True)  # it is stuck inside the VM; it cannot hear a polite request
                    raise MicroPythonTimeout(timeout, text)
                log = self._log_tail()
                self._stop(kill=True)
                raise MicroPythonError("RunnerCrashed", "the runner process died:\n" + log, text)
            if message.get("id") != request_id:
                continue  # left over from a request abandoned earlier
            if message["event"] == "output":
                output.append(message["text"])
            elif message["event"] == "result":
                text = "".join(output)
                if message["ok"]:
                    return message, text
                error = message["error"]
                raise MicroPythonError(error["type"], error["traceback"], text)

    def _read_message(self, deadline):
        """Next JSON message from the runner, or None on timeout or EOF."""
        while b"\n" not in self._buffer:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                return None
            readable, _, _ = select.select([self._replies], [], [], remaining)
            if not readable:
                return None
            chunk = os.read(self._replies, 65536)
            if not chunk:
                return None
            self._buffer += chunk
        line, self._buffer = self._buffer.split(b"\n", 1)
        return json.loads(line)

    def _log_tail(self, limit=4000):
        if self._log is None:
            return ""
        self._log.seek(0)
        text = self._log.read().decode("utf-8", "replace")
        return text[-limit:] if text else "(no output)"

    def _stop(self, kill=False):
        process, self._process = self._process, None
        if process is not None:
            if not kill and process.poll() is None:
                try:
                    process.stdin.close()  # the runner exits at end of input
                    process.wait(timeout=2)
                except (OSError, subprocess.TimeoutExpired):
                    pass
            if process.poll() is None:
                process.kill()
                process.wait()
            try:
                process.stdin.close()
            except OSError:
                pass
        if self._replies is not None:
            os.close(self._replies)
            self._replies = None
        if self._log is not None:
            self._log.close()
            self._log = None


def main(argv=None):
    """Debugging aid: run a file or snippet on the VM the tests use, project mounted.

    python3 tests/mpvm.py path/to/script.py
    python3 tests/mpvm.py -c "import mancala; print(mancala)"
    python3 tests/mpvm.py --mount /lib=tests/micropython/lib --heap -c "import sowlight_fw"
    """
    import argparse
    import sys

    parser = argparse.ArgumentParser(prog="python3 tests/mpvm.py", description=main.__doc__.splitlines()[0])
    source = parser.add_mutually_exclusive_group(required=True)
    source.add_argument("file", nargs="?", help="host file to run as __main__")
    source.add_argument("-c", dest="code", help="code to run")
    parser.add_argument("--mount", action="append", default=[], metavar="VM_DIR=HOST_DIR",
                        help="copy HOST_DIR's contents into VM_DIR too (repeatable)")
    parser.add_argument("--wasm-modules", action="store_true",
                        help="allow the modules only the WebAssembly port has (stock_modules=False)")
    parser.add_argument("--heap", action="store_true", help="print heap figures instead of running plainly")
    parser.add_argument("--timeout", type=float, default=DEFAULT_TIMEOUT)
    args = parser.parse_args(argv)

    mounts = {}
    for item in args.mount:
        vm_dir, sep, host_dir = item.partition("=")
        if not sep:
            parser.error("--mount wants VM_DIR=HOST_DIR, got %r" % item)
        mounts[vm_dir] = host_dir
    options = dict(mounts=mounts, timeout=args.timeout, stock_modules=not args.wasm_modules)
    with MicroPythonVM() as vm:
        try:
            if args.heap:
                code = args.code if args.code is not None else Path(args.file).read_text(encoding="utf-8")
                use = vm.heap_used(code, **options)
                sys.stdout.write(use.output)
                print("retained: %d bytes, allocated: %d bytes" % (use.retained, use.allocated))
            elif args.code is not None:
                sys.stdout.write(vm.run(args.code, **options))
            else:
                sys.stdout.write(vm.run_file(args.file, **options))
        except (MicroPythonError, MicroPythonUnavailable, ValueError, OSError) as error:
            print(error, file=sys.stderr)
            return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
