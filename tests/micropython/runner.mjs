// Serves MicroPython runs to the pytest harness (tests/mpvm.py).
//
// One node process lives for a whole pytest session; every request gets a
// brand-new MicroPython VM (loadMicroPython costs ~5-10 ms), so no state leaks
// from one test into the next.
//
// Protocol: requests are JSON lines on stdin; replies are JSON lines written to
// the file descriptor named on the command line (not stdout, so a stray
// console.log from Emscripten can never corrupt the protocol). Replies:
//   {"event": "ready", "micropython": "<package version>"}   once, at start-up
//   {"event": "output", "id": N, "text": "..."}              VM console output, one line at a time,
//                                                            sent as it happens so that a hung run
//                                                            still shows what it printed
//   {"event": "result", "id": N, "ok": true, ...}            end of a request
//   {"event": "result", "id": N, "ok": false, "error": {"type", "traceback"}}
//
// Requests: {"id", "op": "run" | "heap", "code", "heap_kb", "mounts": [[vmDir, hostDir], ...],
//            "hide": [module names], "builtin_only": [module names], "filename", "setup"}
//            -- see tests/mpvm.py.
//
// A run that never returns blocks this process's event loop; the Python side
// enforces the timeout by killing this process and starting a new one.

import { loadMicroPython } from "@micropython/micropython-webassembly-pyscript";
import fs from "node:fs";
import path from "node:path";
import readline from "node:readline";
import { createRequire } from "node:module";
import { clearVmTimers, guardVmGlobals } from "../../host/sowlight/simulation/vmboard/vmguard.mjs";

const replyFd = Number(process.argv[2]);
if (!Number.isInteger(replyFd) || replyFd < 3) {
  console.error("usage: node runner.mjs <reply-fd>   (started by tests/mpvm.py)");
  process.exit(2);
}

const packageVersion = createRequire(import.meta.url)(
  "@micropython/micropython-webassembly-pyscript/package.json",
).version;

// Where modules that the WebAssembly port freezes in, but stock Pico/ESP32
// firmware does not have, are shadowed by stubs that raise ImportError.
const HIDDEN_MODULES_DIR = "/.not-in-stock-firmware";

// Files that never belong in the VM: caches and compiled leftovers (a stale
// .mpy next to its .py could shadow the source being tested).
const SKIPPED = (name) =>
  name.startsWith(".") || name === "__pycache__" || name.endsWith(".pyc") || name.endsWith(".mpy");

function reply(message) {
  const data = Buffer.from(JSON.stringify(message) + "\n", "utf8");
  let offset = 0;
  while (offset < data.length) {
    offset += fs.writeSync(replyFd, data, offset, data.length - offset);
  }
}

// Old VMs must not reach new ones (their timers, their finalizers), and the
// WebAssembly is compiled once: host/sowlight/simulation/vmboard/vmguard.mjs, shared with
// the VM board.
guardVmGlobals();

// --- Console capture ------------------------------------------------------

// Collects the VM's console bytes (stdout and stderr together, as on a board's
// single USB console) and forwards each completed line at once.
class Console {
  constructor(id) {
    this.id = id;
    this.pending = [];
    this.muted = false; // while the harness itself prints measurements
    this.captured = [];
  }

  write(bytes) {
    for (const byte of bytes) {
      this.pending.push(byte);
      if (byte === 10) this.flush();
    }
  }

  flush() {
    if (this.pending.length === 0) return;
    const text = Buffer.from(this.pending).toString("utf8");
    this.pending = [];
    if (this.muted) {
      this.captured.push(text);
    } else {
      reply({ event: "output", id: this.id, text });
    }
  }

  // Runs fn with the console diverted and returns what was printed meanwhile.
  capture(fn) {
    this.flush();
    this.muted = true;
    this.captured = [];
    try {
      fn();
      this.flush();
      return this.captured.join("");
    } finally {
      this.muted = false;
    }
  }
}

// --- Filesystem -----------------------------------------------------------

function makeDirs(FS, dir) {
  let current = "";
  for (const part of dir.split("/").filter(Boolean)) {
    current += "/" + part;
    if (!FS.analyzePath(current).exists) FS.mkdir(current);
  }
}

// Copies hostDir's contents (not the directory itself) into vmDir.
function copyTree(FS, hostDir, vmDir) {
  makeDirs(FS, vmDir);
  for (const name of fs.readdirSync(hostDir)) {
    if (SKIPPED(name)) continue;
    const hostPath = path.join(hostDir, name);
    const vmPath = (vmDir === "/" ? "" : vmDir) + "/" + name;
    const stat = fs.statSync(hostPath);
    if (stat.isDirectory()) {
      copyTree(FS, hostPath, vmPath);
    } else if (stat.isFile()) {
      FS.writeFile(vmPath, fs.readFileSync(hostPath));
    }
  }
}

function hideModules(FS, names) {
  makeDirs(FS, HIDDEN_MODULES_DIR);
  for (const name of names) {
    FS.writeFile(
      `${HIDDEN_MODULES_DIR}/${name}.py`,
      `raise ImportError("no module named '${name}' on a stock Pico/ESP32 firmware ` +
        `(only the WebAssembly port used by the tests freezes it in); ` +
        `write the device code without it")\n`,
    );
  }
}

// --- Requests -------------------------------------------------------------

async function newVm(request, console_) {
  const options = {
    // The VM has no console input: without this, Emscripten would read the
    // process's stdin -- this runner's request stream.
    stdin: () => null,
    linebuffer: false,
    stdout: (bytes) => console_.write(bytes),
    stderr: (bytes) => console_.write(bytes),
  };
  if (request.heap_kb) options.heapsize = request.heap_kb * 1024;
  const mp = await loadMicroPython(options);
  for (const [vmDir, hostDir] of request.mounts || []) {
    copyTree(mp.FS, hostDir, vmDir);
  }
  if (request.hide && request.hide.length) {
    hideModules(mp.FS, request.hide);
    // Before ".frozen", so the stubs win over the frozen modules. __import__
    // keeps the name "sys" out of the program's globals.
    mp.runPython(`__import__("sys").path.insert(1, ${JSON.stringify(HIDDEN_MODULES_DIR)})`);
  }
  if (request.builtin_only && request.builtin_only.length) {
    // "uNAME" always names the built-in C module; registering it as NAME
    // bypasses the frozen micropython-lib package that extends it here.
    mp.runPython(
      `[__import__("sys").modules.__setitem__(n, __import__("u" + n)) for n in ${JSON.stringify(request.builtin_only)}]`,
    );
  }
  return mp;
}

// Runs code the way the board's REPL would run a pasted program. Top-level
// `await` is allowed, so firmware coroutines can be driven directly.
async function runCode(mp, request) {
  if (request.filename) {
    // Compile under the file's own name so tracebacks point at it.
    mp.FS.writeFile("/tmp/__sowlight_run__.py", request.code);
    mp.runPython(
      `exec(compile(open("/tmp/__sowlight_run__.py").read(), ${JSON.stringify(request.filename)}, "exec"))`,
    );
  } else {
    await mp.runPythonAsync(request.code);
  }
  return {};
}

// Heap figures, in bytes, for running request.code after request.setup.
//
// This port only garbage-collects when control returns to JavaScript (a
// gc.collect() inside Python merely schedules a collection), which gives two
// clean figures:
//  - `allocated`: read before and after the code inside ONE runPython call,
//    where nothing is collected: every byte the code allocated (compiling it
//    included) and did not free explicitly, garbage or not -- allocation churn;
//  - `retained`: two identical probes, each made in its own call right after
//    a collection, before and after the code: what the code left alive
//    (imported modules, globals it bound).
function measureHeap(mp, request, console_) {
  if (request.setup) mp.runPython(request.setup);
  mp.FS.writeFile("/tmp/__sowlight_heap__.py", request.code);
  // Every name the measurement uses is bound (and its qstr interned) here,
  // before the baseline, so the figures hold only the code's own costs.
  mp.runPython(
    "import gc\n" +
      "__sowlight_mark = 0\n" +
      'with open("/tmp/__sowlight_heap__.py") as __sowlight_file:\n' +
      "    __sowlight_code = __sowlight_file.read()\n" +
      "del __sowlight_file\n" +
      "gc.collect()\n",
  );
  const probe = (source) => {
    const printed = console_.capture(() => mp.runPython(source)).trim();
    const value = Number(printed);
    if (!Number.isInteger(value)) throw new Error(`heap probe printed ${JSON.stringify(printed)}`);
    return value;
  };
  const liveBefore = probe("print(gc.mem_alloc())");
  mp.runPython(
    "__sowlight_mark = gc.mem_alloc()\n" +
      "exec(__sowlight_code)\n" +
      "__sowlight_mark = gc.mem_alloc() - __sowlight_mark\n" +
      "gc.collect()\n",
  );
  const allocated = probe("print(__sowlight_mark)");
  // The collection scheduled above ran when that call returned; collect once
  // more so the garbage of the probe just made is gone too.
  mp.runPython("gc.collect()");
  const liveAfter = probe("print(gc.mem_alloc())");
  return { retained: liveAfter - liveBefore, allocated };
}

async function handle(request) {
  const console_ = new Console(request.id);
  const started = performance.now();
  // An exception thrown from a timer or promise callback of the VM (Python
  // code called back from JavaScript) fails this request instead of the
  // whole runner.
  const crashed = new Promise((_, reject) => {
    failCurrentRequest = reject;
  });
  const work = async () => {
    const mp = await newVm(request, console_);
    if (request.op === "run") return runCode(mp, request);
    if (request.op === "heap") return measureHeap(mp, request, console_);
    throw new Error(`unknown op ${JSON.stringify(request.op)}`);
  };
  try {
    const figures = await Promise.race([work(), crashed]);
    console_.flush();
    reply({ event: "result", id: request.id, ok: true, ms: performance.now() - started, ...figures });
  } catch (error) {
    console_.flush();
    reply({ event: "result", id: request.id, ok: false, ms: performance.now() - started, error: describe(error) });
  } finally {
    failCurrentRequest = null;
    clearVmTimers();
  }
}

function describe(error) {
  if (error && error.name === "PythonError") {
    return { type: error.type, traceback: error.message };
  }
  // A crash of the VM itself (e.g. a WebAssembly trap) or of this runner.
  return { type: "RunnerError", traceback: String((error && error.stack) || error) };
}

let failCurrentRequest = null;

function uncaught(error) {
  if (failCurrentRequest) {
    failCurrentRequest(error);
  } else {
    // Left behind by a finished VM; nothing to report it to but the log.
    console.error("runner: error outside any request:", describe(error).traceback);
  }
}
process.on("uncaughtException", uncaught);
process.on("unhandledRejection", uncaught);

let queue = Promise.resolve();
const lines = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });
lines.on("line", (line) => {
  if (!line.trim()) return;
  let request;
  try {
    request = JSON.parse(line);
  } catch (error) {
    console.error("runner: bad request line:", line);
    return;
  }
  queue = queue.then(() => handle(request));
});
lines.on("close", () => {
  queue.then(() => process.exit(0));
});

reply({ event: "ready", micropython: packageVersion });
