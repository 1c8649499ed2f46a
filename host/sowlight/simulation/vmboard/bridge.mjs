// The VM board: MicroPython (the WebAssembly port from npm) behind a pseudo-terminal,
// answering on it as a Raspberry Pi Pico answers on its USB serial port.
//
// Started by sowlight.simulation.vmboard.VmBoard (host/sowlight/simulation/vmboard/__init__.py), which
// opens the pty and hands this process its master side:
//
//     node bridge.mjs '{"package": ".../micropython.mjs", "pty": FD, "control": FD,
//                       "device": DIR, "flash": DIR|null, "uid": HEX}'
//
// It prints one JSON line, {"event": "ready"}, on stdout once it listens on
// the pty; on the control pipe, "sync" writes the flash directory now (and
// prints {"event": "synced"}), "stop" or the pipe closing stops it (the flash
// written out first).
//
// What it does, and why (see docs/firmware.md, "The VM board"):
//  - Bytes from the host go to the REPL (mp.replProcessChar) while no Python
//    runs.  While Python runs, this thread is busy inside the VM, so the VM
//    calls back (module _vmboard: sleep, take, wait) and the port is read
//    there: Ctrl-C raises KeyboardInterrupt when micropython.kbd_intr allows
//    it, other bytes wait for sys.stdin or, after the program, the REPL.
//  - Raw-paste mode (\x05A\x01, what mpremote uses) hangs this port's REPL,
//    which would read the paste from a stdin it does not have: the bridge
//    speaks the raw-paste flow control itself and hands the whole paste to
//    the raw REPL.
//  - Soft reset (Ctrl-D, SystemExit) and machine.reset() rebuild the VM, with
//    the files of its flash copied across; main.py runs unless the reset came
//    from the raw REPL.  "MPY: soft reboot" is printed as a board does.
//  - The flash lives in the VM's memory (/flash, mounted as "/"); with a
//    flash directory it is written there now and then, at every reset and
//    when the bridge stops, and read back at start-up.

import crypto from "node:crypto";
import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import tty from "node:tty";
import { createRequire } from "node:module";
import { pathToFileURL } from "node:url";
import { clearVmTimers, guardVmGlobals, nativeTimers } from "./vmguard.mjs";

const cfg = JSON.parse(process.argv[2] || "{}");
const { loadMicroPython } = await import(pathToFileURL(cfg.package).href);
const PORT_VERSION = createRequire(pathToFileURL(cfg.package).href)("./package.json").version;

const FLASH = "/flash"; // where the board's files live in the VM's memory
const STAND_INS = "/vmboard"; // the stand-in modules, outside the board's filesystem
const RAW_BANNER = "raw REPL; CTRL-B to exit\r\n";
const PASTE_WINDOW = 4096; // raw-paste flow-control window (a Pico's is 128)
const POLL_MS = 2; // how often the port is read while Python waits
const SNAPSHOT_MS = 2000; // flash written at most this often while the board runs
const STALL_MS = 50; // how long a write may wait for the host to read before output is dropped
const MAX_FLASH_BYTES = 16 << 20; // a flash directory bigger than this is not a VM board's
const DEBUG = !!process.env.SOWLIGHT_VMBOARD_DEBUG;

function log(...args) {
  process.stderr.write("vmboard: " + args.join(" ") + "\n");
}

function debug(what, bytes) {
  if (DEBUG) log(what, JSON.stringify(Buffer.from(bytes).toString("latin1")));
}

// A line for the launcher, written at once even while the VM runs (process.stdout may be asynchronous).
function tell(message) {
  fs.writeSync(1, JSON.stringify(message) + "\n");
}

const pause = new Int32Array(new SharedArrayBuffer(4));
function sleepMs(ms) {
  if (ms > 0) Atomics.wait(pause, 0, 0, ms);
}

// Old VMs must not reach new ones (their timers, their finalizers), and the
// WebAssembly is compiled once: every reset instantiates it again (~10 ms).
guardVmGlobals();
const native = nativeTimers;

// --- Bytes waiting for the REPL or sys.stdin ------------------------------------

class ByteQueue {
  constructor() {
    this.chunks = [];
    this.head = 0; // read offset into chunks[0]
    this.length = 0;
  }
  push(bytes) {
    if (bytes.length) {
      this.chunks.push(bytes);
      this.length += bytes.length;
    }
  }
  peek(i) {
    let at = this.head + i;
    for (const chunk of this.chunks) {
      if (at < chunk.length) return chunk[at];
      at -= chunk.length;
    }
    return undefined;
  }
  take(n) {
    n = Math.min(n, this.length);
    const out = new Uint8Array(n);
    let got = 0;
    while (got < n) {
      const chunk = this.chunks[0];
      const k = Math.min(n - got, chunk.length - this.head);
      out.set(chunk.subarray(this.head, this.head + k), got);
      got += k;
      this.head += k;
      if (this.head === chunk.length) {
        this.chunks.shift();
        this.head = 0;
      }
    }
    this.length -= n;
    return out;
  }
  shift() {
    return this.take(1)[0];
  }
}

// --- The flash: a tree of files in the VM, mirrored to a host directory --------

function readTree(FS, root) {
  const files = new Map(); // relative path -> Uint8Array; directories map to null
  const walk = (dir, rel) => {
    for (const name of FS.readdir(dir)) {
      if (name === "." || name === "..") continue;
      const full = dir + "/" + name;
      const key = rel ? rel + "/" + name : name;
      if (FS.isDir(FS.stat(full).mode)) {
        files.set(key, null);
        walk(full, key);
      } else {
        files.set(key, FS.readFile(full));
      }
    }
  };
  walk(root, "");
  return files;
}

function writeTree(FS, root, files) {
  for (const [key, data] of files) {
    const full = root + "/" + key;
    if (data === null) {
      if (!FS.analyzePath(full).exists) FS.mkdir(full);
    } else {
      FS.writeFile(full, data);
    }
  }
}

function readHostTree(dir) {
  const files = new Map();
  let total = 0;
  const walk = (hostDir, rel) => {
    for (const entry of fs.readdirSync(hostDir, { withFileTypes: true })) {
      const key = rel ? rel + "/" + entry.name : entry.name;
      const full = path.join(hostDir, entry.name);
      if (entry.isDirectory()) {
        files.set(key, null);
        walk(full, key);
      } else if (entry.isFile()) {
        const data = fs.readFileSync(full);
        total += data.length;
        if (total > MAX_FLASH_BYTES || files.size > 5000) {
          throw new Error(`${dir} holds more than a board's flash; give an empty or new directory for the VM board's flash`);
        }
        files.set(key, new Uint8Array(data));
      }
    }
  };
  walk(dir, "");
  // Parents before children, as writeTree needs them.
  return new Map([...files].sort(([a], [b]) => a.localeCompare(b)));
}

class FlashDir {
  constructor(dir) {
    this.dir = dir;
    this.saved = new Map();
  }
  load() {
    fs.mkdirSync(this.dir, { recursive: true });
    this.saved = readHostTree(this.dir);
    return this.saved;
  }
  // Writes what changed since the last save; removes what the board removed.
  save(files) {
    for (const [key, data] of files) {
      const full = path.join(this.dir, key);
      const before = this.saved.get(key);
      if (data === null) {
        if (before !== null) fs.mkdirSync(full, { recursive: true });
      } else if (before == null || Buffer.compare(before, data) !== 0) {
        fs.mkdirSync(path.dirname(full), { recursive: true });
        const tmp = full + ".vmboard-tmp";
        fs.writeFileSync(tmp, data);
        fs.renameSync(tmp, full);
      }
    }
    const gone = [...this.saved.keys()].filter((key) => !files.has(key)).sort().reverse();
    for (const key of gone) {
      fs.rmSync(path.join(this.dir, key), { recursive: true, force: true });
    }
    this.saved = new Map([...files].map(([k, v]) => [k, v === null ? null : Uint8Array.from(v)]));
  }
}

// --- The board ------------------------------------------------------------------

const STAND_IN_FILES = fs
  .readdirSync(cfg.device)
  .filter((name) => name.endsWith(".py"))
  .map((name) => [name, fs.readFileSync(path.join(cfg.device, name))]);

class Board {
  constructor() {
    this.fd = cfg.pty;
    this.flash = cfg.flash ? new FlashDir(cfg.flash) : null;
    this.mp = null;
    this.queue = new ByteQueue();
    this.out = [];
    this.stalled = false;
    this.busy = false; // Python is running: the port is read from the VM's calls
    this.pumping = false;
    this.raw = false; // the REPL is in raw mode
    this.rawLine = 0; // bytes in the raw REPL's line so far
    this.paste = null; // a raw paste being received
    this.swallow = ""; // output expected next that must not reach the host
    this.muted = false;
    this.tail = ""; // the last output, to see the raw REPL's banner
    this.resetKind = null; // "soft" or "hard" once Python asked for a reset
    this.interrupted = false;
    this.lastSnapshot = Date.now();
    this.readBuf = Buffer.alloc(4096);
    this.controlBuf = Buffer.alloc(64);
  }

  // ----- output -----

  output(bytes) {
    for (const b of bytes) {
      if (this.swallow) {
        if (b === this.swallow.charCodeAt(0)) {
          this.swallow = this.swallow.slice(1);
          continue;
        }
        this.swallow = "";
      }
      if (this.muted) continue;
      this.out.push(b);
      this.tail = (this.tail + String.fromCharCode(b)).slice(-RAW_BANNER.length - 1);
      if (this.tail.endsWith(RAW_BANNER + ">")) {
        this.raw = true;
        this.rawLine = 0;
      }
      if (b === 10 || this.out.length >= 1024) this.flush();
    }
  }

  write(text) {
    this.output(typeof text === "string" ? Buffer.from(text, "latin1") : text);
  }

  flush() {
    if (!this.out.length) return;
    const data = Buffer.from(this.out);
    this.out = [];
    debug("out", data);
    let done = 0;
    const start = Date.now();
    while (done < data.length) {
      try {
        done += fs.writeSync(this.fd, data, done, data.length - done);
        this.stalled = false;
      } catch (e) {
        if (e.code !== "EAGAIN") return this.portFailed(e);
        // Nobody reads the port: as a board's USB stack does, give up after a
        // while and drop the output rather than hang the program.
        if (this.stalled || Date.now() - start > STALL_MS) {
          this.stalled = true;
          return;
        }
        sleepMs(1);
      }
    }
  }

  // ----- input -----

  received(bytes) {
    debug("in", bytes);
    if (!this.busy) {
      this.queue.push(bytes);
      this.pump();
      return;
    }
    // Python runs: Ctrl-C interrupts it if kbd_intr allows, as a board's USB stack does.
    const ichar = this.mp._module._mp_hal_get_interrupt_char();
    let from = 0;
    for (let i = 0; i < bytes.length; i++) {
      if (bytes[i] === ichar) {
        this.queue.push(bytes.subarray(from, i));
        from = i + 1;
        this.mp._module._mp_sched_keyboard_interrupt();
        this.interrupted = true;
      }
    }
    this.queue.push(bytes.subarray(from));
  }

  // The pty is gone (the launcher closed it): nothing can reach the board any more.
  portFailed(e) {
    log("the port failed:", e.message);
    this.stop();
  }

  // Reads the port and the control pipe without waiting (Python is running).
  service() {
    this.flush();
    for (;;) {
      let n = 0;
      try {
        n = fs.readSync(this.fd, this.readBuf, 0, this.readBuf.length, null);
      } catch (e) {
        if (e.code !== "EAGAIN") return this.portFailed(e);
      }
      if (!n) break;
      this.received(Uint8Array.from(this.readBuf.subarray(0, n)));
    }
    let n = 0;
    try {
      n = fs.readSync(cfg.control, this.controlBuf, 0, this.controlBuf.length, null);
      if (n === 0) this.stop(); // the launcher is gone
    } catch (e) {
      if (e.code !== "EAGAIN") throw e;
    }
    if (n) this.controlled(this.controlBuf.subarray(0, n));
    if (Date.now() - this.lastSnapshot > SNAPSHOT_MS) this.snapshot();
  }

  // Commands from the launcher, one per line: "stop"; "sync" (write the flash directory now, then say so).
  controlled(data) {
    this.control = (this.control || "") + Buffer.from(data).toString();
    let end;
    while ((end = this.control.indexOf("\n")) >= 0) {
      const command = this.control.slice(0, end).trim();
      this.control = this.control.slice(end + 1);
      if (command === "stop") this.stop();
      if (command === "sync") {
        this.snapshot();
        tell({ event: "synced" });
      }
    }
  }

  // ----- what the VM calls (module _vmboard) -----

  api() {
    return {
      sleep: (ms) => this.vmSleep(ms),
      take: (n) => {
        this.service();
        return this.queue.take(n);
      },
      pending: () => {
        this.service();
        return this.queue.length;
      },
      wait: (ms) => this.vmWait(ms),
      reset: (kind) => {
        // machine.reset() raises SystemExit, which main.py's runner takes for a soft reset: hard wins.
        if (kind === "hard" || !this.resetKind) this.resetKind = kind === "hard" ? "hard" : "soft";
      },
      sync: () => this.snapshot(),
      urandom: (n) => new Uint8Array(crypto.randomBytes(n)),
      version: () => PORT_VERSION,
    };
  }

  vmSleep(ms) {
    const end = performance.now() + ms;
    this.interrupted = false;
    for (;;) {
      this.service();
      const left = end - performance.now();
      if (left <= 0 || this.interrupted) return;
      sleepMs(Math.min(left, POLL_MS));
    }
  }

  vmWait(ms) {
    const end = performance.now() + ms;
    this.interrupted = false;
    for (;;) {
      this.service();
      const left = end - performance.now();
      if (this.queue.length || left <= 0 || this.interrupted) return this.queue.length;
      sleepMs(Math.min(left, POLL_MS));
    }
  }

  // ----- the REPL -----

  // Feeds one byte to the REPL; the Python it starts runs inside this call.
  feed(b) {
    if (this.raw) this.rawLine = b <= 4 ? 0 : this.rawLine + 1;
    if (this.raw && b === 2) this.raw = false;
    this.busy = true;
    let result;
    try {
      result = this.mp.replProcessChar(b);
    } finally {
      this.busy = false;
    }
    return result;
  }

  async pump() {
    if (this.pumping || !this.mp) return;
    this.pumping = true;
    try {
      while (this.queue.length && !this.stopping) {
        let result = 0;
        if (this.paste) {
          const code = this.pasted();
          if (code === null) continue;
          result = this.runPaste(code);
        } else if (this.raw && this.rawLine === 0 && this.queue.peek(0) === 5 && !this.pasteWaited) {
          // Perhaps raw paste (\x05A\x01); its last bytes may still be on the way.
          if (this.queue.length < 3) {
            this.pasteWaited = true;
            native.setTimeout(() => this.pump(), 50);
            break;
          }
          if (this.queue.peek(1) === 0x41 && this.queue.peek(2) === 1) {
            this.queue.take(3);
            this.startPaste();
          } else {
            result = this.feed(this.queue.shift());
          }
        } else {
          this.pasteWaited = false;
          result = this.feed(this.queue.shift());
        }
        if (result !== 0 || this.resetKind) await this.reboot(this.resetKind || "soft");
      }
    } catch (e) {
      log("the VM failed:", (e && e.stack) || e);
      this.resetKind = null;
      await this.reboot("hard");
    } finally {
      this.pumping = false;
      this.flush();
      this.snapshotSoon();
    }
  }

  startPaste() {
    this.paste = { chunks: [], length: 0, sinceAck: 0 };
    // "R\x01": raw paste accepted; the window size; one more window free.
    this.write(Uint8Array.of(0x52, 0x01, PASTE_WINDOW & 0xff, PASTE_WINDOW >> 8, 0x01));
    this.flush();
  }

  // Takes the paste's bytes from the queue: the code once Ctrl-D ends it, else null.
  pasted() {
    const p = this.paste;
    while (this.queue.length) {
      const b = this.queue.peek(0);
      if (b === 4 || b === 3) {
        this.queue.take(1);
        this.paste = null;
        if (b === 3) {
          // Cancelled: what a board prints for the KeyboardInterrupt it raises.
          this.write("\x04\x04Traceback (most recent call last):\r\nKeyboardInterrupt: \r\n\x04>");
          this.flush();
          return null;
        }
        this.write("\x04"); // end of data acknowledged
        this.flush();
        return Buffer.concat(p.chunks);
      }
      // Everything up to the next control byte, at most to the end of the window.
      let n = 0;
      while (n < this.queue.length && n < PASTE_WINDOW - p.sinceAck) {
        const c = this.queue.peek(n);
        if (c === 3 || c === 4) break;
        n++;
      }
      p.chunks.push(this.queue.take(n));
      p.sinceAck += n;
      if (p.sinceAck >= PASTE_WINDOW) {
        p.sinceAck = 0;
        this.write(Uint8Array.of(1)); // another window free
        this.flush();
      }
    }
    return null;
  }

  // Runs a raw paste's code in the raw REPL, as if sent in plain raw mode.
  runPaste(code) {
    if (code.includes(1) || code.includes(2)) {
      // Bytes the raw REPL would take as commands: the code is fetched from here instead.
      this.pasteCode = code;
      code = Buffer.from("exec(__import__('_vmboard').paste(), globals())");
    }
    for (const b of code) this.mp.replProcessChar(b);
    this.rawLine = code.length;
    this.swallow = "OK"; // the raw REPL's answer to Ctrl-D; raw paste has its own
    try {
      return this.feed(4);
    } finally {
      this.swallow = "";
    }
  }

  // ----- boot -----

  async newVm(files) {
    clearVmTimers();
    const mp = await loadMicroPython({
      stdin: () => null,
      linebuffer: false,
      stdout: (bytes) => this.output(bytes),
      stderr: (bytes) => this.output(bytes),
    });
    mp.FS.mkdir(FLASH);
    writeTree(mp.FS, FLASH, files);
    mp.FS.mkdir(STAND_INS);
    for (const [name, data] of STAND_IN_FILES) mp.FS.writeFile(STAND_INS + "/" + name, data);
    const api = this.api();
    api.paste = () => {
      const code = this.pasteCode;
      this.pasteCode = null;
      return code ? code.toString("utf8") : "";
    };
    mp.registerJsModule("_vmboard", api);
    mp.runPython(
      `__import__("sys").path[:] = [${JSON.stringify(STAND_INS)}]\n` +
        `__import__("vmboot").install(${JSON.stringify(cfg.uid)}, ${JSON.stringify(FLASH)})\n`,
    );
    mp.FS.chdir(FLASH);
    this.mp = mp;
    return mp;
  }

  exists(name) {
    return this.mp.FS.analyzePath(FLASH + "/" + name).exists;
  }

  // Runs a file of the flash as a board runs boot.py and main.py: Ctrl-C
  // interrupts it, an exception is printed, SystemExit asks for a soft reset.
  runFile(name) {
    this.busy = true;
    try {
      this.mp.runPython(
        "try:\n" +
          "    __import__('micropython').kbd_intr(3)\n" +
          `    execfile(${JSON.stringify(name)})\n` +
          "except SystemExit:\n" +
          "    __import__('_vmboard').reset('soft')\n" +
          "except BaseException as e:\n" +
          "    __import__('sys').print_exception(e)\n" +
          "finally:\n" +
          "    __import__('micropython').kbd_intr(-1)\n",
      );
    } finally {
      this.busy = false;
    }
  }

  async reboot(kind, first = false) {
    for (;;) {
      const files = first ? this.preloaded : readTree(this.mp.FS, FLASH);
      first = false;
      const raw = kind === "soft" && this.raw;
      this.resetKind = null;
      this.raw = false;
      this.rawLine = 0;
      this.paste = null;
      this.pasteWaited = false;
      if (kind === "soft") this.write("MPY: soft reboot\r\n");
      this.flush();
      await this.newVm(files);
      if (this.flash) this.snapshot();
      if (this.exists("boot.py")) this.runFile("boot.py");
      if (!this.resetKind && raw) {
        this.muted = true;
        this.mp.replInit();
        this.mp.replProcessChar(1);
        this.muted = false;
        this.write(RAW_BANNER + ">");
      } else if (!this.resetKind) {
        if (this.exists("main.py")) this.runFile("main.py");
        if (!this.resetKind) this.mp.replInit();
      }
      this.flush();
      if (!this.resetKind) return;
      kind = this.resetKind;
      // main.py asked for another reset: let the control pipe be heard in between.
      await new Promise((resolve) => native.setTimeout(resolve, 0));
      if (this.stopping) return;
    }
  }

  // ----- the flash directory -----

  preload() {
    this.preloaded = this.flash ? this.flash.load() : new Map();
  }

  snapshot() {
    this.lastSnapshot = Date.now();
    if (!this.flash || !this.mp) return;
    try {
      this.flash.save(readTree(this.mp.FS, FLASH));
    } catch (e) {
      log("cannot write the flash directory:", e.message);
    }
  }

  snapshotSoon() {
    if (!this.flash || this.snapshotTimer) return;
    this.snapshotTimer = native.setTimeout(() => {
      this.snapshotTimer = null;
      if (!this.busy) this.snapshot();
    }, 300);
  }

  stop() {
    if (this.stopping) return;
    this.stopping = true;
    try {
      this.flush();
    } catch (e) {
      // the host may be gone
    }
    this.snapshot();
    process.exit(0);
  }
}

// --- Start ----------------------------------------------------------------------

const board = new Board();
process.on("uncaughtException", (e) => {
  log("bridge error:", (e && e.stack) || e);
  board.snapshot();
  process.exit(1);
});
for (const signal of ["SIGTERM", "SIGINT", "SIGHUP"]) process.on(signal, () => board.stop());

try {
  board.preload();
} catch (e) {
  log((e && e.message) || e);
  process.exit(2);
}
const port = new tty.ReadStream(cfg.pty);
port.on("data", (data) => board.received(new Uint8Array(data)));
port.on("error", (e) => board.portFailed(e));
const control = new net.Socket({ fd: cfg.control, readable: true, writable: false });
control.on("data", (data) => board.controlled(data));
control.on("end", () => board.stop());
control.on("error", () => board.stop());
tell({ event: "ready", micropython: PORT_VERSION });

// The first boot runs main.py, which may run an app for good: the port is
// then read from inside the VM's calls.
await board.reboot("hard", true);
board.pump();
