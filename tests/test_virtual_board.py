"""The virtual board as a user meets it: `sowlight board virtual` in a process of its own, its
pseudo-terminal opened with pyserial and with the companion's Link, seeds moved by `sim`
requests, the journal synced into an archive with `sowlight sync`.

A small robot plays: it does what the LEDs show (the board's `leds` events), one physical act
per `sim` request, and asks the board's state (`get_state`) for the phase and the position.
"""
import json
import os
import random
import select
import signal
import subprocess
import sys
import time

import pytest
import serial

import mancala
from sowlight.board import link
from sowlight.board import ports
from sowlight.simulation.virtual import VirtualBoard, VirtualBoardError
from sowlight_fw import virtual
from sowlight_fw.link import codec
from sowlight_fw.storage import FileStorage, StorageFileError

pytestmark = pytest.mark.skipif(not hasattr(os, "openpty"), reason="pseudo-terminals are POSIX only")

SOWLIGHT = [sys.executable, "-m", "sowlight"]
KALAH2 = ["--variant", "kalah", "-o", "seeds=2"]     # a whole game in a few seconds


# ----- the board in a process of its own ----------------------------------------------------------

def _readline(proc, timeout=20.0):
    """One line of the process's stdout, or "" if it ends or is silent for `timeout`."""
    fd = proc.stdout.fileno()
    out = b""
    end = time.monotonic() + timeout
    while not out.endswith(b"\n"):
        left = end - time.monotonic()
        if left <= 0 or not select.select([fd], [], [], left)[0]:
            return ""
        b = os.read(fd, 1)
        if not b:
            break
        out += b
    return out.decode().rstrip("\n")


class Boards:
    """`sowlight board virtual` processes; each is stopped at the end of the test."""

    def __init__(self, tmp_path):
        self.procs = []
        self.env = dict(os.environ, XDG_DATA_HOME=str(tmp_path / "data"))

    def start(self, *args):
        proc = subprocess.Popen(SOWLIGHT + ["board", "virtual"] + list(args), stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, env=self.env)
        self.procs.append(proc)
        path = _readline(proc)
        about = _readline(proc, 5.0)
        if not path.startswith("/"):
            proc.kill()
            raise AssertionError("no pty path: %r; stderr: %s" % (path, proc.stderr.read().decode()))
        return proc, path, about

    def run(self, *args, timeout=60):
        """A `sowlight` command to its end: (exit status, stdout, stderr)."""
        r = subprocess.run(SOWLIGHT + list(args), capture_output=True, text=True, env=self.env, timeout=timeout)
        return r.returncode, r.stdout, r.stderr

    def close(self):
        for p in self.procs:
            if p.poll() is None:
                p.kill()
            p.wait(10)
            p.stdout.close()
            p.stderr.close()


@pytest.fixture
def boards(tmp_path):
    b = Boards(tmp_path)
    yield b
    b.close()


def connect(path):
    lk = link.Link(ports.opener(port=path), reconnect_for=5.0)
    lk.connect()
    return lk


# ----- the robot --------------------------------------------------------------------------------

class Robot:
    """Plays through the link alone: `sim` acts for what the LEDs ask, `get_state` for the phase."""

    def __init__(self, lk, seed=1):
        self.lk = lk
        self.rng = random.Random(seed)
        self.lit = None          # {cell: (role, count)} from the last `leds` event
        self.done = {}           # trail seeds already dropped while the LEDs stayed the same
        self.acts = 0
        self.moves = []          # the `move` events seen
        self.log = []            # (act, the LEDs it was done for), for the failure messages
        self.seeds = None        # where the seeds are, as the last `sim` reply said (the hands know)

    def sim(self, **p):
        self.acts += 1
        self.log.append((p, dict(self.lit or {})))
        self.seeds = self.lk.request("sim", p)
        return self.seeds

    def drain(self, wait=0.0, settle=0.03):
        """Take the events that came; with `wait`, wait up to that long for the LEDs to change, then
        until nothing more comes for `settle` (a change can take a few scans).  True if they changed."""
        changed = False
        end = time.monotonic() + wait
        while True:
            left = settle if changed else max(0.0, end - time.monotonic())
            ev = self.lk.next_event(timeout=left)
            if ev is None:
                return changed
            kind, p = ev
            if kind == "leds":
                lit = {e[0]: (e[1], e[2] if len(e) > 2 else 1) for e in p["lit"]}
                if lit != self.lit:
                    self.lit = lit
                    self.done = {}
                    changed = True
            elif kind == "move":
                self.moves.append(p)

    def look(self):
        """The LEDs as they are now: toggling the menu on and off makes the board send them."""
        self.lk.request("press", {"button": "menu"})
        self.drain(2.0)
        self.lk.request("press", {"button": "menu"})
        self.drain(2.0)
        assert self.lit is not None, "the board sent no leds event"

    def cells(self, role):
        return [c for c, (r, n) in sorted(self.lit.items()) if r == role]

    def play(self, max_acts=2000, until_moves=None):
        """Do what the board shows until the game is over (or `until_moves` moves were made)."""
        while self.acts < max_acts:
            self.drain()
            state = self.lk.request("get_state")
            if state["phase"] == "over" or (until_moves is not None and len(self.moves) >= until_moves):
                return state
            if self.lit is None:
                self.look()
                continue
            self.step(state)
        raise AssertionError("no end after %d acts; the LEDs show %r" % (max_acts, self.lit))

    def step(self, state):
        assert not self.cells("error"), "the board flashes a mismatch: %r (state %r)" % (self.lit, state)
        if state["phase"] == "setup":
            return self.set_up(state)
        # Drops the sensors cannot see (a dim trail, counting its seeds): no LED changes for them.
        for c in self.cells("trail"):
            if self.done.get(c, 0) < self.lit[c][1]:
                self.sim(act="drop", cell=c)
                self.done[c] = self.done.get(c, 0) + 1
                return
        drop = self.cells("drop")
        relay = self.cells("relay")
        take = self.cells("take")
        if drop:
            self.sim(act="drop", cell=drop[0])
        elif relay:
            self.sim(act="lift", cell=relay[0])
        elif take:
            dest = self.cells("dest")
            self.sim(act="take", cell=take[0], to=dest[0] if dest else -1)
        else:
            lifts = self.cells("lift") or self.cells("hint") or self.legal_lifts(state)
            assert lifts, "nothing to do: %r (state %r)" % (self.lit, state)
            self.sim(act="lift", cell=self.rng.choice(lifts))
        self.drain(1.5)

    def legal_lifts(self, state):
        """The pits the player may lift when every one of them is lit as a trail too: from the rules."""
        pos = state["pos"]
        g = mancala.Game(state["variant"], pits=pos["pits"], stores=pos["stores"], to_move=pos["to_move"],
                         **state.get("options", {}))
        return sorted(m for m in g.legal_moves() if isinstance(m, int))

    def set_up(self, state):
        """Seeds where the LEDs ask for them (as many as the starting position has), then confirm."""
        pits = state["pos"]["pits"]
        if self.seeds is None:
            self.sim(act="seeds")
        have = self.seeds["counts"]
        need = [c for c in self.cells("need") if c < len(pits) and have[c] < pits[c]]
        remove = self.cells("remove")
        if need or remove:
            for c in need:       # every pit at once, as a player fills a board (the LEDs follow)
                self.sim(act="add", cell=c, n=pits[c] - have[c])
            for c in remove:
                self.sim(act="remove", cell=c)
        elif self.cells("need"):
            pass                 # seeds put in already: the sensors have not settled yet
        else:
            self.sim(act="press", button="confirm")
        self.drain(1.5)


# ----- the command --------------------------------------------------------------------------------

def test_the_command_prints_the_port_first_and_pyserial_talks_to_the_firmware_there(boards):
    proc, path, about = boards.start("--variant", "oware")
    assert os.path.exists(path)
    assert "virtual Sowlight board sowlight-2x6-stores-" in about and "game 1 (oware)" in about
    with serial.Serial(path, 115200, timeout=0.2) as port:
        enc = codec.Encoder(100)
        port.write(b"\n" + enc.frame("hello", codec.hello(codec.HOST, "test 0")))
        dec = codec.Decoder(codec.BOARD)
        got = []
        end = time.monotonic() + 5
        while time.monotonic() < end and not any(m.type == "hello" for m in got):
            got += [m for m in dec.feed(port.read(256)) if isinstance(m, codec.Message)]
        hello, = [m.payload for m in got if m.type == "hello"]
        assert hello["re"] == enc.seq and hello["virtual"] is True and hello["game"] == 1
        assert hello["board"] in about and hello["config"]["geometry"] == {"rows": 2, "pits_per_row": 6, "stores": 2}
        port.write(enc.frame("sim", {"act": "seeds"}))
        end = time.monotonic() + 5
        ok = []
        while time.monotonic() < end and not ok:
            ok = [m.payload for m in dec.feed(port.read(256)) if isinstance(m, codec.Message) and m.type == "ok"]
        assert ok[0]["counts"] == [4] * 12 + [0, 0] and ok[0]["hand"] == 0 and ok[0]["re"] == enc.seq
    proc.send_signal(signal.SIGTERM)
    assert proc.wait(10) == 0
    assert proc.stderr.read() == b""


def test_a_whole_game_played_by_sim_acts_is_synced_into_the_archive(boards, tmp_path):
    proc, path, about = boards.start()                      # the menu: the game is chosen over the link
    assert "no game yet" in about
    lk = connect(path)
    try:
        assert lk.board_hello["virtual"] is True
        game = lk.request("new_game", {"variant": "kalah", "options": {"seeds": 1}})["game"]
        robot = Robot(lk, seed=5)
        deadline = time.monotonic() + 5
        while not (robot.lit and robot.cells("need")) and time.monotonic() < deadline:
            robot.drain(1.0)                                # the set-up's LEDs, once the sensors are read
        assert robot.cells("need") == list(range(12)) and robot.cells("ready") == [12, 13]
        end = robot.play()
        seeds = lk.request("sim", {"act": "seeds"})
    finally:
        lk.close()
    assert end["phase"] == "over" and end["game"] == game
    # The virtual seeds are where the rules say: the final position, every seed accounted for.
    pos = end["pos"]
    assert seeds["counts"] == pos["pits"] + pos["stores"] and seeds["hand"] == 0, (seeds, end, robot.log[-12:])
    assert sum(seeds["counts"]) + seeds["beside"] == 12
    assert len(robot.moves) == end["ply"] - 1 >= 3            # plies: the start, the moves, the end
    db = str(tmp_path / "archive.sqlite3")
    status, out, err = boards.run("sync", "--port", path, "--db", db, "--json")
    assert status == 0, err
    report = json.loads(out)
    assert report["finished"] and report["games"] == [game] and report["board"].startswith("sowlight-2x6-stores-")
    status, out, err = boards.run("games", "list", "--db", db, "--json")
    assert status == 0, err
    (g,) = json.loads(out)
    assert g["variant"] == "kalah" and g["moves"] == len(robot.moves) and g["board"] == report["board"]
    assert g["board_game"] == game and g["scores"] == pos["stores"]
    proc.send_signal(signal.SIGINT)                         # Ctrl-C: a clean exit too
    assert proc.wait(10) == 0


def test_a_journal_file_survives_kill_9_mid_game_and_the_game_resumes(boards, tmp_path):
    journal = str(tmp_path / "board.journal")
    proc, path, about = boards.start("--journal", journal, *KALAH2)
    assert "journal in %s" % journal in about
    status, out, err = boards.run("board", "virtual", "--journal", journal)
    assert status == 1 and out == "" and "is in use by another virtual board (process %d)" % proc.pid in err
    lk = connect(path)
    board_id = lk.board_id
    try:
        robot = Robot(lk, seed=2)
        state = robot.play(until_moves=4)
        # Mid-move: the next player's seeds are in the hand when the power goes.
        time.sleep(0.3)
        state = lk.request("get_state")
        lifts = robot.cells("lift") or robot.legal_lifts(state)
        assert lk.request("sim", {"act": "lift", "cell": lifts[0]})["hand"] > 0
        time.sleep(0.4)
        # (A lift whose drops the sensors cannot see is the whole move: then it is journalled.)
        state = lk.request("get_state")
    finally:
        lk.close()
    plies = state["ply"]
    proc.kill()                                             # kill -9: no chance to save anything more
    assert proc.wait(10) == -signal.SIGKILL
    proc2, path2, about2 = boards.start("--journal", journal, *KALAH2)
    assert "game 1 (kalah) resumed from the journal" in about2
    lk = connect(path2)
    try:
        assert lk.board_id == board_id                      # the id is kept with the journal
        state2 = lk.request("get_state")
        assert state2["game"] == 1 and state2["ply"] == plies and state2["pos"] == state["pos"]
        assert state2["phase"] == "await_lift"              # the lifted seeds were laid back
        seeds = lk.request("sim", {"act": "seeds"})
        assert seeds["counts"] == state["pos"]["pits"] + state["pos"]["stores"]
        robot = Robot(lk, seed=3)
        robot.play(until_moves=1)                           # and it plays on
        plies = lk.request("get_state")["ply"]
    finally:
        lk.close()
    db = str(tmp_path / "archive.sqlite3")
    status, out, err = boards.run("sync", "--port", path2, "--db", db, "--json")
    assert status == 0, err
    status, out, err = boards.run("games", "list", "--db", db, "--json")
    (g,) = json.loads(out)
    assert g["board"] == board_id and g["board_game"] == 1 and g["moves"] == plies
    proc2.send_signal(signal.SIGTERM)
    assert proc2.wait(10) == 0 and not os.path.exists(journal + ".lock")
    # The file holds the journal and the board's id, and a third run finds them again.
    st = FileStorage(journal)
    assert "g00000001.jnl" in st.names() and virtual_id(st) == board_id.rsplit("-", 1)[1]


def virtual_id(storage):
    return bytes(storage.read("virtual.id")).decode().strip()


def test_two_virtual_boards_at_once_have_their_own_ports_and_ids(boards):
    _, path1, _ = boards.start()
    _, path2, _ = boards.start("--preset", "2x7-stores", "--variant", "dakon")
    assert path1 != path2
    lk1, lk2 = connect(path1), connect(path2)
    try:
        assert lk1.board_id != lk2.board_id
        assert lk2.board_id.startswith("sowlight-2x7-stores-") and lk2.board_hello["game"] == 1
        assert lk1.board_hello["game"] is None
        lk1.request("new_game", {"variant": "oware"})
        assert lk1.request("sim", {"act": "add", "cell": 3, "n": 2})["counts"][3] == 2
        other = lk2.request("sim", {"act": "seeds"})["counts"]          # the other board's seeds are its own
        assert len(other) == 16 and other[3] == lk2.request("get_state")["pos"]["pits"][3]
    finally:
        lk1.close()
        lk2.close()


def test_bad_sim_acts_are_refused_with_what_to_do(boards):
    _, path, _ = boards.start(*KALAH2)
    lk = connect(path)
    try:
        def refused(p):
            with pytest.raises(link.BoardError) as e:
                lk.request("sim", p)
            return e.value.code, e.value.msg

        assert refused({"act": "drop", "cell": 0}) == ("out_of_range", "the hand is empty: lift seeds first")
        assert refused({"act": "lift", "cell": 14})[1] == "there is no cell 14: this board has cells 0 to 13 (pits, then stores)"
        assert refused({"act": "lift"})[1] == "lift needs a cell (0 to 13)"
        assert refused({"act": "lift", "cell": 12}) == ("out_of_range", "cell 12 is empty: there is nothing to lift")
        assert refused({"act": "take", "cell": 1, "to": 1})[1] == "take moves seeds from cell 1 to another cell, not to itself"
        assert refused({"act": "remove", "cell": 0, "n": 3})[1] == "cell 0 holds 2 seeds, not 3"
        assert refused({"act": "add", "cell": 0, "n": 5000})[1].startswith("the bag holds only 976 seeds, not 5000")
        # What the codec refuses before it is sent: an act or a button that does not exist.
        with pytest.raises(codec.FrameError, match="'act' must be one of lift, drop, take"):
            lk.request("sim", {"act": "juggle"})
        with pytest.raises(codec.FrameError, match="'button' must be one of confirm, undo, hint, menu"):
            lk.request("sim", {"act": "press", "button": "reset"})
        assert refused({"act": "lift", "cell": 0, "n": 3})[1] == "cell 0 holds 2 seeds, not 3"
        assert refused({"act": "lift", "cell": 0, "n": 0})[1] == "lift needs n of 1 or more, not 0"
        lk.request("sim", {"act": "lift", "cell": 1, "n": 1})     # one seed of two (Lane's feed takes one)
        lk.request("sim", {"act": "drop", "cell": 12})
        lk.request("sim", {"act": "lift", "cell": 0})
        assert refused({"act": "drop", "cell": 1, "n": 3})[1] == "the hand holds 2 seeds, not 3"
        # Nothing refused changed the seeds.
        seeds = lk.request("sim", {"act": "seeds"})
        assert seeds["counts"] == [0, 1] + [2] * 10 + [1, 0] and seeds["hand"] == 2 and seeds["bag"] == 976
        with pytest.raises(link.BoardError) as e:
            lk.request("reboot", {"to": "repl"})
        assert e.value.code == "unsupported"
    finally:
        lk.close()


def test_bad_arguments_are_explained_without_a_traceback(boards, tmp_path, capsys):
    from sowlight import cli
    for args, words in ((["--preset", "3x9"], "unknown preset '3x9'"),
                        (["--variant", "bao"], "cannot start bao: no variant is called 'bao'"),
                        (["-o", "seeds=3"], "--option needs --variant"),
                        (["--variant", "kalah", "-o", "seeds"], "an option is NAME=VALUE"),
                        (["--variant", "kalah", "-o", "seeds=99"], "cannot start kalah"),
                        (["--journal", str(tmp_path / "no" / "such" / "dir" / "j")], "cannot write the journal file")):
        status = cli.main(["board", "virtual"] + args)
        out, err = capsys.readouterr()
        assert status in (1, 2) and words in err and out == "", (args, err)
    with pytest.raises(SystemExit):
        cli.main(["board", "virtual", "--drop", "2"])
    assert "a rate is a fraction from 0 to 1" in capsys.readouterr().err
    bad = tmp_path / "not-a-journal"
    bad.write_bytes(b"hello")
    # As a user runs it: exit status 1, one line on stderr, nothing on stdout, the file untouched.
    status, out, err = boards.run("board", "virtual", "--journal", str(bad), timeout=30)
    assert status == 1 and out == "" and bad.read_bytes() == b"hello"
    assert err == "sowlight board virtual: %s is not a Sowlight journal file (it does not start with the journal's " \
                  "header): give another file, or move this one aside; it was not changed\n" % bad


# ----- in-process: the Python API ------------------------------------------------------------------

def test_the_api_runs_the_board_in_a_thread_and_reset_keeps_journal_and_seeds():
    vb = VirtualBoard(preset="2x6-stores", variant="kalah", options={"seeds": 2})
    path = vb.start()
    try:
        assert vb.app.controller.state == "await_lift" and vb.world.counts == [2] * 12 + [0, 0]
        lk = connect(path)
        try:
            robot = Robot(lk, seed=4)
            robot.play(until_moves=2)
            before = lk.request("get_state")
            counts = list(vb.world.counts)
            lk.request("reboot", {"to": "app"})
            deadline = time.monotonic() + 5
            while vb.resets < 1 and time.monotonic() < deadline:
                time.sleep(0.05)
            assert vb.resets == 1 and vb.machine.resets == 1
            after = lk.request("get_state")          # the link says hello again by itself
            assert (after["game"], after["ply"], after["pos"]) == (before["game"], before["ply"], before["pos"])
            assert vb.world.counts == counts
            vb.reset()                                # the reset button, from outside
            deadline = time.monotonic() + 5
            while vb.resets < 2 and time.monotonic() < deadline:
                time.sleep(0.05)
            assert lk.request("get_state")["ply"] == before["ply"]
        finally:
            lk.close()
        # The LED stand-in keeps the frame the controller last showed.
        time.sleep(0.1)
        assert vb.strip.writes > 0 and vb.strip.level == vb.app.controller.brightness
        assert bytes(vb.strip.frame) == bytes(vb.app.controller.frame)
    finally:
        vb.stop()
    assert not vb.running


def test_a_load_cell_board_counts_the_seeds_starts_by_itself_and_self_tests():
    config = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "hardware", "examples",
                          "2x6-stores-hx711.json")
    with VirtualBoard(preset=config, variant="oware") as vb:
        assert vb.app.controller.state == "await_lift"          # no confirm: load cells see every seed
        lk = connect(vb.path)
        try:
            assert lk.board_hello["config"]["sensors"]["kind"] == "hx711"
            report = lk.request("self_test")["report"]
            assert report["problems"] == [] and report["cells"] == [4 * 400] * 12 + [0, 0]
            lk.request("sim", {"act": "remove", "cell": 0, "n": 1})   # one seed short: load cells see it
            deadline = time.monotonic() + 5
            state = lk.request("get_state")
            while state["phase"] != "mismatch" and time.monotonic() < deadline:
                time.sleep(0.1)
                state = lk.request("get_state")
            assert state["phase"] == "mismatch"
        finally:
            lk.close()


def test_faults_on_the_wire_are_survived_by_the_link_and_a_sync(tmp_path):
    # A game journalled on a clean line, then synced over a line that loses and damages bytes.
    journal = str(tmp_path / "j")
    with VirtualBoard(variant="kalah", options={"seeds": 2}, journal=journal) as vb:
        lk = connect(vb.path)
        try:
            Robot(lk, seed=6).play(until_moves=3)
            plies = lk.request("get_state")["ply"]
        finally:
            lk.close()
    vb = VirtualBoard(variant="kalah", options={"seeds": 2}, journal=journal, drop=0.003, corrupt=0.003, seed=7)
    path = vb.start()
    try:
        lk = connect(path)
        try:
            assert lk.request("sim", {"act": "seeds"})["counts"] == lk.request("get_state")["pos"]["pits"] + \
                lk.request("get_state")["pos"]["stores"]
            from sowlight.games import archive
            from sowlight.games import sync
            store = archive.Archive(str(tmp_path / "a.sqlite3"))
            try:
                report = sync.sync(lk, store)
                (g,) = store.games()
            finally:
                store.close()
        finally:
            lk.close()
        assert report.complete and report.games == {1} and report.acked == {1: plies}
        assert g["moves"] == plies and g["variant"] == "kalah"
        assert vb.faults.dropped > 0 and vb.faults.corrupted > 0        # the faults did happen
    finally:
        vb.stop()


def test_an_unknown_preset_or_variant_is_a_clear_error_from_the_api():
    with pytest.raises(VirtualBoardError, match="unknown preset"):
        VirtualBoard(preset="2x99").start()
    with pytest.raises(VirtualBoardError, match="cannot start bao: no variant is called 'bao'"):
        VirtualBoard(variant="bao").start()
    with pytest.raises(VirtualBoardError, match="drop must be a fraction"):
        VirtualBoard(drop=1.5)


# ----- the virtual parts on their own ------------------------------------------------------------------

def _board(name="2x6-stores"):
    from sowlight_fw import config
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    sub = "examples" if "hx711" in name else "boards"
    return config.load(os.path.join(root, "hardware", sub, name + ".json"))


@pytest.mark.parametrize("name,seen", [("2x6-stores", [1, 0, 1]), ("2x6-stores-hx711", [3, 0, 1])])
def test_the_sensors_see_the_seeds_as_the_configs_kind_of_sensor_would(name, seen):
    b = _board(name)
    world = virtual.Seeds(b.cells)
    s = virtual.Sensors(b, world)
    world.add(0, 3)
    world.add(2, 1)
    values = s.read([None] * b.cells)
    assert values[:3] == seen
    raw = s.read_raw([0] * b.cells)
    if b.sensor_kind == "hx711":
        assert raw[0] - raw[1] == 3 * s.step[0]
    else:
        assert raw[0] > raw[1] and raw[0] == raw[2]


def test_sim_acts_move_seeds_as_hands_would_and_never_lose_one():
    world = virtual.Seeds(14, bag=100)
    buttons = virtual.Buttons()
    sim = virtual.Sim(world, buttons)
    rng = random.Random(3)
    acts = ("lift", "drop", "take", "add", "remove", "press", "seeds")
    ok = refused = 0
    for _ in range(2000):
        p = {"act": rng.choice(acts), "cell": rng.randrange(-1, 15), "n": rng.choice([None, 1, 2, 5]),
             "to": rng.choice([None, -1, rng.randrange(14)]), "button": rng.choice(["confirm", "menu", "x"])}
        p = {k: v for k, v in p.items() if v is not None}
        r = sim.handle(p, 0)
        if r["type"] == "ok":
            ok += 1
            assert r["counts"] == world.counts and min(r["counts"]) >= 0 and r["hand"] >= 0
        else:
            refused += 1
            assert r["code"] in ("out_of_range", "bad_payload") and r["msg"]
        assert world.total() == 100
    assert ok > 500 and refused > 200
    assert set(buttons.poll(0)) <= {"confirm", "menu"}


def test_the_journal_file_is_replaced_whole_and_a_damaged_one_is_left_alone(tmp_path):
    path = str(tmp_path / "j")
    st = FileStorage(path, capacity=8 * 4096)
    st.append("g00000001.jnl", b"abc")
    st.append("g00000001.jnl", b"def")
    st.replace("g00000002.jnl", b"xyz")
    st.remove("g00000002.jnl")
    again = FileStorage(path)
    assert again.names() == ["g00000001.jnl"] and again.read("g00000001.jnl") == b"abcdef"
    assert not os.path.exists(path + ".tmp")
    data = open(path, "rb").read()
    for cut in (5, len(data) // 2, len(data) - 1):
        open(path, "wb").write(data[:cut])                 # a file cut short (never made by FileStorage)
        with pytest.raises(StorageFileError, match="not a Sowlight journal file"):
            FileStorage(path)
        assert open(path, "rb").read() == data[:cut]
    flipped = bytearray(data)
    flipped[data.index(b"abc")] ^= 1
    open(path, "wb").write(flipped)
    with pytest.raises(StorageFileError, match="damaged"):
        FileStorage(path)
    # A save that fails leaves RAM as the file is: the journal may try again without doubling a record.
    open(path, "wb").write(data)
    st = FileStorage(path)
    st.path = str(tmp_path / "gone" / "j")                 # a directory that is not there: every save fails
    with pytest.raises(OSError):
        st.append("g00000001.jnl", b"ghi")
    with pytest.raises(OSError):
        st.replace("g00000003.jnl", b"new")
    with pytest.raises(OSError):
        st.remove("g00000001.jnl")
    assert st.names() == ["g00000001.jnl"] and st.read("g00000001.jnl") == b"abcdef"


def test_the_virtual_parts_and_the_journal_file_run_on_micropython(micropython):
    out = micropython.run("""
from sowlight_fw import config, virtual
from sowlight_fw.storage import FileStorage, StorageFileError
from sowlight_fw.journal import Journal
b = config.load("/hardware/2x6-stores.json")
w = virtual.Seeds(b.cells)
buttons = virtual.Buttons()
sim = virtual.Sim(w, buttons)
print(sim.handle({"act": "add", "cell": 0, "n": 3})["counts"][0])
print(sim.handle({"act": "lift", "cell": 0})["hand"])
print(sim.handle({"act": "drop", "cell": 12, "n": 5})["msg"])
print(sim.handle({"act": "take", "cell": 9})["msg"])
print(sim.handle({"act": "press", "button": "hint"})["type"], buttons.poll(0))
print(virtual.Sensors(b, w).read([None] * b.cells)[:3])
st = FileStorage("/j")
j = Journal(st, reserve=0)
j.open()
j.append({"kind": "start", "game": 1, "ply": 0, "variant": "oware", "options": {}})
j.append({"kind": "move", "game": 1, "ply": 1, "player": 0, "move": 2, "name": "C"})
j2 = Journal(FileStorage("/j"))
print(j2.open(), [r["kind"] for r in j2.records(1, 0)[0]])
try:
    virtual.Machine(b"12345678").reset()
except virtual.Reset:
    print("reset")
""", mounts={"/hardware": os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "hardware", "boards")})
    assert out.split("\n")[:8] == [
        "3", "3", "the hand holds 3 seeds, not 5", "cell 9 is empty: there is nothing to take",
        "ok ['hint']", "[0, 0, 0]", "[] ['start', 'move']", "reset"]
