"""A byte damaged inside an earlier record of the board's journal: nothing intact is lost, the
damaged record is rebuilt from the records after it (or marked lost), and the board and
`sowlight sync` say so (docs/firmware.md, "The journal").

- the campaign: a whole game played by the fake hands on the real controller, its records in the
  firmware's Journal; bytes flipped one at a time (every byte of the start, of a move in the
  middle, of the last move before the end and of the end record, and every 5th byte of the rest)
  and read back through the board's boot path (Journal.open, Journal.mend): 0 intact moves lost
  and every damaged record but a torn end rebuilt.  bench/bench_journal_damage.py flips every
  byte of whole games and prints the figures.
- the issue's case through the CLI: a game of 8 moves on `sowlight board virtual --journal`,
  one byte flipped in the third-last move record, the board restarted: it resumes the game at
  its last ply, flashes the error pattern and says what happened (`board info`), and
  `sowlight sync` stores every move, the rebuilt one marked, and says so.
- a record that cannot be rebuilt (a journal written without position digests): a `lost`
  record in its place, the records after it synced and acknowledged, `sowlight sync` exits 1
  saying which move is lost, the board's game ended (it cannot be replayed past the gap).
"""
import contextlib
import io
import json
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))

from bench_journal_damage import boot, flip, game_file, record_spans, tally  # noqa: E402
from sowlight import cli  # noqa: E402
from sowlight.games.archive import Archive  # noqa: E402
from sowlight.simulation.virtual import VirtualBoard  # noqa: E402
from sowlight_fw import journal  # noqa: E402
from sowlight_fw.storage import FileStorage, MemoryStorage  # noqa: E402
from sowlight_fw.journal import Journal  # noqa: E402

pytestmark = pytest.mark.filterwarnings("error::pytest.PytestUnhandledThreadExceptionWarning")


def test_a_flipped_byte_anywhere_loses_no_intact_move_and_its_record_is_rebuilt():
    data, records = game_file("oware", seed=3)
    spans = record_spans(data)
    moves = [k for k, (a, b) in enumerate(spans) if journal.parse(data, a)[0] == journal.MOVE]
    whole = set()
    for k in (0, 1, moves[len(moves) // 2], moves[-1], len(spans) - 1):   # start (both copies), moves, end
        whole.update(range(*spans[k]))
    offsets = sorted(whole | set(range(0, len(data), 5)))
    fig = tally(data, records, offsets)
    assert fig["flipped"] == len(offsets) > 800
    assert fig["intact_moves_lost"] == 0
    # Every damaged record came back, except the last one (which looks like a power cut's torn end)
    # and a start whose other copy holds it.
    assert fig["lost"] == 0
    assert fig["rebuilt"] + fig["torn_end"] + fig["unchanged"] == fig["flipped"]
    assert fig["torn_end"] == len(range(*spans[-1])) and fig["unchanged"] == len(range(*spans[0])) + len(range(*spans[1]))


def test_a_rebuilt_move_is_the_one_played():
    data, records = game_file("kalah", seed=2)
    spans = record_spans(data)
    a, b = spans[5]
    ply = journal.parse(data, a)[2]
    recs, mended = boot(flip(data, (a + b) // 2))
    assert [p for p, _ in mended] == [ply] and mended[0][1]["rebuilt"] is True
    want = [r for r in records if r["ply"] == ply][0]
    got = [r for r in recs if r["ply"] == ply][0]
    assert (got["kind"], got["player"], got["move"], got["name"], got["rebuilt"]) == \
           (want["kind"], want["player"], want["move"], want["name"], True)
    assert [r["ply"] for r in recs] == list(range(len(records)))


# ----- through the CLI, on a virtual board ------------------------------------------------------

def _journal_file(path, records):
    """A `--journal` file holding game 1 = `records` (as the board's app appends them)."""
    ram = MemoryStorage()
    j = Journal(ram)
    j.open()
    for r in records:
        j.append(r)
    disk = FileStorage(path)
    disk.files = dict(ram.files)
    disk.save()


def _flip_in_file(path, ply, bits=0x40):
    """Flip a byte in the middle of game 1's record of `ply` in a `--journal` file (its own
    CRC made good, as a damaged flash would leave it)."""
    disk = FileStorage(path)
    data = disk.files[journal.file_name(1)]
    for a, b in record_spans(bytes(data)):
        if journal.parse(bytes(data), a)[2] == ply:
            data[(a + b) // 2] ^= bits
            break
    disk.save()


def _cli(*argv):
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
        status = cli.main(list(argv))
    return status, out.getvalue()


def test_a_damaged_move_record_is_rebuilt_said_on_the_board_and_synced(tmp_path):
    _, records = game_file("oware", seed=3)
    played = records[:9]                     # the start and 8 moves: a game in progress
    path = str(tmp_path / "j.journal")
    _journal_file(path, played)
    _flip_in_file(path, 6)                   # the third-last move
    vb = VirtualBoard(journal=path)
    port = vb.start()
    db = str(tmp_path / "a.sqlite3")
    try:
        status, said = _cli("board", "info", "--port", port, "--json")
        info = json.loads(said)
        assert info["state"]["game"] == 1 and info["state"]["ply"] == 8      # resumed, not started over
        assert info["state"]["phase"] == "error"                             # the red flashing
        assert "game 1 ply 6" in info["state"]["error"] and "rebuilt" in info["state"]["error"]
        status, said = _cli("sync", "--port", port, "--db", db)
        assert status == 0, said
        assert "9 records stored" in said and "1 game acknowledged" in said
        assert "record of ply 6 was damaged; the board rebuilt it" in said
    finally:
        vb.stop()
    with Archive(db) as arc:
        (g,) = arc.games()
        game = arc.game(g["number"])
    assert [m["move"] for m in game["moves"]] == [r["move"] for r in played[1:]]


def test_a_record_that_cannot_be_rebuilt_is_marked_lost_and_sync_exits_1(tmp_path):
    _, records = game_file("oware", seed=3)
    old = [{k: v for k, v in r.items() if k != "pd"} for r in records[:12]]   # written without digests
    # The move whose loss the records after it cannot settle (several moves fit them).
    for ply in range(len(old) - 2, 0, -1):
        st = MemoryStorage()
        j = Journal(st)
        j.open()
        for r in old:
            j.append(r)
        data = bytes(st.files[journal.file_name(1)])
        a, b = [s for s in record_spans(data) if journal.parse(data, s[0])[2] == ply][0]
        recs, mended = boot(flip(data, (a + b) // 2))
        if mended == [(ply, None)]:
            break
    else:
        pytest.fail("every damaged move was rebuilt: no case for a lost one")
    path = str(tmp_path / "j.journal")
    _journal_file(path, old)
    _flip_in_file(path, ply)
    vb = VirtualBoard(journal=path)
    port = vb.start()
    db = str(tmp_path / "a.sqlite3")
    try:
        status, said = _cli("board", "info", "--port", port, "--json")
        state = json.loads(said)["state"]
        assert state["phase"] == "error" and "game 1 ply %d" % ply in state["error"] and "lost" in state["error"]
        status, said = _cli("sync", "--port", port, "--db", db, "--json")
        report = json.loads(said)
    finally:
        vb.stop()
    assert status == 1
    assert report["damaged"] == [[1, ply, "lost"]]
    # Every intact record is stored, and acknowledged: the board can free the game once over.
    assert report["stored"] == len(old) + 1 and report["acked"] == {"1": len(old)}
    with Archive(db) as arc:
        (g,) = arc.games()
        game = arc.game(g["number"])
    assert [m["move"] for m in game["moves"]] == [r["move"] for r in old[1:ply]]   # the game stops before it
