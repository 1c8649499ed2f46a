"""`sowlight board config check|drawings` and `sowlight board presets`, as a user runs them."""
import json
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

from sowlight import cli
from sowlight.cli import hardware as hardware_cli

ROOT = Path(__file__).resolve().parent.parent
BOARDS = ROOT / "hardware" / "boards"
REFERENCE = BOARDS / "2x6-stores.json"


def run(capsys, *argv):
    status = cli.main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def test_check_a_good_config(capsys):
    status, out, err = run(capsys, "board", "config", "check", str(REFERENCE))
    assert status == 0
    assert out == "%s: OK (2x6 + 2 stores, rp2040, 14 LEDs, occupancy-mux (1 multiplexer), worst case 442 mA of 500 mA)\n" % REFERENCE


def test_check_reports_each_problem_with_file_line_and_column(capsys, tmp_path):
    text = REFERENCE.read_text()
    text = text.replace('"hint": 12', '"hint": 16').replace('{"adc": 26}', '{"adc": 27, "enabel": 3}')
    path = tmp_path / "mine.json"
    path.write_text(text)
    status, out, err = run(capsys, "board", "config", "check", str(path))
    assert status == 1
    lines = out.splitlines()
    hint_line = text[:text.index('"hint": 16')].count("\n") + 1
    mux_line = text[:text.index('"enabel"')].count("\n") + 1
    mux_col = text.splitlines()[mux_line - 1].index('"enabel"') + 1
    assert "%s:%d:5: error: buttons.hint: GP16 is already used for the LED data line" % (path, hint_line) in out
    assert "%s:%d:%d: error: sensors.muxes[0].enabel: unknown key 'enabel' in a multiplexer (did you mean 'enable'?)" % (path, mux_line, mux_col) in out
    assert lines[-1] == "%s: 2 errors" % path
    assert "Traceback" not in out + err


def test_check_strict_fails_on_warnings(capsys, tmp_path):
    path = tmp_path / "bright.json"
    path.write_text(REFERENCE.read_text().replace('"brightness_cap": 0.25', '"brightness_cap": 0.3'))
    assert run(capsys, "board", "config", "check", str(path))[0] == 0
    status, out, _ = run(capsys, "board", "config", "check", "--strict", str(path))
    assert status == 1 and "warning: leds.brightness_cap: close to the power budget" in out


def test_check_json_output(capsys, tmp_path):
    path = tmp_path / "bad.json"
    path.write_text("{\n  \"format\": 1,\n}\n")
    status, out, _ = run(capsys, "board", "config", "check", "--json", str(path))
    assert status == 1
    result = json.loads(out)
    assert result[0]["ok"] is False
    assert result[0]["problems"][0]["line"] == 3 and "trailing comma" in result[0]["problems"][0]["message"]


def test_check_a_missing_file_is_a_message_not_a_traceback(capsys, tmp_path):
    status, out, err = run(capsys, "board", "config", "check", str(tmp_path / "nowhere.json"))
    assert status == 1
    assert "cannot read the file" in out and "Traceback" not in out + err


def test_drawings_for_a_preset(capsys, tmp_path):
    status, out, err = run(capsys, "board", "config", "drawings", "4x7", "--out", str(tmp_path / "svg"))
    assert status == 0, err
    names = sorted(p.name for p in (tmp_path / "svg").iterdir())
    assert names == ["4x7-drill-top.svg", "4x7-drill-under.svg", "4x7-wiring.svg"]
    for name in names:
        ET.parse(tmp_path / "svg" / name)
        # The command writes exactly what the repository's generated drawings hold.
        assert (tmp_path / "svg" / name).read_text() == (ROOT / "hardware" / "drawings" / name).read_text()
    assert "100 %" in out


def test_drawings_for_a_file(capsys, tmp_path):
    path = tmp_path / "my-board.json"
    path.write_text(REFERENCE.read_text())
    status, out, _ = run(capsys, "board", "config", "drawings", str(path), "--out", str(tmp_path))
    assert status == 0
    assert (tmp_path / "my-board-wiring.svg").is_file()


def test_drawings_refuse_a_broken_config(capsys, tmp_path):
    path = tmp_path / "broken.json"
    path.write_text(REFERENCE.read_text().replace("[4], [5], [7]", "[4], [4], [7]"))
    status, out, err = run(capsys, "board", "config", "drawings", str(path), "--out", str(tmp_path / "svg"))
    assert status == 1
    assert "LED 4 is already given to pit 4" in err and "is not a valid board config" in err
    assert not (tmp_path / "svg").exists()


def test_unknown_preset_lists_the_known_ones(capsys, tmp_path):
    status, _, err = run(capsys, "board", "config", "drawings", "2x9", "--out", str(tmp_path))
    assert status == 1
    assert err.strip() == "sowlight: unknown preset '2x9'; the presets are: 2x6-stores, 2x7-stores, 2x8, 2x10, 2x12, 4x7, 4x8, 4x10, 4x12"


def test_boards_option_must_be_a_directory(capsys, tmp_path):
    status, _, err = run(capsys, "board", "presets", "--boards", str(tmp_path / "nope"))
    assert status == 1 and "is not a directory" in err


def test_presets_json(capsys):
    status, out, _ = run(capsys, "board", "presets", "--json")
    assert status == 0
    data = json.loads(out)
    presets = dict((p["preset"], p) for p in data["presets"])
    assert list(presets) == ["2x6-stores", "2x7-stores", "2x8", "2x10", "2x12", "4x7", "4x8", "4x10", "4x12"]
    six = presets["2x6-stores"]
    assert (six["rows"], six["pits_per_row"], six["stores"], six["supply_ma"]) == (2, 6, 2, 500)
    assert "each store played as its player's last pit" in six["plays"]
    assert data["note"] is None  # the rules core lists its games
    fits = dict((f["variant"], f["how"]) for f in six["fits"])
    import mancala
    for vid in mancala.variants():
        info = mancala.variant_info(vid)
        if (info["rows"], info["pits_per_row"]) == (2, 6):
            assert fits[vid] == "exact"
        elif (info["rows"], info["pits_per_row"]) == (2, 7) and not info.get("stores_sown", info.get("stores")):
            assert fits[vid] == "stores-as-pits"
        else:
            assert vid not in fits
    assert "kalah" in fits and "pandi" in fits


def test_presets_without_the_rules_core_listing(capsys, monkeypatch):
    monkeypatch.setattr(hardware_cli, "rules_variants", lambda: (None, "the rules core does not list its games yet"))
    status, out, _ = run(capsys, "board", "presets")
    assert status == 0
    assert "note: the rules core does not list its games yet" in out
    assert "2x6 games with or without sown stores; 2x7 games without sown stores" in out


def test_presets_table(capsys):
    status, out, _ = run(capsys, "board", "presets")
    assert status == 0
    lines = out.splitlines()
    assert lines[0].split()[:4] == ["PRESET", "BOARD", "MCU", "LEDS"]
    assert lines[1].startswith("2x6-stores   2x6 + 2 stores  rp2040  14    0.25  500 mA")


def test_the_installed_command_runs(tmp_path):
    result = subprocess.run([sys.executable, "-m", "sowlight", "board", "config", "check", str(REFERENCE)],
                            capture_output=True, text=True, cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert "OK" in result.stdout


def test_check_reports_a_bad_setting_with_its_line(capsys, tmp_path):
    text = REFERENCE.read_text().replace('"format": 1,', '"format": 1,\n  "settings": {\n    "hint_ms": 0\n  },')
    path = tmp_path / "mine.json"
    path.write_text(text)
    status, out, err = run(capsys, "board", "config", "check", str(path))
    assert status == 1
    line = text[:text.index('"hint_ms"')].count("\n") + 1
    assert "%s:%d:5: error: settings.hint_ms: must be a whole number from 10 to 60000, not 0" % (path, line) in out
