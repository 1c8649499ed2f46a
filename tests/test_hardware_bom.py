"""hardware/BOM.csv: its arithmetic, and quantities that match the reference config."""
import csv
import json
from decimal import Decimal
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
HARDWARE = ROOT / "hardware"


def _rows():
    with open(HARDWARE / "BOM.csv", newline="", encoding="utf-8") as f:
        return list(csv.DictReader(f))


def _parts():
    return [r for r in _rows() if not r["part"].startswith("TOTAL")]


def _quantity(fragment):
    matching = [r for r in _parts() if fragment in r["part"]]
    assert len(matching) == 1, fragment
    return int(matching[0]["quantity"])


def test_columns_and_line_totals():
    rows = _rows()
    assert list(rows[0]) == ["part", "quantity", "role", "typical_price_usd", "line_total_usd", "option"]
    for r in _parts():
        assert r["role"], r["part"]
        assert Decimal(r["typical_price_usd"]) > 0
        assert Decimal(r["line_total_usd"]) == int(r["quantity"]) * Decimal(r["typical_price_usd"]), r["part"]


def test_totals_add_up_per_option():
    totals = dict((r["option"], Decimal(r["line_total_usd"])) for r in _rows() if r["part"].startswith("TOTAL"))
    assert set(totals) == {r["option"] for r in _parts()}
    for option, total in totals.items():
        assert total == sum(Decimal(r["line_total_usd"]) for r in _parts() if r["option"] == option), option
    assert totals["reference"] == Decimal("70.69")  # the figure docs/hardware.md quotes


def test_quantities_match_the_reference_preset():
    config = json.loads((HARDWARE / "boards" / "2x6-stores.json").read_text())
    sensed = len(config["sensors"]["pits"]) + len([s for s in config["sensors"].get("stores") or [] if s is not None])
    assert _quantity("WS2812B") == config["leds"]["count"]
    assert _quantity("TCRT5000") == sensed
    assert _quantity("CD74HC4067") == len(config["sensors"]["muxes"])
    assert _quantity("Resistor 330 ohm") == sensed + 1          # emitters, and the LED data line
    assert _quantity("Resistor 10 kohm") == len(config["sensors"]["muxes"])
    assert _quantity("push button") == len([k for k in ("confirm", "undo", "hint") if k in config["buttons"]])
    assert _quantity(config["leds"]["level_shifter"]) == 1


def test_load_cell_option_matches_its_example():
    config = json.loads((HARDWARE / "examples" / "2x6-stores-hx711.json").read_text())
    assert _quantity("HX711") == len(config["sensors"]["pits"]) + len(config["sensors"]["stores"])
