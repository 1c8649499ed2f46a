// The emulated board's microcontroller: a firmware image on rp2040js, stepped by the launcher.
//
// Started by sowlight.simulation.emuboard (host/sowlight/simulation/emuboard/__init__.py):
//
//     node runner.mjs CONFIG.json
//
// CONFIG names the rp2040js module, the boot ROM, the firmware image (.bin or .uf2), the
// filesystem image and where it goes in flash, the board's unique id, and the pins of the
// simulated parts (LED strip, multiplexers, HX711s, buttons).  Then it reads one JSON
// command per line on stdin and writes one JSON event per line on stdout:
//
//   {"op": "run", "us": N}            run N us of emulated time (less when the board writes to USB); events, then {"ev": "ran", "t": ns,
//                                     "idle": ns} (idle: the time the core has waited, WFI/WFE, in all)
//   {"op": "usb", "d": HEX}           bytes from the host, read by the board when it asks
//   {"op": "mux", "v": [[...16]...]}  each multiplexer's readings (16-bit, emitters lit)
//   {"op": "hx", "v": {PIN: N}}       each HX711's next reading (24-bit two's complement)
//   {"op": "pin", "pin": P, "v": 0|1} drive an input pin (a button; released is high)
//   {"op": "press", "pin": P, "ms": M} drive P low now and high again M ms later
//   {"op": "cut", "n": N}             stop (power cut) at the N-th flash write or erase from now:
//                                     half of a program's bytes land, an erase does nothing
//   {"op": "dump", "path": FILE}      write the filesystem's part of the flash to FILE
//   {"op": "stop"}                    end
//
// Events: {"ev": "usb", "d": HEX, "t": ns} (the board's serial output), {"ev": "leds", "t": ns,
// "d": HEX} (a whole strip frame as its bytes went out on the data pin), {"ev": "overrun", "t": ns}
// (a frame's bits went on past the strip's end: a write that began before the last frame latched,
// which the LEDs drop), {"ev": "hx", "t": ns,
// "pins": [P...]} (a conversion ready whose reading on those data pins is new), {"ev": "flash",
// "op": "erase"|"program", "off": N, "n": N, "t": ns}, {"ev": "connected"} (USB
// enumerated), {"ev": "cut", "t": ns}, {"ev": "reset", "t": ns, "usb_boot": bool} (the watchdog
// reset the chip: machine.reset(), or machine.bootloader() when usb_boot; the launcher starts a new
// runner on the same flash), {"ev": "dumped"}.
//
// Three things of stock rp2040js would distort a run; this runner handles them:
//  1. Flash erase and program are not emulated: the boot ROM's flash_range_erase and
//     flash_range_program (found through its function table, pointer at 0x14) begin with
//     `BKPT #n; BX LR`, and the breakpoint does the work on mcu.flash, with the busy
//     time of a real chip added to the clock.
//  2. Its USB host answers an empty OUT read with a zero-length packet every 10 us, which
//     keeps the board in its USB interrupt: here a read is answered only when bytes wait
//     (a real host NAKs until it has data).
//  3. Simulator.execute() runs in batches on timers and lets emulated time run past a
//     sleep: here the core is stepped synchronously, the clock ticked by each instruction's
//     cycles at 125 MHz, and moved to the next alarm when the core waits (WFI/WFE).

import fs from "node:fs";
import { pathToFileURL } from "node:url";

const cfg = JSON.parse(fs.readFileSync(process.argv[2], "utf8"));
const { RP2040, USBCDC } = await import(pathToFileURL(cfg.rp2040js).href);

const CYCLE_NS = 8; // 125 MHz
const FLASH_BASE = 0x10000000;
const ERASE_NS_PER_4K = 45e6; // typical busy times of the Pico's W25Q16 flash
const PROGRAM_NS_PER_PAGE = 0.4e6;
const BKPT_ERASE = 0xe1;
const BKPT_PROGRAM = 0xe2;

function tell(message) {
  fs.writeSync(1, JSON.stringify(message) + "\n");
}

function fail(text) {
  process.stderr.write("emuboard: " + text + "\n");
  process.exit(2);
}

// --- The image, the boot ROM, the flash ---------------------------------------------

function readImage(path) {
  const data = fs.readFileSync(path);
  if (data.length >= 512 && data.readUInt32LE(0) === 0x0a324655 && data.readUInt32LE(4) === 0x9e5d5157) {
    // UF2: 512-byte blocks, each with a target address and up to 476 bytes of payload.
    const out = new Uint8Array(2 << 20).fill(0xff);
    let end = 0;
    for (let at = 0; at + 512 <= data.length; at += 512) {
      const flags = data.readUInt32LE(at + 8);
      if (flags & 1) continue; // "not main flash"
      const addr = data.readUInt32LE(at + 12) - FLASH_BASE;
      const size = data.readUInt32LE(at + 16);
      if (addr < 0 || size > 476 || addr + size > out.length) fail(`${path}: a UF2 block outside the flash`);
      out.set(data.subarray(at + 32, at + 32 + size), addr);
      end = Math.max(end, addr + size);
    }
    return out.subarray(0, end);
  }
  return new Uint8Array(data);
}

const mcu = new RP2040();
// rp2040js logs to stdout, which carries the events: its errors go to stderr, the rest nowhere
// (unmodelled registers of the flash interface and the like, which a Pico's firmware touches).
const quiet = () => {};
mcu.logger = {
  debug: quiet,
  info: quiet,
  warn: quiet,
  error: (component, message) => process.stderr.write(`rp2040js: ${component}: ${message}\n`),
};
const rom = fs.readFileSync(cfg.bootrom);
if (rom.length !== 16384) fail(`${cfg.bootrom} is ${rom.length} bytes, not a 16 KB RP2040 boot ROM`);
const rom32 = new Uint32Array(rom.buffer.slice(rom.byteOffset, rom.byteOffset + rom.length));
mcu.loadBootrom(rom32); // (resets the core and fills the flash with 0xff)

function romHalf(addr) {
  return (mcu.bootrom[addr >> 2] >>> ((addr & 2) * 8)) & 0xffff;
}

function setRomHalf(addr, value) {
  const word = mcu.bootrom[addr >> 2];
  const shift = (addr & 2) * 8;
  mcu.bootrom[addr >> 2] = ((word & ~(0xffff << shift)) | (value << shift)) >>> 0;
}

function patchRom() {
  // The two functions' first instructions become the stubs: nothing else in the ROM that a
  // running firmware uses calls them.
  const found = {};
  for (let t = romHalf(0x14); romHalf(t) !== 0; t += 4) {
    const code = String.fromCharCode(romHalf(t) & 0xff, romHalf(t) >> 8);
    const entry = romHalf(t + 2) & ~1;
    if (code === "RE" || code === "RP") {
      setRomHalf(entry, 0xbe00 | (code === "RE" ? BKPT_ERASE : BKPT_PROGRAM));
      setRomHalf(entry + 2, 0x4770); // BX LR
      found[code] = true;
    }
  }
  if (!found.RE || !found.RP) fail(`${cfg.bootrom}: its function table has no flash erase/program: not an RP2040 boot ROM`);
}
patchRom();

mcu.flash.set(readImage(cfg.image), 0);
if (cfg.fs) mcu.flash.set(fs.readFileSync(cfg.fs), cfg.fs_offset);
mcu.core.PC = FLASH_BASE;

// The flash's unique id (machine.unique_id): the 0x4B command's answer on the SSI, which
// rp2040js does not model; every byte written to the data register gets one back.
{
  const ssi = mcu.peripherals[0x18000];
  const uid = Buffer.from(cfg.uid, "hex");
  const rx = [];
  let pos = -1;
  const read = ssi.readUint32.bind(ssi);
  const write = ssi.writeUint32.bind(ssi);
  ssi.readUint32 = (offset) => (offset === 0x60 ? (rx.length ? rx.shift() : ssi.dr0) : read(offset));
  ssi.writeUint32 = (offset, value) => {
    if (offset === 0x60) {
      if (value === 0x4b && pos < 0) {
        pos = 0;
        rx.length = 0; // (what earlier commands left unread is not this one's answer)
      }
      else if (pos >= 0) pos++;
      rx.push(pos >= 5 && pos < 13 ? uid[pos - 5] : 0);
      if (pos >= 12) pos = -1;
      if (rx.length > 16) rx.shift();
    }
    write(offset, value);
  };
}

// --- Flash writes (distortion 1) ------------------------------------------------------

let extraNs = 0; // busy time of the flash, added to the clock after the instruction
let cutIn = 0; // flash operations left before the power goes (0: no cut planned)
let cut = false;

mcu.onBreak = (code) => {
  const r = mcu.core.registers;
  if (code !== BKPT_ERASE && code !== BKPT_PROGRAM) {
    fail(`the firmware hit a breakpoint (BKPT #${code}) at 0x${(mcu.core.PC - 2).toString(16)}`);
  }
  const off = r[0];
  const n = code === BKPT_ERASE ? r[1] : r[2];
  if (off + n > mcu.flash.length) fail(`a flash write past the flash's end (0x${off.toString(16)} + ${n})`);
  const last = cutIn === 1;
  if (cutIn) cutIn--;
  if (code === BKPT_ERASE) {
    if (!last) mcu.flash.fill(0xff, off, off + n);
    extraNs += (ERASE_NS_PER_4K * n) / 4096;
  } else {
    const src = r[1];
    const k = last ? n >> 1 : n; // a cut in the middle of a page: its first half landed
    for (let i = 0; i < k; i++) mcu.flash[off + i] &= mcu.readUint8(src + i); // NOR: bits only cleared
    extraNs += PROGRAM_NS_PER_PAGE * Math.ceil(n / 256);
  }
  events.push({ ev: "flash", op: code === BKPT_ERASE ? "erase" : "program", off, n, t: mcu.clock.nanos });
  if (last) cut = true;
};

// --- Resets: the watchdog's (machine.reset()) ends the run; the launcher boots a new chip --------

// The boot ROM's reset_usb_boot() (machine.bootloader()) leaves its magic in watchdog scratch 4,
// then starts the watchdog's countdown and waits for it in WFI, which the stepping below skips
// over without the countdown: the countdown's start is taken as the reset.  The launcher then
// plays the BOOTSEL drive.
const USB_BOOT_MAGIC = 0xb007c0d3;
const WD_CTRL = 0x0, WD_CTRL_ENABLE = 1 << 30;
let reset = false;
const watchdog = mcu.peripherals[0x40058];
watchdog.onWatchdogTrigger = () => {
  if (reset) return;
  reset = true;
  events.push({ ev: "reset", t: mcu.clock.nanos, usb_boot: watchdog.scratchData[4] === USB_BOOT_MAGIC });
};
const watchdogWrite = watchdog.writeUint32.bind(watchdog);
watchdog.writeUint32 = (offset, value) => {
  watchdogWrite(offset, value);
  if (offset === WD_CTRL && value & WD_CTRL_ENABLE && watchdog.scratchData[4] === USB_BOOT_MAGIC) {
    watchdog.onWatchdogTrigger();
  }
};

// --- USB (distortion 2) ----------------------------------------------------------------

const cdc = new USBCDC(mcu.usbCtrl);
const hostBytes = []; // Uint8Arrays from the host, not yet read by the board
let hostHead = 0;
let pendingRead = null; // the size of the OUT read the board has asked for, not answered yet
let output = [];
const events = [];

cdc.onSerialData = (buffer) => output.push(Buffer.from(buffer));
cdc.onDeviceConnected = () => events.push({ ev: "connected", t: mcu.clock.nanos });
const cdcRead = mcu.usbCtrl.onEndpointRead;
mcu.usbCtrl.onEndpointRead = (endpoint, size) => {
  if (endpoint !== cdc.outEndpoint) return cdcRead(endpoint, size);
  pendingRead = size;
  deliver();
};

function deliver() {
  if (pendingRead === null || !hostBytes.length) return;
  const out = [];
  let n = 0;
  while (hostBytes.length && n < pendingRead) {
    const chunk = hostBytes[0];
    const k = Math.min(pendingRead - n, chunk.length - hostHead);
    out.push(chunk.subarray(hostHead, hostHead + k));
    n += k;
    hostHead += k;
    if (hostHead === chunk.length) {
      hostBytes.shift();
      hostHead = 0;
    }
  }
  pendingRead = null;
  mcu.usbCtrl.endpointReadDone(cdc.outEndpoint, Buffer.concat(out));
}

// --- The LED strip: WS2812 bits decoded from the data pin's pulses ------------------------

if (cfg.leds) {
  const { pin, bytes } = cfg.leds;
  const frame = new Uint8Array(bytes);
  // The LEDs latch what they were sent once the line has been low this long: a WS2812B V5's
  // datasheet asks 280 us (older WS2812s 50 us), so a board that waits less loses frames on one.
  const RESET_NS = 280000;
  let bits = 0;
  let rise = -1;
  let fall = -1e12;
  mcu.gpio[pin].addListener((state) => {
    const t = mcu.clock.nanos;
    if (state === 1) {
      if (t - fall >= RESET_NS) bits = 0; // a reset starts a frame
      rise = t;
    } else if (state === 0 && rise >= 0) {
      fall = t;
      const one = t - rise > 600; // a 1 is high 0.8 us, a 0 is 0.4 us
      rise = -1;
      if (bits < bytes * 8) {
        const i = bits >> 3;
        const bit = 7 - (bits & 7);
        frame[i] = one ? frame[i] | (1 << bit) : frame[i] & ~(1 << bit);
        bits++;
        if (bits === bytes * 8) events.push({ ev: "leds", t, d: Buffer.from(frame).toString("hex") });
      } else if (bits++ === bytes * 8) {
        events.push({ ev: "overrun", t }); // (the bits pass the last LED: that frame is lost)
      }
    }
  });
}

// --- Occupancy sensors: the ADC fed through the multiplexers' select pins -------------------

let muxValues = [];
if (cfg.mux) {
  const { select, emitter, muxes, ambient } = cfg.mux;
  const adc = mcu.adc;
  const defaultRead = adc.onADCRead;
  adc.onADCRead = (channel) => {
    let sel = 0;
    for (let b = 0; b < select.length; b++) if (mcu.gpio[select[b]].outputValue) sel |= 1 << b;
    const lit = emitter === null || mcu.gpio[emitter].outputValue;
    let value = 0;
    for (let m = 0; m < muxes.length; m++) {
      const { adc: pin, enable } = muxes[m];
      if (pin - 26 !== channel) continue;
      if (enable !== null && mcu.gpio[enable].outputValue) continue; // EN high: that mux is off
      const v = muxValues[m] ? muxValues[m][sel] : 0;
      value = lit ? v : ambient;
      break;
    }
    adc.channelValues[channel] = Math.max(0, Math.min(4095, value >> 4)); // 12-bit ADC
    defaultRead(channel);
  };
}

// --- Load cells: HX711s answering the shared clock's edges ---------------------------------

const hxNext = {}; // data pin -> the reading of its next conversion
if (cfg.hx711) {
  const { sck, dout, rate_hz } = cfg.hx711;
  const state = dout.map((pin) => ({ pin, word: 0, bit: 0 }));
  let pulses = 0;
  const ready = mcu.clock.createAlarm(() => {
    const fresh = []; // the data pins whose reading differs from their last one
    for (const s of state) {
      const word = (hxNext[s.pin] ?? 0) & 0xffffff;
      if (word !== s.word) fresh.push(s.pin);
      s.word = word;
      mcu.gpio[s.pin].setInputValue(false); // DOUT low: a reading is ready
    }
    // The instant a load cell's pin first tells the board of a new load: what a firmware can
    // answer from (the conversion before it is the HX711's own wait).
    if (fresh.length) events.push({ ev: "hx", pins: fresh, t: mcu.clock.nanos });
    pulses = 0;
  });
  for (const s of state) mcu.gpio[s.pin].setInputValue(true);
  ready.schedule(1e9 / rate_hz);
  mcu.gpio[sck].addListener((level) => {
    if (level !== 1) return;
    pulses++;
    if (pulses <= 24) {
      for (const s of state) mcu.gpio[s.pin].setInputValue(!!((s.word >> (24 - pulses)) & 1));
    } else if (pulses === 25) {
      // The 25th pulse (and more, for the gain) ends the reading: DOUT high until the next one.
      for (const s of state) mcu.gpio[s.pin].setInputValue(true);
      ready.schedule(1e9 / rate_hz);
    }
  });
}

// --- Buttons: inputs held high (released) unless pressed -------------------------------------

for (const pin of cfg.inputs_high || []) mcu.gpio[pin].setInputValue(true);

// --- Running --------------------------------------------------------------------------------

let idleNs = 0; // emulated time the core spent waiting (WFI/WFE)

function run(us) {
  const core = mcu.core;
  const clock = mcu.clock;
  const until = clock.nanos + us * 1000;
  // A slice ends early once the board has said something: the host hears it without waiting
  // for the rest of the slice.
  while (clock.nanos < until && !cut && !reset && !output.length) {
    if (core.waiting) {
      const next = clock.nanosToNextAlarm;
      const step = next > 0 ? Math.min(next, until - clock.nanos) : until - clock.nanos;
      idleNs += step;
      clock.tick(step);
    } else {
      const cycles = core.executeInstruction();
      clock.tick(cycles * CYCLE_NS + extraNs);
      extraNs = 0;
    }
  }
}

function flushOutput() {
  if (output.length) {
    events.push({ ev: "usb", d: Buffer.concat(output).toString("hex"), t: mcu.clock.nanos });
    output = [];
  }
}

function handle(cmd) {
  switch (cmd.op) {
    case "run":
      if (!cut && !reset) run(cmd.us);
      flushOutput();
      if (cut) events.push({ ev: "cut", t: mcu.clock.nanos });
      for (const e of events.splice(0)) tell(e);
      tell({ ev: "ran", t: mcu.clock.nanos, idle: idleNs });
      return;
    case "usb":
      hostBytes.push(Buffer.from(cmd.d, "hex"));
      deliver();
      return;
    case "mux":
      muxValues = cmd.v;
      return;
    case "hx":
      for (const [pin, v] of Object.entries(cmd.v)) hxNext[pin] = v;
      return;
    case "pin":
      mcu.gpio[cmd.pin].setInputValue(!!cmd.v);
      return;
    case "press": {
      const pin = cmd.pin;
      mcu.gpio[pin].setInputValue(false);
      mcu.clock.createAlarm(() => mcu.gpio[pin].setInputValue(true)).schedule(cmd.ms * 1e6);
      return;
    }
    case "cut":
      cutIn = cmd.n;
      return;
    case "dump":
      fs.writeFileSync(cmd.path, mcu.flash.subarray(cfg.fs_offset, cfg.fs_offset + cfg.fs_size));
      tell({ ev: "dumped" });
      return;
    case "stop":
      process.exit(0);
    default:
      fail(`unknown command ${JSON.stringify(cmd.op)}`);
  }
}

let pending = "";
process.stdin.on("data", (chunk) => {
  pending += chunk.toString("utf8");
  let nl;
  while ((nl = pending.indexOf("\n")) >= 0) {
    const line = pending.slice(0, nl);
    pending = pending.slice(nl + 1);
    if (line.trim()) handle(JSON.parse(line));
  }
});
process.stdin.on("end", () => process.exit(0));
tell({ ev: "ready" });
