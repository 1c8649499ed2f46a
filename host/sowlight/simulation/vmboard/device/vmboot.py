"""Turns a fresh WebAssembly MicroPython into the VM board; the bridge runs it at every boot.

install() puts the board's stand-ins in place of the port's modules (sys,
os, time, asyncio, and machine and neopixel, which the port lacks), makes
`open` raise the board's errno numbers, mounts the board's flash (the
in-memory directory /flash) as the root of the filesystem, and leaves
sys.path as a board's: ['', '/lib'].  The modules the WebAssembly port
freezes in (functools, logging, ...) are out of reach, as on a stock Pico.
"""
import builtins
import sys

import vm_sys
import vm_os
import vm_time
import vm_machine
import vm_asyncio

_OURS = ("vm_sys", "vm_os", "vm_time", "vm_machine", "vm_asyncio", "vm_neopixel", "vmboot")


def install(uid_hex, flash="/flash"):
    modules = sys.modules
    modules["sys"] = vm_sys
    modules["os"] = vm_os
    modules["time"] = vm_time
    modules["machine"] = vm_machine
    modules["asyncio"] = vm_asyncio
    import vm_neopixel          # imports machine: the stand-in above
    modules["neopixel"] = vm_neopixel
    vm_machine._set_uid(bytes.fromhex(uid_hex))
    builtins.open = vm_os.open_translated(builtins.open)
    builtins.input = vm_sys.input
    builtins.print = vm_sys.print
    builtins.__repl_print__ = vm_sys.repl_print
    import uos
    uos.umount("/")
    uos.mount(uos.VfsPosix(flash), "/")
    uos.chdir("/")
    sys.path[:] = ["", "/lib"]
    for name in _OURS:
        modules.pop(name, None)
