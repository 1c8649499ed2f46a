"""The LED adapters (firmware/sowlight_fw/hw/leds.py): colours, brightness cap, only changed frames.

NeoPixelDriver runs against a stand-in for micropython-lib's neopixel module
(tests/micropython/fakes); AdafruitDriver against the real Adafruit
CircuitPython NeoPixel library on CPython, through Blinka's OS-agnostic board
(BLINKA_OS_AGNOSTIC=1), with its wire write captured.
"""
import json
import sys
from pathlib import Path
from fakeload import FAKES

import pytest

from sowlight_fw import colours as C
from sowlight_fw import config
from sowlight_fw.hw.leds import AdafruitDriver, NeoPixelDriver, Strip, scaled_palette

ROOT = Path(__file__).resolve().parent.parent




def board(**leds):
    raw = json.loads((ROOT / "hardware" / "boards" / "2x6-stores.json").read_text())
    raw["leds"].update(leds)
    return config.check(raw)


def test_colours_are_scaled_by_level_and_cap():
    pal = scaled_palette(255, 64)          # a cap of about a quarter
    assert pal[C.DROP] == (64, 64, 64)
    assert pal[C.OFF] == (0, 0, 0)
    half = scaled_palette(128, 255)
    assert half[C.ERROR] == (128, 0, 0)
    assert all(max(rgb) <= 64 for rgb in pal)


def test_micropython_driver_writes_grb_bytes_under_the_cap_and_only_changes(fake_mp):
    b = board()                            # 14 LEDs, GRB, cap 0.25
    strip = Strip(b, NeoPixelDriver(b.led_pin, b.led_count, b.led_order))
    frame = bytearray(b.cells)
    frame[0] = C.ERROR
    frame[13] = C.DROP
    assert strip.show(frame, 255)
    pin, data = fake_mp.world.bitstreams[-1]
    assert pin == 16 and len(data) == 14 * 3
    cap = b.brightness_cap255
    assert data[0:3] == bytes((0, 255 * cap // 255, 0))           # red, in G R B order
    led13 = b.cell_leds[13][0]
    assert data[led13 * 3:led13 * 3 + 3] == bytes((cap, cap, cap))
    assert max(data) <= cap
    n = len(fake_mp.world.bitstreams)
    assert not strip.show(frame, 255)      # the same frame: nothing written
    assert len(fake_mp.world.bitstreams) == n
    frame[0] = C.OFF
    assert strip.show(frame, 255)
    assert fake_mp.world.bitstreams[-1][1][0:3] == b"\x00\x00\x00"
    assert strip.show(frame, 100)          # a new level repaints everything
    assert fake_mp.world.bitstreams[-1][1][led13 * 3] == 255 * 100 * cap // 65025


def test_rgbw_strips_get_four_bytes_and_a_dark_white_channel(fake_mp):
    b = board(colour_order="RGBW", brightness_cap=0.2)
    strip = Strip(b, NeoPixelDriver(b.led_pin, b.led_count, b.led_order))
    frame = bytearray(b.cells)
    frame[1] = C.HINT
    strip.show(frame)
    data = fake_mp.world.bitstreams[-1][1]
    assert len(data) == 14 * 4
    r, g, bl, w = data[4:8]
    assert (r, w) == (0, 0) and g > bl > 0


def test_the_adafruit_library_drives_the_same_strip(monkeypatch):
    monkeypatch.setenv("BLINKA_OS_AGNOSTIC", "1")
    for name in ("neopixel", "machine"):
        mod = sys.modules.get(name)
        if mod is not None and str(FAKES) in str(getattr(mod, "__file__", "")):
            monkeypatch.delitem(sys.modules, name)
    neopixel = pytest.importorskip("neopixel")
    import board as blinka_board
    assert "adafruit" in (neopixel.__doc__ or "").lower() or hasattr(neopixel, "GRBW")
    sent = []
    monkeypatch.setattr(neopixel, "neopixel_write", lambda pin, buf: sent.append(bytes(buf)))
    b = board(colour_order="GRB")
    strip = Strip(b, AdafruitDriver(blinka_board.NEOPIXEL, b.led_count, b.led_order))
    frame = bytearray(b.cells)
    frame[2] = C.PLAYER + 1              # blue
    assert strip.show(frame, 255)
    data = sent[-1]
    cap = b.brightness_cap255
    r, g, bl = C.rgb(C.PLAYER + 1)
    assert data[2 * 3:2 * 3 + 3] == bytes((g * cap // 255, r * cap // 255, bl * cap // 255))
    assert max(data) <= cap
    assert not strip.show(frame, 255) and len(sent) == 1
