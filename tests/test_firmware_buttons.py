"""The buttons (firmware/sowlight_fw/hw/buttons.py): debounce, short presses, long press for the menu."""
import importlib.util
import json
from pathlib import Path

from sowlight_fw import config
from sowlight_fw.hw.buttons import ButtonLogic, Buttons

ROOT = Path(__file__).resolve().parent.parent


def fake_machine():
    spec = importlib.util.spec_from_file_location("machine", ROOT / "tests" / "micropython" / "fakes" / "machine.py")
    m = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(m)
    return m


def run(logic, script):
    """script: (ms, confirm, undo, hint) levels held from that time; polled every 5 ms."""
    out = []
    for (t0, *levels), (t1, *_) in zip(script, script[1:] + [(script[-1][0] + 5, 0, 0, 0)]):
        for t in range(t0, t1, 5):
            out += [(t, e) for e in logic.update(levels, t)]
    return out


def test_a_short_press_counts_when_let_go():
    ev = run(ButtonLogic(800, 30), [(0, 0, 0, 0), (100, 1, 0, 0), (300, 0, 0, 0), (400, 0, 0, 0)])
    assert ev == [(330, "confirm")]


def test_contact_bounce_is_one_press():
    script = [(0, 0, 0, 0), (100, 1, 0, 0), (105, 0, 0, 0), (110, 1, 0, 0), (115, 0, 0, 0), (120, 1, 0, 0),
              (400, 0, 0, 0), (405, 1, 0, 0), (410, 0, 0, 0), (600, 0, 0, 0)]
    ev = run(ButtonLogic(800, 30), script)
    assert [e for _, e in ev] == ["confirm"]


def test_a_blip_shorter_than_the_debounce_is_nothing():
    assert run(ButtonLogic(800, 30), [(0, 0, 0, 0), (100, 0, 1, 0), (120, 0, 0, 0), (300, 0, 0, 0)]) == []


def test_holding_confirm_opens_the_menu_once_and_nothing_on_release():
    ev = run(ButtonLogic(800, 30), [(0, 0, 0, 0), (100, 1, 0, 0), (2000, 0, 0, 0), (2100, 0, 0, 0)])
    assert ev == [(930, "menu")]


def test_holding_undo_or_hint_is_one_press():
    ev = run(ButtonLogic(800, 30), [(0, 0, 0, 0), (100, 0, 1, 1), (2000, 0, 0, 0), (2100, 0, 0, 0)])
    assert sorted(e for _, e in ev) == ["hint", "undo"]


def test_buttons_read_the_configured_pins_active_low():
    m = fake_machine()
    raw = json.loads((ROOT / "hardware" / "boards" / "2x6-stores.json").read_text())
    b = config.check(raw)
    buttons = Buttons(b, m)
    assert not buttons.held("confirm")             # pulled up: not pressed
    m.world.levels[b.buttons["hint"]] = 0          # pressed: the pin goes to ground
    events = []
    for t in range(0, 200, 10):
        events += buttons.poll(t)
    m.world.levels[b.buttons["hint"]] = 1
    for t in range(200, 300, 10):
        events += buttons.poll(t)
    assert events == ["hint"]
    m.world.levels[b.buttons["confirm"]] = 0
    assert buttons.held("confirm")
