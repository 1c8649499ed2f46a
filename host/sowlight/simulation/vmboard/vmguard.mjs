// Running many MicroPython VMs, one after another, in one Node.js process.
//
// Used by the VM board (bridge.mjs: a reset builds a new VM) and by the tests'
// harness (tests/micropython/runner.mjs: every request gets a new VM).
//
// The npm package keeps its state in globals (globalThis.Module and friends)
// and the newest VM wins. Two things could still reach an old VM after it is
// replaced, and would then call into the *new* VM's memory with stale
// references ("memory access out of bounds"):
//  1. timers the old VM's asyncio scheduled with js.setTimeout / setInterval;
//  2. FinalizationRegistry callbacks for PyProxy objects of the old VM.
// guardVmGlobals() tracks the timers (clearVmTimers() clears them when a VM is
// dropped) and lets registry callbacks run only while the VM that created the
// registry is still the current one.
//
// It also compiles micropython.wasm once: loadMicroPython() would read and
// compile it for every VM, but the compiled module is immutable and can be
// instantiated any number of times (a quarter off the cost of a fresh VM).

// The process's own timers, for code that must not be cleared with a VM's.
export const nativeTimers = {
  setTimeout: globalThis.setTimeout,
  clearTimeout: globalThis.clearTimeout,
  setInterval: globalThis.setInterval,
  clearInterval: globalThis.clearInterval,
};

const vmTimers = new Set();
let installed = false;

export function guardVmGlobals() {
  if (installed) return;
  installed = true;

  globalThis.setTimeout = (callback, delay, ...args) => {
    const handle = nativeTimers.setTimeout(() => {
      vmTimers.delete(handle);
      callback(...args);
    }, delay);
    vmTimers.add(handle);
    return handle;
  };
  globalThis.clearTimeout = (handle) => {
    vmTimers.delete(handle);
    nativeTimers.clearTimeout(handle);
  };
  globalThis.setInterval = (callback, delay, ...args) => {
    const handle = nativeTimers.setInterval(callback, delay, ...args);
    vmTimers.add(handle);
    return handle;
  };
  globalThis.clearInterval = (handle) => {
    vmTimers.delete(handle);
    nativeTimers.clearInterval(handle);
  };

  const NativeRegistry = globalThis.FinalizationRegistry;
  globalThis.FinalizationRegistry = class VmBoundFinalizationRegistry extends NativeRegistry {
    constructor(callback) {
      // The package creates its registry right after publishing the new VM as
      // globalThis.Module, so this captures the owning VM.
      const owner = globalThis.Module;
      super((held) => {
        if (globalThis.Module === owner) callback(held);
      });
    }
  };

  const nativeInstantiate = WebAssembly.instantiate;
  let compiled = null;
  WebAssembly.instantiate = async (source, imports) => {
    if (source instanceof WebAssembly.Module) return nativeInstantiate(source, imports);
    compiled ??= await WebAssembly.compile(source);
    return { module: compiled, instance: await nativeInstantiate(compiled, imports) };
  };
}

// Clears every timer a VM set (call it when that VM is dropped).
export function clearVmTimers() {
  for (const handle of vmTimers) nativeTimers.clearTimeout(handle); // clears intervals too in Node
  vmTimers.clear();
}
