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
import vm_asyncio

# Dropped from sys.modules once installed (machine and neopixel stay, under their own names).
_OURS = ("vm_sys", "vm_os", "vm_time", "vm_asyncio", "vmboot")


def install(uid_hex, flash="/flash"):
    modules = sys.modules
    modules["sys"] = vm_sys
    modules["os"] = vm_os
    modules["time"] = vm_time
    modules["asyncio"] = vm_asyncio
    import machine              # the stand-ins of device/, on sys.path until the end of install()
    import neopixel
    machine.world.uid = bytes.fromhex(uid_hex)
    machine.world.bitstreams = None     # only the last frame of each pin: the board runs for hours
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
