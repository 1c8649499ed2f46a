"""Dropping a module a board needs only now and then, so that its code leaves the heap.

A stock Pico runs the app from .mpy files on its filesystem: every imported
module's bytecode and constants live in the heap (about 190 KB for
everything).  Code needed only at boot (the config's check), on a rare
request (the journal's sync, self-test, calibration) or on a bad config is
imported when needed and dropped after with unload(): out of sys.modules and
out of the package, so the next collection frees it once nothing else holds
it (its interned names stay: MicroPython never frees those).

On CPython (the virtual board, the laptop, tests) nothing is dropped: memory
is plentiful there, and a module imported again would be a new module whose
classes differ from the ones other code holds.
"""
import sys

_BOARD = sys.implementation.name == "micropython"


def unload(name):
    """Forget sowlight_fw.<name> (MicroPython only); what still refers to it keeps it alive."""
    if not _BOARD:
        return
    sys.modules.pop("sowlight_fw." + name, None)
    package = sys.modules.get("sowlight_fw")
    if package is not None and name in package.__dict__:
        delattr(package, name)


def missing(module, name):
    """The AttributeError a module's __getattr__ raises for a name it does not have (the message
    is Python's own; one copy of it for every module, not one each)."""
    return AttributeError("module '%s' has no attribute '%s'" % (module, name))
