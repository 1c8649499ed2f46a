"""The firmware image on an emulated RP2040 (`sowlight board emu`): the real rp2 port of
MicroPython with Sowlight frozen in, booted by rp2040js under Node.js, its pins driven by
simulated seeds, its LED strip decoded from the data pin, its USB port behind a pty.

Robot hands (host/sowlight/simulation/robot.py) play through the link, one `sim` act per physical step,
seeing the lit cells the strip shows (emuhands.StripView);
the board's journal is synced with the companion's sync and compared with the moves made; the
power is cut during journal writes and the board rebooted from the same flash; the link is
made noisy; a refused config shows its error pattern.

Emulation runs the board 3-6 times slower than a Pico on a busy 2-core machine, and a board
debounces its sensors for 150 ms, so games here are a few moves long (bench/bench_emu.py plays
whole ones).  Needs Node.js, the npm package (installed on first use), a firmware image
(`sowlight firmware build`, or SOWLIGHT_FIRMWARE_IMAGE) and the boot ROM beside it (or
SOWLIGHT_BOOTROM); a missing one is a skip that says what to install, a failure under CI=true.
"""
import json
import os
import shutil
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

import mancala
from sowlight.games import archive
from sowlight.board import view as boardview
from sowlight.board import link
from sowlight.simulation.emuboard import EmuBoard, LinkTap, conversion_waits, flashfs
from sowlight.games.sync import sync
from sowlight.simulation.virtual import Faults
from sowlight_fw.link import codec
from sowlight_fw.colours import ERROR, OFF, TOUCH

import emuhands

pytestmark = pytest.mark.skipif(not hasattr(os, "openpty"), reason="pseudo-terminals are POSIX only")

ROOT = Path(__file__).resolve().parent.parent
HX711 = str(ROOT / "hardware" / "examples" / "2x6-stores-hx711.json")
SOWLIGHT = [sys.executable, "-m", "sowlight"]


@pytest.fixture(scope="session")
def emu(firmware_image):
    """What an emulated board needs: (image, boot ROM, rp2040js), or a skip/failure naming what is missing."""
    return emuhands.prerequisites(firmware_image)


@pytest.fixture
def boards(emu):
    """Emulated boards made in the test, all stopped at its end."""
    made = []

    def start(**kw):
        kw.setdefault("uf2", str(emu[0]))
        kw.setdefault("realtime", False)
        b = EmuBoard(**kw)
        made.append(b)
        b.start()
        return b
    yield start
    for b in made:
        b.stop(save=False)


def archived_moves(store, board_id, board_game):
    for g in store.games(board=board_id):
        if g["board_game"] == board_game:
            return [m["move"] for m in store.game(g["number"])["moves"] if m["kind"] == "move"]
    return None


# ----- the link tap --------------------------------------------------------------------------------

def test_the_tap_answers_sim_with_the_boards_own_seq_and_passes_the_rest_through():
    acts = []
    tap = LinkTap(lambda p: acts.append(p) or {"type": "ok", "counts": [1], "hand": 0, "beside": 0, "bag": 9})
    sim = codec.encode(7, "sim", {"act": "add", "cell": 0})
    assert tap.host_bytes(b"\x03raw" + b"\n" + sim[:10]) == b"\x03raw\n"        # REPL bytes go at once
    assert tap.host_bytes(sim[10:]) == codec.encode(7, "ping", {})
    assert tap.host_bytes(sim) == codec.encode(7, "ping", {})                   # a repeat: done once
    assert len(acts) == 1
    reply = tap.board_bytes(codec.encode(40, "pong", {"re": 7, "up": 5}))
    msg = codec.parse_line(reply.rstrip(b"\n"), "board")
    assert (msg.seq, msg.type, msg.payload["re"], msg.payload["counts"]) == (40, "ok", 7, [1])
    hello = codec.encode(0, "hello", {"proto": [1, 1], "role": "board", "sw": "x", "board": "b",
                                      "config": {"geometry": {"pits_per_row": 6, "rows": 2, "stores": 2}, "leds": 14,
                                                 "sensors": {"cells": [0, 1], "kind": "occupancy-mux"}},
                                      "variants": ["oware"], "game": None})
    assert codec.parse_line(tap.board_bytes(hello).rstrip(b"\n"), "board").payload["virtual"] is True
    other = codec.encode(41, "pong", {"re": 8, "up": 6})
    assert tap.board_bytes(b">>> " + other) == b">>> " + other


def test_reactions_tell_an_answer_from_a_blink_and_see_the_touch_before_it():
    # reactions() reads the strip's frames after each change of the sensors' inputs (the bench's
    # latencies, the test of the touch below).  A cell that blinks or counts shows its other look
    # by turns: that look coming after the change is no answer.  A role it has not shown is.
    from types import SimpleNamespace
    from sowlight.simulation.emuboard import reactions
    from sowlight_fw.colours import NEED, READY, DROP
    ms = 10 ** 6

    def frame(t, cell0, cell1=OFF):
        return (t * ms, [cell0, cell1])

    frames = [frame(0, NEED), frame(250, OFF), frame(500, NEED),        # cell 0 counts: need, off...
              frame(740, NEED, TOUCH),                                  # (cell 1's touch, 10 ms after)
              frame(750, OFF), frame(800, TOUCH), frame(900, READY),    # its off look, its touch, the answer
              frame(5000, READY, DROP), frame(9000, READY, DROP),       # cell 1: drop, steady for 4 s
              frame(9100, READY, TOUCH), frame(9200, READY, OFF)]
    board = SimpleNamespace(frames=frames, board=SimpleNamespace(cell_leds=[[0], [1]]),
                            changes=[(730 * ms, [1]), (740 * ms, [0]), (9050 * ms, [1])])
    seen = reactions(board)
    assert [(t // ms, cells, answer // ms if answer else None, touched)
            for t, cells, _first, answer, touched in seen] == [
        (730, [1], None, True),     # touched, then off as before: no answer within 2 s
        (740, [0], 160, True),      # not the off look at 750: READY at 900, after the touch at 800
        (9050, [1], 150, True)]     # DROP steady, no frame for 4 s: TOUCH, then off is its answer
    # Lit a moment before the change, not blinking: going dark again is its answer.
    board.frames = [frame(0, OFF), frame(1000, DROP), frame(1400, TOUCH), frame(1500, OFF)]
    board.changes = [(1300 * ms, [0])]
    assert [(answer // ms, touched) for _t, _c, _f, answer, touched in reactions(board)] == [(200, True)]
    # A change a moment before a blink's first return: its look before, back a beat after it took
    # the other, is the blink; the touch, then dark, are what the change brought.
    board.frames = [frame(0, OFF), frame(1010, READY), frame(1030, NEED), frame(1278, READY),
                    frame(1283, TOUCH), frame(1480, OFF)]
    board.changes = [(1277 * ms, [0])]
    assert [(answer // ms, touched) for _t, _c, _f, answer, touched in reactions(board)] == [(203, True)]
    # Back to its look before well within a beat: that is an answer (and here came before any touch).
    board.frames = [frame(0, OFF), frame(1010, READY), frame(1030, NEED), frame(1120, READY),
                    frame(1130, TOUCH)]
    board.changes = [(1100 * ms, [0])]
    assert [(answer // ms, touched) for _t, _c, _f, answer, touched in reactions(board)] == [(20, False)]


def test_touch_spans_run_from_the_first_touch_to_the_first_frame_without_it():
    # The bench's "touch on the LEDs for": a touch that goes at a blink's beat is a short one.
    from types import SimpleNamespace
    from sowlight.simulation.emuboard import touch_spans
    from sowlight_fw.colours import DROP, TRAIL
    ms = 10 ** 6
    board = SimpleNamespace(
        frames=[(0, [DROP, OFF]), (12 * ms, [TOUCH, OFF]), (160 * ms, [TRAIL, OFF]),      # until the answer
                (400 * ms, [DROP, OFF]), (405 * ms, [TOUCH, OFF]), (410 * ms, [OFF, OFF]),  # gone at a beat
                (900 * ms, [OFF, TOUCH])],                                                 # still on at the end
        board=SimpleNamespace(cell_leds=[[0], [1]]),
        changes=[(10 * ms, [0]), (20 * ms, []), (402 * ms, [0]), (890 * ms, [1])])
    assert touch_spans(board) == [148 * ms, 5 * ms]


def test_conversion_waits_find_the_first_reading_of_a_changed_load_cell():
    # On load cells the board hears of a change when an HX711 has a reading with it: the wait
    # from the change to the first such reading on a changed cell's data pin, other pins'
    # readings and earlier ones left out.
    from types import SimpleNamespace
    from sowlight_fw.colours import DROP
    ms = 10 ** 6
    board = SimpleNamespace(
        frames=[(0, [OFF, OFF]), (30 * ms, [TOUCH, OFF]), (60 * ms, [OFF, TOUCH])],
        board=SimpleNamespace(cell_leds=[[0], [1]], sensor_kind="hx711", cell_sensors=[20, 21]),
        changes=[(10 * ms, [0]), (40 * ms, [1]), (45 * ms, [0])],
        conversions=[(5 * ms, [20, 21]), (22 * ms, [21]), (25 * ms, [20]), (52 * ms, [21])])
    assert conversion_waits(board) == [15 * ms, 12 * ms, None]
    board.board.sensor_kind = "occupancy-mux"
    board.frames.append((70 * ms, [DROP, OFF]))
    assert conversion_waits(board) == [None, None, None]


def test_the_flash_filesystem_round_trips_through_littlefs():
    image = flashfs.make({"board.json": b"{}", "journal/g1": b"x" * 5000})
    assert len(image) == flashfs.FS_SIZE
    assert flashfs.read(flashfs.put(image, {"main.py": b"pass"})) == {
        "board.json": b"{}", "journal/g1": b"x" * 5000, "main.py": b"pass"}
    with pytest.raises(flashfs.FlashFsError, match="1408 KB"):
        flashfs.read(b"\xff" * 100)


def test_what_is_missing_is_named_with_where_to_get_it(tmp_path):
    from sowlight.simulation.emuboard import EmuBoardError, find_bootrom, find_image
    image = tmp_path / "firmware.uf2"
    image.write_bytes(b"UF2")
    with pytest.raises(EmuBoardError, match="raspberrypi/pico-bootrom.*demo/bootrom.ts"):
        find_bootrom(None, image, environ={})
    (tmp_path / "rp2040-bootrom-b1.bin").write_bytes(b"\0" * 16384)
    assert find_bootrom(None, image, environ={}) == tmp_path / "rp2040-bootrom-b1.bin"
    (tmp_path / "short.bin").write_bytes(b"\0" * 100)
    with pytest.raises(EmuBoardError, match="not a 16 KB"):
        find_bootrom(str(tmp_path / "short.bin"), image, environ={})
    with pytest.raises(EmuBoardError, match="no firmware image at .*sowlight firmware build"):
        find_image(None, environ={"XDG_CACHE_HOME": str(tmp_path / "cache")})      # nothing built there


def test_boards_started_at_once_install_rp2040js_whole_and_once(tmp_path):
    """Two boards started at once on a new machine (two terminals, two test workers) each find
    rp2040js installed whole; a cut install left in its folder is replaced, not taken for one."""
    from sowlight.simulation import emuboard
    if shutil.which("npm") is None:
        (pytest.fail if os.environ.get("CI") == "true" else pytest.skip)("npm is not installed (apt-get install npm)")
    env = {emuboard.NODE_DIR_ENV: str(tmp_path / "rp2040js")}
    (tmp_path / "rp2040js" / "node_modules" / "rp2040js").mkdir(parents=True)      # cut before its files came
    found, failed = [], []

    def start():
        try:
            found.append(emuboard.ensure_rp2040js(environ=env))
        except Exception as e:      # (reported below, from the test's own thread)
            failed.append(e)
    threads = [threading.Thread(target=start) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=600)
    assert not failed and len(found) == 2 and found[0] == found[1]
    assert found[0].is_file() and found[0].is_relative_to(tmp_path / "rp2040js")
    assert [p.name for p in tmp_path.iterdir()] == ["rp2040js"]            # no half-made folder left
    assert emuboard.ensure_rp2040js(environ=env) == found[0]


# ----- games ---------------------------------------------------------------------------------------

def test_oware_on_occupancy_sensors_from_the_cli_synced_into_the_archive(emu, tmp_path):
    """`sowlight board emu` in a process of its own; board info, hands, `sowlight sync`."""
    env = dict(os.environ, SOWLIGHT_FIRMWARE_IMAGE=str(emu[0]), SOWLIGHT_BOOTROM=str(emu[1]))
    journal = str(tmp_path / "flash.img")
    proc = subprocess.Popen(SOWLIGHT + ["board", "emu", "--preset", "2x6-stores", "--journal", journal],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env, text=True)
    try:
        path = proc.stdout.readline().strip()
        about = proc.stdout.readline()
        assert path.startswith("/dev/"), proc.stderr.read()
        assert "emulated RP2040" in about and journal in about
        info = subprocess.run(SOWLIGHT + ["board", "info", "--port", path], capture_output=True, text=True,
                              env=env, timeout=120)
        assert info.returncode == 0, info.stderr
        assert "occupancy-mux on 14 cells" in info.stdout and "oware" in info.stdout
        conn = emuhands.open_view(path)
        try:
            assert conn.view.virtual
            made, game, state = emuhands.play(conn, "oware", moves=2)
        finally:
            conn.close()
        db = str(tmp_path / "archive.sqlite3")
        done = subprocess.run(SOWLIGHT + ["sync", "--port", path, "--db", db, "--json"], capture_output=True,
                              text=True, env=env, timeout=120)
        assert done.returncode == 0, done.stderr
        report = json.loads(done.stdout)
        with archive.Archive(db) as store:
            assert archived_moves(store, report["board"], game) == [m["move"] for m in made]
    finally:
        proc.terminate()
        assert proc.wait(60) == 0, proc.stderr.read()
    # Stopped, the flash's filesystem is in the journal file: board.json and the game's journal.
    files = flashfs.read(Path(journal).read_bytes())
    assert json.loads(files["board.json"])["id_prefix"] == "sowlight-2x6-stores"
    assert any(name.startswith("journal/") for name in files)


def test_deploy_asks_the_board_into_its_bootloader_flashes_the_image_and_writes_the_config(boards, emu, tmp_path):
    """`sowlight deploy` against the emulated board as against a Pico: machine.bootloader() over the
    port, the image copied to the BOOTSEL drive, the board booted on it with its flash kept, an old
    .mpy deploy's tree removed, board.json written, the app's hello checked."""
    drive = tmp_path / "RPI-RP2"            # where a desktop would mount the drive
    # An earlier .mpy deploy's package, which would shadow the frozen one (and here breaks the app).
    board = boards(preset="2x6-stores", drive=str(drive), files={"sowlight_fw/app.mpy": b"stale"})
    done = subprocess.run(SOWLIGHT + ["deploy", "--port", board.path, "--drive", str(drive), "--uf2", str(emu[0]),
                                      "--preset", "2x6-stores"],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    assert board.flashed == 1 and board.resets >= 2            # into the bootloader, then the reset after board.json
    said = done.stdout + done.stderr
    assert "image copied to %s" % drive in said and "/sowlight_fw" in said.split("removing", 1)[1].splitlines()[0]
    files = board.flash_files()
    assert not any(name.startswith("sowlight_fw/") for name in files)
    assert json.loads(files["board.json"])["id_prefix"] == "sowlight-2x6-stores"
    assert not (drive / "INFO_UF2.TXT").exists()               # the drive went when the board rebooted
    conn = emuhands.open_view(board.path)
    try:
        assert tuple(conn.view.proto[:2]) >= (1, 2) and conn.view.board_id == board.board_id
    finally:
        conn.close()


def hands_play(boards, tmp_path, config, variant, **play):
    """Robot hands that see only the cells the strip lights (emuhands.StripView: a strip that
    showed less than, or other than, what the board means leaves them stuck) play on a new
    emulated board; the journal is synced into an archive and must hold the moves made, and the
    board's position must be the rules core's after them.  Returns (moves made, final state)."""
    board = boards(config=config)
    conn = emuhands.open_view(board.path)
    try:
        emuhands.follow_strip(conn.view, board)
        made, game, state = emuhands.play(conn, variant, **play)
        assert state["game"] == game
        assert conn.view.lit == conn.view.said       # at the end the strip shows what the board said
        # No frame began before the last one had latched (the LEDs would have dropped it).
        assert board.overruns == []
        # Every change the sensors saw was lit at once (TOUCH) before the board's answer to it.
        missed = emuhands.unacknowledged(board)
        assert missed == [], emuhands.told(board, missed)
        if board.board.sensor_kind == "hx711":
            # Each change of a load reached the board as an HX711 reading (where the bench's
            # latency from the sensor's pin starts).
            waits = conversion_waits(board)
            assert waits and None not in waits
        with archive.Archive(str(tmp_path / "a.sqlite3")) as store:
            report = sync(conn.link, store)
            assert game in report.games
            assert archived_moves(store, conn.view.board_id, game) == [m["move"] for m in made]
        replayed = mancala.Game(variant, **(play.get("pos") or {}))
        for m in made:
            replayed.play(boardview.move_tuple(m["move"]))
        assert boardview.game_of(state).cells() == replayed.cells()
        return made, state
    finally:
        conn.close()


@pytest.mark.parametrize("config, variant, moves", [
    (HX711, "oware", 2),              # load cells: HX711s answering the clock pin
    ("4x8", "kombe", 1),              # four rows, two multiplexers (the race: both players' first move)
])
def test_hands_following_the_strip_play_from_the_start_and_the_journal_syncs(boards, tmp_path, config, variant,
                                                                             moves):
    made, _state = hands_play(boards, tmp_path, config, variant, moves=moves)
    assert len(made) == moves


# A whole game takes the emulator 10-20 s a move on CI's machine: the games here are the endings of
# whole games (the last moves of a seeded game random players played on the rules core), set up
# on the board as `sowlight play --game` goes on with an archived game; bench/bench_emu.py plays
# whole games from the start.
@pytest.mark.parametrize("config, variant, left", [
    (HX711, "oware", 4),              # load cells
    ("2x6-stores", "oware", 4),       # occupancy
    ("4x8", "kombe", 3),              # four rows, two multiplexers: relays round the board, captures
])
def test_hands_following_the_strip_play_a_game_to_its_end_and_the_journal_syncs(boards, tmp_path, config, variant,
                                                                                left):
    pos, script, final = emuhands.ending(variant, left)
    made, state = hands_play(boards, tmp_path, config, variant, pos=pos, script=script)
    assert [boardview.move_tuple(m["move"]) for m in made] == script
    assert state["phase"] == "over" and boardview.game_of(state).cells() == final


def test_a_board_whose_flash_holds_300_old_games_boots_and_lists_them(boards, tmp_path):
    # A long-used board keeps the games the laptop has until its flash fills (some 350 on a
    # Pico): at boot the journal reads them all, and what it keeps of each must find room in a
    # heap that those reads leave full of garbage.  The files are made by the firmware's own
    # Journal (each game over, and acknowledged to its end).
    from sowlight_fw.journal import Journal
    from sowlight_fw.storage import MemoryStorage
    st = MemoryStorage(capacity=1 << 30)
    j = Journal(st)
    for g in range(1, 301):
        j.append({"kind": "start", "game": g, "ply": 0, "variant": "oware", "options": {}})
        for i in range(30):
            j.append({"kind": "move", "game": g, "ply": i + 1, "player": i % 2, "move": i % 6, "name": "A"})
        j.append({"kind": "end", "game": g, "ply": 31, "winner": 0, "scores": [25, 23], "reason": "no moves"})
        j.ack(g, 31)
    flash = tmp_path / "flash.img"
    flash.write_bytes(flashfs.make({"journal/" + name: bytes(data) for name, data in st.files.items()}))
    board = boards(preset="2x6-stores", journal=str(flash))
    # (start() takes a board whose USB is up and quiet for 1.5 s for one at its REPL: the app's
    # hello, its first word, comes once the journal is read.)
    deadline = time.monotonic() + 120
    while board.first_output_ns is None and time.monotonic() < deadline:
        time.sleep(0.2)
    conn = emuhands.open_view(board.path)
    try:
        listed = []
        while True:
            reply = conn.link.request("journal_list", {"from": listed[-1]["game"] + 1 if listed else 0})
            listed += reply["games"]
            if not reply["more"]:
                break
        assert [g["game"] for g in listed] == list(range(1, 301))
        assert all(g["over"] and g["synced"] == g["last"] == 31 and g["variant"] == "oware" for g in listed)
    finally:
        conn.close()


# ----- power cuts ----------------------------------------------------------------------------------

def test_a_power_cut_during_journal_writes_resumes_exactly_from_the_same_flash(boards, tmp_path):
    journal = str(tmp_path / "flash.img")
    board = boards(preset="2x6-stores", journal=journal)
    conn = emuhands.open_view(board.path)
    made, game, _ = emuhands.play(conn, "oware", moves=1)
    board_id = conn.view.board_id
    conn.close()
    seeds = list(board.world.counts)
    board.stop()                            # the flash after one move, saved to the journal file
    before = Path(journal).read_bytes()
    kept = [m["move"] for m in made]
    for cut_at in (1, 3):
        # Power up from that flash; the power goes at the cut_at-th flash write from then on:
        # the next move's journal record, or littlefs's metadata after it.
        Path(journal).write_bytes(before)
        board = boards(journal=journal, seeds=seeds)
        board.cut_after(cut_at)
        conn = emuhands.open_view(board.path)
        more = emuhands.play_until_cut(conn, board)
        after_cut = list(board.world.counts)
        board.save()                        # the flash as the cut left it
        board.stop(save=False)
        board = boards(journal=journal, seeds=after_cut)
        conn = emuhands.open_view(board.path)
        try:
            # The seeds may show a move the cut kept off the flash, whole: the board takes it (again)
            # once its sensors have settled.  So the journal and the board's position are compared
            # once they agree or the board has had ample time to settle.
            deadline = time.monotonic() + 20
            while True:
                with archive.Archive(str(tmp_path / ("a%d.sqlite3" % cut_at))) as store:
                    sync(conn.link, store)
                    synced = archived_moves(store, board_id, game)
                state = conn.view.refresh()
                replayed = mancala.Game("oware")
                for mv in synced:
                    replayed.play(boardview.move_tuple(mv))
                if boardview.game_of(state).cells() == replayed.cells() or time.monotonic() > deadline:
                    break
                time.sleep(1.0)
            assert state["game"] == game
            # Every move whose record was whole is there, in order; the one cut off may be.
            whole = kept + [m["move"] for m in more]
            assert synced[:len(whole)] == whole and len(synced) - len(whole) in (0, 1)
            assert boardview.game_of(state).cells() == replayed.cells()
        finally:
            conn.close()
        board.stop(save=False)


# ----- a noisy link --------------------------------------------------------------------------------

def test_sync_through_a_noisy_line_and_a_pulled_cable_stores_every_game_once(boards, tmp_path):
    board = boards(preset="2x6-stores")
    conn = emuhands.open_view(board.path)
    games = []
    try:
        for variant in ("oware", "kalah", "ayoayo"):
            games.append(conn.link.request("new_game", {"variant": variant, "options": {}})["game"])
    finally:
        conn.close()
    # From here, 1 % of the bytes damaged and 0.2 % lost, both ways (seeded); synced as a user
    # would, with `sowlight sync` (whose brief hello is what gets through such a line).
    board.transport.faults = Faults(drop=0.002, corrupt=0.01, seed=11)
    db = str(tmp_path / "a.sqlite3")
    done = subprocess.run(SOWLIGHT + ["sync", "--port", board.path, "--db", db, "--json"], capture_output=True,
                          text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert set(games) <= set(json.loads(done.stdout)["games"])
    assert board.transport.faults.corrupted > 0
    # Cut in the middle of another sync (the host gone), then synced again: nothing twice, nothing lost.
    board.transport.faults = None
    conn = emuhands.open_view(board.path, wait=30.0)
    try:
        games.append(conn.link.request("new_game", {"variant": "kalah", "options": {}})["game"])
    finally:
        conn.close()
    with archive.Archive(db) as store:
        conn = emuhands.open_view(board.path, wait=30.0)
        pull = threading.Timer(1.0, conn.link.close)     # the cable pulled while it syncs
        pull.start()
        try:
            sync(conn.link, store)
        except link.LinkError:
            pass
        pull.join()
        conn = emuhands.open_view(board.path, wait=30.0)
        try:
            sync(conn.link, store)
        finally:
            conn.close()
        held = sorted(g["board_game"] for g in store.games(board=conn.view.board_id))
    assert held == sorted(set(games))


# ----- a refused config -----------------------------------------------------------------------------

def test_a_refused_config_blinks_the_error_pattern_and_says_why_on_the_link(boards, tmp_path):
    raw = json.loads((ROOT / "hardware" / "boards" / "2x6-stores.json").read_text())
    raw["sensors"]["select"] = [2, 3]            # a 16-channel multiplexer needs four select pins
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(raw))
    board = boards(config=str(bad))
    import serial
    with serial.Serial(board.path, 115200, timeout=0.2) as port:
        seen = b""
        end = time.monotonic() + 120
        while b"@0000 log" not in seen and time.monotonic() < end:
            seen += port.read(4096)
        assert b"the board config is refused" in seen
        line = seen[seen.index(b"@0000 log"):].split(b"\n")[0].rstrip(b"\r")
        msg = codec.parse_line(line, "board")
        assert msg.type == "log" and msg.payload["level"] == "error" and "select" in msg.payload["msg"]
        # Ctrl-C reaches the REPL, which answers.
        port.write(b"\x03\r\n")
        end = time.monotonic() + 60
        while b">>> " not in seen and time.monotonic() < end:
            seen += port.read(4096)
        assert b">>> " in seen
        # The image's boot script (firmware/_boot.py) mounted the flash, with the config on it,
        # and left the rp2 module (its PIO assembler's heap) unloaded.
        port.write(b"import os, sys; print('#' + repr(('board.json' in os.listdir('/'), 'rp2' in sys.modules)))\r\n")
        end = time.monotonic() + 60
        while b"#(" not in seen and time.monotonic() < end:     # (the echoed line has no "#(")
            seen += port.read(4096)
        assert b"#(True, False)" in seen, seen[-300:]
    frames = [roles for _t, roles in board.frames if roles is not None]
    assert any(all(r == ERROR for r in roles) for roles in frames), frames[:4]
    assert any(all(r == OFF for r in roles) for roles in frames)
