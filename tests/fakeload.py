"""The fake hardware modules (tests/micropython/fakes: machine, neopixel, hands, ...) loaded
on CPython, the same files the MicroPython VM tests mount as /lib."""
import importlib.util
import sys
from pathlib import Path

FAKES = Path(__file__).resolve().parent / "micropython" / "fakes"


def load_fake(name, register=False):
    """Load fakes/<name>.py as a fresh module; `register` puts it in sys.modules under `name`
    (for firmware code that imports it, e.g. `machine` or `neopixel`)."""
    spec = importlib.util.spec_from_file_location(name, FAKES / (name + ".py"))
    module = importlib.util.module_from_spec(spec)
    if register:
        sys.modules[name] = module
    spec.loader.exec_module(module)
    return module
